"""The `plot` command through `main`: the profile and extension figures written to a file, bad input exits 2."""

import json

import pytest

from exactdp.cli import main


@pytest.fixture
def plt():
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    yield plt
    plt.close("all")


def _run(args, capsys):
    code = main(args)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_plot_profile_and_extension_commands(tmp_path, capsys, plt):
    def write(name, obj):
        p = tmp_path / name
        p.write_text(json.dumps(obj))
        return str(p)
    rr = write("rr.json", {"inputs": ["0", "1"], "outputs": ["0", "1"],
                           "matrix": [["exp(1)/(1 + exp(1))", "1/(1 + exp(1))"],
                                      ["1/(1 + exp(1))", "exp(1)/(1 + exp(1))"]]})
    d2 = write("d2.json", {"kind": "discrete", "points": ["0", "1"]})
    rrh = write("rrh.json", {"inputs": ["0", "4"], "outputs": ["a", "b"], "matrix": [["4/5", "1/5"], ["1/5", "4/5"]]})
    p5 = write("p5.json", {"kind": "path", "n": 5})
    h = write("h.json", ["0", "4"])
    for args in (["profile", rr, "--metric", d2], ["profile", rr, "--metric", d2, "--times", "5", "--bounds",
                                                    "--logy"],
                 ["extension", rrh, "--metric", p5, "--subset", h, "--alpha", "1/2"],
                 ["extension", rrh, "--metric", p5, "--eps", "log(2)"]):
        out = tmp_path / "f.png"
        code, _text, err = _run(["plot", *args, "-o", str(out)], capsys)
        assert code == 0 and out.read_bytes()[:4] == b"\x89PNG", (args, err)
        out.unlink()
    for args, match in ((["profile", rr], "needs MECH.json and --metric"),
                        (["profile", rr, "--metric", d2, "--bounds"], "--bounds needs --times"),
                        (["profile", rr, "--metric", d2, "--times", "0"], "--times: expected 1 <= K"),
                        (["extension", rrh, "--metric", p5], "needs --eps or --alpha")):
        code, _, err = _run(["plot", *args, "-o", str(tmp_path / "x.png")], capsys)
        assert code == 2 and match in err, (args, err)

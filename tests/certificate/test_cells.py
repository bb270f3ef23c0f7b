"""The document model's typed cells (exactdp/certificate/cells.py): each raw value becomes the cell a reader
expects, and every writer typesets it as written by hand, never as a Python repr."""

import pytest

from exactdp.certificate.cells import Flag, LabelSet, Missing, Text, cell


@pytest.mark.parametrize("raw, kind, md, tex, text", [
    ("1/2", Text, "1/2", "1/2", "1/2"),
    (["4,4", "1,2"], LabelSet, "{(4,4), (1,2)}", r"$\{(4,4), (1,2)\}$", "{(4,4), (1,2)}"),
    (True, Flag, "yes", "yes", "yes"),
    (False, Flag, "no", "no", "no"),
    (None, Missing, "-", "--", "-"),
])
def test_a_raw_value_becomes_its_typed_cell(raw, kind, md, tex, text):
    c = cell(raw)
    assert type(c) is kind
    assert (c.markdown(), c.latex(), c.plain_text()) == (md, tex, text)
    assert "True" not in c.html() and "None" not in c.html() and "[" not in c.markdown()


def test_a_typed_cell_stays_itself():
    for c in (Text("x"), Flag(True), Missing(), LabelSet(("a",))):
        assert cell(c) is c


def test_the_writers_escape_what_their_format_needs():
    t = cell("a_b & <c>")
    assert t.markdown() == "a_b & <c>" and t.html() == "a_b &amp; &lt;c&gt;"
    assert t.latex() == r"a\_b \& <c>"

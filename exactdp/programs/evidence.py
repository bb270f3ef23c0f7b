"""Evidence and worked proof of a noise program's privacy for every eps (kind ``program``, issue 28 item 5).

The definitional inputs are the program TEXT, ``n``, the input domain, the neighbour relation (a name or
explicit pairs) and the question (``all_eps``: private for every eps > 0).  The compiled matrix (entries
``N(u)/D(u)`` in ``u = e^(-eps/L)``, integer coefficients, lowest power first) is carried so that the
re-check can compare it, but the claim is about the program: the kernel (:mod:`exactdp.recheck.program`)
re-derives the matrix from the text with its own evaluator, so a matrix that is not the program's is refuted.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..privacy.evidence import Piece
from ..certificate.records import Evidence, IntMatrix, Record, evidence_kind
from ..certificate.render import Proof, Step, renderer

__all__ = ["ProgramEvidence", "ProgramWitness"]


@dataclass(frozen=True)
class ProgramWitness(Record):
    """A neighbour pair and an output where the program's privacy fails; ``u`` a rational ``e^(-eps/L)``.

    Parameters
    ----------
    x, x_prime : str
        The two inputs (row labels).
    output : str
        The output label.
    u : str
        A rational ``u = e^(-eps/L)`` in ``(0, 1)`` where ``K_x(z) > e^eps K_x'(z)`` (``"-"`` when the output
        is impossible on ``x_prime``: then it fails for every eps).

    Examples
    --------
    >>> ProgramWitness("0,0", "1,1", "0", "1/2").to_json()["u"]
    '1/2'
    """

    x: str
    x_prime: str
    output: str
    u: str


@evidence_kind("program", checker="exactdp.programs.check:program_certificate")
@dataclass(frozen=True)
class ProgramEvidence(Evidence):
    """A noise program, its inputs and relation, its compiled matrix in ``u = e^(-eps/L)``, and the verdict's witness.

    Parameters
    ----------
    name : str
        The program's name.
    text : str
        The program text (the definitional input; the matrix is re-derived from it).
    n : int
        Number of queries.
    domain : list of int
        ``[lo, hi]``: every query answer ranges over ``lo..hi``.
    relation : str
        ``all-differ``, ``one-differ``, ``increasing``, ``decreasing`` or ``pairs``.
    pairs : list or None
        The explicit pairs ``[[x, x'], ...]`` when ``relation`` is ``pairs``.
    question : str
        ``all_eps`` (private for every eps > 0), ``at_level`` or ``cost`` (see ``level``).
    base_power : int
        ``L``: every noise base is a power of ``u = e^(-eps/L)``.
    inputs, outputs : list of str
        Row and column labels.
    values : list
        Distinct entries ``[numerator, denominator]``, each a list of integer coefficients (text, lowest power
        of ``u`` first).
    codes : IntMatrix
        ``codes[i][j]`` indexes ``values`` for input ``i``, output ``j``.
    never : bool
        The witness's output is impossible on ``x_prime`` and possible on ``x``: not private for any eps.
    witness : ProgramWitness or None
        Where it fails (``None`` when it holds); for ``cost``, the pair and output attaining the smallest eps.
    level : str or None
        ``eps0`` (a positive rational, or ``log(R)`` for a rational ``alpha = 1/R`` whose ``L``-th root is
        rational) for the questions ``at_level`` (private at ``eps0``, the noise calibrated to ``eps0``) and
        ``cost`` (the smallest eps of the program with its noise at ``eps0``).
    epsilon : str or None
        For ``cost``: the smallest eps, exact (``log(R)`` with ``R`` the witness's ratio, or ``inf``).
    failure_set : list of Piece or None
        For ``all_eps`` when it fails: the exact set of ``u = e^(-eps/L)`` in (0, 1) where it fails, as intervals
        and points with exact ends (rationals, or a polynomial's only root in an isolating interval), the
        ``all_eps`` kind's pieces; the kernel re-derives it from the program text (``(0, 1)`` for ``never``).
    failure_set_text : str or None
        The same union, as text.
    form : str
        How the claim is proved.  ``matrix``: on the compiled matrix carried.  ``product``: the program's
        iterations are independent and every neighbour pair differs in one coordinate
        (:mod:`exactdp.programs.product`); the carried matrix is the single iteration's, ``K_1`` (rows the domain's
        values), the claim about the program at ``n`` follows by the product lemma, and the witness is ``K_1``'s
        lifted to ``n`` (every other coordinate padded with an output positive on all of ``(0, 1)``).  ``linear``:
        the program only looks at noisy linear queries ``Y_k = L_k(x) + Z_k`` and ``sum_k |L_k d| / b_k <= 1`` on
        every pair (:mod:`exactdp.programs.linear`): private for every eps, no matrix carried.
    noise_forms : list or None
        For ``linear``: ``[site, iteration, c_1, ..., c_n]`` for each noise with a non-zero form ``L_k``, in
        increasing ``(site, iteration)`` order (the ``site``-th noise assignment of the text, the loop's
        ``iteration``, 0 outside it).

    Examples
    --------
    >>> from exactdp.programs import parse_program
    >>> from exactdp.programs.check import program_certificate
    >>> c = program_certificate(parse_program("z = dlap(1)\\noutput clamp(q[1] + z, 0, 1)\\n", "p"), n=1,
    ...                         domain=(0, 1), form="matrix")
    >>> c.evidence.values, c.verdict.value
    ([[['1'], ['1', '1']], [['0', '1'], ['1', '1']]], 'holds')
    """

    name: str
    text: str
    n: int
    domain: list[int]
    relation: str
    pairs: list[list[list[int]]] | None
    question: str
    base_power: int
    inputs: list[str]
    outputs: list[str]
    values: list[list[list[str]]]
    codes: IntMatrix
    never: bool
    witness: ProgramWitness | None
    level: str | None = None
    epsilon: str | None = None
    failure_set: list[Piece] | None = None
    failure_set_text: str | None = None
    form: str = "matrix"
    noise_forms: list[list[int]] | None = None

    _nested: ClassVar[dict[str, type]] = {"witness": ProgramWitness, "failure_set": Piece}

    @classmethod
    def example(cls):
        """A small genuine ``program`` certificate (test tables and docs derive from it).

        Examples
        --------
        >>> ProgramEvidence.example().kind
        'program'
        """
        from exactdp.programs import parse_program
        from exactdp.programs.check import program_certificate
        prog = parse_program("s = q[1] + q[2]\nz = dlap(1)\noutput clamp(s + z, 0, 2)\n", "sum")
        return program_certificate(prog, n=2, domain=(0, 1), relation="all-differ")


@renderer("program")
def _program_proof(cert) -> Proof:
    ev: ProgramEvidence = cert.evidence
    L = ev.base_power
    size = (f"{len(ev.inputs)} values per query, {len(ev.outputs)} outputs per iteration" if ev.form == "product"
            else "no matrix (noisy linear queries)" if ev.form == "linear"
            else f"{len(ev.inputs)} inputs, {len(ev.outputs)} outputs")
    steps = [
        Step("The program", f"Program `{ev.name}` on inputs in ${ev.domain[0]}..{ev.domain[1]}$ with $n = {ev.n}$ "
             f"queries, relation {ev.relation}: {size}. Every noise base is a power of "
             f"$u = e^{{-\\varepsilon/{L}}}$."),
        Step("Its exact output distribution", "Each output probability is a rational function of $u$, summed in "
             "closed form over the noise (nothing truncated); the re-check re-derives every entry from the program "
             f"text with its own evaluator ({len(ev.values)} distinct entries)."),
    ]
    _form_steps(ev, steps)
    if cert.verdict.value == "holds" and ev.form != "linear":
        steps.append(Step("Every eps", f"For every neighbour pair $(x, x')$ (both orders) and output $z$, "
                          f"$K_{{x'}}(z) - u^{{{L}}} K_x(z) \\ge 0$ on $(0, 1)$ (Sturm root isolation), i.e. "
                          "$K_x(z) \\le e^{\\varepsilon} K_{x'}(z)$ for every $\\varepsilon > 0$."))
    elif ev.witness is not None and ev.never:
        steps.append(Step("Never private", f"Output {ev.witness.output} has probability 0 on "
                          f"{ev.witness.x_prime} for every eps and positive probability on {ev.witness.x}."))
    elif ev.witness is not None:
        steps.append(Step("A failure", f"At $u = {ev.witness.u}$ ($\\varepsilon = {L} \\log(1/u)$) output "
                          f"{ev.witness.output} has $K_{{{ev.witness.x}}}(z) > e^{{\\varepsilon}} "
                          f"K_{{{ev.witness.x_prime}}}(z)$."))
    if ev.failure_set_text is not None and not ev.never:
        steps.append(Step("The exact failure set", f"It fails exactly for $u = e^{{-\\varepsilon/{L}}}$ in "
                          f"{ev.failure_set_text}: outside it every inequality holds, at each end some constraint "
                          "polynomial vanishes, inside each piece one fails throughout (the kernel re-derives it)."))
    concl = cert.claim + "."
    summary = [("program", ev.name), ("inputs", str(len(ev.inputs))), ("outputs", str(len(ev.outputs)))]
    if ev.form == "linear":
        summary[1:] = [("form", "noisy linear queries (post-processing)")]
    if ev.form == "product":
        summary[1:] = [("values per query", str(len(ev.inputs))), ("outputs per iteration", str(len(ev.outputs))),
                       ("form", f"product of {ev.n} independent iterations")]
    if ev.epsilon is not None:
        summary.append(("epsilon", ev.epsilon))
    if ev.witness is not None:
        w = ev.witness
        summary.append(("witness", f"x = {w.x}, x' = {w.x_prime}, output {w.output}"
                        + ("" if w.u == "-" else f", u = e^(-eps/{L}) = {w.u}")))
    return Proof(r"\forall \varepsilon > 0:\ K_x(z) \le e^{\varepsilon} K_{x'}(z)", steps, concl, summary)


def _form_steps(ev, steps: list) -> None:
    """The steps of the product and linear forms (the lemma each rests on), in place."""
    if ev.form == "linear":
        forms = ", ".join(f"$L_{{({f[0]},{f[1]})}} = ({', '.join(map(str, f[2:]))})$" for f in ev.noise_forms or [])
        steps[1] = Step("Noisy linear queries", "Name every noise the program may draw $Z_k$, $k$ = (its assignment's "
                        "place in the text, the loop's iteration), and pair it with an integer linear form $L_k$ of "
                        f"the inputs: {forms or 'all zero'} (the others 0). Run with the inputs and noises as "
                        "unknowns, every value the program compares or releases is $\\sum_k B_k (L_k(x) + Z_k) + c$, "
                        "so its path and outputs are a function of $Y = L x + Z$: a post-processing of $Y$, drawn "
                        "in advance (Dwork and Roth 2014, Prop. 2.1).")
        steps.append(Step("The discrete Laplace bound", "For $Z_k \\sim \\mathrm{DLap}(b_k/\\varepsilon)$, "
                          "$P(Z_k = y - L_k x) \\le e^{\\varepsilon |L_k (x - x')| / b_k} P(Z_k = y - L_k x')$, and "
                          "one-sided noises are not shifted; on every neighbour pair "
                          "$\\sum_k |L_k (x - x')| / b_k \\le 1$, so every output set has "
                          "$P_x \\le e^{\\varepsilon} P_{x'}$ for every $\\varepsilon > 0$."))
    if ev.form == "product":
        steps.append(Step("Independent iterations", f"The program is one loop whose body draws its own noise, keeps "
                          "no state from one iteration to the next, reads only the current query and outputs one "
                          f"item on every run: on input $x$ it releases {ev.n} independent runs of the program at "
                          "$n = 1$, $K_n(x)(z) = \\prod_j K_1(x_j)(z_j)$. Every neighbour pair differs in one "
                          "coordinate $j$, where the other factors are equal on both sides (both 0, or they cancel), "
                          "so each claim below is $K_1$'s on the value pairs $(x_j, x'_j)$: the matrix carried is "
                          "$K_1$'s, and a witness's other coordinates carry outputs positive on all of $(0, 1)$."))

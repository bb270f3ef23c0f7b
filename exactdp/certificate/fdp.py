"""Evidence and worked proof of an exact f-DP trade-off function and a Gaussian-DP ``mu`` bracket (kind ``fdp``).

DRS22 Sec. 2.1: the trade-off function ``T(P, Q)`` of two distributions on a finite set is piecewise linear
through ``(P(S_k), 1 - Q(S_k))``, ``S_k`` adding the outputs in increasing likelihood ratio ``P/Q`` (Neyman--
Pearson); the tightest ``f`` with the mechanism (composed ``times`` times: the exact ``times``-fold privacy-loss
distribution of each ordered pair) f-DP over a neighbour relation is the lower convex hull of every ordered
pair's vertices (the symmetrisation of DRS22 Prop. 2.4).  DRS22 Sec. 2.2: ``G_mu(a) = Phi(Phi^-1(1 - a) - mu)``;
``f >= G_mu`` holds iff it holds at the vertices (``f`` is linear between them and ``G_mu`` convex), so the
smallest ``mu`` is ``max_i Phi^-1(1 - a_i) - Phi^-1(f(a_i))`` over the interior vertices -- transcendental in
general, stated as a bracket ``[lo, hi]`` with rational ends: ``f >= G_hi`` holds, and (``lo > 0``) the stated
vertex has ``f(a) < G_lo(a)``.

The evidence carries the mechanism, the relation, ``times``, the vertices (with an ordered pair whose trade-off
function passes through each), the bracket and, when asked, a ``mu`` whose ``f >= G_mu`` is the verdict.  The
re-check is :mod:`exactdp.recheck.fdp`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from .common import MechanismData
from .privacy import tex
from .profile import Relation
from .records import Evidence, Record, evidence_kind
from .render import Proof, Step, renderer

__all__ = ["FdpEvidence", "MuBracket", "TradeOffVertex", "fdp_claim"]


@dataclass(frozen=True)
class TradeOffVertex(Record):
    """A vertex ``(a, f(a))`` of the trade-off function; the ordered pair ``(x, x_prime)`` passes through it.

    Parameters
    ----------
    a : str
        The type I error, exact.
    b : str
        ``f(a)``, exact.
    x : str
        The first input of the pair.
    x_prime : str
        The second input of the pair.

    Examples
    --------
    >>> TradeOffVertex(a="1/4", b="1/4", x="0", x_prime="1").to_json()
    {'a': '1/4', 'b': '1/4', 'x': '0', 'x_prime': '1'}
    """

    a: str
    b: str
    x: str
    x_prime: str


@dataclass(frozen=True)
class MuBracket(Record):
    """``lo <= mu* <= hi``, the smallest Gaussian-DP ``mu``, with the vertex attaining it.

    ``hi`` None: no finite ``mu``; ``exact`` when ``lo = hi = mu* = 0``; the vertex ``(a, b)`` attains the maximum
    (or shows that no finite ``mu`` exists).

    Parameters
    ----------
    lo : str
        The lower end, a rational.
    hi : str or None
        The upper end, a rational; None: no finite ``mu``.
    exact : bool
        Whether ``lo = hi = mu*``.
    a : str or None
        The vertex's type I error.
    b : str or None
        The vertex's type II error.

    Examples
    --------
    >>> MuBracket(lo="0", hi="0", exact=True, a=None, b=None).exact
    True
    """

    lo: str
    hi: str | None
    exact: bool
    a: str | None
    b: str | None


@evidence_kind("fdp")
@dataclass(frozen=True)
class FdpEvidence(Evidence):
    """The tightest trade-off function of a mechanism (composed ``times`` times) and its Gaussian-DP bracket.

    Parameters
    ----------
    mechanism : MechanismData
        The mechanism.
    relation : Relation
        The neighbour relation.
    times : int
        How many independent runs are composed.
    vertices : list of TradeOffVertex
        The vertices of the trade-off function, by increasing ``a``.
    mu : MuBracket
        The smallest Gaussian-DP ``mu``, bracketed.
    mu_query : str or None
        A ``mu`` asked about (``f >= G_mu``).

    Examples
    --------
    >>> from exactdp.theory.fdp import certify_fdp
    >>> from exactdp.mechanisms import randomized_response
    >>> ev = certify_fdp(randomized_response(2, p="1/4"), [("0", "1")]).evidence
    >>> ev.times, [(v.a, v.b) for v in ev.vertices]
    (1, [('0', '1'), ('1/4', '1/4'), ('1', '0')])
    """

    mechanism: MechanismData
    relation: Relation
    times: int
    vertices: list  # of TradeOffVertex records (item type in _nested)
    mu: MuBracket
    mu_query: str | None

    _nested: ClassVar[dict[str, type]] = {"mechanism": MechanismData, "relation": Relation, "vertices": TradeOffVertex,
                                          "mu": MuBracket}


def _who(ev) -> str:
    return ev.mechanism.name + ("" if ev.times == 1 else f" composed {ev.times} times")


def fdp_claim(ev: FdpEvidence) -> str:
    """The claim sentence of an ``fdp`` certificate, built from its evidence.

    (:func:`exactdp.recheck.fdp.claim_text` rebuilds it independently from the JSON.)

    Parameters
    ----------
    ev : FdpEvidence
        The certificate's evidence.

    Returns
    -------
    str
        The claim sentence.

    Examples
    --------
    >>> from exactdp.theory.fdp import certify_fdp
    >>> from exactdp.mechanisms import randomized_response
    >>> c = certify_fdp(randomized_response(2, p="1/4"), [("0", "1")])
    >>> fdp_claim(c.evidence) == c.claim, c.claim.split("; ")[0].endswith("has vertices (0, 1), (1/4, 1/4), (1, 0)")
    (True, True)
    """
    verts = ", ".join(f"({v.a}, {v.b})" for v in ev.vertices)
    mu = ev.mu
    if mu.hi is None:
        tail = "no finite Gaussian-DP mu exists"
    elif mu.exact:
        tail = f"the smallest Gaussian-DP mu is {mu.lo}"
    else:
        tail = f"the smallest Gaussian-DP mu is in [{mu.lo}, {mu.hi}]"
    out = f"the tightest f with {_who(ev)} f-DP over the {ev.relation.description} has vertices {verts}; {tail}"
    if ev.mu_query is not None:
        out += f"; f >= G_mu at mu = {ev.mu_query}"
    return out


@renderer("fdp")
def _proof(cert) -> Proof:
    ev = cert.evidence
    rel, mu = ev.relation, ev.mu
    steps = [Step("Definition", "DRS22 Sec. 2.1: $T(P, Q)(a) = \\inf\\{\\beta_\\phi : \\alpha_\\phi \\le a\\}$; the "
                  "mechanism is $f$-DP iff $T(K(x), K(x')) \\ge f$ for every ordered pair of neighbours (DRS22 "
                  "Def. 2.3)."),
             Step("The neighbour relation", f"The {rel.description}: {len(rel.pairs)} unordered pairs, both orders "
                  "used (DRS22 Prop. 2.4)."),
             Step("Trade-off functions", "By Neyman--Pearson, $T(P, Q)$ is piecewise linear through $(P(S_k), 1 - "
                  "Q(S_k))$, $S_k$ adding the outputs in increasing $P/Q$" + (
                      "" if ev.times == 1 else f", here for the exact {ev.times}-fold product distributions "
                      "(the convolved privacy-loss distribution of each pair)") + "; the tightest $f$ is the lower "
                  "convex hull of all pairs' vertices: " + "; ".join(
                      f"$f({tex(v.a)}) = {tex(v.b)}$ (pair $({v.x}, {v.x_prime})$)" for v in ev.vertices[:20])
                  + (f" ({len(ev.vertices) - 20} more in the evidence)" if len(ev.vertices) > 20 else "") + ".")]
    summary: list[tuple[str, str | None]] = [("relation", rel.description), ("vertices", str(len(ev.vertices)))]
    gdp = ("DRS22 Sec. 2.2: $G_\\mu(a) = \\Phi(\\Phi^{-1}(1 - a) - \\mu)$ is convex and $f$ linear between its "
           "vertices, so $f \\ge G_\\mu$ iff it holds at the vertices, i.e. $\\mu \\ge \\mu_i = \\Phi^{-1}(1 - a_i) - "
           "\\Phi^{-1}(f(a_i))$ at every interior vertex. ")
    if mu.hi is None:
        gdp += (f"At the vertex $({tex(mu.a or '')}, {tex(mu.b or '')})$ no finite $\\mu$ works ($G_\\mu(0) = 1$ and "
                "$G_\\mu(a) > 0$ for $a < 1$).")
        summary.append(("Gaussian DP", "no finite mu"))
    elif mu.exact:
        gdp += "Every interior vertex has $f(a) = 1 - a$ exactly, so $\\mu^* = 0$."
        summary.append(("Gaussian DP", "mu = 0 exactly"))
    else:
        gdp += (f"Enclosing each $\\mu_i$ with certified balls: $\\mu^* \\in [{tex(mu.lo)}, {tex(mu.hi)}]$ "
                f"($f \\ge G_{{{tex(mu.hi)}}}$ at every vertex" + (
                    f"; $f < G_{{{tex(mu.lo)}}}$ at $({tex(mu.a or '')}, {tex(mu.b or '')})$" if mu.lo != "0" else "")
                + ").")
        summary.append(("Gaussian DP", f"mu* in [{mu.lo}, {mu.hi}]"))
    steps.append(Step("Gaussian DP", gdp))
    if ev.mu_query is not None:
        rel_s = "holds" if cert.holds is True else "fails"
        steps.append(Step("At the requested mu", f"$f \\ge G_{{{tex(ev.mu_query)}}}$ {rel_s} (every vertex "
                          "compared with certified balls)."))
        summary.append((f"f >= G_{ev.mu_query}", rel_s))
    concl = cert.claim + "." if ev.mu_query is None else \
        f"{'Holds' if cert.holds is True else 'Fails'}: f >= G_mu at mu = {ev.mu_query}."
    return Proof("f = \\text{lower hull}_{x \\sim x'} T(K(x), K(x'))", steps, concl, summary)

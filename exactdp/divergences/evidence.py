"""Evidence and worked proof of an exact Rényi-DP curve (kind ``renyi``).

[Mir17] Def. 3: at an integer order ``alpha >= 2`` the Rényi divergence of two distributions on a finite set is
``D_alpha(P || Q) = log(S)/(alpha - 1)`` with ``S = sum_y P(y)^alpha Q(y)^(1 - alpha)`` -- an exact number of the
kernel (rational for rational entries, an exponential-polynomial quotient at a transcendental level), ``+inf``
when some ``Q(y) = 0 < P(y)``.  A mechanism is ``(alpha, rho)``-RDP over a neighbour relation with ``rho`` the
largest divergence over ordered neighbouring pairs ([Mir17] Def. 4).  [Mir17] Prop. 3 converts: the curve gives
``(eps, delta)``-DP with ``eps = min_alpha log(S_alpha/delta)/(alpha - 1)``.

The evidence carries the mechanism, the relation (the metric it comes from, or the given list), per order the
sum ``S``, the divergence written from it and the ordered pair attaining the maximum, and the conversion when a
``delta`` was given.  The re-check is :mod:`exactdp.recheck.renyi`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..certificate.common import MechanismData
from ..privacy.evidence import tex
from ..composition.evidence import Relation
from ..certificate.records import Evidence, Record, evidence_kind
from ..certificate.render import Proof, Step, renderer

__all__ = [
    "FdpEvidence",
    "MuBracket",
    "RDPConversionData",
    "RenyiEvidence",
    "RenyiOrder",
    "TradeOffVertex",
    "fdp_claim",
    "renyi_claim",
]


@dataclass(frozen=True)
class RenyiOrder(Record):
    """``rho(alpha) = log(S)/(alpha - 1)`` (``"inf"``: some ``Q(y) = 0 < P(y)``), attained by ``(x, x_prime)``.

    Parameters
    ----------
    order : int
        The order ``alpha``.
    sum : str
        ``S = sum_y P(y)^alpha Q(y)^(1 - alpha)``, exact.
    value : str
        ``rho(alpha)``, exact.
    x : str
        The first input of the attaining pair.
    x_prime : str
        The second input of the attaining pair.

    Examples
    --------
    >>> RenyiOrder(order=2, sum="5/4", value="log(5/4)", x="0", x_prime="1").value
    'log(5/4)'
    """

    order: int
    sum: str
    value: str
    x: str
    x_prime: str


@dataclass(frozen=True)
class RDPConversionData(Record):
    """[Mir17] Prop. 3 at ``delta``: the smallest ``eps = log(S_alpha/delta)/(alpha - 1)`` over the orders.

    It is taken at the first order attaining it.

    Parameters
    ----------
    delta : str
        The ``delta`` of the conversion.
    order : int
        The first order attaining the smallest ``eps``.
    epsilon : str
        That ``eps``, exact.

    Examples
    --------
    >>> RDPConversionData(delta="1/2", order=2, epsilon="log(5/2)").order
    2
    """

    delta: str
    order: int
    epsilon: str


@evidence_kind("renyi", checker="exactdp.divergences.renyi:certify_renyi")
@dataclass(frozen=True)
class RenyiEvidence(Evidence):
    """The exact RDP curve of one mechanism at integer orders over a neighbour relation ([Mir17] Defs. 3-4).

    Parameters
    ----------
    mechanism : MechanismData
        The mechanism.
    relation : Relation
        The neighbour relation.
    orders : list of RenyiOrder
        ``rho(alpha)`` per order.
    conversion : RDPConversionData or None
        The conversion to ``(eps, delta)``-DP, when a ``delta`` was given.

    Examples
    --------
    >>> from exactdp.divergences.renyi import certify_renyi
    >>> from exactdp.mechanisms import generalized_rr
    >>> from exactdp.metrics import discrete
    >>> ev = certify_renyi(generalized_rr(3, eps="log(2)"), discrete(3), [2, 3]).evidence
    >>> [o.order for o in ev.orders], ev.conversion is None
    ([2, 3], True)
    """

    mechanism: MechanismData
    relation: Relation
    orders: list  # of RenyiOrder records (item type in _nested)
    conversion: RDPConversionData | None

    _nested: ClassVar[dict[str, type]] = {"mechanism": MechanismData, "relation": Relation, "orders": RenyiOrder,
                                          "conversion": RDPConversionData}

    @classmethod
    def example(cls):
        """A small genuine ``renyi`` certificate (test tables and docs derive from it).

        Examples
        --------
        >>> RenyiEvidence.example().kind
        'renyi'
        """
        from exactdp.divergences.renyi import certify_renyi
        from exactdp.mechanisms import geometric
        from exactdp.metrics import path
        return certify_renyi(geometric(2, "1/3"), path(3), [2, 3], delta="1/100")


def renyi_claim(ev: RenyiEvidence) -> str:
    """The claim sentence of a ``renyi`` certificate, built from its evidence.

    (:func:`exactdp.recheck.renyi.claim_text` rebuilds it independently from the JSON.)

    Parameters
    ----------
    ev : RenyiEvidence
        The certificate's evidence.

    Returns
    -------
    str
        The claim sentence.

    Examples
    --------
    >>> from exactdp.divergences.renyi import certify_renyi
    >>> from exactdp.mechanisms import generalized_rr
    >>> from exactdp.metrics import discrete
    >>> c = certify_renyi(generalized_rr(3, eps="log(2)"), discrete(3), [2, 3])
    >>> renyi_claim(c.evidence) == c.claim, c.claim.endswith("is rho(2) = log(11/8), rho(3) = log(37/16)/2")
    (True, True)
    """
    curve = ", ".join(f"rho({o.order}) = {o.value}" for o in ev.orders)
    out = f"the RDP curve of {ev.mechanism.name} over the {ev.relation.description} is {curve}"
    if ev.conversion is not None:
        cv = ev.conversion
        out += f"; by Mironov's conversion it is (eps, delta)-DP with eps = {cv.epsilon}, delta = {cv.delta}"
    return out


@renderer("renyi")
def _proof(cert) -> Proof:
    ev = cert.evidence
    rel = ev.relation
    steps = [Step("Definition", "Mir17 Def. 3: at an integer order $\\alpha \\ge 2$, $D_\\alpha(P \\| Q) = "
                  "\\frac{1}{\\alpha - 1} \\log S$ with $S = \\sum_y P(y)^\\alpha Q(y)^{1-\\alpha}$ ($+\\infty$ when "
                  "$Q(y) = 0 < P(y)$ for some $y$); Mir17 Def. 4: the mechanism is $(\\alpha, \\rho)$-RDP with "
                  "$\\rho(\\alpha) = \\max_{x \\sim x'} D_\\alpha(K(x) \\| K(x'))$ over ordered neighbouring pairs."),
             Step("The neighbour relation", f"The {rel.description}: {len(rel.pairs)} unordered pairs, so "
                  f"{2 * len(rel.pairs)} ordered pairs.")]
    lines = []
    summary: list[tuple[str, str | None]] = [("relation", rel.description)]
    for o in ev.orders:
        s = "+\\infty" if o.sum == "inf" else tex(o.sum)
        v = "+\\infty" if o.value == "inf" else tex(o.value)
        lines.append(f"$\\alpha = {o.order}$: the largest sum is $S = {s}$, attained by $({o.x}, {o.x_prime})$, so "
                     f"$\\rho({o.order}) = {v}$")
        summary.append((f"rho({o.order})", f"{o.value} (S = {o.sum}, pair ({o.x}, {o.x_prime}))"))
    steps.append(Step("The sums", "Each sum is computed exactly for every ordered pair and the largest kept "
                      "(exact comparisons): " + "; ".join(lines) + "."))
    if ev.conversion is not None:
        cv = ev.conversion
        eps_tex = "+\\infty" if cv.epsilon == "inf" else tex(cv.epsilon)
        steps.append(Step("Conversion to (eps, delta)", "Mir17 Prop. 3: $(\\alpha, \\rho)$-RDP implies "
                          "$(\\rho + \\frac{\\log(1/\\delta)}{\\alpha - 1}, \\delta)$-DP, i.e. $\\varepsilon_\\alpha = "
                          "\\frac{1}{\\alpha - 1}\\log(S_\\alpha / \\delta)$; the smallest over the orders (compared "
                          "exactly through $(S_a/\\delta)^{b-1}$ against $(S_b/\\delta)^{a-1}$) is at "
                          f"$\\alpha = {cv.order}$: $\\varepsilon = {eps_tex}$"
                          f" at $\\delta = {tex(cv.delta)}$. It is an upper bound on the exact smallest eps at this "
                          "delta (the exact profile gives that one)."))
        summary.append(("conversion", f"eps = {cv.epsilon} at delta = {cv.delta} (order {cv.order})"))
    return Proof("\\rho(\\alpha) = \\max_{x \\sim x'} \\frac{1}{\\alpha - 1} \\log \\sum_y K(x)(y)^\\alpha "
                 "K(x')(y)^{1 - \\alpha}", steps, cert.claim + ".", summary)



# ----------------------------------------------------------------------------------------------------
# Evidence and worked proof of an exact f-DP trade-off function and a Gaussian-DP ``mu`` bracket (kind ``fdp``).
#
# DRS22 Sec. 2.1: the trade-off function ``T(P, Q)`` of two distributions on a finite set is piecewise linear
# through ``(P(S_k), 1 - Q(S_k))``, ``S_k`` adding the outputs in increasing likelihood ratio ``P/Q`` (Neyman--
# Pearson); the tightest ``f`` with the mechanism (composed ``times`` times: the exact ``times``-fold privacy-loss
# distribution of each ordered pair) f-DP over a neighbour relation is the lower convex hull of every ordered


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


@evidence_kind("fdp", checker="exactdp.divergences.fdp:certify_fdp")
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
    >>> from exactdp.divergences.fdp import certify_fdp
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

    @classmethod
    def example(cls):
        """A small genuine ``fdp`` certificate (test tables and docs derive from it).

        Examples
        --------
        >>> FdpEvidence.example().kind
        'fdp'
        """
        from exactdp.divergences.fdp import certify_fdp
        from exactdp.mechanisms import geometric
        from exactdp.metrics import path
        return certify_fdp(geometric(2, "1/3"), path(3), mu="3/2")


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
    >>> from exactdp.divergences.fdp import certify_fdp
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
def _proof_fdp(cert) -> Proof:
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

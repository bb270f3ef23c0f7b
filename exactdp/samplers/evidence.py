"""Evidence and worked proof of the privacy of a sampler's additive mechanism (kind ``sampler_privacy``, issue 30).

The mechanism is ``M(x) = x + Z`` on the integers, ``Z`` drawn by a sampler's own Python code.  The evidence
carries what the exploration of that code found (:func:`exactdp.samplers.law`): per noise value ``z`` of the
explored range ``LO..HI`` an exact enclosure ``[lo_z, hi_z]`` of ``P[Z = z]``, the mass found outside the range
and the residual (the probability of the paths not finished).  Those are *definitional inputs taken on trust*:
they come from running code, which the kernel cannot re-run.  Given them, every other number is re-derived by the
kernel (:mod:`exactdp.recheck.sampler`) exactly, with fractions:

* ``R = max hi_z / lo_{z-d}`` over shifts ``0 < |d| <= s`` (``s`` the sensitivity, at most the width of the input
  range) and ``z``, ``z - d`` in the range with ``lo_{z-d} > 0``;
* ``delta = max_d (1 - sum_{z in G_d} lo_z)``, ``G_d`` those ``z``: the tails, the residual and the values with
  a zero lower bound, bounded by what was not found on ``G_d``;
* ``L = max lo_z / hi_{z-d}`` (``hi_{z-d} > 0``): the pure eps of the code is at least ``log L``.

For every set ``S``, ``P[M(x) in S] <= R P[M(x') in S] + delta`` for neighbours ``|x - x'| <= s``, so the code
is ``(log R, delta)``-DP (Dwork and Roth 2014, Def. 2.4, with the additive-mechanism argument of their Thm 3.6).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..privacy.evidence import tex
from ..certificate.records import Evidence, Record, evidence_kind
from ..certificate.render import Proof, Step, renderer

__all__ = ["SamplerInterval", "SamplerPair", "SamplerPrivacyEvidence", "sampler_claim"]


@dataclass(frozen=True)
class SamplerInterval(Record):
    """The explored enclosure ``lo <= P[Z = value] <= hi`` of one noise value.

    Parameters
    ----------
    value : int
        The noise value.
    lo, hi : str
        Exact rationals.

    Examples
    --------
    >>> SamplerInterval(value=0, lo="1/2", hi="3/4").to_json()
    {'value': 0, 'lo': '1/2', 'hi': '3/4'}
    """

    value: int
    lo: str
    hi: str


@dataclass(frozen=True)
class SamplerPair(Record):
    """The noise value ``z`` and shift ``d`` attaining a ratio bound (``p(z)`` against ``p(z - d)``).

    Parameters
    ----------
    z, shift : int
        The pair.

    Examples
    --------
    >>> SamplerPair(z=1, shift=1).to_json()
    {'z': 1, 'shift': 1}
    """

    z: int
    shift: int


@evidence_kind("sampler_privacy", checker="exactdp.samplers.privacy:certify_sampler_privacy")
@dataclass(frozen=True)
class SamplerPrivacyEvidence(Evidence):
    """The (eps, delta) of ``x + Z`` given the explored law of the sampler drawing ``Z``.

    Parameters
    ----------
    sampler : str
        What was run: ``FILE:FUNCTION(args)`` (its name only; the kernel cannot re-run it).
    support : list of int
        ``[LO, HI]``: the explored noise range.
    inputs : list of int
        ``[a, b]``: the inputs ``x`` asked about.
    sensitivity : int
        Neighbouring inputs differ by at most this.
    intervals : list of SamplerInterval
        One per value ``LO..HI`` in order (definitional, trusted).
    outside : str
        The mass found on values outside the range (definitional, trusted).
    residual : str
        The probability of the paths not finished (definitional, trusted): ``hi = lo + residual``.
    ratio : str
        ``R``; ``at`` attains it.
    at : SamplerPair
        The first pair (shifts ``1, -1, 2, -2, ...``, then ``z`` increasing) attaining ``R``.
    ratio_lower : str or None
        ``L``: some ratio ``p(z) / p(z - d)`` is at least this (None: no pair has ``hi > 0``).
    delta : str
        The exact delta.
    eps_asked, delta_asked : str or None
        The question "(eps, delta)-DP?" (both or neither).

    Examples
    --------
    >>> from exactdp.samplers import law
    >>> from exactdp.samplers.privacy import certify_sampler_privacy
    >>> c = certify_sampler_privacy(law(lambda rng: rng.randrange(3) - rng.randrange(3)), (-2, 2), name="tri")
    >>> c.evidence.ratio, c.evidence.delta, c.evidence.at.to_json()
    ('2', '1/9', {'z': -1, 'shift': 1})
    """

    sampler: str
    support: list[int]
    inputs: list[int]
    sensitivity: int
    intervals: list[SamplerInterval]
    outside: str
    residual: str
    ratio: str
    at: SamplerPair
    ratio_lower: str | None
    delta: str
    eps_asked: str | None
    delta_asked: str | None

    _nested: ClassVar[dict[str, type]] = {"intervals": SamplerInterval, "at": SamplerPair}

    @classmethod
    def example(cls):
        """A small genuine ``sampler_privacy`` certificate (test tables and docs derive from it).

        Examples
        --------
        >>> SamplerPrivacyEvidence.example().kind
        'sampler_privacy'
        """
        from exactdp.samplers import cks20, law
        from exactdp.samplers.privacy import certify_sampler_privacy
        from fractions import Fraction
        L = law(cks20.dlaplace, [Fraction(3, 2)], summarise=cks20.SUMMARISE, depth=30,
                tol=Fraction(1, 10**9), bits=64)
        return certify_sampler_privacy(L, (-3, 3), name="cks20.dlaplace(3/2)", eps="log(4)",
                                       delta="1/2", sensitivity=2, inputs=(0, 5))


def sampler_claim(ev: SamplerPrivacyEvidence) -> str:
    """The claim sentence of a ``sampler_privacy`` certificate, built from its evidence.

    (:func:`exactdp.recheck.sampler.claim_text` rebuilds it independently from the JSON.)

    Parameters
    ----------
    ev : SamplerPrivacyEvidence
        The evidence.

    Returns
    -------
    str
        The claim sentence.

    Examples
    --------
    >>> from exactdp.samplers import law
    >>> from exactdp.samplers.privacy import certify_sampler_privacy
    >>> c = certify_sampler_privacy(law(lambda rng: rng.randrange(2)), (0, 1), name="coin")
    >>> sampler_claim(c.evidence) == c.claim, c.claim[:60]
    (True, 'given the intervals [lo, hi] of P[Z = z] for z in 0..1 (mass')
    """
    lo, hi = ev.support
    a, b = ev.inputs
    head = (f"given the intervals [lo, hi] of P[Z = z] for z in {lo}..{hi} (mass found outside {ev.outside}, "
            f"residual {ev.residual}) found by running {ev.sampler} -- taken on trust: the kernel does not re-run "
            f"the code -- the additive mechanism x + Z over inputs x in {a}..{b}, neighbours at distance "
            f"<= {ev.sensitivity}, is (eps, delta)-DP with eps = log({ev.ratio}), delta = {ev.delta}")
    low = "" if ev.ratio_lower is None else f"; its pure eps is at least log({ev.ratio_lower})"
    ask = "" if ev.eps_asked is None else (f"; the question: (eps, delta)-DP at eps = {ev.eps_asked}, "
                                                f"delta = {ev.delta_asked}")
    return head + low + ask


@renderer("sampler_privacy")
def _proof(cert) -> Proof:
    ev: SamplerPrivacyEvidence = cert.evidence
    lo, hi = ev.support
    steps = [Step("Definition", "Dwork and Roth 2014, Def. 2.4: $M$ is $(\\varepsilon, \\delta)$-DP when "
                  "$P[M(x) \\in S] \\le e^{\\varepsilon} P[M(x') \\in S] + \\delta$ for all neighbours and sets $S$."),
             Step("The intervals (trusted)", f"Running {ev.sampler} against an exploring source of randomness gave "
                  f"$P[Z = z] \\in [lo_z, hi_z]$ for $z = {lo}..{hi}$, $hi_z = lo_z + {tex(ev.residual)}$ (the "
                  f"residual), and mass ${tex(ev.outside)}$ outside the range. The re-check cannot re-run code: "
                  "these numbers are taken on trust."),
             Step("The ratio", f"For a shift $0 < |d| \\le {ev.sensitivity}$ and $z$, $z - d$ in the range with "
                  f"$lo_{{z-d}} > 0$: $p(z) \\le hi_z / lo_{{z-d}} \\cdot p(z-d) \\le R\\, p(z-d)$ with "
                  f"$R = {tex(ev.ratio)}$, attained at $z = {ev.at.z}$, $d = {ev.at.shift}$."),
             Step("The rest", "Summing over $z \\in G_d$ and bounding the other values' mass by "
                  f"$1 - \\sum_{{G_d}} lo_z$ (tails, residual, zero lower bounds): $\\delta = {tex(ev.delta)}$.")]
    if ev.ratio_lower is not None:
        steps.append(Step("Lower bound", f"Some $p(z) / p(z-d) \\ge lo_z / hi_{{z-d}}$ reaches "
                          f"${tex(ev.ratio_lower)}$: no pure $\\varepsilon < \\log {tex(ev.ratio_lower)}$."))
    summary: list[tuple[str, str | None]] = [("sampler", ev.sampler), ("range", f"{lo}..{hi}"),
                                             ("residual", ev.residual), ("R", ev.ratio), ("delta", ev.delta)]
    concl = ("Undecided: " + cert.reason) if cert.reason is not None else cert.claim + "."
    return Proof("P[x + Z \\in S] \\le R\\, P[x' + Z \\in S] + \\delta", steps, concl, summary)

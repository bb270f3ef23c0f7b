"""Interop with float accountants (optional extra ``exactdp[interop]``): dp_accounting and OpenDP next to the exact
answer.

Nothing here decides a privacy verdict with a float.  The libraries' answers
are floats; each is read at its *exact binary value* (``Fraction(float)``) and
compared with exactdp's exact number by the kernel's exact sign, so "the
pessimistic estimate is below the exact delta" is itself an exact statement.

* :func:`compare_dp_accounting` -- for every ordered neighbouring pair, a
  dp_accounting PLD built by ``from_two_probability_mass_functions`` (upper =
  ``K(x)``, lower = ``K(x')``; the loss ``log(upper/lower)``), composed
  ``times`` times, queried at ``eps``; the maximum over ordered pairs, for the
  pessimistic and the optimistic estimate, against the exact ``delta(eps)``
  of :mod:`exactdp.composition.composition` **at the same float eps** (its exact
  binary value: the query dp_accounting actually answered).
* :func:`check_opendp_laplace` -- OpenDP's ``make_laplace`` on integers adds
  discrete Laplace noise ``Pr[z] ∝ exp(-|z|/scale)``.  On inputs
  ``lo..hi`` the exactdp mechanism is that noise with the output clamped to
  ``[lo, hi]`` (the range-restricted geometric mechanism of GRS12 at
  ``alpha = exp(-1/scale)``): a post-processing, so its exact eps at ``d_in``
  is a lower bound for the unbounded mechanism's, and OpenDP's ``map(d_in)``
  must be at least it.  For this clamp it equals ``d_in/scale`` exactly.
* :func:`check_opendp_gaussian` -- OpenDP's ``make_gaussian`` on integers
  adds discrete Gaussian noise ``Pr[z] ∝ exp(-z^2/(2 scale^2))`` and reports
  zCDP ``rho`` (``D_alpha <= rho alpha`` for all ``alpha > 1``, CKS20).
  A clamp of it has transcendental tail sums, so the exact finite object is
  the discrete Gaussian *truncated* to a window of ``W`` outputs either side
  (:func:`~exactdp.mechanisms.discrete_gaussian`): a different mechanism
  (truncation is not post-processing), which converges to OpenDP's as ``W``
  grows.  Compared: the exact ``D_alpha`` of the truncated mechanism at the
  integer orders given, between inputs at distance ``d_in`` in the middle of
  the window, against ``rho alpha`` -- exact, but a statement about the
  truncated mechanism at those orders, not a certificate of OpenDP's map.

Both libraries are imported only when a function is called.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from flint import ctx, fmpq

from ..errors import ExactDPError, InvalidInput
from ..exact.decide import arb_of, decimal_enclosure, exact_str, sign, simplify
from ..exact.values import to_rational

if TYPE_CHECKING:
    from ..mechanism import Mechanism

__all__ = [
    "DPAccountingComparison",
    "DPEventComparison",
    "MissingInterop",
    "ModelCheck",
    "OpenDPCheck",
    "certify_opendp",
    "check_laplace_model",
    "check_opendp_gaussian",
    "check_opendp_laplace",
    "compare_dp_accounting",
    "compare_dp_event",
    "compare_plan_dp_accounting",
    "dp_event_deltas",
    "dp_event_of_json",
    "dp_event_of_plan",
    "mechanism_of_opendp",
    "plan_of_dp_event",
]


class MissingInterop(ExactDPError, ImportError):
    """The library dp_accounting or opendp is not installed (``pip install 'exactdp[interop]'``).

    Examples
    --------
    >>> issubclass(MissingInterop, ImportError)
    True
    """


def _import(name: str):
    import importlib

    try:
        return importlib.import_module(name)
    except ImportError as e:
        raise MissingInterop(f"{name} is not installed; hint: pip install 'exactdp[interop]'") from e


def _q(x: float) -> fmpq:
    """A float at its exact binary value."""
    f = Fraction(x)
    return fmpq(f.numerator, f.denominator)


@dataclass(frozen=True)
class DPAccountingComparison:
    """The pessimistic and optimistic delta of dp_accounting next to the exact one, at the same (float) eps.

    ``exact`` is the exact delta at ``eps_query`` (the exact binary value of
    the float eps dp_accounting was asked); ``pessimistic_below`` says,
    exactly, that the pessimistic float is *below* it (an estimate that was
    meant to be an upper bound is not); ``optimistic_above`` the reverse.

    Parameters
    ----------
    times : int
        The number of compositions.
    eps_query : fmpq
        The exact value of the float eps asked.
    exact : exact number
        The exact delta there.
    pessimistic, optimistic : float
        dp_accounting's two estimates.
    pessimistic_below, optimistic_above : bool
        The exact comparisons of the floats with ``exact``.
    seconds_exact, seconds_dp_accounting : float
        Wall-clock times.

    Examples
    --------
    Built by :func:`compare_dp_accounting`; by hand here (no dp_accounting needed):

    >>> c = DPAccountingComparison(2, fmpq(1, 2), fmpq(1, 4), 0.25, 0.2, False, False, 0.01, 0.02)
    >>> c.to_json()["pessimistic_minus_exact"], c.to_json()["delta_exact"]
    ('0', '1/4')
    """

    times: int
    eps_query: fmpq
    exact: Any
    pessimistic: float
    optimistic: float
    pessimistic_below: bool
    optimistic_above: bool
    seconds_exact: float
    seconds_dp_accounting: float

    def to_json(self) -> dict:
        """Return the comparison as exact text, with the floats' ``repr`` and the difference exactly.

        Returns
        -------
        dict
            ``delta_exact``, ``pessimistic``, ``optimistic``, ``pessimistic_minus_exact`` (exact and
            approximate), the two verdicts and the times.

        Examples
        --------
        The float ``0.1`` is not ``1/10``: its exact binary value is above by ``2^-55 / 5``.

        >>> c = DPAccountingComparison(1, fmpq(1), fmpq(1, 10), 0.1, 0.1, False, True, 0.0, 0.0)
        >>> c.to_json()["pessimistic_minus_exact"]
        '1/180143985094819840'
        """
        return {"times": self.times, "eps_query": str(self.eps_query), "delta_exact": exact_str(self.exact),
                "delta_exact_approx": decimal_enclosure(self.exact, 17)[1],
                "pessimistic": repr(self.pessimistic), "optimistic": repr(self.optimistic),
                "pessimistic_minus_exact": exact_str(simplify(_q(self.pessimistic) - self.exact)),
                "pessimistic_minus_exact_approx": decimal_enclosure(simplify(_q(self.pessimistic) - self.exact), 6),
                "pessimistic_below_exact": self.pessimistic_below, "optimistic_above_exact": self.optimistic_above,
                "seconds_exact": round(self.seconds_exact, 4),
                "seconds_dp_accounting": round(self.seconds_dp_accounting, 4)}


def _eps_float(eps) -> float:
    """A float for an exact eps >= 0 (the float's exact value is what is compared afterwards)."""
    from ..privacy.approximate import approx_level

    if isinstance(eps, float):
        if not eps >= 0:
            raise InvalidInput(f"eps: expected eps >= 0, got {eps}")
        return eps
    t = approx_level(eps, None, None).factor(fmpq(1))
    if t is None:
        raise InvalidInput(f"eps: {eps!r} has no exact e^eps in the kernel; give a rational or log(rational)")
    with ctx.workprec(200):
        return float(arb_of(t).log().mid())


def _log_pmf(row, outputs) -> dict:
    out = {}
    with ctx.workprec(80):
        for y, v in zip(outputs, row, strict=True):
            if sign(v) > 0:
                out[y] = float(arb_of(v).log().mid())
    return out


def compare_dp_accounting(mech: Mechanism, neighbours: Any, *, times: int, eps: Any,
                          value_discretization_interval: float = 1e-4) -> DPAccountingComparison:
    """Compare the PLD answer of dp_accounting for ``times``-fold ``mech`` at ``eps`` with the exact ``delta``.

    Parameters
    ----------
    mech : Mechanism
        Rational or transcendental entries at a fixed level.
    neighbours : FiniteMetric, networkx graph or list of label pairs
    times : int
        ``k``, the number of compositions.
    eps : exact number
        The level; dp_accounting receives the nearest float, and the exact
        delta is computed at that float's exact value.
    value_discretization_interval : float
        dp_accounting's grid (its default ``1e-4``).

    Returns
    -------
    DPAccountingComparison

    Raises
    ------
    MissingInterop
        dp_accounting is not installed.

    Examples
    --------
    >>> from exactdp.mechanisms import randomized_response
    >>> c = compare_dp_accounting(randomized_response(2, p="1/4"), [("0", "1")], times=2, eps="1")
    >>> c.pessimistic_below, c.optimistic_above
    (False, False)
    """
    if isinstance(times, bool) or not isinstance(times, int) or times < 1:
        raise InvalidInput(f"times: expected an integer >= 1, got {times!r}")
    return compare_plan_dp_accounting([(mech, times)], neighbours, eps=eps,
                                      value_discretization_interval=value_discretization_interval)


def compare_plan_dp_accounting(plan: list, neighbours: Any, *, eps: Any,
                               value_discretization_interval: float = 1e-4) -> DPAccountingComparison:
    """Compare the answer of dp_accounting for a composition plan (as :func:`~exactdp.interop.audit.audit` reads it).

    Per ordered neighbouring pair, each entry's PLD (``from_two_probability_mass_functions``) is
    self-composed ``times`` times and the entries are composed (``compose``); the delta at the float
    eps is maximised over ordered pairs.  The exact side is
    :func:`~exactdp.interop.audit.plan_profile` at that float's exact value.

    Parameters
    ----------
    plan : list of (Mechanism, int)
    neighbours : FiniteMetric, networkx graph or list of label pairs
    eps : exact number
    value_discretization_interval : float

    Returns
    -------
    DPAccountingComparison
        ``times`` is the total number of runs in the plan.

    Raises
    ------
    MissingInterop
        dp_accounting is not installed.
    InvalidInput
        A bad plan or eps.

    Examples
    --------
    >>> from exactdp.mechanisms import randomized_response
    >>> c = compare_plan_dp_accounting([(randomized_response(2, p="1/4"), 2), (randomized_response(2, p="1/3"), 1)],
    ...                                [("0", "1")], eps="1")
    >>> c.times, c.pessimistic >= c.optimistic
    (3, True)
    """
    from ..privacy.approximate import neighbour_relation
    from .audit import plan_profile

    pld_mod = _import("dp_accounting.pld.privacy_loss_distribution")
    eq = _q(_eps_float(eps))
    t0 = time.perf_counter()
    pr = plan_profile(plan, neighbours)
    exact = simplify(pr.delta(eps=str(eq)))
    eps_f = float(eq)
    t1 = time.perf_counter()
    mechs = [(m.validate(), k) for m, k in plan]
    base = mechs[0][0]
    pairs, _ = neighbour_relation(base, neighbours)
    est = {}
    for pess in (True, False):
        best = 0.0
        for i, j in pairs:
            for a, b in ((i, j), (j, i)):
                total: Any = None
                for m, k in mechs:
                    rows = m.rows()
                    u, v = m.row_index[base.inputs[a]], m.row_index[base.inputs[b]]
                    pld = pld_mod.from_two_probability_mass_functions(
                        _log_pmf(rows[v], m.outputs), _log_pmf(rows[u], m.outputs), pessimistic_estimate=pess,
                        value_discretization_interval=value_discretization_interval, symmetric=True)
                    if k > 1:
                        pld = pld.self_compose(k)
                    total = pld if total is None else total.compose(pld)
                best = max(best, float(total.get_delta_for_epsilon(eps_f)))
        est[pess] = best
    t2 = time.perf_counter()
    return DPAccountingComparison(sum(k for _, k in plan), eq, exact, est[True], est[False],
                                  sign(_q(est[True]) - exact) < 0, sign(_q(est[False]) - exact) > 0, t1 - t0, t2 - t1)


@dataclass(frozen=True)
class OpenDPCheck:
    """OpenDP's reported privacy at ``d_in`` next to the exact value of the finite mechanism (see the module).

    Parameters
    ----------
    measurement : str
        The OpenDP constructor and its privacy measure.
    scale : fmpq
        The noise scale, exactly.
    d_in : int
        The input distance.
    reported : float
        OpenDP's privacy at ``d_in``.
    exact : exact number or list
        The exact value (or, for zCDP, Renyi divergences per order).
    holds : bool
        Whether the report is a valid bound, decided exactly.
    what : str
        What was compared, in words.

    Examples
    --------
    Built by :func:`check_opendp_laplace` and :func:`check_opendp_gaussian`; by hand here:

    >>> c = OpenDPCheck("make_laplace", fmpq(2), 1, 0.5, fmpq(1, 2), True, "eps")
    >>> c.to_json()["reported_exact"], c.to_json()["holds"]
    ('1/2', True)
    """

    measurement: str
    scale: fmpq
    d_in: int
    reported: float
    exact: Any
    holds: bool
    what: str

    def to_json(self) -> dict:
        """Return the comparison as exact text (the float also at its exact binary value).

        Returns
        -------
        dict
            ``measurement``, ``scale``, ``d_in``, ``reported``, ``reported_exact``, ``exact``, ``holds``,
            ``compared``.

        Examples
        --------
        >>> OpenDPCheck("make_laplace", fmpq(2), 1, 0.1, fmpq(1, 10), True, "eps").to_json()["reported_exact"]
        '3602879701896397/36028797018963968'
        """
        return {"measurement": self.measurement, "scale": str(self.scale), "d_in": self.d_in,
                "reported": repr(self.reported), "reported_exact": str(_q(self.reported)),
                "exact": ([[a, "D_alpha in [{}, {}]".format(*d.enclosure(12))] for a, d in self.exact]
                          if isinstance(self.exact, list) else exact_str(self.exact)),
                "holds": self.holds, "compared": self.what}


def _opendp():
    dp = _import("opendp.prelude")
    dp.enable_features("contrib")
    return dp


def _scale(scale) -> fmpq:
    s = _q(scale) if isinstance(scale, float) else to_rational(scale, what="scale")
    if s <= 0:
        raise InvalidInput(f"scale: expected a rational > 0, got {s}")
    return s


def _d_in(d_in, lo, hi) -> int:
    if isinstance(d_in, bool) or not isinstance(d_in, int) or d_in < 1:
        raise InvalidInput(f"d_in: expected an integer >= 1, got {d_in!r}")
    if isinstance(lo, bool) or isinstance(hi, bool) or not isinstance(lo, int) or not isinstance(hi, int) \
            or hi - lo < d_in:
        raise InvalidInput(f"range: expected integers lo < hi with hi - lo >= d_in, got {lo!r}, {hi!r}")
    if hi - lo > 200:
        raise InvalidInput(f"range: at most 200 steps, got hi - lo = {hi - lo}")
    return d_in


def check_opendp_laplace(scale: Any, d_in: int = 1, *, lo: int = 0, hi: int = 10) -> OpenDPCheck:
    """OpenDP ``make_laplace`` on integers: its ``map(d_in)`` against the exact eps of the clamped mechanism.

    Parameters
    ----------
    scale : exact rational > 0
        OpenDP's ``scale`` (passed as the nearest float; the exact mechanism
        uses that float's exact value).
    d_in : int
        The input distance.
    lo, hi : int
        The input range; outputs are clamped to it.

    Returns
    -------
    OpenDPCheck
        ``exact`` the exact smallest eps over input pairs at distance
        ``<= d_in`` (here ``d_in/scale``); ``holds`` that OpenDP's eps is
        ``>=`` it, decided exactly.

    Examples
    --------
    >>> r = check_opendp_laplace("2", 1)
    >>> r.reported, str(r.exact), r.holds
    (0.5, '1/2', True)
    """
    from ..mechanisms import geometric

    dp = _opendp()
    s = _scale(scale)
    d_in = _d_in(d_in, lo, hi)
    s_f = float(s)
    meas = dp.m.make_laplace(dp.atom_domain(T=int), dp.absolute_distance(T=int), scale=s_f)
    reported = float(meas.map(d_in))
    sq = _q(s_f)
    mech = geometric(hi - lo, eps=str(1 / sq))      # clamp(x + Z) on lo..hi, shifted to 0..hi-lo
    rows = mech.rows()
    best: Any = fmpq(1)
    for x in range(len(rows)):
        for xp in range(len(rows)):
            if x == xp or abs(x - xp) > d_in:
                continue
            for p, q in zip(rows[x], rows[xp], strict=True):
                r = simplify(p / q)
                if sign(r - best) > 0:
                    best = r
    mono = best.monomial() if hasattr(best, "monomial") else None
    exact = mono[1] if mono is not None and mono[0] == 1 else None
    if exact is None:
        raise InvalidInput("check_opendp_laplace: the largest ratio is not a pure exponential; unexpected scale")
    ex = to_rational(str(exact), what="eps")
    return OpenDPCheck("make_laplace (discrete Laplace, MaxDivergence)", sq, d_in, reported, ex,
                       _q(reported) >= ex,
                       f"exact smallest eps of clamp(x + Z) on {lo}..{hi} over pairs |x - x'| <= {d_in} "
                       "(post-processing: a lower bound for the unbounded mechanism) <= OpenDP's map(d_in)")


def check_opendp_gaussian(scale: Any, d_in: int = 1, *, window: int = 8, orders=(2, 3, 4)) -> OpenDPCheck:
    """OpenDP ``make_gaussian`` on integers: its zCDP ``rho`` against exact Rényi divergences of the truncated noise.

    Parameters
    ----------
    scale : exact rational > 0
        OpenDP's ``scale`` = sigma (its float's exact value squared is the exact ``sigma^2``).
    d_in : int
        The input distance.
    window : int
        Outputs ``x - window .. x + window`` around the pair (truncation, see the module).
    orders : iterable of int
        Integer Rényi orders ``alpha >= 2``.

    Returns
    -------
    OpenDPCheck
        ``exact`` the list of ``(alpha, D_alpha)`` (:class:`~exactdp.divergences.renyi.LogValue`); ``holds`` that
        ``D_alpha <= rho alpha`` at every order, decided exactly.

    Examples
    --------
    >>> r = check_opendp_gaussian("1", 1, window=3, orders=(2,))
    >>> r.reported, r.holds
    (0.5, True)
    """
    from ..mechanisms import discrete_gaussian
    from ..divergences.renyi import renyi_divergence

    dp = _opendp()
    s = _scale(scale)
    if isinstance(window, bool) or not isinstance(window, int) or not 1 <= window <= 60:
        raise InvalidInput(f"window: expected an integer in 1..60, got {window!r}")
    d_in = _d_in(d_in, 0, 2 * window + d_in)
    s_f = float(s)
    meas = dp.m.make_gaussian(dp.atom_domain(T=int), dp.absolute_distance(T=int), scale=s_f)
    rho = _q(float(meas.map(d_in)))
    sq = _q(s_f)
    n = 2 * window + d_in
    G = discrete_gaussian(n, sigma2=str(sq * sq)).validate()
    rows = G.rows()
    x, xp = window, window + d_in
    out, holds = [], True
    from ..exact.values import exact_number

    for a in orders:
        d = renyi_divergence(rows[x], rows[xp], a)
        # D_alpha <= rho alpha  <=>  S <= exp(rho alpha (alpha - 1))
        bound = exact_number(f"exp({rho * a * (a - 1)})")
        ok = d.arg is not None and sign(bound - d.arg) >= 0
        holds = holds and ok
        out.append((a, d))
    return OpenDPCheck("make_gaussian (discrete Gaussian, zCDP)", sq, d_in, float(meas.map(d_in)), out, holds,
                       f"exact D_alpha of the discrete Gaussian truncated to {n + 1} outputs, inputs {x} and {xp} "
                       f"(a different mechanism from OpenDP's: truncation), at orders {list(orders)}, <= rho alpha")


# -- dp_accounting's event trees, read exactly (issue 29) -------------------------------------------------------

#: largest denominator of an event's float parameter (at its exact binary value) or of the exponent step it
#: induces: beyond it the exponents of e in the entries would be polynomials of that degree
MAX_EVENT_DENOMINATOR = 1 << 16


def _event_q(x: Any, what: str, *, bounded: bool = True) -> fmpq:
    """A float parameter at its exact binary value; ``bounded``: its denominator at most the limit (a parameter
    that becomes an exponent of e; randomized response's probability is a plain rational, unbounded)."""
    if isinstance(x, bool) or not isinstance(x, (float, int)):
        raise InvalidInput(f"dp_event: {what} = {x!r} is not a number")
    q = _q(x) if isinstance(x, float) else fmpq(x)
    if bounded and int(q.q) > MAX_EVENT_DENOMINATOR:
        raise InvalidInput(f"dp_event: {what} = {x!r} is {q} at its exact binary value; its denominator exceeds "
                           f"{MAX_EVENT_DENOMINATOR:,} (give a parameter such as 1.0, 0.5 or 0.25)")
    return q


def _pair_mechanism(rows: list, outputs: list, name: str) -> Mechanism:
    from ..mechanism import mechanism_from_values

    return mechanism_from_values(["0", "1"], [str(o) for o in outputs], rows, name=name)


def _event_factor(ev: Any, truncation: int | None) -> Mechanism:
    """One leaf event as an exact two-input mechanism whose ordered pairs carry the event's PLD."""
    from ..exact.expo import ExpFrac
    from ..exact.lin import Lin

    kind = type(ev).__name__
    if kind == "RandomizedResponseDpEvent":
        p, K = _event_q(ev.noise_parameter, "noise_parameter", bounded=False), int(ev.num_buckets)
        if not (0 <= p <= 1) or K < 2:
            raise InvalidInput(f"dp_event: RandomizedResponseDpEvent needs 0 <= p <= 1 and >= 2 buckets, got {ev!r}")
        stay, move = 1 - p + p / K, p / K
        rows = [[stay if y == x else move for y in range(K)] for x in (0, 1)]
        return _pair_mechanism(rows, list(range(K)), f"randomized response (p = {p}, {K} buckets)")
    if kind == "DiscreteLaplaceDpEvent":
        a, s = _event_q(ev.noise_parameter, "noise_parameter"), int(ev.sensitivity)
        if a <= 0 or s < 1:
            raise InvalidInput(f"dp_event: DiscreteLaplaceDpEvent needs a > 0 and sensitivity >= 1, got {ev!r}")
        # the loss log(P/Q) is constant on z <= 0 and on z >= s, so clamping the output to [0, s] keeps the PLD
        # exactly: the range-restricted geometric mechanism of GRS12 at alpha = e^(-a), rows 0 and s
        from ..mechanisms import geometric

        g = geometric(s, eps=str(a))
        return _pair_mechanism([g.rows()[0], g.rows()[s]], list(range(s + 1)),
                               f"discrete Laplace (a = {a}, sensitivity {s}), output clamped to [0, {s}]")
    if kind == "DiscreteGaussianDpEvent":
        if truncation is None:
            raise InvalidInput("dp_event: DiscreteGaussianDpEvent has infinite support; state the truncation of its "
                               "noise (truncation=T: noise on |z| <= T)")
        sig, s = _event_q(ev.sigma, "sigma"), int(getattr(ev, "sensitivity", 1))
        T = int(truncation)
        if sig <= 0 or s < 1 or s > T:
            raise InvalidInput(f"dp_event: DiscreteGaussianDpEvent needs sigma > 0, sensitivity >= 1 and a truncation "
                               f">= the sensitivity, got {ev!r}, truncation = {truncation!r}")
        step = 1 / (2 * sig * sig)
        if int(step.q) > MAX_EVENT_DENOMINATOR:
            raise InvalidInput(f"dp_event: 1/(2 sigma^2) = {step} has a denominator above {MAX_EVENT_DENOMINATOR:,}")
        outs = list(range(-T, T + s + 1))
        rows = []
        for x in (0, s):
            w = [ExpFrac.exp(Lin.rat(-fmpq((y - x) ** 2) * step)) if abs(y - x) <= T else fmpq(0) for y in outs]
            Z = sum(w[1:], w[0])
            rows.append([v / Z for v in w])
        return _pair_mechanism(rows, outs, f"discrete Gaussian (sigma = {sig}, sensitivity {s}, noise |z| <= {T})")
    raise InvalidInput(f"dp_event: {kind} is not read exactly (supported: RandomizedResponseDpEvent, "
                       "DiscreteLaplaceDpEvent, DiscreteGaussianDpEvent with a truncation, SelfComposedDpEvent, "
                       "ComposedDpEvent)")


def plan_of_dp_event(event: Any, *, truncation: int | None = None) -> list:
    """Read a dp_accounting ``DpEvent`` tree as an exact composition plan ``[(mechanism, times), ...]``.

    Each leaf becomes a two-input exact mechanism (inputs ``"0"`` and ``"1"``: the neighbouring pair the
    accountant compares) whose PLD in both orders is the event's: ``RandomizedResponseDpEvent(p, K)`` (keep the
    bucket with probability ``1 - p``, else a uniform bucket); ``DiscreteLaplaceDpEvent(a, s)`` (noise
    ``exp(-a|z|) tanh(a/2)``; the output clamped to ``[0, s]`` leaves the PLD unchanged, so this is exact without
    truncation); ``DiscreteGaussianDpEvent(sigma, s)`` with its noise truncated to ``|z| <= truncation`` and
    renormalised (the truncation must be stated: a different, finite mechanism).  ``SelfComposedDpEvent``
    multiplies the count, ``ComposedDpEvent`` concatenates.  The floats are read at their exact binary value.

    Parameters
    ----------
    event : dp_accounting DpEvent
        The tree (matched by class name, so no import of dp_accounting is needed here).
    truncation : int, optional
        The discrete Gaussian's noise bound ``T``.

    Returns
    -------
    list of (Mechanism, int)
        For :func:`~exactdp.composition.lattice.composed_plan_deltas` with neighbours ``[("0", "1")]``.

    Raises
    ------
    InvalidInput
        Any other event, named; a parameter out of range; a float whose exact value has a large denominator.

    Examples
    --------
    >>> from dp_accounting import RandomizedResponseDpEvent, SelfComposedDpEvent
    >>> plan = plan_of_dp_event(SelfComposedDpEvent(RandomizedResponseDpEvent(0.5, 2), 3))
    >>> [(m.name, k) for m, k in plan]
    [('randomized response (p = 1/2, 2 buckets)', 3)]
    """
    out: list = []

    def walk(ev, times):
        kind = type(ev).__name__
        if kind == "SelfComposedDpEvent":
            if int(ev.count) < 1:
                raise InvalidInput(f"dp_event: SelfComposedDpEvent count must be >= 1, got {ev.count!r}")
            walk(ev.event, times * int(ev.count))
        elif kind == "ComposedDpEvent":
            for e in ev.events:
                walk(e, times)
        elif kind == "NoOpDpEvent":
            return
        else:
            out.append((_event_factor(ev, truncation), times))

    walk(event, 1)
    if not out:
        raise InvalidInput("dp_event: the tree holds no private event")
    return out


def dp_event_deltas(event: Any, eps: list, *, truncation: int | None = None) -> list:
    """The exact delta of a dp_accounting ``DpEvent`` tree at each eps, on the privacy-loss lattice.

    Parameters
    ----------
    event : dp_accounting DpEvent
        As :func:`plan_of_dp_event` reads it.
    eps : list
        The levels (exact text, numbers, or floats read at their exact binary value).
    truncation : int, optional
        The discrete Gaussian's noise bound.

    Returns
    -------
    list of ComposedDelta
        Exact (or a certified enclosure) per eps, with the route taken.

    Examples
    --------
    Three runs of binary randomized response with p = 1/2 (keep with 3/4) at eps = 0: total variation 11/16.

    >>> from dp_accounting import RandomizedResponseDpEvent, SelfComposedDpEvent
    >>> dp_event_deltas(SelfComposedDpEvent(RandomizedResponseDpEvent(0.5, 2), 3), ["0"])[0].value
    11/16
    """
    from ..composition.lattice import composed_plan_deltas

    levels = [str(_q(e)) if isinstance(e, float) else e for e in eps]
    return composed_plan_deltas(plan_of_dp_event(event, truncation=truncation), [("0", "1")], levels)


# -- an accountant's modelling claim against the exact mechanism (issue 29, item 4) ------------------------------


@dataclass(frozen=True)
class ModelCheck:
    """How a model's privacy profile relates to a mechanism's exact one over all ``eps >= 0``.

    Parameters
    ----------
    relation : str
        ``"identical"``, ``"dominates"`` (the model's delta is at least the exact one at every eps: a valid
        upper bound) or ``"neither"``.
    witness_t : str or None
        For ``"neither"``: an exact ``t = e^eps`` where the exact delta exceeds the model's.
    exact_delta, model_delta : str or None
        The two deltas at the witness, exact text.
    touch_t : str or None
        An exact ``t`` where the two profiles are equal (where the model is tight), if one was met.

    Examples
    --------
    >>> ModelCheck("dominates", None, None, None, None).relation
    'dominates'
    """

    relation: str
    witness_t: str | None
    exact_delta: str | None
    model_delta: str | None
    touch_t: str | None


def _laplace_model(t: fmpq, T: fmpq) -> Any:
    """``1 - sqrt(t/T)`` for ``t < T``, else 0: the profile of the Laplace mechanism with scale ``1/eps``,
    sensitivity 1 (``delta(eps') = 1 - e^((eps' - eps)/2)``), exact as a real radical."""
    from ..exact.radical import Rad

    if t >= T:
        return fmpq(0)
    return Rad.rat(fmpq(1)) - Rad.power(t / T, fmpq(1, 2))


def check_laplace_model(mech: Mechanism, neighbours: Any, *, eps: Any) -> ModelCheck:
    """Decide exactly whether an accountant's Laplace model is identical to, dominates, or neither, the profile.

    The profile is the mechanism's exact privacy profile.  dp_accounting's source says the permute-and-flip
    mechanism's PLD is "identical to that of the Laplace
    mechanism with parameter 1/epsilon"; that model's profile is ``delta_L(t) = 1 - sqrt(t/T)`` for
    ``t = e^eps' < T = e^eps`` (0 above).  The exact profile is piecewise ``A - t B``
    (:func:`~exactdp.composition.profile.privacy_profile`); on each piece, with ``s = sqrt(t)``, the difference
    ``delta_L - delta = B s^2 - s / sqrt(T) + 1 - A`` is a quadratic whose minimum over the piece is at an end
    (a real radical, signed exactly) or at the vertex ``s^2 = 1/(4 B^2 T)`` (a rational value ``1 - A - 1/(4BT)``).

    Parameters
    ----------
    mech : Mechanism
        Rational entries.
    neighbours : FiniteMetric, networkx graph or list of label pairs
        The neighbour relation.
    eps : exact number
        The model's eps, with ``e^eps`` rational (``log(4)``).

    Returns
    -------
    ModelCheck

    Raises
    ------
    InvalidInput
        Entries that are not rational, or ``e^eps`` not rational.

    Examples
    --------
    Permute-and-flip with two candidates at eps = log 4 (scores swapped by the neighbours): delta at log 2 is
    1/4 against the model's 1 - sqrt(1/2); the model is an upper bound but not the mechanism's profile.

    >>> from exactdp.mechanisms import permute_and_flip
    >>> c = check_laplace_model(permute_and_flip([[1, 0], [0, 1]], eps="log(4)"), [("0", "1")], eps="log(4)")
    >>> c.relation
    'dominates'
    """
    from ..privacy.approximate import approx_level
    from ..exact.radical import Rad
    from ..composition.profile import privacy_profile

    if mech.regime != "rational":
        raise InvalidInput("check_laplace_model: the mechanism's entries must be rational")
    T = approx_level(eps, None, None).factor(fmpq(1))
    if not isinstance(T, fmpq):
        raise InvalidInput(f"check_laplace_model: e^eps must be rational (eps = log(q)), got eps = {eps!r}")
    pcs = privacy_profile(mech, neighbours).pieces
    touch = None
    for i, pc in enumerate(pcs):
        ta = fmpq(pc.t_from)
        tb = fmpq(pcs[i + 1].t_from) if i + 1 < len(pcs) else None
        A, B = fmpq(pc.A), fmpq(pc.B)
        pts = [ta] + ([tb] if tb is not None else [])
        if B > 0:
            v = 1 / (4 * B * B * T)            # the vertex s^2, where the quadratic is least
            if v >= ta and (tb is None or v <= tb) and v < T:
                pts.append(v)
        if ta < T <= (tb if tb is not None else T):
            pts.append(T)
        for t in pts:
            exact = A - t * B
            diff = _laplace_model(t, T) - Rad.rat(exact)
            sg = sign(diff)
            if sg < 0:
                return ModelCheck("neither", str(t), exact_str(exact), str(_laplace_model(t, T)), touch)
            if sg == 0 and touch is None:
                touch = str(t)
    zero = all(fmpq(p.A) == 0 and fmpq(p.B) == 0 for p in pcs)
    return ModelCheck("identical" if T == 1 and zero else "dominates", None, None, None, touch)


# -- the audit's comparison on dp_accounting's own event tree (issue 29, item 3) --------------------------------

#: the event classes a plan file may name (``{"dp_event": NAME, ...}``); any other name is refused by name
_EVENT_KEYS = {"dp_event", "times", "truncation"}


def dp_event_of_json(entries: Any) -> tuple:
    """Build the dp_accounting ``DpEvent`` tree a plan file names, and the discrete Gaussian's truncation.

    Each entry is ``{"dp_event": NAME, <the event's parameters>, "times": K}`` (``times`` defaults to 1): the
    plan is ``ComposedDpEvent`` of ``SelfComposedDpEvent(NAME(...), K)``.  A Gaussian event states its noise
    bound as ``"truncation"``.  Any class of ``dp_accounting.dp_event`` may be named (dp_accounting answers for
    it); :func:`plan_of_dp_event` refuses by name those exactdp does not read exactly.

    Parameters
    ----------
    entries : list of dict
        The plan file's entries.

    Returns
    -------
    tuple
        ``(event, truncation)``; ``truncation`` is ``None`` when no entry states one.

    Raises
    ------
    InvalidInput
        An unknown event name, bad parameters, a bad ``times``, two different truncations.
    MissingInterop
        dp_accounting is not installed.

    Examples
    --------
    >>> ev, T = dp_event_of_json([{"dp_event": "RandomizedResponseDpEvent", "noise_parameter": 0.5,
    ...                            "num_buckets": 2, "times": 3}])
    >>> type(ev).__name__, type(ev.events[0]).__name__, ev.events[0].count, T
    ('ComposedDpEvent', 'SelfComposedDpEvent', 3, None)
    """
    de = _import("dp_accounting.dp_event")
    if not isinstance(entries, list) or not entries:
        raise InvalidInput("dp_event plan: expected a non-empty list of {\"dp_event\": NAME, ...} entries")
    leaves, truncs = [], set()
    for n, e in enumerate(entries):
        if not isinstance(e, dict) or "dp_event" not in e:
            raise InvalidInput(f"dp_event plan, entry {n}: expected an object with \"dp_event\"; a plan mixes no "
                               "event entries with mechanism entries")
        name = e["dp_event"]
        cls = getattr(de, name, None) if isinstance(name, str) and name.endswith("DpEvent") else None
        if not isinstance(cls, type):
            raise InvalidInput(f"dp_event plan, entry {n}: dp_accounting has no event {name!r}")
        times = e.get("times", 1)
        if isinstance(times, bool) or not isinstance(times, int) or times < 1:
            raise InvalidInput(f"dp_event plan, entry {n}: \"times\" must be an integer >= 1, got {times!r}")
        if "truncation" in e:
            t = e["truncation"]
            if isinstance(t, bool) or not isinstance(t, int) or t < 1:
                raise InvalidInput(f"dp_event plan, entry {n}: \"truncation\" must be an integer >= 1, got {t!r}")
            truncs.add(t)
        # the plan file's numbers arrive as exact decimal text; an event takes floats (read back exactly later)
        params = {k: _json_param(v) for k, v in e.items() if k not in _EVENT_KEYS}
        try:
            leaf = cls(**params)
        except (TypeError, ValueError) as err:
            raise InvalidInput(f"dp_event plan, entry {n}: {name}({params}) is refused: {err}") from None
        leaves.append(leaf if times == 1 else de.SelfComposedDpEvent(leaf, times))
    if len(truncs) > 1:
        raise InvalidInput(f"dp_event plan: one truncation for the discrete Gaussian, got {sorted(truncs)}")
    return de.ComposedDpEvent(leaves), (truncs.pop() if truncs else None)


def _json_param(v: Any) -> Any:
    """A plan file's event parameter: decimal text (how exactdp's JSON reader keeps numbers) as its float."""
    if isinstance(v, str):
        try:
            return float(v)
        except ValueError:
            return v
    return v


def _float_of(v: Any) -> tuple[float, bool]:
    """The nearest float of an exact value and whether it is that value exactly."""
    if isinstance(v, fmpq):
        f = float(v)
        return f, _q(f) == v
    with ctx.workprec(120):
        f = float(arb_of(v).mid())
    return f, False


def _rr_move(m: Mechanism) -> Any:
    """The off-diagonal probability ``b`` when ``m`` is randomized response on its inputs (outputs the same
    ``K >= 2`` labels, one value ``a`` on the diagonal, one ``b <= a`` off it, decided exactly), else ``None``."""
    rows, K = m.rows(), len(m.inputs)
    if K < 2 or list(map(str, m.inputs)) != list(map(str, m.outputs)):
        return None
    a, b = rows[0][0], rows[0][1]
    same = all(sign(simplify(v - (a if i == j else b))) == 0 for i, r in enumerate(rows) for j, v in enumerate(r))
    return b if same and sign(simplify(a - b)) >= 0 else None


def dp_event_of_plan(plan: list) -> tuple:
    """The dp_accounting ``DpEvent`` tree a composition plan means, where one exists.

    A mechanism whose inputs and outputs are the same ``K >= 2`` labels, with one probability ``a`` on the
    diagonal and one ``b <= a`` off it, is ``RandomizedResponseDpEvent(p = K b, K)`` (keep with ``1 - p``,
    else a uniform bucket): every pair of distinct inputs has that event's privacy-loss distribution, so the
    maximum over neighbouring pairs is the event's.  ``p`` is passed as its nearest float (``exact`` says
    whether that is ``p`` itself).  Any other mechanism has no event of dp_accounting: the reason names it.

    Parameters
    ----------
    plan : list of (Mechanism, int)

    Returns
    -------
    tuple
        ``(event, exact, reason)``: the ``ComposedDpEvent`` (``None`` with ``reason`` when an entry has none),
        and whether every float parameter is the plan's exact value.

    Examples
    --------
    >>> from exactdp.mechanisms import randomized_response
    >>> ev, exact, why = dp_event_of_plan([(randomized_response(2, p="1/4"), 3)])
    >>> ev.events[0].event.noise_parameter, exact, why
    (0.5, True, None)
    """
    de = _import("dp_accounting.dp_event")
    leaves, all_exact = [], True
    for n, (m, times) in enumerate(plan):
        K, b = len(m.inputs), _rr_move(m)
        if b is None:
            return None, False, (f"entry {n} ({m.name}) is not randomized response on its inputs, the one "
                                 "mechanism shape with a dp_accounting event here")
        p, ok = _float_of(simplify(K * b))
        all_exact = all_exact and ok
        leaf = de.RandomizedResponseDpEvent(p, K)
        leaves.append(leaf if times == 1 else de.SelfComposedDpEvent(leaf, times))
    return de.ComposedDpEvent(leaves), all_exact, None


@dataclass(frozen=True)
class DPEventComparison:
    """The answer of dp_accounting for an event tree next to exactdp's for the same tree, each with its route.

    Parameters
    ----------
    event : str
        The tree's ``repr``.
    eps_query : fmpq
        The exact value of the float eps asked.
    accountant : float or None
        ``PLDAccountant(relation).compose(event).get_delta(eps)`` (pessimistic PLDs), or ``None``.
    accountant_route : str
        How dp_accounting answered, or its refusal.
    exact : ComposedDelta or None
        exactdp's delta of the tree as :func:`plan_of_dp_event` reads it, or ``None``.
    exact_route : str
        Its route (``lattice-exact`` / ``lattice-balls``), or the refusal.
    below : bool or None
        Whether dp_accounting's float is below the exact delta (decided exactly; ``None`` when a side is
        missing or the float lies inside the ball route's enclosure).

    Examples
    --------
    Built by :func:`compare_dp_event`.

    >>> DPEventComparison("E", fmpq(1), None, "refused", None, "refused", None).to_json()["below"] is None
    True
    """

    event: str
    eps_query: fmpq
    accountant: float | None
    accountant_route: str
    exact: Any
    exact_route: str
    below: bool | None

    def to_json(self) -> dict:
        """Return the comparison as text: the floats' ``repr``, the exact delta and its enclosure.

        Returns
        -------
        dict

        Examples
        --------
        >>> DPEventComparison("E", fmpq(1), 0.5, "pld", None, "refused", None).to_json()["dp_accounting"]
        '0.5'
        """
        ex = self.exact
        return {"event": self.event, "eps_query": str(self.eps_query),
                "dp_accounting": None if self.accountant is None else repr(self.accountant),
                "dp_accounting_route": self.accountant_route,
                "delta_exact": None if ex is None else ex.to_json()["delta"],
                "enclosure": None if ex is None else list(ex.enclosure()),
                "exact_route": self.exact_route, "below": self.below}


def compare_dp_event(event: Any, eps: Any, *, truncation: int | None = None,
                     value_discretization_interval: float = 1e-4) -> DPEventComparison:
    """Compare dp_accounting's ``PLDAccountant`` on a ``DpEvent`` tree with exactdp's exact delta of that tree.

    dp_accounting answers with ``PLDAccountant`` under ``REPLACE_ONE`` when the tree holds randomized response
    (the relation under which its PLD is that of two distinct inputs; ``REPLACE_SPECIAL`` would compare with the
    uniform output), else ``ADD_OR_REMOVE_ONE`` (the shift by the sensitivity, for the discrete Laplace event;
    dp_accounting refuses randomized response under it, and that refusal is reported), with its pessimistic
    PLDs, queried at the float eps one number per call.  exactdp answers with
    :func:`dp_event_deltas` at that float's exact value.  Either side may refuse; the refusal is reported.

    Parameters
    ----------
    event : dp_accounting DpEvent
    eps : exact number
        dp_accounting gets its nearest float; the exact side that float's exact value.
    truncation : int, optional
        The discrete Gaussian's noise bound.
    value_discretization_interval : float

    Returns
    -------
    DPEventComparison

    Examples
    --------
    Three runs of binary randomized response keeping with 3/4, at eps = 0: the exact delta is 11/16.  Listed
    in a ``ComposedDpEvent`` dp_accounting is close above it; as ``SelfComposedDpEvent(..., 3)`` its
    ``PLDAccountant`` (0.6.0) composes the randomized response once, whatever the count, and answers 1/2:

    >>> from dp_accounting import ComposedDpEvent, RandomizedResponseDpEvent, SelfComposedDpEvent
    >>> rr = RandomizedResponseDpEvent(0.5, 2)
    >>> c = compare_dp_event(ComposedDpEvent([rr, rr, rr]), "0")
    >>> str(c.exact.value), c.exact_route, c.below, abs(c.accountant - 11/16) < 1e-3
    ('11/16', 'lattice-exact', False, True)
    >>> c = compare_dp_event(SelfComposedDpEvent(rr, 3), "0")
    >>> str(c.exact.value), c.below, abs(c.accountant - 1/2) < 1e-3
    ('11/16', True, True)
    """
    pld = _import("dp_accounting.pld")
    from dp_accounting import NeighboringRelation
    from dp_accounting.privacy_accountant import UnsupportedEventError

    from ..exact.values import exact_number

    eq = _q(_eps_float(eps))
    acc_val, acc_route = None, ""
    try:
        rel = "REPLACE_ONE" if "RandomizedResponseDpEvent" in repr(event) else "ADD_OR_REMOVE_ONE"
        acc = pld.PLDAccountant(getattr(NeighboringRelation, rel), value_discretization_interval)
        acc.compose(event)
        acc_val = float(acc.get_delta(float(eq)))
        acc_route = (f"PLDAccountant({rel}, grid {value_discretization_interval:g}), pessimistic PLDs, "
                     "get_delta at one eps")
    except (UnsupportedEventError, ValueError, TypeError, NotImplementedError, OverflowError) as err:
        # dp_accounting's refusals: its own UnsupportedEventError for an event it does not model, ValueError and
        # TypeError from its argument checks; anything else is a bug and reaches the command line's exit 4
        acc_route = f"refused by dp_accounting: {type(err).__name__}: {err}"
    ex, ex_route = None, ""
    try:
        ex = dp_event_deltas(event, [str(eq)], truncation=truncation)[0]
        ex_route = ex.route
    except ExactDPError as err:
        ex_route = f"refused by exactdp: {err}"
    below = None
    if acc_val is not None and ex is not None:
        f = _q(acc_val)
        if ex.value is not None:
            below = sign(simplify(f - ex.value)) < 0
        elif f < to_rational(str(exact_number(ex.lo)), what="lo"):
            below = True
        elif f >= to_rational(str(exact_number(ex.hi)), what="hi"):
            below = False
    return DPEventComparison(repr(event), eq, acc_val, acc_route, ex, ex_route, below)


# -- OpenDP measurements read exactly (issue 29, item 3) ---------------------------------------------------------

#: the OpenDP constructors whose law on a stated finite input domain exactdp builds exactly
OPENDP_READ = ("make_randomized_response_bool", "make_randomized_response", "make_laplace", "make_geometric",
               "make_gaussian")
#: the widest stated input range for the integer measurements (the profile's size grows with it)
OPENDP_MAX_RANGE = 200


def _opendp_desc(measurement: Any) -> dict:
    """OpenDP's own description of a measurement: the JSON of its public ``opendp.prelude.serialize`` (the
    constructor's name and arguments), or that JSON already parsed (what a file holds)."""
    if isinstance(measurement, dict):
        desc = measurement
    else:
        import json

        dp = _opendp()
        if not isinstance(measurement, dp.Measurement):
            raise InvalidInput(f"opendp: expected an OpenDP Measurement (or its serialized JSON), got "
                               f"{type(measurement).__name__}")
        try:
            desc = json.loads(dp.serialize(measurement))
        except Exception as err:       # OpenDP's encoder raises a bare Exception for what it cannot describe
            raise InvalidInput(f"opendp: this measurement has no description in OpenDP's serialize ({err}); "
                               f"exactdp reads only {', '.join(OPENDP_READ)}") from None
    if not isinstance(desc, dict) or not isinstance(desc.get("__function__"), str) \
            or not isinstance(desc.get("__kwargs__", {}), dict):
        raise InvalidInput("opendp: expected OpenDP's serialized measurement {\"__function__\": NAME, "
                           "\"__kwargs__\": {...}}")
    return desc


def _opendp_prob(x: Any, what: str) -> fmpq:
    """A float argument of the measurement at its exact binary value (a file's decimal text: the float OpenDP
    runs for it, its nearest)."""
    if isinstance(x, str):
        try:
            x = float(x)
        except ValueError:
            raise InvalidInput(f"opendp: {what} = {x!r} is not a number") from None
    if isinstance(x, bool) or not isinstance(x, (int, float)) or x != x or x in (float("inf"), -float("inf")):
        raise InvalidInput(f"opendp: {what} = {x!r} is not a finite number")
    return _q(float(x))


def _opendp_range(name: str, kw: dict, lo: Any, hi: Any, d_in: Any) -> tuple[int, int, int]:
    """The integer domain, the stated finite input range inside it, and ``d_in``, checked."""
    dom = kw.get("input_domain")
    dk = dom.get("__kwargs__", {}) if isinstance(dom, dict) else {}
    if not isinstance(dom, dict) or dom.get("__function__") != "atom_domain":
        what = dom.get("__function__") if isinstance(dom, dict) else dom
        raise InvalidInput(f"opendp: {name} on the domain {what!r} is not read (exactdp reads it on "
                           "atom_domain(T=int): one integer in, one out)")
    T = dk.get("T")
    if not (isinstance(T, str) and T[:1] in "iu" and T[1:].isdigit()):
        raise InvalidInput(f"opendp: {name} on atom_domain(T={T}) is not read: on floats its law is continuous "
                           "(or a float lattice), with no finite restriction; use an integer domain")
    metric = kw.get("input_metric")
    if not isinstance(metric, dict) or metric.get("__function__") != "absolute_distance":
        raise InvalidInput(f"opendp: {name} with the input metric {metric!r} is not read (absolute_distance only)")
    if kw.get("k") is not None:
        raise InvalidInput(f"opendp: {name} with k = {kw.get('k')!r} is not read (k is for float domains)")
    b = dk.get("bounds")
    if isinstance(b, dict):
        b = b.get("__tuple__")
    if lo is None and hi is None and b is not None:
        lo, hi = b
    if lo is None or hi is None:
        raise InvalidInput(f"opendp: {name} on all integers has infinitely many inputs; state the finite input "
                           "domain (lo and hi: inputs lo..hi)")
    if isinstance(lo, bool) or isinstance(hi, bool) or not isinstance(lo, int) or not isinstance(hi, int) \
            or lo >= hi:
        raise InvalidInput(f"opendp: the input range must be integers lo < hi, got {lo!r}, {hi!r}")
    if T.startswith("u") and lo < 0:
        raise InvalidInput(f"opendp: the input range {lo}..{hi} is not in the domain of {T} (unsigned)")
    if b is not None and not (b[0] <= lo and hi <= b[1]):
        raise InvalidInput(f"opendp: the input range {lo}..{hi} is not inside the domain's bounds {tuple(b)}")
    if hi - lo > OPENDP_MAX_RANGE:
        raise InvalidInput(f"opendp: the input range {lo}..{hi} has {hi - lo} steps; at most {OPENDP_MAX_RANGE}")
    if isinstance(d_in, bool) or not isinstance(d_in, int) or d_in < 1:
        raise InvalidInput(f"opendp: d_in must be an integer >= 1, got {d_in!r}")
    return lo, hi, d_in


def _opendp_rr(name: str, kw: dict) -> tuple:
    """``(mechanism, neighbours, name)`` of OpenDP's randomized response on booleans or on its categories."""
    from ..mechanism import mechanism_from_values

    label = f"OpenDP {name}"
    if name == "make_randomized_response_bool":
        p = _opendp_prob(kw.get("prob"), "prob")
        if not fmpq(1, 2) <= p <= 1:
            raise InvalidInput(f"opendp: {name} needs 1/2 <= prob <= 1, got {p}")
        rows = [[p, 1 - p], [1 - p, p]]
        m = mechanism_from_values(["False", "True"], ["False", "True"], rows, name=f"{label}(prob = {p})")
        return m, [("False", "True")], name
    if name == "make_randomized_response":
        cats = kw.get("categories")
        if not isinstance(cats, list) or len(cats) < 2 or len({str(c) for c in cats}) != len(cats):
            raise InvalidInput(f"opendp: {name} needs at least 2 distinct categories, got {cats!r}")
        p, mm = _opendp_prob(kw.get("prob"), "prob"), len(cats) - 1
        if not fmpq(1, mm + 1) <= p <= 1:
            raise InvalidInput(f"opendp: {name} needs 1/{mm + 1} <= prob <= 1, got {p}")
        labels = [str(c) for c in cats]
        rows = [[p if i == j else (1 - p) / mm for j in range(mm + 1)] for i in range(mm + 1)]
        m = mechanism_from_values(labels, labels, rows, name=f"{label}({mm + 1} categories, prob = {p})")
        return m, [(labels[i], labels[j]) for i in range(mm + 1) for j in range(i + 1, mm + 1)], name
    raise AssertionError(name)          # the caller passes only the two names above


def _opendp_dgauss(label: str, s: Any, lo: int, hi: int, inputs: list, truncation: int | None) -> Any:
    """OpenDP's make_gaussian on integers: the discrete Gaussian with its noise truncated to ``|z| <= T`` (stated)."""
    from ..exact.expo import ExpFrac
    from ..exact.lin import Lin
    from ..mechanism import mechanism_from_values

    name = label.removeprefix("OpenDP ")
    if truncation is None:
        raise InvalidInput(f"opendp: {name} on integers is the discrete Gaussian, with infinite support; state the "
                           "truncation of its noise (truncation=T: noise on |z| <= T, a different finite mechanism)")
    if isinstance(truncation, bool) or not isinstance(truncation, int) or not 1 <= truncation <= OPENDP_MAX_RANGE:
        raise InvalidInput(f"opendp: truncation must be an integer in 1..{OPENDP_MAX_RANGE}, got {truncation!r}")
    step = 1 / (2 * s * s)
    if int(step.q) > MAX_EVENT_DENOMINATOR:
        raise InvalidInput(f"opendp: 1/(2 scale^2) = {step} has a denominator above {MAX_EVENT_DENOMINATOR:,}")
    T = truncation
    outs = list(range(lo - T, hi + T + 1))
    rows = []
    for x in inputs:
        w = [ExpFrac.exp(Lin.rat(-fmpq((y - x) ** 2) * step)) if abs(y - x) <= T else fmpq(0) for y in outs]
        Z = sum(w[1:], w[0])
        rows.append([v / Z for v in w])
    m = mechanism_from_values([str(x) for x in inputs], [str(y) for y in outs], rows,
                              name=f"{label}(scale = {s}) on {lo}..{hi}, noise truncated to |z| <= {T}")
    return m


def mechanism_of_opendp(measurement: Any, *, lo: int | None = None, hi: int | None = None, d_in: int = 1,
                        truncation: int | None = None) -> tuple:
    """The exact finite mechanism of an OpenDP measurement and the neighbouring pairs its privacy map is about.

    The measurement is recognised by OpenDP's own description of it (``opendp.prelude.serialize``: the
    constructor's name and arguments, its public API); floats are read at their exact binary value.

    * ``make_randomized_response_bool(prob)``: inputs and outputs ``False``, ``True``; keep with ``prob``.  Every
      two inputs are neighbours (``DiscreteDistance``).
    * ``make_randomized_response(categories, prob)``: restricted to inputs in ``categories``; keep with ``prob``,
      else one of the other ``m`` categories uniformly (its map is ``log(prob m / (1 - prob))``).
    * ``make_laplace`` / ``make_geometric`` on ``atom_domain(T=int)`` with ``absolute_distance``: ``x + Z`` with
      ``Pr[Z = z]`` proportional to ``exp(-|z|/scale)``, on the stated inputs ``lo..hi`` (the domain's bounds if it
      has them), the output clamped to ``[lo, hi]``: the loss ``(|y - x'| - |y - x|)/scale`` is constant for
      ``y <= min(x, x')`` and for ``y >= max(x, x')``, so the clamp merges outputs of equal loss and every pair's
      privacy-loss distribution is unchanged -- the range-restricted geometric mechanism of GRS12 at
      ``alpha = exp(-1/scale)`` has exactly the measurement's profile.  Neighbours: ``|x - x'| <= d_in``.
    * ``make_gaussian`` on integers: the discrete Gaussian (CKS20) ``exp(-z^2/(2 scale^2))`` has unbounded loss and
      transcendental tail sums: read only with ``truncation = T`` stated (noise on ``|z| <= T``, renormalised),
      a different, finite mechanism, as for dp_accounting's discrete Gaussian event.

    Anything else -- other constructors, chains (``make_chain_mt``), float domains, vectors, ``make_geometric``
    with ``bounds`` (its constant-time output law is not stated in OpenDP's documentation) -- is refused by name.

    Parameters
    ----------
    measurement : opendp Measurement or dict
        The measurement, or its serialized JSON parsed (what ``exactdp opendp profile`` reads from a file).
    lo, hi : int, optional
        The finite input domain ``lo..hi`` of the integer measurements (at most 200 steps).
    d_in : int
        The input distance of the neighbouring pairs (integer measurements).
    truncation : int, optional
        The discrete Gaussian's noise bound.

    Returns
    -------
    tuple
        ``(mechanism, neighbours, name)``: the exact mechanism, its list of neighbouring label pairs, and the
        constructor's name.

    Raises
    ------
    InvalidInput
        A measurement not read (its name in the message), a missing input range or truncation, a parameter out
        of range or whose exact value has a denominator above 2^16 where it becomes an exponent of e.
    MissingInterop
        OpenDP is not installed (only when a Measurement object is given).

    Examples
    --------
    >>> import opendp.prelude as dp
    >>> dp.enable_features("contrib")
    >>> m, nb, name = mechanism_of_opendp(dp.m.make_randomized_response_bool(prob=0.75))
    >>> m.entry("True", "True"), m.entry("True", "False"), nb
    (3/4, 1/4, [('False', 'True')])
    >>> m, nb, _ = mechanism_of_opendp(dp.m.make_laplace(dp.atom_domain(T=int), dp.absolute_distance(T=int),
    ...                                                   scale=2.0), lo=0, hi=2)
    >>> m.entry("1", "1"), nb
    (ExpFrac('(-exp(-1/2) + 1)/(exp(-1/2) + 1)'), [('0', '1'), ('1', '2')])
    """
    from ..mechanism import mechanism_from_values

    desc = _opendp_desc(measurement)
    name, kw = desc["__function__"], desc.get("__kwargs__", {})
    if name not in OPENDP_READ:
        raise InvalidInput(f"opendp: {name} is not read exactly (exactdp reads {', '.join(OPENDP_READ)} with a "
                           "finite input domain)")
    if name in ("make_randomized_response_bool", "make_randomized_response"):
        return _opendp_rr(name, kw)
    label = f"OpenDP {name}"
    if name == "make_geometric" and kw.get("bounds") is not None:
        raise InvalidInput(f"opendp: {name} with bounds = {kw.get('bounds')!r} is not read (its constant-time "
                           "output law is not stated in OpenDP's documentation); give it without bounds")
    lo, hi, d_in = _opendp_range(name, kw, lo, hi, d_in)
    s = _opendp_prob(kw.get("scale"), "scale")
    if s <= 0:
        raise InvalidInput(f"opendp: {name} needs scale > 0, got {s}")
    inputs = list(range(lo, hi + 1))
    nb = [(str(x), str(y)) for x in inputs for y in inputs if x < y <= x + d_in]
    if name in ("make_laplace", "make_geometric"):
        from ..mechanisms import geometric

        a = 1 / s
        if int(a.q) > MAX_EVENT_DENOMINATOR:
            raise InvalidInput(f"opendp: 1/scale = {a} (scale at its exact binary value) has a denominator above "
                               f"{MAX_EVENT_DENOMINATOR:,}")
        g = geometric(hi - lo, eps=str(a))
        m = mechanism_from_values([str(x) for x in inputs], [str(x) for x in inputs], g.rows(),
                                  name=f"{label}(scale = {s}) on {lo}..{hi}, output clamped to [{lo}, {hi}]")
        return m, nb, name
    return _opendp_dgauss(label, s, lo, hi, inputs, truncation), nb, name


def certify_opendp(measurement: Any, *, lo: int | None = None, hi: int | None = None, d_in: int = 1,
                   truncation: int | None = None, eps: Any = None, delta: Any = None) -> Any:
    """The exact privacy profile of an OpenDP measurement's finite restriction, as a certificate (kind ``profile``).

    The mechanism and pairs are those of :func:`mechanism_of_opendp`; the certificate is
    :func:`~exactdp.composition.composition.certify_profile`'s, so the independent kernel re-checks it.

    Parameters
    ----------
    measurement : opendp Measurement or dict
    lo, hi, d_in, truncation
        As :func:`mechanism_of_opendp`.
    eps, delta : optional
        The query: the profile at ``eps``; with both, whether it is (eps, delta)-DP.

    Returns
    -------
    Certificate

    Examples
    --------
    OpenDP reports ``log 3`` for ``make_randomized_response_bool(0.75)``; the exact profile says the same:
    ``delta(eps) = 0`` exactly at ``eps = log 3``, and total variation ``1/2`` at ``eps = 0``.

    >>> import opendp.prelude as dp
    >>> dp.enable_features("contrib")
    >>> rr = dp.m.make_randomized_response_bool(prob=0.75)
    >>> c = certify_opendp(rr, eps="log(3)", delta="0")
    >>> c.holds, c.recheck().status
    (True, 'confirmed')
    >>> certify_opendp(rr, eps="0").evidence.query.delta_at_eps
    '1/2'
    """
    from ..composition.composition import certify_profile

    mech, nb, _ = mechanism_of_opendp(measurement, lo=lo, hi=hi, d_in=d_in, truncation=truncation)
    return certify_profile(mech, nb, eps=eps, delta=delta)

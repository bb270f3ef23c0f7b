"""Evidence and worked proofs of the ECP14 kinds: regular priors, tight-constraints mechanisms, thresholds,
min-entropy leakage and Theorem 4.

The privacy-constraints matrix ``Phi`` (ECP14 Def. 3, ``phi_yy' = e^(-eps d(y,y'))``) is carried by the
*full* distance matrix (interned: distinct distances and codes), so the re-check rebuilds ``Phi`` itself.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar

from ..exact.decide import exact_str
from ..certificate.common import LevelData, MechanismData
from ..certificate.records import Evidence, IntMatrix, Record, evidence_kind
from ..certificate.render import Proof, Step, renderer
from ..privacy.evidence import tex

if TYPE_CHECKING:
    from ..metrics.space import FiniteMetric

__all__ = [
    "MAX_DISTANCE_POINTS",
    "BracketEnds",
    "DistanceData",
    "DyadicMatrix",
    "DyadicVector",
    "ExistencePiece",
    "GridSpec",
    "LPData",
    "LeakageEvidence",
    "RegularEvidence",
    "Theorem4Evidence",
    "ThresholdEvidence",
    "TightEvidence",
    "VerifiedSolve",
    "bits_shown",
    "distance_data",
    "existence_text",
    "metric_spec",
]

#: largest metric whose full distance matrix a certificate carries (n^2 codes)
MAX_DISTANCE_POINTS = 3000


@dataclass(frozen=True)
class DistanceData(Record):
    """All distances: ``d(points[i], points[j]) = values[codes[i][j]]`` (``"inf"`` between components).

    Parameters
    ----------
    points : list of str
        The point labels.
    values : list of str
        The distinct distances, exact texts.
    codes : IntMatrix (or list of list of int)
        Index into ``values`` per pair; stored as a read-only :class:`IntMatrix`.

    Examples
    --------
    >>> d = DistanceData(points=["a", "b"], values=["0", "inf"], codes=[[0, 1], [1, 0]])
    >>> d.values[d.codes[0][1]]                  # two components
    'inf'
    """

    points: list[str]
    values: list[str]
    codes: IntMatrix

    def __post_init__(self):
        object.__setattr__(self, "codes", IntMatrix(self.codes))   # a list from JSON, or an int array
        super().__post_init__()


@dataclass(frozen=True)
class GridSpec(Record):
    """A unit grid by its definition: ``shape`` ``[R, C]`` and ``norm`` (``kind`` is ``"grid"``).

    Parameters
    ----------
    kind : str
        Always ``"grid"``.
    shape : list of int
        ``[R, C]``, rows and columns.
    norm : str
        ``"euclidean"``, ``"chebyshev"`` or ``"manhattan"``.

    Examples
    --------
    >>> GridSpec(kind="grid", shape=[3, 4], norm="manhattan").shape
    [3, 4]
    """

    kind: str
    shape: list[int]
    norm: str


@dataclass(frozen=True)
class DyadicVector(Record):
    """Exact dyadic numbers ``int(mantissas[i]) * 2^exp`` (an approximate solution ``y~``: part of a hint).

    Parameters
    ----------
    exp : int
        The common binary exponent.
    mantissas : list of str
        The integer mantissas, as decimal texts.

    Examples
    --------
    >>> DyadicVector(exp=-2, mantissas=["3", "-1"]).to_json()      # 3/4 and -1/4
    {'exp': -2, 'mantissas': ['3', '-1']}
    """

    exp: int
    mantissas: list[str]


@dataclass(frozen=True)
class DyadicMatrix(Record):
    """An approximate inverse ``R[i][j] = mantissas[i][j] * 2^exp`` (part of a hint).

    Any ``R`` will do: the re-check bounds ``||I - R Q||`` itself.

    Parameters
    ----------
    exp : int
        The common binary exponent.
    mantissas : list of list of int
        The integer mantissas, row by row.

    Examples
    --------
    >>> DyadicMatrix(exp=-1, mantissas=[[2, 0], [0, 2]]).to_json()
    {'exp': -1, 'mantissas': [[2, 0], [0, 2]]}
    """

    exp: int
    mantissas: list[list[int]]


@dataclass(frozen=True)
class VerifiedSolve(Record):
    """A verified float solve on the quotient of an equitable partition (a hint, issue 18).

    The partition ``cell_of`` (checked equitable on every point by the re-check), the approximate solution
    ``center`` and inverse ``inverse`` (verified by Rump's bound), and the checker's own enclosures and bounds
    (``z_enclosures``, ``beta``, ``fixed_point_eta``, ``cell_signs``), never rendered as facts.

    Parameters
    ----------
    cell_of : list of int or None
        The cell of each point.
    center : DyadicVector or None
        The approximate solution per cell.
    inverse : DyadicMatrix or None
        The approximate inverse of the quotient.
    z_enclosures : list of list of str, optional
        The checker's enclosure ``[lo, hi]`` of each cell's coordinate.
    beta : str, optional
        The checker's bound ``||I - R Q||_inf < 1``.
    fixed_point_eta : str, optional
        The checker's bound on the fixed-point error of ``Q``.
    cell_signs : str, optional
        The checker's signs of the cells' coordinates.

    Examples
    --------
    >>> VerifiedSolve(cell_of=[0, 1, 0], center=DyadicVector(exp=0, mantissas=["1", "1"]), inverse=None).beta is None
    True
    """

    cell_of: list[int] | None
    center: DyadicVector | None
    inverse: DyadicMatrix | None
    z_enclosures: list[list[str]] | None = None
    beta: str | None = None
    fixed_point_eta: str | None = None
    cell_signs: str | None = None

    _nested: ClassVar[dict[str, type]] = {"center": DyadicVector, "inverse": DyadicMatrix}


@dataclass(frozen=True)
class BracketEnds(Record):
    """The verified solves at both ends of a threshold bracket (a hint).

    One approximate inverse, at ``hi``, serves both ends (the re-check verifies it at ``lo`` by perturbation).

    Parameters
    ----------
    lo : VerifiedSolve
        The solve at the bracket's lower end.
    hi : VerifiedSolve
        The solve at the bracket's upper end.

    Examples
    --------
    >>> s = VerifiedSolve(cell_of=[0, 0], center=None, inverse=None)
    >>> BracketEnds(lo=s, hi=s).to_json()["lo"]["cell_of"]
    [0, 0]
    """

    lo: VerifiedSolve
    hi: VerifiedSolve

    _nested: ClassVar[dict[str, type]] = {"lo": VerifiedSolve, "hi": VerifiedSolve}


def metric_spec(metric: FiniteMetric, distances: DistanceData | None) -> GridSpec | None:
    """The definition of a unit grid, ``{"kind": "grid", "shape": [R, C], "norm": ...}``, or ``None``.

    It is given for a certificate that cannot carry the grid's distance matrix (``distances`` is ``None``): the
    re-check then re-derives the distances and the symmetry orbits from it.  ``None`` otherwise.

    Parameters
    ----------
    metric : FiniteMetric
        The certificate's metric.
    distances : DistanceData or None
        The distance matrix the certificate carries, if any.

    Returns
    -------
    GridSpec or None
        The grid's definition, when ``metric`` is a unit grid and ``distances`` is ``None``.

    Examples
    --------
    >>> from exactdp.metrics import grid
    >>> metric_spec(grid((3, 4), "euclidean"), None).to_json()
    {'kind': 'grid', 'shape': [3, 4], 'norm': 'euclidean'}
    >>> metric_spec(grid((3, 4), "euclidean", step=2), None) is None
    True
    """
    p = metric.params
    if distances is not None or p.get("kind") != "grid":
        return None
    R, C = p["shape"]
    if metric.description != f"{R} x {C} grid, {p['norm']} distance":     # a step other than 1
        return None
    return GridSpec(kind="grid", shape=[int(R), int(C)], norm=p["norm"])


def distance_data(metric: FiniteMetric) -> DistanceData | None:
    """The interned distance matrix of a metric, or ``None`` above :data:`MAX_DISTANCE_POINTS` points.

    Parameters
    ----------
    metric : FiniteMetric
        The metric.

    Returns
    -------
    DistanceData or None
        ``d(points[i], points[j]) = values[codes[i][j]]`` (exact texts, ``"inf"`` for infinity).

    Examples
    --------
    >>> from exactdp.metrics import path
    >>> d = distance_data(path(3))
    >>> d.points, d.values, d.codes.tolist()
    (['0', '1', '2'], ['0', '1', '2'], [[0, 1, 2], [1, 0, 1], [2, 1, 0]])
    """
    from ..metrics.symmetry import distance_codes

    if len(metric) > MAX_DISTANCE_POINTS:
        return None
    codes, values = distance_codes(metric)   # numpy codes, each checked against the metric's exact distance
    return DistanceData(points=[str(p) for p in metric.points],
                        values=["inf" if d == math.inf else exact_str(d) for d in values], codes=IntMatrix(codes))


@dataclass(frozen=True)
class LPData(Record):
    """An exact LP optimum with its dual: primal ``x``, duals ``y`` (equalities) and ``lam`` (inequalities).

    Parameters
    ----------
    value : str
        The optimum, exact.
    x : list of str
        The primal solution.
    y : list of str
        The duals of the equalities.
    lam : list of str
        The duals of the inequalities.

    Examples
    --------
    >>> LPData(value="1", x=["1"], y=["1"], lam=[]).to_json()
    {'value': '1', 'x': ['1'], 'y': ['1'], 'lam': []}
    """

    value: str
    x: list[str]
    y: list[str]
    lam: list[str]


@evidence_kind("regular", checker="exactdp.priors.regular:regular_prior")
@dataclass(frozen=True)
class RegularEvidence(Evidence):
    """ECP14 Def. 4 / Prop. 3: ``pi = mu Phi`` with ``mu >= 0``; ``gamma_y = mu_y sum_y' phi_yy'``.

    Parameters
    ----------
    description : str
        The metric in words.
    level : LevelData
        The level ``eps``.
    regime : str
        ``"rational"`` or ``"transcendental"``.
    prior : list of str
        The prior ``pi``.
    distances : DistanceData or None
        All distances (None when too large: see ``metric``).
    route : str
        ``"support"``, ``"solve"`` or ``"lp"``.
    zero_at : list of str
        Labels where the prior is 0 (Prop. 2).
    mu : list of str or None
        ``mu = pi Phi^-1``: exact strings, or ball enclosures (``exact`` False).
    exact : bool
        Whether ``mu`` is exact.
    gamma : list of str or None
        ``gamma_y = mu_y sum_y' phi_yy'``.
    negative : list of str
        Labels ``y`` with ``mu_y`` certified ``< 0``.
    lp : LPData or None
        The LP of a singular ``Phi``.
    verified : VerifiedSolve or None
        A verified float solve (a hint, re-verified).
    metric : GridSpec or None
        A unit grid's definition when ``distances`` is too large.

    Examples
    --------
    >>> from exactdp.exact.level import Level
    >>> from exactdp.metrics import path
    >>> from exactdp.priors.regular import regular_prior
    >>> ev = regular_prior(["1/3", "1/3", "1/3"], path(3), Level.from_alpha("1/2")).evidence
    >>> ev.mu, ev.negative               # mu = pi Phi^-1 = (1/3) z with z = (2/3, 1/3, 2/3)
    (['2/9', '1/9', '2/9'], [])
    """

    description: str
    level: LevelData
    regime: str
    prior: list[str]
    distances: DistanceData | None
    route: str                       # "support" | "solve" | "lp"
    zero_at: list[str]
    mu: list[str] | None             # exact strings, or ball enclosures (exact=False)
    exact: bool
    gamma: list[str] | None
    negative: list[str]              # labels y with mu_y certified < 0
    lp: LPData | None
    # a verified float solve (as TightEvidence.verified): a hint (issue 18), re-verified, never rendered
    verified: VerifiedSolve | None = field(default=None, metadata={"role": "hint"})
    metric: GridSpec | None = None   # a unit grid's definition when ``distances`` is too large (metric_spec)

    _nested: ClassVar[dict[str, type]] = {"level": LevelData, "distances": DistanceData, "lp": LPData,
                                          "verified": VerifiedSolve, "metric": GridSpec}

    @classmethod
    def example(cls):
        """A small genuine ``regular`` certificate (test tables and docs derive from it).

        Examples
        --------
        >>> RegularEvidence.example().kind
        'regular'
        """
        from exactdp.exact.level import Level
        from exactdp.metrics import path
        from exactdp.priors.regular import regular_prior
        return regular_prior(["1/3", "1/3", "1/3"], path(3), Level.from_alpha("1/2"))


@evidence_kind("tight", checker="exactdp.priors.regular:tight_constraints")
@dataclass(frozen=True)
class TightEvidence(Evidence):
    """ECP14 Def. 6, Props. 7-8: ``Phi z = 1``; a tight-constraints mechanism exists iff ``z >= 0``.

    Parameters
    ----------
    description : str
        The metric in words.
    level : LevelData
        The level ``eps``.
    regime : str
        ``"rational"`` or ``"transcendental"``.
    distances : DistanceData or None
        All distances (None when too large: see ``metric``).
    route : str
        ``"solve"`` or ``"lp"``.
    z : list of str or None
        The solution of ``Phi z = 1``: exact strings, or ball enclosures (``exact`` False).
    exact : bool
        Whether ``z`` is exact.
    negative : list of str
        Labels ``y`` with ``z_y`` certified ``< 0``.
    rank : int or None
        The rank of ``Phi`` when it is singular.
    lp : LPData or None
        The LP of a singular ``Phi``.
    mechanism : MechanismData or None
        ``h_yy' = phi_yy' z_y'`` (rational regime).
    cells : int or None
        The cells of the partition ``verified`` carries, if any.
    verified : VerifiedSolve or None
        A verified float solve (a hint, re-verified).
    metric : GridSpec or None
        A unit grid's definition when ``distances`` is too large.

    Examples
    --------
    >>> from exactdp.exact.level import Level
    >>> from exactdp.metrics import path
    >>> from exactdp.priors.regular import tight_constraints
    >>> ev = tight_constraints(path(3), Level.from_alpha("1/2")).evidence
    >>> ev.route, ev.z, ev.negative         # Phi z = 1 on path(3) at alpha = 1/2
    ('solve', ['2/3', '1/3', '2/3'], [])
    """

    description: str
    level: LevelData
    regime: str
    distances: DistanceData | None
    route: str                       # "solve" | "lp"
    z: list[str] | None              # exact strings, or ball enclosures (exact=False)
    exact: bool
    negative: list[str]              # labels y with z_y certified < 0
    rank: int | None                 # rank of Phi when it is singular
    lp: LPData | None
    mechanism: MechanismData | None  # h_yy' = phi_yy' z_y' (rational regime)
    cells: int | None = None         # cells of the partition ``verified`` carries (its quotient Q), if any
    # a verified float solve (partition, approximate solution and inverse, ...): a hint (issue 18) -- the re-check
    # verifies the partition on every point and the inverse by Rump's bound; a wrong one is never confirmed
    verified: VerifiedSolve | None = field(default=None, metadata={"role": "hint"})
    metric: GridSpec | None = None   # a unit grid's definition when ``distances`` is too large (metric_spec)

    _nested: ClassVar[dict[str, type]] = {"level": LevelData, "distances": DistanceData, "lp": LPData,
                                          "mechanism": MechanismData, "verified": VerifiedSolve, "metric": GridSpec}

    @classmethod
    def example(cls):
        """A small genuine ``tight`` certificate (test tables and docs derive from it).

        Examples
        --------
        >>> TightEvidence.example().kind
        'tight'
        """
        from exactdp.exact.level import Level
        from exactdp.metrics import path
        from exactdp.priors.regular import tight_constraints
        return tight_constraints(path(3), Level.from_alpha("1/2"))


@dataclass(frozen=True)
class ExistencePiece(Record):
    """One piece of the set of ``alpha = e^(-eps)`` in (0, 1) where a tight-constraints mechanism exists.

    The ends are values of ``t = alpha^(1/L)`` (``L`` is the evidence's ``root_of_alpha``; ``t = alpha`` for
    integer distances): ``"0"``, ``"1"``, an exact rational, or ``"root of P in (a, b)"`` -- the only root of the
    integer polynomial ``P(t)`` in the open interval ``(a, b)`` (rational ``a < b``).

    Parameters
    ----------
    lo, hi : str
        The ends.
    lo_closed, hi_closed : bool
        Whether each end belongs to the set (a point is ``lo == hi``, both closed).

    Examples
    --------
    >>> ExistencePiece(lo="0", hi="1/2", lo_closed=False, hi_closed=True).to_json()["hi"]
    '1/2'
    """

    lo: str
    hi: str
    lo_closed: bool
    hi_closed: bool


@evidence_kind("threshold", checker="exactdp.priors.threshold:threshold")
@dataclass(frozen=True)
class ThresholdEvidence(Evidence):
    """The threshold ``eps*``: the smallest eps from which a tight-constraints mechanism exists at every larger level.

    Route ``"exact-polynomial"`` states the exact set of levels where one exists (it need not be an interval);
    a closed form states threshold 0 (one exists at every level); a ``"bracket"`` states only where ``z`` was
    certified to change sign (none at ``lo``, one at ``hi``): ``eps* > lo``.

    Parameters
    ----------
    description : str
        The metric in words.
    route : str
        How the threshold was found (``"symmetric"``, ``"path"``, ``"bracket"``, ...).
    distances : DistanceData or None
        All distances (None when too large: see ``metric``).
    lo, hi : str or None
        The bracket, decimal texts.
    lo_rational, hi_rational : str or None
        The bracket's ends as exact rationals.
    exact : str or None
        The exact value, when Cramer's rule applies.
    exact_failure_set : str or None
        Where the tight-constraints mechanism fails, exactly.
    negative_at_lo : str or None
        A coordinate negative at ``lo``.
    ends : BracketEnds or None
        The verified solves at both ends (a hint).
    metric : GridSpec or None
        A unit grid's definition when ``distances`` is too large.
    root_of_alpha : int or None
        ``L``: the ends of ``existence`` are values of ``t = alpha^(1/L)`` (route ``"exact-polynomial"``).
    existence : list of ExistencePiece or None
        The exact set of ``alpha`` in (0, 1) where a tight-constraints mechanism exists.
    attained : bool or None
        Whether one exists at ``eps*`` itself (``eps*`` the smallest level from which one exists at every
        larger level; an infimum, not attained, when ``alpha*`` is a singular point where none exists).

    Examples
    --------
    >>> from exactdp.metrics import cycle
    >>> from exactdp.priors.threshold import threshold
    >>> threshold(cycle(6)).evidence.route          # ball-size symmetric: 0 by Prop. 9
    'symmetric'
    """

    description: str
    route: str                       # "symmetric" | "bracket"
    distances: DistanceData | None
    lo: str | None                   # decimal text
    hi: str | None
    lo_rational: str | None
    hi_rational: str | None
    exact: str | None                # exact value when Cramer's rule applies
    exact_failure_set: str | None
    negative_at_lo: str | None
    # route "bracket": {"lo": ..., "hi": ...} the verified solves at both ends -- a hint (issue 18)
    ends: BracketEnds | None = field(default=None, metadata={"role": "hint"})
    metric: GridSpec | None = None   # a unit grid's definition when ``distances`` is too large (metric_spec)
    # route "exact-polynomial": the exact set of alpha where a tight-constraints mechanism exists, its ends values
    # of t = alpha^(1/root_of_alpha); ``attained``: whether one exists at alpha* = e^(-eps*) itself
    root_of_alpha: int | None = None
    existence: list[ExistencePiece] | None = None
    attained: bool | None = None

    _nested: ClassVar[dict[str, type]] = {"distances": DistanceData, "ends": BracketEnds, "metric": GridSpec,
                                          "existence": ExistencePiece}

    @classmethod
    def example(cls):
        """A small genuine ``threshold`` certificate (test tables and docs derive from it).

        Examples
        --------
        >>> ThresholdEvidence.example().kind
        'threshold'
        """
        from exactdp.metrics import path
        from exactdp.priors.threshold import threshold
        return threshold(path(3))


@evidence_kind("leakage", checker="exactdp.priors.leakage:leakage")
@dataclass(frozen=True)
class LeakageEvidence(Evidence):
    """Min-entropy leakage ``L = log2(sum_z max_y pi_y h_yz / max_y pi_y)`` (ECP14 sec. 3.5, Prop. 4).

    Parameters
    ----------
    mechanism : MechanismData
        The mechanism ``h``.
    prior : list of str
        The prior ``pi``.
    max_utility : str
        ``sum_z max_y pi_y h_yz``.
    max_prior : str
        ``max_y pi_y``.
    ratio : str
        Their ratio.
    leakage_bits : str
        ``log2`` of the ratio.
    enclosure : list of str
        Decimals around the leakage.

    Examples
    --------
    >>> from exactdp.mechanisms import randomized_response
    >>> from exactdp.priors.leakage import leakage
    >>> ev = leakage(randomized_response(2, p="1/4"), ["1/2", "1/2"]).evidence
    >>> ev.max_utility, ev.max_prior, ev.leakage_bits     # (3/8 + 3/8) / (1/2)
    ('3/4', '1/2', 'log2(3/2)')
    """

    mechanism: MechanismData
    prior: list[str]
    max_utility: str
    max_prior: str
    ratio: str
    leakage_bits: str
    enclosure: list[str]

    _nested: ClassVar[dict[str, type]] = {"mechanism": MechanismData}

    @classmethod
    def example(cls):
        """A small genuine ``leakage`` certificate (test tables and docs derive from it).

        Examples
        --------
        >>> LeakageEvidence.example().kind
        'leakage'
        """
        from exactdp.mechanism import Mechanism
        from exactdp.priors.leakage import leakage
        K = Mechanism.from_rows(["0", "1", "2"], ["a", "b", "c"], [["1/2", "1/3", "1/6"],
                                ["1/4", "1/2", "1/4"], ["1/10", "3/10", "3/5"]])
        return leakage(K, ["1/2", "1/3", "1/6"])


@evidence_kind("theorem4", checker="exactdp.priors.theorem4:tight_remap")
@dataclass(frozen=True)
class Theorem4Evidence(Evidence):
    """ECP14 Thm 4: ``H`` is optimal for every regular prior iff ``HR`` is tight-constraints for some remap ``R``.

    Parameters
    ----------
    mechanism : MechanismData
        The mechanism ``H``.
    level : LevelData
        The level ``eps``.
    distances : DistanceData or None
        All distances.
    variables : int
        The remap LP's variables ``r[z][y]``.
    lp_value : str
        The LP's optimum.
    remap : dict or None
        The remap found: output -> {input: probability}.

    Examples
    --------
    >>> from exactdp.exact.level import Level
    >>> from exactdp.mechanisms import randomized_response
    >>> from exactdp.metrics import discrete
    >>> from exactdp.priors.theorem4 import tight_remap
    >>> c = tight_remap(randomized_response(2, p="1/4"), discrete(2), Level.from_alpha("1/2"))
    >>> c.evidence.variables          # r[z][y]: 2 outputs x 2 inputs
    4
    """

    mechanism: MechanismData
    level: LevelData
    distances: DistanceData | None
    variables: int
    lp_value: str
    remap: dict[str, dict[str, str]] | None      # output -> {input: probability}

    _nested: ClassVar[dict[str, type]] = {"mechanism": MechanismData, "level": LevelData, "distances": DistanceData}

    @classmethod
    def example(cls):
        """A small genuine ``theorem4`` certificate (test tables and docs derive from it).

        Examples
        --------
        >>> Theorem4Evidence.example().kind
        'theorem4'
        """
        from exactdp.exact.level import Level
        from exactdp.mechanisms import geometric
        from exactdp.metrics import path
        from exactdp.priors.theorem4 import tight_remap
        return tight_remap(geometric(2, "1/2"), path(3), Level.from_alpha("1/2"))


def _vec(v: list, k: int = 8) -> str:
    return "(" + ", ".join(v[:k]) + (", ..." if len(v) > k else "") + ")"


_PHI = "where $\\phi_{yy'} = e^{-\\varepsilon d(y,y')}$ (ECP14 Def. 3)"


@renderer("regular")
def _regular_proof(cert) -> Proof:
    ev: RegularEvidence = cert.evidence
    steps = [Step("Definition", "ECP14 Def. 4: $\\pi$ is regular iff $\\pi = \\mu\\Phi$ for some $\\mu \\ge 0$, "
                  f"{_PHI}; equivalently (Prop. 3) $\\pi$ is a convex combination of the corner priors with "
                  "coefficients $\\gamma_y = \\mu_y \\sum_{y'} \\phi_{yy'}$.")]
    summary = [("level", f"eps = {ev.level.text}")]
    if ev.route == "support":
        steps.append(Step("Full support", f"A regular prior has full support (Prop. 2), but the prior gives "
                          f"probability 0 to {', '.join(ev.zero_at[:5])}."))
        return Proof(r"\exists \mu \ge 0:\ \mu \Phi = \pi", steps, "Not regular: regular priors have full support.",
                     [*summary, ("zero probability at", ", ".join(ev.zero_at[:5]))])
    if cert.reason is not None:
        steps.append(Step("Undecided", cert.reason))
        return Proof(r"\exists \mu \ge 0:\ \mu \Phi = \pi", steps, "Undecided.", summary)
    if ev.route == "lp":
        assert ev.lp is not None  # the LP route records its LP
        steps.append(Step("Singular $\\Phi$: an exact LP", "minimise the total violation of $\\mu\\Phi = \\pi$ over "
                          f"$\\mu \\ge 0$: optimum ${tex(ev.lp.value)}$, certified by its dual."))
    else:
        assert ev.mu is not None  # the solve route records its solution
        steps.append(Step("Solving $\\mu\\Phi = \\pi$", f"$\\Phi$ is invertible ({ev.regime} regime, {cert.method}"
                          f"); $\\mu = {_vec(ev.mu)}$."))
    if ev.negative:
        steps.append(Step("A negative coordinate", f"$\\mu_{{{ev.negative[0]}}} < 0$ (certified), and $\\mu$ is "
                          "unique, so no $\\mu \\ge 0$ exists."))
    elif cert.holds is True:
        steps.append(Step("All coordinates non-negative", "Every $\\mu_y \\ge 0$ (certified), so $\\pi$ is regular; "
                          "the convex coefficients are $\\gamma$."))
    if ev.mu is not None:
        summary.append(("mu", _vec(ev.mu)))
    if ev.gamma is not None:
        summary.append(("gamma", _vec(ev.gamma)))
    return Proof(r"\exists \mu \ge 0:\ \mu \Phi = \pi", steps, "Regular." if cert.holds is True else
                 ("Not regular." if cert.holds is False else "Undecided."), summary)


@renderer("tight")
def _tight_proof(cert) -> Proof:
    ev: TightEvidence = cert.evidence
    steps = [Step("Characterisation", "ECP14 Prop. 7: a private $H$ is tight-constraints iff $\\Phi\\,\\mathrm{diag}"
                  "(H) = \\mathbf 1$; so a tight-constraints mechanism exists iff $\\Phi z = \\mathbf 1$ has a "
                  f"solution $z \\ge 0$, and then $h_{{yy'}} = \\phi_{{yy'}} z_{{y'}}$ (Def. 6), {_PHI}.")]
    summary = [("level", f"eps = {ev.level.text}")]
    if cert.reason is not None:
        steps.append(Step("Undecided", cert.reason))
        return Proof(r"\exists z \ge 0:\ \Phi z = \mathbf{1}", steps, "Undecided.", summary)
    if ev.route == "lp":
        assert ev.lp is not None  # the LP route records its LP
        steps.append(Step("Singular $\\Phi$", f"rank {ev.rank}: the solutions of $\\Phi z = \\mathbf 1$ form an "
                          "affine space (or none). An exact LP for $z \\ge 0$: optimum violation "
                          f"${tex(ev.lp.value)}$, certified by its dual."))
    else:
        assert ev.z is not None  # the solve route records its solution
        steps.append(Step("Solving $\\Phi z = \\mathbf 1$", f"$\\Phi$ is invertible ({cert.method}); "
                          f"$z = {_vec(ev.z)}$."))
    if ev.negative and ev.cells is not None and ev.z is not None and ev.cells < len(ev.z):
        steps.append(Step("A negative coordinate", f"$z_{{{ev.negative[0]}}} < 0$ (certified) in the solution of the "
                          f"{ev.cells} x {ev.cells} quotient $Q$ of an equitable partition (checked on every point), "
                          "$Q$ nonsingular. As $\\Phi$ is symmetric it commutes with averaging over cells, so the cell "
                          "average of any solution $z \\ge 0$ of $\\Phi z = \\mathbf 1$ would solve $Q x = \\mathbf 1$ "
                          "with $x \\ge 0$: none exists (equivalently the uniform prior is not regular, Prop. 8)."))
    elif ev.negative:
        steps.append(Step("A negative coordinate", f"$z_{{{ev.negative[0]}}} < 0$ (certified); $z$ is unique, so no "
                          "tight-constraints mechanism exists (equivalently the uniform prior is not regular, "
                          "Prop. 8)."))
    elif ev.mechanism is not None:
        steps.append(Step("The mechanism", "$h_{yy'} = \\phi_{yy'} z_{y'}$; its rows sum to 1 exactly (checked) and "
                          "it is private by Prop. 6."))
    summary += [("exists", cert.verdict.value)]
    if ev.z is not None:
        summary.append(("z", _vec(ev.z)))
    if ev.negative:
        summary.append(("negative at", ", ".join(ev.negative[:8])))
    return Proof(r"\exists z \ge 0:\ \Phi z = \mathbf{1}", steps,
                 "A tight-constraints mechanism exists." if cert.holds is True else
                 ("None exists." if cert.holds is False else "Undecided."), summary)


_PATH_Z = ("For a path ($d = h|i - j|$) $\\Phi$ is the Kac--Murdock--Szego matrix of $a = e^{-\\varepsilon h}$, whose "
           "inverse is $\\frac{1}{1-a^2}$ times the tridiagonal matrix with diagonal $(1, 1+a^2, \\dots, 1+a^2, 1)$ "
           "and off-diagonal $-a$; so $z = \\Phi^{-1}\\mathbf 1$ has $z = 1/(1+a)$ at both ends and $(1-a)/(1+a)$ "
           "inside (and $z = 1$ for one point): positive for every $a \\in (0, 1)$.")

_ZERO_ROUTES = {
    "symmetric": lambda ev: ("Ball-size symmetry", "The metric is ball-size symmetric, so Prop. 9 gives a "
                             "tight-constraints mechanism for every $\\varepsilon > 0$: the threshold is 0."),
    "path": lambda ev: ("Every level", _PATH_Z + " A tight-constraints mechanism exists for every "
                        "$\\varepsilon > 0$: the threshold is 0."),
    "manhattan": lambda ev: ("Every level", _PATH_Z + " On a Manhattan grid $e^{-\\varepsilon h(|dr| + |dc|)} = "
                             "e^{-\\varepsilon h|dr|} e^{-\\varepsilon h|dc|}$, so $\\Phi = \\Phi_{\\mathrm{rows}} "
                             "\\otimes \\Phi_{\\mathrm{cols}}$ and "
                             "$z = z_{\\mathrm{rows}} \\otimes z_{\\mathrm{cols}} > 0$: a tight-constraints mechanism "
                             "exists for every $\\varepsilon > 0$, the threshold is 0."),
}


_END = re.compile(r"root of (.+) in \((\S+), (\S+)\)")


def _end_shown(end: str) -> str:
    """An end of the existence set as a reader sees it: the exact text, with the decimal of its isolating interval
    (display only: the interval is what the re-check checks)."""
    m = _END.fullmatch(end)
    if m is None:
        return end
    from fractions import Fraction

    a, b = Fraction(m.group(2)), Fraction(m.group(3))
    return f"{end} (~{float((a + b) / 2):.12g})"


def existence_text(ev: ThresholdEvidence) -> str:
    """The set of ``alpha`` where a tight-constraints mechanism exists, as text (``U`` between pieces).

    Parameters
    ----------
    ev : ThresholdEvidence
        Route ``"exact-polynomial"``.

    Returns
    -------
    str
        ``"(0, 1/2] U [root of 2*t^2 - 1 in (a, b) (~0.707106781187), 1)"``; the ends are values of
        ``t = alpha^(1/L)`` (said when ``L > 1``).

    Examples
    --------
    >>> ev = ThresholdEvidence(description="m", route="exact-polynomial", distances=None, lo=None, hi=None,
    ...                        lo_rational=None, hi_rational=None, exact=None, exact_failure_set=None,
    ...                        negative_at_lo=None, root_of_alpha=1, attained=True,
    ...                        existence=[ExistencePiece("0", "1/2", False, True)])
    >>> existence_text(ev)
    '(0, 1/2]'
    """
    assert ev.existence is not None  # the exact route states its set
    out = []
    for p in ev.existence:
        if p.lo == p.hi:
            out.append(f"{{{_end_shown(p.lo)}}}")
        else:
            out.append(("[" if p.lo_closed else "(") + f"{_end_shown(p.lo)}, {_end_shown(p.hi)}"
                       + ("]" if p.hi_closed else ")"))
    where = "" if ev.root_of_alpha == 1 else f" (ends in t = alpha^(1/{ev.root_of_alpha}))"
    return " U ".join(out) + where


_DEFINITION = ("ECP14 Props. 7-8: a tight-constraints mechanism exists at $\\varepsilon$ iff the uniform prior is "
               "regular iff $\\Phi z = \\mathbf 1$ has a solution $z \\ge 0$ ($\\Phi$ need not be invertible). The "
               "threshold $\\varepsilon^*$ is the smallest level such that one exists at every "
               "$\\varepsilon \\ge \\varepsilon^*$ (the set of such levels need not be an interval: it is not "
               "the smallest level at which one exists).")


def _exact_steps(cert, ev: ThresholdEvidence) -> tuple:
    S = existence_text(ev)
    L = ev.root_of_alpha
    var = "\\alpha" if L == 1 else f"t = \\alpha^{{1/{L}}}"
    steps = [Step("The existence set, exactly", "On the quotient $Q$ of an equitable partition of the distance "
                  f"matrix (see the note), each $z_A = \\mathrm{{num}}_A / \\det Q$ is a ratio of exact polynomials in "
                  f"${var}$ (fraction-free elimination). Every root in (0, 1) of $\\det Q$ and of every "
                  "$\\mathrm{num}_A \\det Q$ is isolated exactly; between two roots no sign changes. At a root of "
                  "$\\det Q$ ($Q$ singular) $Q x = \\mathbf 1, x \\ge 0$ is decided exactly over the number field "
                  "of the root. As $\\Phi$ is symmetric, a solution $z \\ge 0$ exists iff the quotient's does. So "
                  f"a tight-constraints mechanism exists at $\\alpha = e^{{-\\varepsilon}}$ exactly for $\\alpha$ in "
                  f"{S}.")]
    assert ev.existence is not None
    one = len(ev.existence) == 1
    shape = "an interval" if one else f"not an interval ({len(ev.existence)} pieces)"
    if ev.exact == "0":
        steps.append(Step("The threshold", "The set is all of (0, 1): one exists at every $\\varepsilon > 0$; "
                          "the threshold is 0."))
        concl0 = ("threshold 0: a tight-constraints mechanism exists for every eps > 0 (the existence set is all of "
                  "(0, 1))")
        return steps, concl0, [("existence set (alpha)", S), ("threshold", "0")]
    a_star = ev.existence[0].hi
    exact = ev.exact or ""
    eps_tex = tex(exact) if exact.startswith("log(") else exact
    alpha = a_star if L == 1 else f"({a_star})^{L}"
    steps.append(Step("The threshold", f"The set is {shape}. Its first piece is $(0, \\alpha^*$"
                      + ("]" if ev.attained else ")") + f" with $\\alpha^* = {alpha}$, and one "
                      + ("exists" if ev.attained else "does NOT exist") + " at $\\alpha^*$ itself, so "
                      f"$\\varepsilon^* = -\\log \\alpha^* = {eps_tex}"
                      f" \\in [{ev.lo_rational}, {ev.hi_rational}]$"
                      + ("" if ev.attained else " (an infimum, not attained)") + "."
                      + ("" if one else " Below $\\varepsilon^*$ the set is not empty: one exists on the other "
                         "pieces, and none between them.")))
    concl = (f"threshold eps* = {exact}" + ("" if exact.startswith("log(") else f", alpha* = {_end_shown(alpha)}")
             + f" in [{ev.lo}, {ev.hi}]: one exists at every eps " + (">=" if ev.attained else ">") + " eps*; "
             f"the existence set (alpha = e^-eps) is {shape}: {S}")
    return steps, concl, [("existence set (alpha)", S), ("threshold", ev.exact), ("in", f"[{ev.lo}, {ev.hi}]")]


@renderer("threshold")
def _threshold_proof(cert) -> Proof:
    ev: ThresholdEvidence = cert.evidence
    steps = [Step("Definition", _DEFINITION)]
    if ev.route == "exact-polynomial" and ev.existence is not None:
        more, concl, summary = _exact_steps(cert, ev)
        return Proof(r"\varepsilon^* = \min\{\varepsilon_0 : \forall \varepsilon \ge \varepsilon_0\ "
                     r"\exists z \ge 0,\ \Phi z = \mathbf 1\}", steps + more, concl, summary)
    if ev.route in _ZERO_ROUTES:
        steps.append(Step(*_ZERO_ROUTES[ev.route](ev)))
        return Proof(r"\varepsilon^* = 0", steps, "threshold 0: a tight-constraints mechanism exists for every "
                     "eps > 0", [("threshold", "0")])
    if cert.reason is not None:
        steps.append(Step("Undecided", cert.reason))
        return Proof(r"\varepsilon^*", steps, "Undecided.", [])
    steps.append(Step("Certified sign change", f"At $\\varepsilon = {ev.hi_rational}$ every $z_i$ is certified "
                      f"positive ({cert.method}): a tight-constraints mechanism exists. At $\\varepsilon = "
                      f"{ev.lo_rational}$, $z_{{{ev.negative_at_lo}}} < 0$ (certified): none exists. So "
                      "$\\varepsilon^* > $ lo. That one exists at every level above hi is NOT certified: the exact "
                      "route (the existence set over all of (0, 1)) does not apply to this metric (too costly, "
                      "irrational distances, or a singular point it cannot decide), and existence need not be "
                      "monotone in $\\varepsilon$."))
    concl = (f"z changes sign in [{ev.lo}, {ev.hi}]: none exists at eps = {ev.lo}, one at eps = {ev.hi}; so the "
             f"threshold eps* > {ev.lo} (eps* <= {ev.hi} is not certified)")
    summary = [("none at", ev.lo), ("one at", ev.hi)]
    return Proof(r"\varepsilon^* > \mathrm{lo}", steps, concl, summary)


def bits_shown(bits: str) -> str:
    """Return the leakage as a reader sees it: ``log2(2^k)`` is the integer ``k``, any other text unchanged.

    ``2^k`` are the only rationals ``>= 1`` with a rational ``log2``.  The certificate keeps the ``log2(...)``
    form it states (the re-check rebuilds that text).

    Parameters
    ----------
    bits : str
        ``"0"`` or ``"log2(r)"`` with ``r`` an exact rational (:attr:`LeakageEvidence.leakage_bits`).

    Returns
    -------
    str
        ``k`` when ``r = 2^k``, else ``bits``.

    Examples
    --------
    >>> bits_shown("log2(2)"), bits_shown("log2(8)"), bits_shown("log2(6)"), bits_shown("log2(3/2)")
    ('1', '3', 'log2(6)', 'log2(3/2)')
    """
    m = re.fullmatch(r"log2\((\d+)\)", bits)
    r = int(m.group(1)) if m else 0
    return str(r.bit_length() - 1) if r > 0 and r & (r - 1) == 0 else bits


@renderer("leakage")
def _leakage_proof(cert) -> Proof:
    ev: LeakageEvidence = cert.evidence
    steps = [Step("Definition", "$L(H,\\pi) = H_\\infty(\\pi) - H_\\infty(H,\\pi) = \\log_2 \\sum_z \\max_y \\pi_y "
                  "h_{yz} - \\log_2 \\max_y \\pi_y$ (ECP14 sec. 3.5)."),
             Step("Exact values", f"$\\sum_z \\max_y \\pi_y h_{{yz}} = {tex(ev.max_utility)}$, "
                  f"$\\max_y \\pi_y = {tex(ev.max_prior)}$.")]
    enc = ev.enclosure
    return Proof(r"L(H,\pi) = \log_2 \frac{\sum_z \max_y \pi_y h_{yz}}{\max_y \pi_y}", steps,
                 f"L = {bits_shown(ev.leakage_bits)} in [{enc[0]}, {enc[1]}] bits.",
                 [("leakage (bits)", bits_shown(ev.leakage_bits)), ("enclosure", f"[{enc[0]}, {enc[1]}]")],
                 value_only=True)


@renderer("theorem4")
def _theorem4_proof(cert) -> Proof:
    ev: Theorem4Evidence = cert.evidence
    steps = [Step("Theorem 4", "ECP14 Thm 4: $H$ is optimal for every regular prior iff $HR$ is a tight-constraints "
                  "mechanism for some remap $R$; the tight equalities $(HR)_{yy'} = \\phi_{yy'} (HR)_{y'y'}$ are "
                  "linear in $R$."),
             Step("Exact LP", f"minimise the total violation over stochastic $R$ ({ev.variables} variables): "
                  f"optimum ${tex(ev.lp_value)}$ (exact, with its dual).")]
    return Proof(r"\exists R:\ \Phi\,\mathrm{diag}(HR) = \mathbf 1", steps,
                 "Optimal for every regular prior." if cert.holds is True else "No remap works.",
                 [("LP optimum", ev.lp_value)])

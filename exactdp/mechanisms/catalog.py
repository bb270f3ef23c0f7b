"""The named builders of ``exactdp mechanism NAME``: one line each, and the frequency oracles by name.

>>> sorted(BUILDERS)[:4]
['blh', 'discrete-gaussian', 'exponential', 'geometric']
>>> build("grr", k=3, eps="log(2)").entry(0, 0)
1/2
"""

from __future__ import annotations

from typing import Any, NamedTuple
from collections.abc import Callable

from ..errors import InvalidInput
from . import ldp, ldp_hash
from .discrete_gaussian import discrete_gaussian
from .exponential import exponential
from .geometric import geometric
from .ldp import Oracle
from .selection import permute_and_flip, report_noisy_max
from .staircase import staircase

__all__ = ["BUILDERS", "ORACLES", "build", "oracle_of"]


class Builder(NamedTuple):
    """One named builder: how to call it, what it is, and which parameters it takes."""

    fn: Callable[..., Any]
    summary: str
    params: tuple


def _geometric(k, level, **kw):
    if k < 2:
        raise InvalidInput(f"mechanism geometric: k (the number of inputs 0..k-1) must be at least 2, got {k}")
    return geometric(k - 1).at(level) if level is not None else geometric(k - 1)


def _exponential(k, level, **kw):
    from ..metrics import path

    return exponential(path(k), beta="eps/2").at(level) if level is not None else exponential(path(k))


#: frequency oracles by name: ``fn(k, level, **params) -> Oracle``
ORACLES: dict = {
    "grr": ldp._grr,
    "sue": ldp._sue,
    "oue": ldp._oue,
    "subset": lambda k, level, omega=None: ldp._subset(k, level, omega),
    "blh": lambda k, level: ldp_hash._lh(k, level, 2, "linear"),
    "olh": lambda k, level, family=None: ldp_hash._lh(k, level, ldp_hash.olh_g(level), family),
    "lh": lambda k, level, g=None, family=None: ldp_hash._lh(k, level, _need(g, "g", "lh"), family),
    "hadamard": ldp_hash._hr,
}


def _need(v, name, builder):
    if v is None:
        raise InvalidInput(f"{builder}: needs --{name}")
    return v


def _oracle_builder(name):
    return lambda k, level, **kw: oracle_of(name, k, level, **kw).mechanism


def _int(v):
    """An integer given as text (the command line) or as an int; anything else is left to the builder to refuse."""
    return int(v) if isinstance(v, str) and v.strip().lstrip("-").isdigit() else v


def _scores_builder(fn):
    def run(k, level, scores=None, sensitivity=1):
        s = _int(sensitivity) if fn is report_noisy_max else sensitivity
        return fn(_need(scores, "scores", fn.__name__), level=level, sensitivity=s)
    return run


BUILDERS: dict = {
    "grr": Builder(_oracle_builder("grr"), "generalized (k-ary) randomized response, exactly eps-LDP (WBLJ17 4.1)", ()),
    "sue": Builder(_oracle_builder("sue"), "symmetric unary encoding / basic RAPPOR, bits kept w.p. "
                   "e^(eps/2)/(e^(eps/2)+1) (WBLJ17 4.3), k <= 10", ()),
    "oue": Builder(_oracle_builder("oue"), "optimized unary encoding, p = 1/2, q = 1/(e^eps+1) (WBLJ17 4.3), "
                   "k <= 10", ()),
    "blh": Builder(_oracle_builder("blh"), "binary local hashing, linear hash family over Z_2 (WBLJ17 4.4)", ()),
    "olh": Builder(_oracle_builder("olh"), "optimal local hashing, g = round(e^eps) + 1 (WBLJ17 4.4)", ("family",)),
    "lh": Builder(_oracle_builder("lh"), "local hashing with g values and an explicit hash family (WBLJ17 4.4)",
                  ("g", "family")),
    "hadamard": Builder(_oracle_builder("hadamard"), "Hadamard response (Acharya, Sun, Zhang 2019)", ()),
    "subset": Builder(_oracle_builder("subset"), "omega-subset selection (Ye & Barg 2018)", ("omega",)),
    "geometric": Builder(_geometric, "range-restricted geometric mechanism on 0..k-1 (GRS12 Ex. 2.1)", ()),
    "exponential": Builder(_exponential, "exponential mechanism on the path 0..k-1, beta = eps/2 (KL10 Def. 2.6)", ()),
    "discrete-gaussian": Builder(lambda k, level, base=None, sigma2=None: discrete_gaussian(k - 1, base=base,
                                                                                            sigma2=sigma2),
                                 "discrete Gaussian on 0..k-1, truncated (CKS20 Def. 1); --base or --sigma2, no eps",
                                 ("base", "sigma2")),
    "staircase": Builder(lambda k, level, sensitivity=1, gamma=1: staircase(k - 1, delta=_int(sensitivity), gamma=gamma,
                                                                           level=level),
                         "discrete staircase on 0..k-1, clamped, sensitivity Delta, step gamma (GV16 sec. V)",
                         ("sensitivity", "gamma")),
    "permute-and-flip": Builder(_scores_builder(permute_and_flip), "permute-and-flip on a score table "
                                "(McKenna & Sheldon 2020)", ("scores", "sensitivity")),
    "report-noisy-max": Builder(_scores_builder(report_noisy_max), "report-noisy-max, two-sided geometric noise "
                                "e^(-eps/(2 Delta)), uniform ties (DR14 Claim 3.9)", ("scores", "sensitivity")),
}


def oracle_of(name: str, k: int, level: Any, **params: Any) -> Oracle:
    """Build the frequency oracle ``name`` with its report supports.

    Parameters
    ----------
    name : str
        A key of :data:`ORACLES`.
    k : int
        Domain size.
    level : Level or None
        The level (None: a symbolic alpha).
    **params
        The builder's further parameters.

    Returns
    -------
    Oracle
        ``(mechanism, support)``.

    Raises
    ------
    InvalidInput
        An unknown name or parameter, or any error of the builder.

    Examples
    --------
    >>> from exactdp.exact.level import level_of
    >>> oracle_of("grr", 2, level_of(eps="log(3)")).support
    (frozenset({0}), frozenset({1}))
    """
    fn = ORACLES.get(name)
    if fn is None:
        raise InvalidInput(f"frequency oracle: unknown name {name!r}; expected one of {', '.join(sorted(ORACLES))}")
    try:
        return fn(k, level, **params)
    except TypeError as e:
        raise InvalidInput(f"{name}: {e}; hint: exactdp mechanism --list shows each builder's parameters") from None


def build(name: str, *, k: int, level: Any = None, eps: Any = None, alpha: Any = None, **params: Any):
    """Build the named mechanism of :data:`BUILDERS` (what ``exactdp mechanism NAME`` runs).

    Parameters
    ----------
    name : str
        A key of :data:`BUILDERS`.
    k : int
        Number of inputs ``0..k-1`` (for the selection builders: ignored, the score table decides).
    level : Level, optional
        The level; or ``eps`` / ``alpha`` (one of them; none: a symbolic alpha where the builder allows it).
    eps, alpha : exact number, optional
        The level as text.
    **params
        The builder's further parameters (its ``params``), ``None`` values dropped.

    Returns
    -------
    Mechanism
        The built mechanism.

    Raises
    ------
    InvalidInput
        An unknown name, a parameter the builder does not take, or any error of the builder.

    Examples
    --------
    >>> build("staircase", k=3, eps="log(2)").entry(0, 0)
    2/3
    """
    from ._levels import level_arg

    b = BUILDERS.get(name)
    if b is None:
        raise InvalidInput(f"mechanism: unknown name {name!r}; expected one of {', '.join(sorted(BUILDERS))}")
    params = {p: v for p, v in params.items() if v is not None}
    extra = sorted(set(params) - set(b.params))
    if extra:
        raise InvalidInput(f"mechanism {name}: does not take --{extra[0]}; it takes "
                           f"{', '.join('--' + p for p in b.params) or 'no further parameters'}")
    lv = level_arg(eps, alpha, level, required=False)
    if k is not None and (isinstance(k, bool) or not isinstance(k, int) or k < 1):
        # said in the caller's terms (k inputs), before a builder restates it as its own n = k - 1
        raise InvalidInput(f"mechanism {name}: k (the number of inputs 0..k-1) must be an integer >= 1, got {k!r}")
    if name == "discrete-gaussian" and lv is not None:
        raise InvalidInput("discrete-gaussian: its noise is set by --base or --sigma2, not by a privacy level")
    if name in ORACLES:
        return oracle_of(name, k, lv, **params).mechanism
    return b.fn(k, lv, **params)

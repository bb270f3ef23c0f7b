"""Optimal (Bayes) remaps of a mechanism for a user (GRS12 sec. 2.3).

For each output ``z``, the posterior over results is ``p_i K(i)(z) / sum``; the
optimal guess minimises the posterior expected loss
``sum_i p_i K(i)(z) l(i, r)`` over ``r`` (the normalisation does not change the
minimiser).  Ties are broken towards the **smallest** ``r``; an output that
has probability 0 under the prior is mapped to the smallest ``r`` minimising
the prior expected loss ``sum_i p_i l(i, r)`` (it never occurs, so any choice
is optimal).  Every comparison is exact.

>>> from exactdp.mechanisms import geometric
>>> from exactdp.optimality.users import User, expected_loss
>>> u = User(["1/2", 0, 0, "1/2"], "binary")
>>> G = geometric(3, "1/2")
>>> mapping, remapped = bayes_remap(G, u)
>>> mapping
{'0': '0', '1': '0', '2': '3', '3': '3'}
>>> expected_loss(G, u), expected_loss(remapped, u)
(1/3, 1/6)
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from collections.abc import Sequence

from flint import fmpq

from ..exact.decide import sign
from ..mechanism import Mechanism

if TYPE_CHECKING:
    from .users import User

__all__ = ["bayes_remap", "remap_matrix"]


def _argmin(costs):
    best = 0
    for r in range(1, len(costs)):
        if sign(costs[r] - costs[best]) < 0:
            best = r
    return best


def bayes_remap(mech: Mechanism, user: User) -> tuple[dict, Mechanism]:
    """Return the Bayes-optimal deterministic remap of a mechanism for a user (GRS12 sec. 2.3).

    Each output goes to the result of least posterior expected loss, ties to the smallest; an output of
    prior probability 0 goes to the result of least prior expected loss.

    Parameters
    ----------
    mech : Mechanism
        A mechanism with inputs ``"0".."n"``.
    user : User
        The prior and the loss on ``{0..n}``.

    Returns
    -------
    mapping : dict
        Each output label of ``mech`` -> a result ``"0".."n"``.
    remapped : Mechanism
        ``mech`` followed by the mapping, with outputs ``"0".."n"``.

    Examples
    --------
    A mechanism that lies with probability ``3/4``: under the binary loss the optimal remap reads
    each answer backwards, and the expected loss falls from ``3/4`` to ``1/4``.

    >>> from exactdp.optimality.users import User, expected_loss
    >>> K = Mechanism.from_rows(["0", "1"], ["0", "1"], [["1/4", "3/4"], ["3/4", "1/4"]])
    >>> u = User.uniform(1, "binary")
    >>> mapping, remapped = bayes_remap(K, u)
    >>> mapping, expected_loss(K, u), expected_loss(remapped, u)
    ({'0': '1', '1': '0'}, 3/4, 1/4)
    """
    n = user.n
    fallback = _argmin([sum((user.prior[i] * user.loss[i][r] for i in range(n + 1)), fmpq(0))
                        for r in range(n + 1)])
    mapping = {}
    rows = mech.rows()
    W = [[user.prior[i] * rows[mech.row_index[str(i)]][j] for i in range(n + 1)] for j in range(len(mech.outputs))]
    # all rational (the GRS12 LP regime): every output's cost vector at once, as one exact matrix product
    # (an (n+1)^3 loop of Python rationals took 110 s at n = 300)
    fast = all(isinstance(v, fmpq) for r in W for v in r) and all(isinstance(v, (fmpq, int)) for r in user.loss
                                                                    for v in r)
    if fast and W:
        from flint import fmpq_mat

        C = fmpq_mat(W) * fmpq_mat([[fmpq(v) for v in r] for r in user.loss])
    for j, z in enumerate(mech.outputs):
        weights = W[j]
        nz = [(i, w) for i, w in enumerate(weights) if sign(w) != 0]
        if not nz:
            mapping[z] = str(fallback)
            continue
        if fast:
            costs = [C[j, r] for r in range(n + 1)]
        else:
            costs = [sum((w * user.loss[i][r] for i, w in nz if user.loss[i][r] != 0), fmpq(0))
                     for r in range(n + 1)]
        mapping[z] = str(_argmin(costs))
    remapped = mech.remap(mapping, outputs=[str(r) for r in range(n + 1)],
                          name=f"{mech.name}, Bayes-remapped for {user.name}")
    return mapping, remapped


def remap_matrix(mapping: dict, outputs: Sequence[str], targets: Sequence[str]) -> Mechanism:
    """Return a deterministic remap as an exact 0/1 stochastic matrix (rows: outputs, columns: targets).

    Parameters
    ----------
    mapping : dict
        Each output label -> a target label.
    outputs : sequence of str
        The rows, in order.
    targets : sequence of str
        The columns, in order.

    Returns
    -------
    Mechanism
        Row ``z`` is 1 in column ``mapping[z]`` and 0 elsewhere.

    Examples
    --------
    >>> R = remap_matrix({"a": "0", "b": "0", "c": "1"}, ["a", "b", "c"], ["0", "1"])
    >>> [[str(v) for v in row] for row in R.rows()]
    [['1', '0'], ['1', '0'], ['0', '1']]
    """
    targets = [str(t) for t in targets]
    rows = [["1" if str(mapping[z]) == t else "0" for t in targets] for z in outputs]
    return Mechanism.from_rows(outputs, targets, rows, symbolic=False, name="deterministic remap")

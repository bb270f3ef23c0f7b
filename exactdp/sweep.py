"""Many independent jobs, results in input order: in this process, or on a Dask cluster (issue 20, item 5).

One engine for every sweep of the command line -- ``exactdp batch``, ``exactdp reproduce``, the figure curves
of ``exactdp plot`` -- and for ``docs/make_figures.py``: :func:`sweep` runs ``fn`` on each item here, one after
the other, unless asked for Dask (``dask.distributed``, the optional extra ``exactdp[dask]``): ``workers=N``
starts a local cluster of ``N`` worker processes for the sweep, ``scheduler=ADDRESS`` uses an existing
cluster.  Either way the results come back in the order of the items, and each is what ``fn(item)`` returns in
a process of its own, so a sweep on a cluster gives the serial results.  No home-made pool (docs/sweeps.md#sec-dask).

On a cluster ``fn`` and the items travel to the workers: give a module-level function and plain data (claim
ids, file paths the workers can open, rational text), not open files or lambdas.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeVar

from .errors import InvalidInput

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator

__all__ = ["sweep"]

T = TypeVar("T")


def sweep(fn: Callable[[Any], T], items: Iterable[Any], *, workers: int | None = None,
          scheduler: str | None = None, what: str = "sweep") -> Iterator[T]:
    """``fn(item)`` for each item, yielded in input order: serially here, or on a Dask cluster.

    Parameters
    ----------
    fn : callable
        A function of one item; on a cluster a module-level (picklable) function.
    items : iterable
        The jobs.  On a cluster they are sent to the workers: plain data.
    workers : int, optional
        Run on a local Dask cluster of this many worker processes (one thread each), started and closed here.
    scheduler : str, optional
        Run on an existing Dask cluster: its scheduler address, e.g. ``tcp://10.0.0.5:8786``.
    what : str
        The sweep's name (the command), for the messages.

    Returns
    -------
    iterator
        The results, in the order of ``items``.  Serially each job runs when its result is asked for; on a
        cluster every job is submitted at the first request.

    Raises
    ------
    InvalidInput
        ``workers < 1``, both ``workers`` and ``scheduler``, or Dask not installed (at the call); the
        scheduler unreachable (at the first request, before any job).

    Examples
    --------
    >>> list(sweep(abs, [-2, 1, -3]))
    [2, 1, 3]
    >>> sweep(abs, [1], workers=0)
    Traceback (most recent call last):
    ...
    exactdp.errors.InvalidInput: sweep --workers: expected N >= 1, got 0
    """
    if workers is None and scheduler is None:
        return map(fn, items)
    if workers is not None and scheduler is not None:
        raise InvalidInput(f"{what}: give --workers or --scheduler, not both")
    if workers is not None and workers < 1:
        raise InvalidInput(f"{what} --workers: expected N >= 1, got {workers}")
    try:
        import dask.distributed  # noqa: F401  (checked here, before any output; used by _on_dask)
    except ImportError:
        raise InvalidInput(f"{what} --workers/--scheduler needs Dask: pip install 'exactdp[dask]'") from None
    return _on_dask(fn, list(items), workers, scheduler, what)


def _on_dask(fn, jobs, workers, scheduler, what):
    """The Dask half of :func:`sweep`: the cluster is started (or reached) at the first request and closed when
    the results are all out (or the consumer stops)."""
    import logging

    from dask.distributed import Client, LocalCluster

    cluster = None
    try:
        if scheduler is not None:
            client = Client(scheduler, timeout=30)
        else:
            # no dashboard, and the scheduler's own HTTP routes on a free port: its default, 8787, is taken when two
            # clusters start at once (two sweeps, or a test run on several cores), and Dask warns and moves
            cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                   dashboard_address=None, silence_logs=logging.ERROR,
                                   scheduler_kwargs={"dashboard_address": ":0"})
            client = Client(cluster)
    except (OSError, ValueError, TypeError) as e:
        if cluster is not None:
            cluster.close()
        if not isinstance(e, OSError) and scheduler is None:
            raise
        # OSError: unreachable; ValueError/TypeError: an address Dask cannot parse ('host' without a port)
        msg = str(e).splitlines()[0] if str(e) else type(e).__name__
        raise InvalidInput(f"{what}: cannot reach the Dask scheduler {scheduler!r}: {msg}") from None
    try:
        futures = client.map(fn, jobs, pure=False)
        for f in futures:
            yield f.result()
    finally:
        client.close()
        if cluster is not None:
            cluster.close()

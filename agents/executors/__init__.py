"""Where independent work runs: this process, local processes, or a Ray cluster.

>>> with open_executor(jobs=1) as executor:
...     sorted(executor.map_unordered(abs, [-2, 3]))
[(0, 2), (1, 3)]

:func:`open_executor` picks the backend from the two settings the programs expose,
``--jobs`` and ``--ray [ADDRESS]``. Ray is imported only when ``ray`` is given.
"""

from __future__ import annotations

from agents.executors.base import (
    Executor,
    InlineShared,
    Shared,
    WorkerExit,
    WorkerLostError,
)
from agents.executors.local import InlineExecutor, ProcessExecutor
from gomoku_env.fields import check_number

__all__ = [
    "Executor",
    "InlineExecutor",
    "InlineShared",
    "ProcessExecutor",
    "Shared",
    "WorkerExit",
    "WorkerLostError",
    "open_executor",
]


def open_executor(
    jobs: int | None = 1,
    ray: str | None = None,
    worker_exit: WorkerExit | None = None,
) -> Executor:
    """The executor for ``jobs`` workers, on the Ray at address ``ray`` when given.

    Args:
        jobs: workers at once; ``None`` means 1 here, or every CPU of the Ray cluster.
        ray: None to stay on this machine; otherwise a Ray address (``local`` starts a
            Ray here, ``auto`` joins a running one, ``HOST:PORT`` names one).
        worker_exit: run in every worker as it ends.

    Raises:
        ValueError: a bad ``jobs``, or ``ray`` given without Ray installed (the message
            says how to install it).
    """
    if jobs is not None:
        check_number("jobs", jobs, minimum=1, integer=True)
    if ray is not None:
        from agents.executors.ray_cluster import RayExecutor

        return RayExecutor(ray, jobs, worker_exit)
    if jobs is None or jobs == 1:
        return InlineExecutor(worker_exit)
    return ProcessExecutor(jobs, worker_exit)

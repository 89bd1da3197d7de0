"""Executors on this machine: in this process, or in a pool of spawned processes.

Worker processes start with the ``spawn`` method, which is safe with torch and numba
threads and the same on every platform; a script that uses them must guard its entry
point with ``if __name__ == "__main__":``.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import multiprocessing.util
import os
import signal
import sys
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool

from agents.executors.base import (
    ClosingExecutor,
    InlineShared,
    Item,
    Result,
    Value,
    WorkerExit,
    WorkerLostError,
)
from gomoku_env.fields import check_number

IN_FLIGHT_PER_WORKER = 2
"""Items queued per worker, so a worker never waits for the driver between items."""


class InlineExecutor(ClosingExecutor):
    """Runs every item here, one after another, in order: the single-process default.

    Args:
        worker_exit: called by :meth:`close`, as a worker's exit hook would be.
    """

    workers = 1

    def __init__(self, worker_exit: WorkerExit | None = None) -> None:
        self._worker_exit = worker_exit

    def share(self, value: Value) -> InlineShared[Value]:
        return InlineShared(value)

    def map_unordered(
        self, function: Callable[[Item], Result], items: Sequence[Item]
    ) -> Iterator[tuple[int, Result]]:
        for position, item in enumerate(items):
            yield position, function(item)

    def close(self) -> None:
        if self._worker_exit is not None:
            self._worker_exit()


def _start_worker(worker_exit: WorkerExit | None, threads: int, creator: int) -> None:
    # Each worker's share of the CPUs, read by torch when it is first imported here:
    # workers each running torch's default (every core) would fight over the cores.
    os.environ.setdefault("OMP_NUM_THREADS", str(threads))
    # Pool workers end with os._exit, which skips atexit; Finalize still runs.
    if worker_exit is not None:
        multiprocessing.util.Finalize(None, worker_exit, exitpriority=10)
    _end_with_parent(creator)


PR_SET_PDEATHSIG = 1


def _end_with_parent(creator: int) -> None:
    """On Linux, have the kernel end this worker when the process that started it
    (``creator``) dies: killed with SIGKILL, it cannot stop its pool, and both workers
    of a killed ``gomoku arena --jobs 2`` kept running at 100% CPU. A creator that died
    while this worker was still starting is seen here, and the worker ends at once.
    Elsewhere nothing changes."""
    if not sys.platform.startswith("linux"):
        return
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):
        return
    if os.getppid() != creator:
        os._exit(1)


class ProcessExecutor(ClosingExecutor):
    """Runs items in ``workers`` spawned processes, started on first use.

    A worker process that dies (an agent calling ``os._exit``) breaks the pool: the
    items it held are lost, and :meth:`map_unordered` raises :class:`WorkerLostError`.

    Args:
        workers: processes.
        worker_exit: run in each process as it ends.
    """

    def __init__(self, workers: int, worker_exit: WorkerExit | None = None) -> None:
        check_number("workers", workers, minimum=1, integer=True)
        self.workers = workers
        self._worker_exit = worker_exit
        self._pool: ProcessPoolExecutor | None = None

    def share(self, value: Value) -> InlineShared[Value]:
        return InlineShared(value)

    def _started_pool(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                max_workers=self.workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_start_worker,
                initargs=(
                    self._worker_exit,
                    max(1, (os.cpu_count() or 1) // self.workers),
                    os.getpid(),
                ),
            )
        return self._pool

    def map_unordered(
        self, function: Callable[[Item], Result], items: Sequence[Item]
    ) -> Iterator[tuple[int, Result]]:
        pool = self._started_pool()
        running: dict[Future, int] = {}
        next_item = 0
        try:
            while running or next_item < len(items):
                while (
                    next_item < len(items)
                    and len(running) < IN_FLIGHT_PER_WORKER * self.workers
                ):
                    running[pool.submit(function, items[next_item])] = next_item
                    next_item += 1
                finished, _ = wait(running, return_when=FIRST_COMPLETED)
                for future in finished:
                    position = running.pop(future)
                    try:
                        result = future.result()
                    except BrokenProcessPool:
                        raise WorkerLostError(
                            "a worker process died, breaking the pool",
                            position,
                            1,
                        ) from None
                    yield position, result
        finally:
            for future in running:
                future.cancel()

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None

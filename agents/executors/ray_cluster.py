"""Work on a Ray cluster: a pool of worker actors that replaces the ones that die.

Ray is imported only when a :class:`RayExecutor` is made, so nothing else in the
package needs it installed. Each worker is an actor with one CPU that runs one item
at a time (two are queued, so it never waits for the driver); values published with
:meth:`RayExecutor.share` go to Ray's object store once and every worker reads them
from there. A worker that dies (killed, out of memory, its node lost, an agent that
ends its process) is replaced by a fresh actor and its unfinished items run again:
items are seeded on their own, so they give the same results wherever they run. An
item that kills its worker on every try is given up after ``max_retries`` retries.
"""

from __future__ import annotations

import importlib
import logging
import re
import socket
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Generic

from agents.executors.base import (
    ClosingExecutor,
    Item,
    Result,
    Value,
    WorkerExit,
    WorkerLostError,
)
from gomoku_env.errors import install_hint
from gomoku_env.fields import check_number

LOCAL_CLUSTER = "local"
"""Ray's address for "start a new Ray on this machine" (``auto`` joins a running one)."""
INSTALL_HINT = install_hint("ray")
IN_FLIGHT_PER_WORKER = 2
STOP_TIMEOUT_SECONDS = 30.0
LOGGER = logging.getLogger(__name__)


def import_ray() -> ModuleType:
    """The ``ray`` module, or a ValueError that says how to install it."""
    try:
        return importlib.import_module("ray")
    except ImportError as error:
        raise ValueError(
            f"running on Ray needs the ray package, which is not installed here "
            f"({error}): {INSTALL_HINT}"
        ) from None


@dataclass(frozen=True)
class RayShared(Generic[Value]):
    """A value in Ray's object store; workers fetch it (zero-copy for arrays)."""

    reference: Any

    def get(self) -> Value:
        return import_ray().get(self.reference)


class RayWorker:
    """The actor behind each worker: runs items, and the exit hook before it ends."""

    def __init__(self, worker_exit: WorkerExit | None) -> None:
        self._worker_exit = worker_exit

    def run(self, function: Callable[[Any], Any], item: Any) -> Any:
        return function(item)

    def ready(self) -> bool:
        return True

    def stop(self) -> None:
        if self._worker_exit is not None:
            self._worker_exit()


def last_error_line(error: Exception) -> str:
    """The last ``SomeError: ...`` line of a Ray error's text (its root cause)."""
    causes = re.findall(r"\b\w+(?:Error|Exception): .*", str(error))
    return causes[-1].strip() if causes else type(error).__name__


def check_reachable(address: str, timeout: float = 10.0) -> None:
    """Refuse a ``HOST:PORT`` (or ``ray://HOST:PORT``) where nothing listens.

    Ray itself would retry such an address for many minutes; a plain TCP connection
    says at once whether a Ray head can be there. ``local`` and ``auto`` pass.
    """
    if address in (LOCAL_CLUSTER, "auto"):
        return
    host, separator, port = address.removeprefix("ray://").rpartition(":")
    if not separator or not host or not port.isdigit():
        raise ValueError(
            f"a Ray address is HOST:PORT, ray://HOST:PORT, auto or {LOCAL_CLUSTER}, "
            f"got {address!r}"
        )
    try:
        socket.create_connection((host, int(port)), timeout=timeout).close()
    except OSError as error:
        raise ValueError(
            f"cannot reach a Ray head at {address!r} ({error}): is `ray start --head` "
            "running there?"
        ) from None


def connect(address: str) -> bool:
    """Join the Ray at ``address`` (``local`` starts one); False if already joined."""
    ray = import_ray()
    if ray.is_initialized():
        return False
    if not isinstance(address, str) or not address:
        raise ValueError(f"a Ray address must be a non-empty string, got {address!r}")
    check_reachable(address)
    options: dict[str, Any] = {"logging_level": logging.WARNING}
    if address == LOCAL_CLUSTER:
        options["include_dashboard"] = False
    try:
        ray.init(address=address, **options)
    except (ConnectionError, RuntimeError) as error:
        ray.shutdown()
        reason = (str(error).strip().splitlines() or [type(error).__name__])[0]
        raise ValueError(f"cannot join the Ray at {address!r}: {reason}") from None
    except BaseException:  # a Ctrl-C while Ray starts: stop what it started so far
        ray.shutdown()
        raise
    return True


class RayExecutor(ClosingExecutor):
    """Runs items on ``workers`` Ray actors, each with one CPU.

    Args:
        address: the cluster to join: ``local`` starts a Ray on this machine (shut
            down again on :meth:`close`), ``auto`` finds a running one, and
            ``HOST:PORT`` or ``ray://HOST:PORT`` names one. Ignored when this process
            has already called ``ray.init``.
        workers: actors; default one per CPU of the cluster, and no more than it has
            (an actor without a CPU would wait for ever).
        worker_exit: run in each actor before it is ended by :meth:`close`.
        max_retries: tries of one item after the first, when its worker dies.
    """

    def __init__(
        self,
        address: str = LOCAL_CLUSTER,
        workers: int | None = None,
        worker_exit: WorkerExit | None = None,
        max_retries: int = 3,
    ) -> None:
        if workers is not None:
            check_number("workers", workers, minimum=1, integer=True)
        check_number("max_retries", max_retries, minimum=0, integer=True)
        self._ray = import_ray()
        self.max_retries = max_retries
        self._worker_exit = worker_exit
        self.actors: list[Any] = []
        self.replaced = 0
        """Actors that died and were replaced, over this executor's life."""
        self._owns_ray = connect(address)
        try:
            self._start_workers(workers)
        except BaseException:  # a Ctrl-C while the workers start: no Ray left behind
            self.close()
            raise

    def _start_workers(self, workers: int | None) -> None:
        """Start the actors, one CPU each, and wait until they answer."""
        cpus = int(self._ray.cluster_resources().get("CPU", 0))
        if workers is not None and workers > cpus:
            raise ValueError(
                f"{workers} Ray workers need one CPU each, and the cluster has {cpus}"
            )
        self.workers = workers if workers is not None else max(1, cpus)
        self._actor_class = self._ray.remote(num_cpus=1)(RayWorker)
        self.actors = [self._new_actor() for _ in range(self.workers)]
        self._check_started()

    def _check_started(self) -> None:
        """Wait for the actors, so that a cluster that cannot run them says why."""
        try:
            self._ray.get([actor.ready.remote() for actor in self.actors])
        except self._ray.exceptions.RayActorError as error:
            raise ValueError(
                f"the Ray workers cannot start ({last_error_line(error)}): every "
                "machine of the cluster needs this gomoku_env installed"
            ) from None

    def _new_actor(self) -> Any:
        return self._actor_class.remote(self._worker_exit)

    def share(self, value: Value) -> RayShared[Value]:
        return RayShared(self._ray.put(value))

    def map_unordered(
        self, function: Callable[[Item], Result], items: Sequence[Item]
    ) -> Iterator[tuple[int, Result]]:
        exceptions = self._ray.exceptions
        waiting = deque(range(len(items)))
        tries = [0] * len(items)
        running: dict[Any, tuple[int, Any]] = {}
        try:
            while waiting or running:
                self._submit(function, items, waiting, running, tries)
                (done,), _ = self._ray.wait(list(running), num_returns=1)
                position, actor = running.pop(done)
                try:
                    result = self._ray.get(done)
                except exceptions.RayActorError:
                    # Everything queued on a dead actor is lost with it.
                    lost = [position] + [
                        running.pop(other)[0]
                        for other, (_, owner) in list(running.items())
                        if owner is actor
                    ]
                    self._retry(actor, lost, tries, waiting)
                    continue
                except exceptions.RayTaskError as error:
                    raise error.as_instanceof_cause() from None
                yield position, result
        finally:
            self._abandon(running)

    def _abandon(self, running: dict[Any, tuple[int, Any]]) -> None:
        """Cancel the items still queued on live actors (a run cut short)."""
        for reference in running:
            try:
                self._ray.cancel(reference)
            except Exception as error:  # cancelling is a courtesy; a dead actor refuses
                LOGGER.debug("could not cancel %s: %s", reference, error)

    def _submit(
        self,
        function: Callable[[Item], Result],
        items: Sequence[Item],
        waiting: deque[int],
        running: dict[Any, tuple[int, Any]],
        tries: list[int],
    ) -> None:
        """Queue items round by round, so every actor has one before any has two."""
        load = {id(actor): 0 for actor in self.actors}
        for _, actor in running.values():
            if id(actor) in load:
                load[id(actor)] += 1
        for depth in range(1, IN_FLIGHT_PER_WORKER + 1):
            for actor in self.actors:
                if waiting and load[id(actor)] < depth:
                    position = waiting.popleft()
                    tries[position] += 1
                    reference = actor.run.remote(function, items[position])
                    running[reference] = (position, actor)
                    load[id(actor)] += 1

    def _retry(
        self,
        actor: Any,
        lost: list[int],
        tries: list[int],
        waiting: deque[int],
    ) -> None:
        """Replace the dead ``actor`` and queue its ``lost`` items again, first."""
        slot = next((i for i, now in enumerate(self.actors) if now is actor), None)
        if slot is not None:
            self._ray.kill(actor)
            self.actors[slot] = self._new_actor()
            self.replaced += 1
        for position in sorted(lost):
            if tries[position] > self.max_retries:
                raise WorkerLostError(
                    f"a Ray worker died on each of the {tries[position]} tries of "
                    f"item {position}",
                    position,
                    tries[position],
                )
        waiting.extendleft(sorted(lost, reverse=True))

    def close(self) -> None:
        if self._worker_exit is not None:
            stops = [actor.stop.remote() for actor in self.actors]
            # A worker that is dead or stuck must not keep the run from ending.
            self._ray.wait(stops, num_returns=len(stops), timeout=STOP_TIMEOUT_SECONDS)
        for actor in self.actors:
            self._ray.kill(actor)
        self.actors = []
        self._shutdown()

    def _shutdown(self) -> None:
        """Stop the Ray that this executor started, if it did."""
        if self._owns_ray:
            self._ray.shutdown()
            self._owns_ray = False

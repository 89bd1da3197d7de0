"""The executor seam: where independent pieces of work run, and what a lost worker means.

The arena's games and AlphaZero's self-play batches are independent pieces of work with
their own seeds, so they can run anywhere and come back in any order: the caller
numbers them and puts the results back in order. An :class:`Executor` hides where they
run (this process, local worker processes, or Ray actors on a cluster), so the game
runner and the self-play driver have one loop each whatever the backend.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

Item = TypeVar("Item")
Result = TypeVar("Result")
Value = TypeVar("Value")
WorkerExit = Callable[[], None]
"""Called in each worker process as it ends (to close engines an agent started)."""


class Shared(Protocol[Value]):
    """A value published once to every worker (a network's weights), read with get()."""

    def get(self) -> Value:
        """The value, fetched into this process on first use."""
        ...


@dataclass(frozen=True)
class InlineShared(Generic[Value]):
    """A shared value that travels by plain pickling (this process, local pools)."""

    value: Value

    def get(self) -> Value:
        return self.value


class WorkerLostError(RuntimeError):
    """A worker died and the work it had could not be finished elsewhere.

    Attributes:
        position: the position (in the items given) of a piece of work it lost.
        tries: how many times that piece was tried.
    """

    def __init__(self, message: str, position: int, tries: int) -> None:
        super().__init__(message)
        self.position, self.tries = position, tries


class Executor(Protocol):
    """Runs ``function(item)`` for independent items and yields results as they finish.

    ``function`` and the items must pickle (module-level functions, dataclasses) for any
    executor but the inline one. Exceptions raised by ``function`` reach the caller as
    they are; a worker that dies is :class:`WorkerLostError` unless the executor can
    run its work again elsewhere.
    """

    workers: int
    """How many pieces of work run at the same time."""

    def share(self, value: Value) -> Shared[Value]:
        """Publish ``value`` for the workers once, rather than with every item."""
        ...

    def map_unordered(
        self, function: Callable[[Item], Result], items: Sequence[Item]
    ) -> Iterator[tuple[int, Result]]:
        """``(position, function(items[position]))`` for every item, as each finishes.

        Closing the iterator early abandons the unfinished items.
        """
        ...

    def close(self) -> None:
        """End the workers (running each one's exit hook) and free what they hold."""
        ...

    def __enter__(self) -> Executor: ...

    def __exit__(self, *exc_info: object) -> None: ...


class ClosingExecutor:
    """Mixin: an executor used as a context manager closes on exit."""

    def close(self) -> None:
        """End the workers; every executor that mixes this in defines its own."""
        raise NotImplementedError(f"{type(self).__name__} must define close()")

    def __enter__(self) -> Any:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

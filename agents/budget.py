"""The budget of one move's search: simulations, nodes or seconds, whichever ends first.

The searching agents (:class:`agents.search.mcts.MCTSAgent`,
:class:`agents.alphazero.agent.AlphaZeroAgent`,
:class:`agents.classic.alphabeta.AlphaBetaAgent`) each take one :class:`Budget`, and the
search loop that owns it enforces it; AlphaZero self-play takes two
(:class:`agents.alphazero.training_config.SelfPlayConfig`'s ``full_search`` and
``fast_search``), whose simulations stop its trees as the agents' do
(:func:`agents.search.driver.search_target`), and refuses a clock.
A work budget (``simulations``, ``nodes``) makes the same seed play the same game on
any machine, as chess engines are tested with ``go nodes N``; a clock (``time``) does
not. An agent refuses a field it does not count
(:meth:`Budget.refuse`). In specs the fields stay flat options
(``mcts:simulations=400,time=1``); :func:`spec_budget` assembles them, the one place.

>>> Budget(simulations=400, time=1.0).time
1.0
>>> spec_budget({"time": 0.5, "depth": 3}, Budget(simulations=100))
Budget(simulations=None, nodes=None, time=0.5)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from gomoku_env.fields import check_fields, option


@dataclass(frozen=True)
class Budget:
    """Limits of one move's search; the first one reached stops it (None: not
    limited; give at least one)."""

    simulations: int | None = option(
        None, help="simulations a move (tree searches); none: not limited", minimum=1
    )
    nodes: int | None = option(
        None,
        help=(
            "nodes a move, counted by work (alpha-beta and its VCF searches); none: "
            "not limited"
        ),
        minimum=1,
    )
    time: float | None = option(
        None,
        help=(
            "seconds a move (a clock: the same seed may play other moves); none: not "
            "limited"
        ),
        above=0,
    )

    def __post_init__(self) -> None:
        check_fields(self)
        if self.simulations is None and self.nodes is None and self.time is None:
            raise ValueError("a Budget needs simulations, nodes or time (all are None)")

    def refuse(self, agent: str, counted: Collection[str]) -> None:
        """Raise ValueError naming a limit that ``agent`` does not count (only the
        fields in ``counted``)."""
        for item in dataclasses.fields(self):
            value = getattr(self, item.name)
            if value is not None and item.name not in counted:
                raise ValueError(
                    f"{agent} cannot count {item.name} (got {item.name}={value}); "
                    f"give {' or '.join(counted)}"
                )

    def with_time(self, seconds: float | None) -> Budget:
        """This budget with the clock set to ``seconds`` (a manager's turn time,
        :class:`agents.base.TimedAgent`); unchanged for None."""
        return self if seconds is None else dataclasses.replace(self, time=seconds)


MCTS_BUDGET = Budget(simulations=1000)
""":class:`agents.search.mcts.MCTSAgent`'s budget unless one is given."""
ALPHAZERO_BUDGET = Budget(simulations=200)
""":class:`agents.alphazero.agent.AlphaZeroAgent`'s budget unless one is given."""
ALPHABETA_BUDGET = Budget(nodes=100_000)
""":class:`agents.classic.alphabeta.AlphaBetaAgent`'s budget unless one is given."""

BUDGET_FIELDS = tuple(item.name for item in dataclasses.fields(Budget))
TREE_SEARCH_LIMITS = ("simulations", "time")
"""What MCTS and AlphaZero count (nodes are alpha-beta's)."""
ALPHABETA_LIMITS = ("nodes", "time")
"""What alpha-beta counts (simulations are the tree searches')."""


def uncounted(counted: Collection[str]) -> tuple[str, ...]:
    """The budget fields outside ``counted``: no spec option of such an agent."""
    return tuple(name for name in BUDGET_FIELDS if name not in counted)


def spec_budget(options: dict[str, Any], default: Budget | None) -> Budget | None:
    """The budget that a spec's flat options give, taken out of ``options``.

    No budget option: ``default``. Otherwise exactly the limits given (the others not
    limited); every one given as ``none`` gives None, no budget at all (alpha-beta's
    ``time=none,depth=2``: the depth alone stops it).
    """
    given = {name: options.pop(name) for name in BUDGET_FIELDS if name in options}
    if not given:
        return default
    if all(value is None for value in given.values()):
        return None
    return Budget(**given)

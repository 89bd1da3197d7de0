"""The ``--ray [ADDRESS]`` option of the commands that can run on a Ray cluster."""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

# Ray's own names (see agents.executors.ray_cluster), spelt out here so that building
# the parser imports no agents.
LOCAL_CLUSTER = "local"
INSTALL_HINT = "pip install 'gomoku_env[ray]'"


def ray_address(text: str) -> str:
    """argparse type: a Ray address, so that ``--ray A B`` does not take agent A for one."""
    if text in (LOCAL_CLUSTER, "auto") or ":" in text:
        return text
    raise argparse.ArgumentTypeError(
        f"{text!r} is not a Ray address (HOST:PORT, ray://HOST:PORT, auto or "
        f"{LOCAL_CLUSTER}); give --ray after the agents, or as --ray=ADDRESS"
    )


def add_ray_argument(group: argparse._ActionsContainer, what: str) -> None:
    """Add ``--ray [ADDRESS]``; ``what`` says what runs on the Ray workers."""
    group.add_argument(
        "--ray",
        nargs="?",
        const=LOCAL_CLUSTER,
        type=ray_address,
        metavar="ADDRESS",
        help=f"{what} on Ray workers, one per CPU of the cluster: alone, on a Ray "
        "started here; ADDRESS (HOST:PORT, ray://HOST:PORT or auto) joins that "
        f"cluster. Needs the ray extra: {INSTALL_HINT}",
    )


@contextmanager
def self_play_workers(address: str | None) -> Iterator[Any]:
    """Training's self-play workers on the Ray at ``address``; None without ``--ray``.

    The workers (one per CPU of the cluster) live as long as the ``with`` block, so
    they keep their copy of the network between iterations.
    """
    if address is None:
        yield None
        return
    from agents.alphazero.selfplay_workers import ExecutorSelfPlay
    from agents.executors import open_executor

    with open_executor(None, address) as executor:
        print(f"self-play on {executor.workers} Ray workers")
        yield ExecutorSelfPlay(executor)

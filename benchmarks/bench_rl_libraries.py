"""What each RL library's PettingZoo wrapper costs: gomoku 9×9 against connect four.

Each installed library (Tianshou, TorchRL, RLlib) collects env steps with a masked
uniform-random player in both seats, through its own PettingZoo wrapper and its own
collector (Tianshou's ``Collector``, TorchRL's ``Collector``, RLlib's env runner), first
on ``gomoku_env.env(board_size=9)``, then on PettingZoo's ``connect_four_v3`` in the
same run. Rounds alternate the two envs so that load on the machine hits them alike;
time is this process's CPU time, and the median rate over rounds is reported with the
ratio gomoku / connect four (1.0: our env costs the wrapper what connect four does).
The random players are the examples' own (``examples/torchrl_reinforce.py``,
``examples/rllib_ppo.py``). Libraries not installed are skipped.

Run: ``PYTHONPATH=. python benchmarks/bench_rl_libraries.py [--rounds 3] [--steps 2000]``
"""

from __future__ import annotations

import argparse
import importlib.util
import logging
import statistics
import sys
import time
from collections.abc import Callable
from importlib.metadata import version
from pathlib import Path
from types import ModuleType
from typing import Any

from pettingzoo.classic import connect_four_v3

import gomoku_env

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
Collect = Callable[[int], None]
"""Collects that many env steps through one library."""


def load_example(name: str) -> ModuleType:
    """Import ``examples/<name>.py``, whose random players the benchmark reuses."""
    spec = importlib.util.spec_from_file_location(
        f"example_{name}", EXAMPLES / f"{name}.py"
    )
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def make_gomoku() -> Any:
    return gomoku_env.env(board_size=9)


def make_connect_four() -> Any:
    return connect_four_v3.env()


def tianshou_collector(make_env: Callable[[], Any]) -> Collect:
    from tianshou.algorithm.multiagent.marl import MultiAgentOffPolicyAlgorithm
    from tianshou.algorithm.random import MARLRandomDiscreteMaskedOffPolicyAlgorithm
    from tianshou.data import Collector, VectorReplayBuffer
    from tianshou.env import DummyVectorEnv, PettingZooEnv

    # Tianshou warns on every collect that two-player returns are 2-D; they are.
    logging.getLogger("tianshou.data.stats").setLevel(logging.ERROR)
    probe = PettingZooEnv(make_env())
    players = [
        MARLRandomDiscreteMaskedOffPolicyAlgorithm(probe.action_space) for _ in range(2)
    ]
    algorithm = MultiAgentOffPolicyAlgorithm(algorithms=players, env=probe)
    envs = DummyVectorEnv([lambda: PettingZooEnv(make_env())])
    collector = Collector(algorithm, envs, VectorReplayBuffer(20_000, 1))
    collector.reset()
    return lambda steps: collector.collect(n_step=steps)


def torchrl_collector(make_env: Callable[[], Any]) -> Collect:
    from tensordict.nn import TensorDictModule, TensorDictSequential
    from torchrl.collectors import Collector
    from torchrl.envs import PettingZooWrapper

    example = load_example("torchrl_reinforce")
    env = PettingZooWrapper(make_env(), use_mask=True, categorical_actions=True, seed=0)
    policy = TensorDictSequential(
        *(
            TensorDictModule(
                example.UniformSampler(), [(group, "action_mask")], [(group, "action")]
            )
            for group in env.group_map
        )
    )

    def collect(steps: int) -> None:
        collector = Collector(
            env,
            policy,
            frames_per_batch=steps,
            total_frames=steps,
            auto_register_policy_transforms=False,
        )
        for _ in collector:
            pass

    return collect


def rllib_collector(make_env: Callable[[], Any]) -> Collect:
    import ray
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.env.multi_agent_env_runner import MultiAgentEnvRunner
    from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv
    from ray.tune.registry import register_env

    example = load_example("rllib_ppo")

    class RandomOnTensors(example.MaskedRandomModule):
        """The example's random player, declared torch: RLlib's env runner hands a
        module observations as tensors only when some module is a torch one."""

        framework = "torch"

    if not ray.is_initialized():
        ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False)
    name = f"bench_{make_env.__name__}"
    register_env(name, lambda _: PettingZooEnv(make_env()))
    config = (
        PPOConfig()
        .framework("torch")
        .environment(name)
        .env_runners(num_env_runners=0, num_envs_per_env_runner=1)
        .multi_agent(
            policies={"random"},
            policy_mapping_fn=lambda agent_id, episode, **kwargs: "random",
            policies_to_train=[],
        )
        .rl_module(
            rl_module_spec=MultiRLModuleSpec(
                rl_module_specs={"random": RLModuleSpec(module_class=RandomOnTensors)}
            )
        )
    )
    runner = MultiAgentEnvRunner(config=config)
    return lambda steps: runner.sample(num_timesteps=steps, explore=False)


LIBRARIES: dict[str, tuple[str, Callable[[Callable[[], Any]], Collect]]] = {
    "tianshou": ("tianshou", tianshou_collector),
    "torchrl": ("torchrl", torchrl_collector),
    "rllib": ("ray.rllib", rllib_collector),
}


def rate(collect: Collect, steps: int) -> float:
    """Env steps per CPU second of one collection of ``steps`` steps."""
    start = time.process_time()
    collect(steps)
    return steps / (time.process_time() - start)


def measure(build: Callable, rounds: int, steps: int) -> tuple[float, float]:
    """Median steps per second on gomoku 9×9 and on connect four, rounds alternating."""
    gomoku, connect_four = build(make_gomoku), build(make_connect_four)
    gomoku(steps // 10)  # warm-up: first calls compile and allocate
    connect_four(steps // 10)
    gomoku_rates, connect_four_rates = [], []
    for _ in range(rounds):
        gomoku_rates.append(rate(gomoku, steps))
        connect_four_rates.append(rate(connect_four, steps))
    return statistics.median(gomoku_rates), statistics.median(connect_four_rates)


def installed(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except ModuleNotFoundError:
        return False


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--steps", type=int, default=2_000)
    args = parser.parse_args()
    print(
        f"{'library':<10} {'version':<8} {'gomoku 9x9':>12} {'connect4':>10} {'ratio':>6}"
    )
    for library, (module, build) in LIBRARIES.items():
        if not installed(module):
            print(f"{library:<10} not installed, skipped")
            continue
        gomoku, connect_four = measure(build, args.rounds, args.steps)
        package = "ray" if library == "rllib" else library
        print(
            f"{library:<10} {version(package):<8} {gomoku:>12,.0f} "
            f"{connect_four:>10,.0f} {gomoku / connect_four:>6.2f}"
        )
    print("(env steps per CPU second, random legal moves, median of rounds)")


if __name__ == "__main__":
    main()

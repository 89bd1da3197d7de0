"""`pip install gomoku_env` without torch: the envs and the non-network agents work, and
AlphaZero and SB3 say which extra to install.

Each check runs in a fresh interpreter where ``import torch`` fails (``sys.modules``
holds None for it, which makes Python refuse the import), as on a machine without torch.
"""

import subprocess
import sys
import textwrap

import pytest

from tests.docs_examples import ROOT

BLOCK_TORCH = """
import sys
for name in ("torch", "stable_baselines3", "sb3_contrib"):
    sys.modules[name] = None
"""


def run_without_torch(code: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", BLOCK_TORCH + textwrap.dedent(code)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )


def test_envs_and_non_network_agents_play_without_torch():
    result = run_without_torch(
        """
        import gymnasium
        import gomoku_env
        from agents.game import play_game
        from agents.specs.parse import make_agent

        config = gomoku_env.GameConfig(board_size=9)
        specs = ["random", "heuristic", "alphabeta:depth=2,time=none",
                 "mcts:simulations=50"]
        agents = [make_agent(spec, config, seed=0) for spec in specs]
        env = gomoku_env.env(config=config)
        env.reset(seed=0)
        for agent in env.agent_iter():
            observation, reward, termination, truncation, info = env.last()
            player = agents[len(env.unwrapped.board.moves) % len(agents)]
            env.step(None if termination or truncation else player.act(observation))
        print("aec", info["reason"])
        gym = gymnasium.make("gomoku_env/Gomoku-v0", opponent="heuristic", board_size=9)
        observation, info = gym.reset(seed=0)
        observation, reward, *_ = gym.step(int(info["action_mask"].argmax()))
        vector = gymnasium.make_vec("gomoku_env/Gomoku-v0", num_envs=4, board_size=9)
        vector.reset(seed=0)
        print("gym", observation.shape)
        print("torch" in sys.modules and sys.modules["torch"] is not None)
        """
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.split()
    assert lines[0] == "aec" and lines[1] in ("five", "board_full")
    assert lines[-1] == "False"


@pytest.mark.parametrize(
    ("spec", "purpose", "extra"),
    [
        ("alphazero:weights=9x9", "AlphaZero (agents.alphazero)", "alphazero"),
        ("ppo:weights=9x9", "The PPO policy (agents.ppo)", "ppo"),
    ],
)
def test_network_agents_without_torch_name_the_extra(spec, purpose, extra):
    result = run_without_torch(
        f"""
        import gomoku_env
        from agents.specs.parse import make_agent

        try:
            make_agent({spec!r}, gomoku_env.GameConfig(board_size=9))
        except ValueError as error:
            print(error)
        """
    )
    assert result.returncode == 0, result.stderr
    assert f"{purpose} needs torch" in result.stdout
    assert f"pip install -e '.[{extra}]'" in result.stdout
    assert "https://download.pytorch.org/whl/cpu" in result.stdout


def test_sb3_without_it_names_the_extra():
    result = run_without_torch(
        """
        for module in ("agents.sb3", "gomoku_env.sb3"):
            try:
                __import__(module)
            except ImportError as error:
                print(type(error).__name__, error)
        """
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == 2
    assert all(line.startswith("MissingExtraError") for line in lines)
    assert all("pip install -e '.[sb3]'" in line for line in lines)


def test_the_cli_reports_a_missing_torch_as_an_error_not_a_traceback():
    result = run_without_torch(
        """
        from gomoku_apps.cli.main import main
        raise SystemExit(main(["arena", "alphazero", "random", "--games", "2",
                               "--board-size", "9", "--no-progress"]))
        """
    )
    assert result.returncode == 2, result.stderr
    assert "'.[alphazero]'" in result.stderr
    assert "Traceback" not in result.stderr

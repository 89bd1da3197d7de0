"""The shared torch policy network and its Agent (the RL-library examples' output)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import torch

import gomoku_env
from agents.base import RandomAgent
from agents.game import play_game
from agents.specs.parse import make_agent
from agents.training.torch_policy import (
    MASKED_SCORE,
    NetworkAgent,
    PolicyNetwork,
    PolicyShape,
    load_policy,
    mask_scores,
    save_policy,
)
from gomoku_env.config import GameConfig


def test_scores_and_values_fit_any_board() -> None:
    network = PolicyNetwork(PolicyShape(channels=4, layers=1))
    for size in (5, 9):
        scores, values = network(torch.zeros(3, size, size, 5, dtype=torch.int8))
        assert scores.shape == (3, size * size) and values.shape == (3,)
        assert bool((values.abs() <= 1).all())


def test_mask_scores_marks_only_illegal_cells() -> None:
    scores = torch.arange(4.0).reshape(1, 4)
    masked = mask_scores(scores, np.array([[1, 0, 1, 0]], dtype=np.int8))
    low = torch.tensor(MASKED_SCORE).item()  # as float32 holds it
    assert masked.tolist() == [[0.0, low, 2.0, low]]


def test_a_network_whose_scores_drifted_far_below_zero_still_plays_legal_cells() -> (
    None
):
    """A 9×9 TorchRL run's logits drifted to about -2e9: every legal cell must still
    beat every illegal one, in the greedy agent and in the masked distribution."""
    network = PolicyNetwork(PolicyShape(channels=4, layers=1))
    with torch.no_grad():
        for parameter in network.parameters():
            parameter.zero_()
        network.score_head.bias.fill_(-2e9)  # every score far below the old mask
    planes = np.zeros((5, 5, 5), dtype=np.int8)
    mask = np.zeros(25, dtype=np.int8)
    mask[[3, 17]] = 1
    scores, _ = network(planes[None])
    assert float(scores.max()) < -1e9
    observation = {"observation": planes, "action_mask": mask}
    assert NetworkAgent(network).act(observation) in (3, 17)
    masked = mask_scores(scores, mask[None])
    probabilities = torch.softmax(masked, -1)[0]
    assert float(probabilities[[3, 17]].sum()) == pytest.approx(1.0)


def test_saved_policy_loads_with_the_same_outputs(tmp_path: Path) -> None:
    torch.manual_seed(0)
    network = PolicyNetwork(PolicyShape(channels=8, layers=2))
    path = save_policy(tmp_path / "sub" / "p.pt", network, GameConfig(7, 4), note="x")
    planes = torch.randint(0, 2, (2, 7, 7, 5), dtype=torch.int8)
    loaded = load_policy(path)
    assert loaded.shape == PolicyShape(channels=8, layers=2)
    assert torch.allclose(loaded(planes)[0], network.eval()(planes)[0])


def test_spec_agent_plays_only_legal_moves_a_whole_game(tmp_path: Path) -> None:
    path = save_policy(tmp_path / "p.pt", PolicyNetwork(), GameConfig(6, 4))
    config = GameConfig(6, 4)
    agent = make_agent(
        f"python:agents.training.torch_policy:load_agent,path={path}", config
    )
    outcome = play_game(agent, RandomAgent(seed=1), config)
    assert outcome.forfeit is None and outcome.reason in ("five", "board_full")


def test_agent_takes_the_only_legal_cell(tmp_path: Path) -> None:
    path = save_policy(tmp_path / "p.pt", PolicyNetwork(), GameConfig(5, 4))
    spec = f"python:agents.training.torch_policy:load_agent,path={path}"
    agent = make_agent(spec, GameConfig(5, 4))
    env = gomoku_env.env(board_size=5, win_length=4)
    env.reset(seed=0)
    observation, *_ = env.last()
    mask = np.zeros_like(observation["action_mask"])
    mask[17] = 1
    assert (
        agent.act({"observation": observation["observation"], "action_mask": mask})
        == 17
    )


def test_missing_path_or_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="needs a path"):
        make_agent("python:agents.training.torch_policy:load_agent")
    with pytest.raises(FileNotFoundError, match=r"nothing\.pt"):
        make_agent(
            f"python:agents.training.torch_policy:load_agent,path={tmp_path}/nothing.pt"
        )


def test_bad_shape_names_the_value() -> None:
    with pytest.raises(ValueError, match=r"channels.*0"):
        PolicyShape(channels=0)
    with pytest.raises(ValueError, match=r"\(3, 3\)"):
        PolicyNetwork()(torch.zeros(3, 3))


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (
            lambda c: c["state_dict"]["score_head.bias"].fill_(float("nan")),
            "not finite",
        ),
        (
            lambda c: c["state_dict"].update(extra=torch.zeros(1)),
            "do not fit the network",
        ),
        (lambda c: c.update(shape={"channels": 10**9}), "bad network shape"),
        (lambda c: c.pop("shape"), "not a policy file written by save_policy"),
        (
            lambda c: c["state_dict"].update(
                {"score_head.bias": c["state_dict"]["score_head.bias"].long()}
            ),
            "torch.int64, not torch.float32",
        ),
    ],
)
def test_a_damaged_policy_file_is_one_clear_error(tmp_path, damage, message) -> None:
    path = save_policy(
        tmp_path / "p.pt", PolicyNetwork(PolicyShape(4, 1)), GameConfig(5, 4)
    )
    checkpoint = torch.load(path, weights_only=True)
    damage(checkpoint)
    torch.save(checkpoint, path)
    with pytest.raises(ValueError, match=message) as caught:
        load_policy(path)
    assert "\n" not in str(caught.value) and "weights_only" not in str(caught.value)


def test_a_policy_file_with_python_objects_gets_no_unsafe_advice(tmp_path) -> None:
    import fractions

    path = tmp_path / "pickled.pt"
    torch.save({"shape": {}, "state_dict": {}, "x": fractions.Fraction(1, 3)}, path)
    with pytest.raises(ValueError, match="never loaded because loading them could run"):
        load_policy(path)


def test_a_sampling_agent_draws_legal_cells_by_its_seed(tmp_path: Path) -> None:
    """``sample=true``: moves drawn from the masked softmax (the policy the
    policy-gradient examples train and their running rating measures), legal,
    the same for the same seed, spread where the greedy agent plays one cell."""
    torch.manual_seed(0)
    path = save_policy(
        tmp_path / "p.pt", PolicyNetwork(PolicyShape(4, 1)), GameConfig(5, 4)
    )
    observation = {
        "observation": np.zeros((5, 5, 5), dtype=np.int8),
        "action_mask": np.ones(25, dtype=np.int8),
    }
    observation["action_mask"][[0, 12]] = 0
    spec = f"python:agents.training.torch_policy:load_agent,path={path}"

    def moves(agent_spec: str, seed: int) -> list[int]:
        agent = make_agent(agent_spec, GameConfig(5, 4), seed=seed)
        return [agent.act(observation) for _ in range(40)]

    greedy, sampled = moves(spec, 1), moves(f"{spec},sample=true", 1)
    assert len(set(greedy)) == 1
    assert len(set(sampled)) > 5 and not {0, 12} & set(sampled)
    assert moves(f"{spec},sample=true", 1) == sampled
    assert moves(f"{spec},sample=true", 2) != sampled
    with pytest.raises(ValueError, match="sample must be true or false, got 'yes'"):
        make_agent(f"{spec},sample=yes", GameConfig(5, 4))

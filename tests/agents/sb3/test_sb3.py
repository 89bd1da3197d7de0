"""SB3 integration: checkers, a short MaskablePPO run, models as agents."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from sb3_contrib import MaskablePPO

import gomoku_env
from agents.sb3 import (
    GomokuCNN,
    PolicyAgent,
    PolicyPool,
    SelfPlayCallback,
    SelfPlayOpponent,
    load_agent,
)
from agents.specs.parse import make_agent
from gomoku_env.gym_env import GomokuEnv
from gomoku_env.planes import OPPONENT_STONES, PLANE_COUNT
from gomoku_env.sb3.vec_env import GomokuSB3VecEnv

POLICY_KWARGS = {
    "features_extractor_class": GomokuCNN,
    "features_extractor_kwargs": {"features_dim": 32, "channels": 8, "layers": 1},
    "normalize_images": False,
    "net_arch": [32],
}


def small_model(env, seed: int = 0) -> MaskablePPO:
    return MaskablePPO(
        "CnnPolicy",
        env,
        n_steps=32,
        batch_size=32,
        n_epochs=1,
        seed=seed,
        policy_kwargs=POLICY_KWARGS,
        device="cpu",
    )


@pytest.fixture(scope="module")
def trained() -> MaskablePPO:
    torch.set_num_threads(1)
    model = small_model(GomokuEnv(board_size=5, win_length=4, channels_first=True))
    model.learn(64)
    return model


def test_short_maskable_ppo_run_plays_only_legal_moves(trained: MaskablePPO) -> None:
    env = GomokuEnv(board_size=5, win_length=4, channels_first=True)
    observation, info = env.reset(seed=0)
    terminated = False
    while not terminated:
        masks = env.action_masks()
        action, _ = trained.predict(observation, action_masks=masks)
        assert masks[int(action)]
        observation, _, terminated, _, info = env.step(int(action))
    assert info["reason"] in ("five", "board_full")


def test_maskable_ppo_trains_on_the_compiled_vec_env() -> None:
    envs = GomokuSB3VecEnv(4, board_size=5, win_length=4, play_as="random", seed=0)
    model = small_model(envs)
    model.learn(128)
    assert model.num_timesteps == 128


def play_aec_game(agent: PolicyAgent, seat: str, seed: int) -> dict:
    env = gomoku_env.env(board_size=5, win_length=4)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    info = {}
    for name in env.agent_iter():
        observation, _, terminated, truncated, info = env.last()
        if terminated or truncated:
            action = None
        elif name == seat:
            action = agent.act(observation)
        else:
            action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        env.step(action)
    return info


@pytest.mark.parametrize("seat", ["black_0", "white_0"])
def test_model_as_agent_plays_full_aec_games(trained: MaskablePPO, seat: str) -> None:
    agent = PolicyAgent(trained)
    for seed in range(3):
        info = play_aec_game(agent, seat, seed)
        assert info["reason"] in ("five", "board_full")  # never "illegal_move"


def test_sampling_agents_own_their_randomness(trained: MaskablePPO) -> None:
    planes = np.zeros((64, 5, 5, PLANE_COUNT), dtype=np.int8)
    masks = np.ones((64, 25), dtype=np.int8)

    def draws(agent: PolicyAgent) -> list[int]:
        return agent.act_batch(planes, masks).tolist()

    lone = PolicyAgent(trained, deterministic=False, seed=1)
    alone = draws(lone) + draws(lone)
    first = PolicyAgent(trained, deterministic=False, seed=1)
    second = PolicyAgent(trained, deterministic=False, seed=2)
    global_state = torch.get_rng_state()
    interleaved = draws(first)
    other = draws(second)
    interleaved += draws(first)
    assert torch.equal(torch.get_rng_state(), global_state)
    assert interleaved == alone
    assert other != alone[:64]
    first.reset(seed=1)
    assert draws(first) == alone[:64]


def test_saved_model_loads_as_an_agent(trained: MaskablePPO, tmp_path) -> None:
    path = tmp_path / "model.zip"
    trained.save(path)
    agent = load_agent(
        config=gomoku_env.GameConfig(board_size=5, win_length=4), path=path
    )
    assert play_aec_game(agent, "black_0", 0)["reason"] in ("five", "board_full")
    with pytest.raises(ValueError, match="plays 5x5, not board_size 9"):
        load_agent(config=gomoku_env.GameConfig(board_size=9), path=path)
    with pytest.raises(ValueError, match="no saved MaskablePPO model"):
        load_agent(path=tmp_path / "missing.zip")
    spec = f"python:agents.sb3.policy_agent:load_agent,path={path}"
    from_spec = make_agent(spec, gomoku_env.GameConfig(board_size=5, win_length=4))
    assert play_aec_game(from_spec, "white_0", 1)["reason"] in ("five", "board_full")


def test_snapshots_are_frozen_copies(trained: MaskablePPO) -> None:
    pool = PolicyPool(capacity=2)
    for _ in range(3):
        pool.add(trained)
    assert len(pool.snapshots) == 2
    snapshot = pool.snapshots[-1].policy
    before = [parameter.clone() for parameter in snapshot.parameters()]
    with torch.no_grad():
        for parameter in trained.policy.parameters():
            parameter.add_(1.0)
    try:
        assert all(
            torch.equal(a, b)
            for a, b in zip(before, snapshot.parameters(), strict=True)
        )
        assert not any(parameter.requires_grad for parameter in snapshot.parameters())
    finally:
        with torch.no_grad():
            for parameter in trained.policy.parameters():
                parameter.sub_(1.0)


def test_self_play_callback_refreshes_the_pool_the_opponents_draw_from() -> None:
    pool = PolicyPool(capacity=3)
    envs = [GomokuEnv(opponent=SelfPlayOpponent(pool), board_size=5, win_length=4)]
    model = small_model(envs[0])
    model.learn(96, callback=SelfPlayCallback(pool, refresh_every=32))
    assert len(pool.snapshots) == 3
    opponent = envs[0].opponent
    opponent.reset(seed=0)
    assert opponent._snapshot in pool.snapshots


def test_self_play_opponent_plays_random_legal_moves_before_any_snapshot() -> None:
    opponent = SelfPlayOpponent(PolicyPool(), seed=0)
    opponent.reset(seed=1)
    mask = np.zeros(25, dtype=np.int8)
    mask[[3, 7]] = 1
    assert opponent.act(
        {"observation": np.zeros((5, 5, PLANE_COUNT), np.int8), "action_mask": mask}
    ) in (3, 7)


def test_self_play_opponent_drives_the_vector_env_in_batches(
    trained: MaskablePPO,
) -> None:
    pool = PolicyPool(capacity=3, latest_probability=0.0)
    for _ in range(3):
        pool.add(trained)
    opponent = SelfPlayOpponent(pool, seed=0)
    envs = gomoku_env.vector_env.GomokuVectorEnv(
        8,
        opponent=opponent,
        board_size=5,
        win_length=4,
        play_as="white",
        channels_first=True,
    )
    observations, _ = envs.reset(seed=0)
    assert (observations[:, OPPONENT_STONES].sum(axis=(1, 2)) == 1).all()
    first = dict(opponent._game_snapshots)
    assert set(first) == set(range(8)) and len({id(s) for s in first.values()}) > 1
    finished = np.zeros(8, dtype=bool)
    for _ in range(3):
        *_, terminated, _, _ = envs.step(np.argmax(envs.action_masks(), axis=1))
        finished |= terminated
    kept = [game for game in range(8) if not finished[game]]
    assert kept and all(opponent._game_snapshots[g] is first[g] for g in kept)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"capacity": 0}, "capacity"),
        ({"latest_probability": 2.0}, "latest_probability"),
    ],
)
def test_bad_pool_arguments(kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        PolicyPool(**kwargs)


@pytest.mark.parametrize(
    ("damage", "reason"),
    [
        (lambda data: b"PK\x03\x04 not really a zip", "not a zip archive"),
        (lambda data: bytes(300), "not a zip archive"),
        (lambda data: _rezipped(data, "data", b"{not json"), "damaged: Expecting"),
        # torch's own complaint varies with the damage; the line stays clean.
        (lambda data: _rezipped(data, "policy.pth", b"junk"), ""),
    ],
)
def test_a_damaged_model_is_one_clean_line_naming_the_file(
    trained: MaskablePPO, tmp_path, damage, reason
) -> None:
    good = tmp_path / "good.zip"
    trained.save(good)
    path = tmp_path / "damaged-model.zip"
    path.write_bytes(damage(good.read_bytes()))
    with pytest.raises(ValueError) as caught:
        load_agent(path=path)
    message = str(caught.value)
    assert message.startswith(f"{str(path)!r} is not a valid saved MaskablePPO model (")
    assert reason in message and "model.save(PATH)" in message
    assert "Error:" not in message and "weights_only" not in message
    assert "\n" not in message


def _rezipped(data: bytes, member: str, replacement: bytes) -> bytes:
    """A copy of the zip archive ``data`` with ``member`` replaced."""
    import io
    import zipfile

    source, target = zipfile.ZipFile(io.BytesIO(data)), io.BytesIO()
    with zipfile.ZipFile(target, "w") as archive:
        for name in source.namelist():
            archive.writestr(name, replacement if name == member else source.read(name))
    return target.getvalue()

"""SB3 integration: checkers, a short MaskablePPO run, models as agents."""

from __future__ import annotations

import contextlib
from pathlib import Path

import numpy as np
import pytest
import torch
from sb3_contrib import MaskablePPO

import gomoku_env
from agents.league import LeagueOpponent, LeagueOptions
from agents.sb3 import GomokuCNN, PolicyAgent, frozen_policy, load_agent
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
    snapshot = frozen_policy(trained).policy
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


def small_league(snapshot=None, **options) -> LeagueOpponent:
    """A league on 5x5 (no rating scale there: the heuristic plays the anchor
    games)."""
    config = gomoku_env.GameConfig(board_size=5, win_length=4)
    anchors = make_agent("heuristic", config)
    return LeagueOpponent(
        config, LeagueOptions(**options), snapshot, seed=0, anchors=anchors
    )


def test_a_league_snapshots_the_model_while_it_learns() -> None:
    league = small_league(
        lambda: frozen_policy(model), snapshot_every=4, anchor_share=0.0
    )
    envs = GomokuSB3VecEnv(
        4, opponent=league, board_size=5, win_length=4, channels_first=True, seed=0
    )
    model = small_model(envs)
    model.learn(128)
    assert league.taken >= 2 and len(league.snapshots) == league.taken
    assert all(isinstance(s, PolicyAgent) for s in league.snapshots.values())
    assert league.snapshots[1].policy is not model.policy


def test_frozen_snapshots_drive_the_vector_env_in_batches(
    trained: MaskablePPO,
) -> None:
    league = small_league(anchor_share=0.0, latest_share=0.0)
    for _ in range(3):
        league.add_snapshot(frozen_policy(trained))
    envs = gomoku_env.vector_env.GomokuVectorEnv(
        8,
        opponent=league,
        board_size=5,
        win_length=4,
        play_as="white",
        channels_first=True,
    )
    observations, _ = envs.reset(seed=0)
    assert (observations[:, OPPONENT_STONES].sum(axis=(1, 2)) == 1).all()
    first = [league.opponent_for(game) for game in range(8)]
    assert len(set(first)) > 1
    finished = np.zeros(8, dtype=bool)
    for _ in range(3):
        *_, terminated, _, _ = envs.step(np.argmax(envs.action_masks(), axis=1))
        finished |= terminated
    kept = [game for game in range(8) if not finished[game]]
    assert kept and all(league.opponent_for(g) == first[g] for g in kept)


@pytest.mark.parametrize(
    ("damage", "reason"),
    [
        (lambda data: b"PK\x03\x04 not really a zip", "not a zip archive"),
        (lambda data: bytes(300), "not a zip archive"),
        (lambda data: _rezipped(data, "data", b"{not json"), "damaged: Expecting"),
        (
            lambda data: _rezipped(data, "data", b"[" * 10**5 + b"]" * 10**5),
            "nested too deep",
        ),
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


class _Touch:
    """Unpickled, it creates the file ``path``: the code a crafted zip could run."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def __reduce__(self):
        return (Path.touch, (self.path,))


def _with_settings(data: bytes, change) -> bytes:
    """A copy of the zip ``data`` whose JSON ``data`` member went through ``change``."""
    import io
    import json
    import zipfile

    settings = json.loads(zipfile.ZipFile(io.BytesIO(data)).read("data"))
    change(settings)
    return _rezipped(data, "data", json.dumps(settings).encode())


def test_a_zip_never_runs_the_code_its_settings_carry(
    trained: MaskablePPO, tmp_path
) -> None:
    """SB3's loader unpickles a zip's settings; load_agent reads their plain copies,
    so a payload hidden in them stays inert (and SB3's own loader shows it is live)."""
    import base64
    import pickle

    good, marker = tmp_path / "good.zip", tmp_path / "the payload ran"
    trained.save(good)
    payload = base64.b64encode(pickle.dumps(_Touch(marker))).decode()

    def plant(settings: dict) -> None:
        settings["lr_schedule"][":serialized:"] = payload
        settings["policy_kwargs"][":serialized:"] = payload

    crafted = tmp_path / "crafted.zip"
    crafted.write_bytes(_with_settings(good.read_bytes(), plant))
    config = gomoku_env.GameConfig(board_size=5, win_length=4)
    agent = load_agent(config=config, path=crafted)
    assert play_aec_game(agent, "black_0", 0)["reason"] in ("five", "board_full")
    assert not marker.exists()
    with contextlib.suppress(Exception):
        MaskablePPO.load(crafted, device="cpu")
    assert marker.exists()


@pytest.mark.parametrize(
    ("change", "refusal"),
    [
        (lambda kwargs: kwargs.update(features_extractor_class="<class 'NatureCNN'>"),
         "features extractor \"<class 'NatureCNN'>\" is not GomokuCNN"),
        (lambda kwargs: kwargs.update(activation_fn="<class 'ReLU'>"),
         "policy settings \\['activation_fn'\\] shape a network"),
        (lambda kwargs: kwargs["features_extractor_kwargs"].update(layers=10**6),
         "layers 1000000 is not a whole number from 1 to 16"),
    ],
)  # fmt: skip
def test_a_zip_of_another_policy_is_refused_naming_what_differs(
    trained: MaskablePPO, tmp_path, change, refusal
) -> None:
    good, path = tmp_path / "good.zip", tmp_path / "other.zip"
    trained.save(good)
    path.write_bytes(
        _with_settings(good.read_bytes(), lambda data: change(data["policy_kwargs"]))
    )
    with pytest.raises(ValueError, match=refusal) as caught:
        load_agent(path=path)
    assert str(path) in str(caught.value) and "\n" not in str(caught.value)


def _rezipped(data: bytes, member: str, replacement: bytes) -> bytes:
    """A copy of the zip archive ``data`` with ``member`` replaced."""
    import io
    import zipfile

    source, target = zipfile.ZipFile(io.BytesIO(data)), io.BytesIO()
    with zipfile.ZipFile(target, "w") as archive:
        for name in source.namelist():
            archive.writestr(name, replacement if name == member else source.read(name))
    return target.getvalue()


def test_an_exported_policy_is_small_and_plays_as_its_model(
    trained: MaskablePPO, tmp_path
) -> None:
    """The weights-only file: smaller than the policy inside the zip (half precision,
    the shared features extractor saved once), the same move probabilities to half
    precision, and an agent through the same spec as the zip."""
    from agents.sb3.policy_agent import export_policy

    model_path, policy_path = tmp_path / "model.zip", tmp_path / "policy.pt"
    trained.save(model_path)
    export_policy(model_path, policy_path)
    parameters = sum(p.numel() for p in trained.policy.parameters())
    assert policy_path.stat().st_size < 2 * parameters + 20_000
    config = gomoku_env.GameConfig(board_size=5, win_length=4)
    spec = "python:agents.sb3.policy_agent:load_agent,path={}"
    zipped = make_agent(spec.format(model_path), config)
    exported = make_agent(spec.format(policy_path), config)
    assert exported.policy.features_extractor is exported.policy.pi_features_extractor
    rng = np.random.default_rng(0)
    planes = (rng.random((20, 5, 5, PLANE_COUNT)) < 0.2).astype(np.int8)
    masks = rng.random((20, 25)) < 0.7
    assert np.allclose(
        _probabilities(zipped, planes, masks),
        _probabilities(exported, planes, masks),
        atol=5e-3,
    )
    assert play_aec_game(exported, "black_0", 2)["reason"] in ("five", "board_full")
    with pytest.raises(ValueError, match="plays 5x5, not board_size 9"):
        load_agent(config=gomoku_env.GameConfig(board_size=9), path=policy_path)
    with pytest.raises(ValueError, match=r"ends in \.pt, not"):
        export_policy(model_path, tmp_path / "policy.zip")


def test_per_cell_features_keep_the_board_and_save_as_a_policy_file(tmp_path) -> None:
    """With ``cell_features`` the extractor ends in a 1x1 convolution: that many
    features per cell (and ``border`` one more input plane), no linear layer; SB3's
    heads read them directly, and the policy file rebuilds the same policy."""
    from agents.sb3.policy_file import load_policy_weights, save_policy_weights

    env = GomokuEnv(board_size=5, win_length=4, channels_first=True)
    model = MaskablePPO(
        "CnnPolicy", env, n_steps=32, batch_size=32, n_epochs=1, seed=0, device="cpu",
        policy_kwargs={
            "features_extractor_class": GomokuCNN,
            "features_extractor_kwargs": {"features_dim": 32, "channels": 8,
                                          "layers": 2, "cell_features": 3,
                                          "border": True},
            "normalize_images": False, "net_arch": {"pi": [], "vf": [16]},
        },
    )  # fmt: skip
    extractor = model.policy.features_extractor
    assert extractor.features_dim == 3 * 25
    assert extractor.convolutions[0].in_channels == PLANE_COUNT + 1
    assert model.policy.action_net.in_features == 3 * 25
    model.learn(64)
    loaded = load_policy_weights(save_policy_weights(model.policy, tmp_path / "p.pt"))
    rng = np.random.default_rng(1)
    planes = (rng.random((10, PLANE_COUNT, 5, 5)) < 0.2).astype(np.int8)
    masks = rng.random((10, 25)) < 0.7
    found = []
    for policy in (model.policy, loaded):
        tensor, _ = policy.obs_to_tensor(planes)
        with torch.no_grad():
            distribution = policy.get_distribution(tensor, action_masks=masks)
        found.append(distribution.distribution.probs.numpy())
    assert np.allclose(found[0], found[1], atol=5e-3)


def _probabilities(agent: PolicyAgent, planes: np.ndarray, masks: np.ndarray):
    tensor, _ = agent.policy.obs_to_tensor(planes.transpose(0, 3, 1, 2))
    with torch.no_grad():
        found = agent.policy.get_distribution(tensor, action_masks=masks)
    return found.distribution.probs.numpy()


@pytest.mark.parametrize(
    ("change", "refusal"),
    [
        (lambda saved: {"some": "other file"}, "is not an SB3 policy file"),
        (lambda saved: {**saved, "features": {**saved["features"], "layers": 10**6}},
         "layers 1000000 is not a whole number from 1 to 16"),
        (lambda saved: {**saved, "observation_shape": [PLANE_COUNT, 99, 99]},
         "a board side from 5 to 25"),
        (lambda saved: {**saved, "features": {**saved["features"],
                                               "cell_features": 10**6}},
         "cell_features 1000000 is not a whole number from 1 to 64"),
        (lambda saved: {**saved, "features": {**saved["features"], "border": "yes"}},
         "border 'yes' is not a bool"),
        (lambda saved: {**saved, "net_arch": [64] * 20}, "is not a few hidden layers"),
        (lambda saved: {**saved, "state_dict": {
            name: torch.full_like(tensor, float("nan"))
            for name, tensor in saved["state_dict"].items()}}, "not finite"),
        (lambda saved: {**saved, "extra": np.dtype("int8")}, "never loaded"),
    ],
)  # fmt: skip
def test_a_bad_policy_file_is_refused_naming_it(
    trained: MaskablePPO, tmp_path, change, refusal
) -> None:
    from agents.sb3.policy_file import load_policy_weights, save_policy_weights

    good = save_policy_weights(trained.policy, tmp_path / "good.pt")
    saved = torch.load(good, weights_only=True)
    bad = tmp_path / "bad.pt"
    torch.save(change(saved), bad)
    with pytest.raises(ValueError, match=refusal) as caught:
        load_policy_weights(bad)
    assert str(bad) in str(caught.value) and "\n" not in str(caught.value)

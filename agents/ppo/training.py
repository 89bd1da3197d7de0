"""The PPO recipe: a warm start from the heuristic's moves, then PPO against it.

Two phases, both on the compiled vector env (:class:`GomokuVectorEnv`), every game
starting from a few random stones near the centre, as evaluation games start from the
arena's opening book:

1. **Warm start** (``teacher_samples`` > 0): games of the ``heuristic`` against itself,
   a ``teacher_noise`` share of the learner's moves played at random so that the
   positions vary. Each position is labelled with the heuristic's best points (its
   top score: it plays one of them at random) and the game's result; the network
   learns both by supervised steps under random board symmetries, and then plays
   about as well as its teacher.
2. **PPO** against the heuristic (:class:`NoisyHeuristic`, stepped in one compiled call
   for all games): clipped surrogate, generalised advantage estimation, an entropy
   bonus, rewards +1/-1/0 at the end of a game. A curriculum keeps the reward
   informative: a share of the opponent's moves is random, and after each update the
   share falls while the learner wins more than half its games (rises while it wins
   less), down to the plain heuristic. Against a fixed opponent PPO finds the lines
   that beat it, which one ply of pattern scores cannot see coming.

:func:`train` runs both and stops at ``env_steps`` or ``cpu_hours`` (the process's CPU
time for training, evaluations left out). Its run folder holds ``checkpoint.pt``
(network, optimiser, counters; written atomically after the warm start and every
``checkpoint_every`` steps, so ``train`` resumes where a stopped run left off) and the
final ``policy.pt`` (:func:`agents.torch_policy.save_policy`, with the recipe in its
metadata). ``on_point`` is called with the network at the start of PPO and every
``point_every`` env steps: the recipe script plays the learning curve's games there.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch
from torch.nn import functional

from agents.classic.heuristic import HeuristicAgent
from agents.options import bounded, check_fields
from agents.torch_policy import PolicyNetwork, PolicyShape, mask_scores, save_policy
from gomoku_env.board import symmetry_permutations
from gomoku_env.config import GameConfig
from gomoku_env.files import WEIGHTS_LIMIT, check_regular_file, write_atomically
from gomoku_env.vector_env import GomokuVectorEnv

SECONDS_PER_HOUR = 3600.0


@dataclass(frozen=True)
class PPOConfig:
    """Every setting of a recipe run (the recipe script's flags)."""

    board_size: int = bounded(9, minimum=5, maximum=25)
    """side of the board"""
    win_length: int = bounded(5, minimum=3, maximum=10)
    """stones in a row that win"""
    opponent_noise: float = bounded(0.5, minimum=0.0, maximum=1.0)
    """share of the opponent heuristic's moves played at random when PPO starts"""
    noise_step: float = bounded(0.02, minimum=0.0, maximum=1.0)
    """after each update the share falls by this while the learner wins more than
    half its training games, and rises by it while it wins less"""
    random_opening: int = bounded(3, minimum=0, maximum=12)
    """random stones near the centre that start every training game"""
    channels: int = bounded(48, minimum=1, maximum=512)
    """width of the network's 3x3 convolutions"""
    layers: int = bounded(5, minimum=1, maximum=40)
    """number of 3x3 convolutions"""
    teacher_samples: int = bounded(250_000, minimum=0)
    """positions of the heuristic's games for the warm start (0: none)"""
    teacher_epochs: int = bounded(3, minimum=1)
    """passes over the warm start's positions"""
    teacher_noise: float = bounded(0.15, minimum=0.0, maximum=1.0)
    """share of the learner's moves in the teacher games played at random"""
    teacher_learning_rate: float = bounded(2e-3, above=0.0)
    """Adam learning rate of the warm start"""
    num_envs: int = bounded(128, minimum=1)
    """games stepped together during PPO"""
    rollout_steps: int = bounded(32, minimum=1)
    """env steps per game between PPO updates"""
    epochs: int = bounded(3, minimum=1)
    """passes over each rollout"""
    minibatch: int = bounded(1024, minimum=1)
    """samples per gradient step"""
    learning_rate: float = bounded(3e-4, above=0.0)
    """Adam learning rate of PPO"""
    clip: float = bounded(0.2, above=0.0)
    """PPO's probability-ratio clip"""
    gamma: float = bounded(0.99, minimum=0.0, maximum=1.0)
    """discount per learner move"""
    gae_lambda: float = bounded(0.95, minimum=0.0, maximum=1.0)
    """GAE's lambda"""
    entropy: float = bounded(0.003, minimum=0.0)
    """weight of the entropy bonus"""
    value_weight: float = bounded(0.5, minimum=0.0)
    """weight of the value loss"""
    env_steps: int = bounded(10_000_000, minimum=1)
    """PPO env steps (learner moves) to train for"""
    cpu_hours: float = bounded(2.0, minimum=0.0)
    """stop once training has used this much CPU time, warm start included (0: no
    limit)"""
    checkpoint_every: int = bounded(100_000, minimum=1)
    """env steps between checkpoints"""
    seed: int = bounded(1, minimum=0)
    """seeds the envs, the teacher and torch"""
    threads: int = bounded(2, minimum=1)
    """torch CPU threads"""

    def __post_init__(self) -> None:
        check_fields(self)
        GameConfig(self.board_size, self.win_length)  # a win length the board fits

    @property
    def game(self) -> GameConfig:
        return GameConfig(self.board_size, self.win_length)


@dataclass
class RunState:
    """What a run has done so far (saved in its checkpoint)."""

    env_steps: int = 0
    cpu_seconds: float = 0.0
    warm_started: bool = False
    updates: int = 0
    opponent_noise: float = 0.0

    @property
    def cpu_hours(self) -> float:
        return self.cpu_seconds / SECONDS_PER_HOUR


PointCallback = Callable[[PolicyNetwork, RunState], None]


class CpuClock:
    """Adds the process's CPU time to ``state.cpu_seconds``, except while paused."""

    def __init__(self, state: RunState) -> None:
        self.state = state
        self.started = time.process_time()

    def tick(self) -> None:
        now = time.process_time()
        self.state.cpu_seconds += now - self.started
        self.started = now

    def paused(self, work: Callable[[], None]) -> None:
        """Run ``work`` without counting its CPU time."""
        self.tick()
        work()
        self.started = time.process_time()


def teacher_games(
    config: PPOConfig,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Positions of heuristic-against-heuristic games, at least ``teacher_samples``:
    planes (n, N, N, 5) int8, legal masks (n, N*N) bool, the heuristic's best points
    (n, N*N) bool (its top score; it plays one of them at random) and the game's result
    for the side to move (+1, -1, 0). The learner's moves are the heuristic's but for a
    ``teacher_noise`` share played at random; only finished games count."""
    game = config.game
    envs = GomokuVectorEnv(
        config.num_envs, "heuristic", config=game, play_as="random",
        random_opening=config.random_opening,
    )  # fmt: skip
    teacher = HeuristicAgent(game, seed=config.seed)
    rng = np.random.default_rng(config.seed)
    observations, _ = envs.reset(seed=config.seed)
    pending: list[list[int]] = [[] for _ in range(config.num_envs)]
    planes, masks, best, results = [], [], [], []
    kept = 0
    while kept < config.teacher_samples:
        legal = envs.action_masks()
        scores = teacher.scores_batch(observations)
        top = scores == scores.max(axis=1, keepdims=True)
        explore = rng.random(config.num_envs) < config.teacher_noise
        actions = random_legal(np.where(explore[:, None], legal, top), rng)
        for slot in range(config.num_envs):
            pending[slot].append(len(best))
        planes.append(observations)
        masks.append(legal)
        best.append(top)
        results.append(np.zeros(config.num_envs, dtype=np.float32))
        observations, rewards, terminated, _, _ = envs.step(actions)
        for slot in np.flatnonzero(terminated):
            for index in pending[slot]:
                results[index][slot] = rewards[slot]
            kept += len(pending[slot])
            pending[slot] = []
    finished = np.ones((len(best), config.num_envs), dtype=bool)
    for slot, indices in enumerate(pending):
        finished[indices, slot] = False
    return (
        np.stack(planes)[finished], np.stack(masks)[finished],
        np.stack(best)[finished], np.stack(results)[finished],
    )  # fmt: skip


def random_legal(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly drawn legal action per row of boolean ``masks``."""
    keys = rng.random(masks.shape) * masks
    return keys.argmax(axis=1)


def symmetric_batch(
    planes: torch.Tensor, cells: list[torch.Tensor], symmetry: int
) -> tuple[torch.Tensor, list[torch.Tensor]]:
    """A batch of positions and per-cell arrays (n, N*N) under one board symmetry."""
    size = planes.shape[1]
    gather = torch.from_numpy(symmetry_permutations(size)[symmetry].copy())
    flat = planes.reshape(planes.shape[0], size * size, -1)[:, gather]
    return flat.reshape(planes.shape), [array[:, gather] for array in cells]


def warm_start(
    network: PolicyNetwork, config: PPOConfig, generator: torch.Generator
) -> dict[str, float]:
    """Supervised steps on :func:`teacher_games`: cross-entropy against the uniform
    choice among the heuristic's best points, plus ``value_weight`` times the squared
    error of the results. Returns the last epoch's losses and how often the network's
    top move is one of the teacher's best."""
    planes, masks, best, results = (
        torch.as_tensor(array) for array in teacher_games(config)
    )
    optimizer = torch.optim.Adam(network.parameters(), lr=config.teacher_learning_rate)
    count = planes.shape[0]
    steps_per_epoch = max(1, count // config.minibatch)
    schedule = torch.optim.lr_scheduler.OneCycleLR(
        optimizer, config.teacher_learning_rate,
        total_steps=steps_per_epoch * config.teacher_epochs,
    )  # fmt: skip
    totals: dict[str, float] = {}
    network.train()
    for _ in range(config.teacher_epochs):
        order = torch.randperm(count, generator=generator)
        totals = {"policy_loss": 0.0, "value_loss": 0.0, "agreement": 0.0}
        for step in range(steps_per_epoch):
            rows = order[step * config.minibatch : (step + 1) * config.minibatch]
            symmetry = int(torch.randint(8, (1,), generator=generator))
            batch, (legal, top) = symmetric_batch(
                planes[rows], [masks[rows], best[rows]], symmetry
            )
            scores, values = network(batch)
            scores = mask_scores(scores, legal)
            targets = top / top.sum(dim=1, keepdim=True)
            policy_loss = functional.cross_entropy(scores, targets)
            value_loss = functional.mse_loss(values, results[rows])
            loss = policy_loss + config.value_weight * value_loss
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            schedule.step()
            agreement = top.gather(1, scores.argmax(dim=1, keepdim=True)).float().mean()
            totals["policy_loss"] += policy_loss.item() / steps_per_epoch
            totals["value_loss"] += value_loss.item() / steps_per_epoch
            totals["agreement"] += agreement.item() / steps_per_epoch
    return totals


class NoisyHeuristic:
    """The heuristic as the PPO opponent, a ``noise`` share of its moves random: the
    curriculum's knob, moved after each update by :meth:`adapt` so that the learner
    wins about half its games until the share reaches 0 (the plain heuristic).

    A batch opponent of the vector env (``act_batch``).
    """

    def __init__(self, game: GameConfig, noise: float, step: float, seed: int) -> None:
        self.heuristic = HeuristicAgent(game, seed=seed)
        self.noise = noise
        self.step = step
        self.rng = np.random.default_rng(seed)

    def reset(self, seed: int | None = None) -> None:
        self.heuristic.reset(seed)
        if seed is not None:
            self.rng = np.random.default_rng(seed)

    def act_batch(
        self, planes: np.ndarray, masks: np.ndarray, games: np.ndarray
    ) -> np.ndarray:
        moves = self.heuristic.act_batch(planes, masks, games)
        explore = self.rng.random(moves.size) < self.noise
        return np.where(explore, random_legal(masks.astype(bool), self.rng), moves)

    def adapt(self, win_rate: float) -> None:
        """Less noise while the learner wins more than half its games, more while it
        wins less."""
        change = -self.step if win_rate > 0.5 else self.step
        self.noise = float(np.clip(self.noise + change, 0.0, 1.0))


@dataclass
class Rollout:
    """``rollout_steps`` steps of every game, as PPO's update reads them."""

    planes: torch.Tensor
    masks: torch.Tensor
    actions: torch.Tensor
    log_probs: torch.Tensor
    values: torch.Tensor
    rewards: torch.Tensor
    ended: torch.Tensor
    last_values: torch.Tensor

    def advantages(self, gamma: float, gae_lambda: float) -> torch.Tensor:
        """Generalised advantage estimates; no bootstrap past a game's end."""
        advantages = torch.zeros_like(self.rewards)
        running = torch.zeros_like(self.last_values)
        next_values = self.last_values
        for step in reversed(range(self.rewards.shape[0])):
            going_on = 1.0 - self.ended[step]
            delta = (
                self.rewards[step] + gamma * next_values * going_on - self.values[step]
            )
            running = delta + gamma * gae_lambda * going_on * running
            advantages[step] = running
            next_values = self.values[step]
        return advantages


def collect(
    network: PolicyNetwork,
    envs: GomokuVectorEnv,
    observations: np.ndarray,
    steps: int,
) -> tuple[Rollout, np.ndarray, int]:
    """Play ``steps`` steps of every game with the sampling policy: the rollout, the
    observations to go on from, and the games finished on the way."""
    planes, masks, actions, log_probs, values, rewards, ended = ([] for _ in range(7))
    finished = 0
    network.eval()
    with torch.no_grad():
        for _ in range(steps):
            legal = torch.as_tensor(envs.action_masks())
            scores, value = network(observations)
            policy = torch.distributions.Categorical(logits=mask_scores(scores, legal))
            action = policy.sample()
            planes.append(torch.as_tensor(observations))
            masks.append(legal)
            actions.append(action)
            log_probs.append(policy.log_prob(action))
            values.append(value)
            observations, reward, terminated, _, _ = envs.step(action.numpy())
            rewards.append(torch.as_tensor(reward))
            ended.append(torch.as_tensor(terminated, dtype=torch.float32))
            finished += int(terminated.sum())
        _, last_values = network(observations)
    rollout = Rollout(
        torch.stack(planes), torch.stack(masks), torch.stack(actions),
        torch.stack(log_probs), torch.stack(values), torch.stack(rewards),
        torch.stack(ended), last_values,
    )  # fmt: skip
    return rollout, observations, finished


def ppo_update(
    network: PolicyNetwork,
    optimizer: torch.optim.Optimizer,
    rollout: Rollout,
    config: PPOConfig,
    generator: torch.Generator,
) -> dict[str, float]:
    """``epochs`` passes of clipped-surrogate minibatch steps over ``rollout``."""
    advantages = rollout.advantages(config.gamma, config.gae_lambda).flatten()
    returns = advantages + rollout.values.flatten()
    size = rollout.planes.shape[2]
    planes = rollout.planes.reshape(-1, size, size, rollout.planes.shape[-1])
    masks = rollout.masks.reshape(planes.shape[0], -1)
    actions = rollout.actions.flatten()
    old_log_probs = rollout.log_probs.flatten()
    count = planes.shape[0]
    network.train()
    stats = {"clipped": 0.0, "entropy": 0.0, "value_loss": 0.0}
    steps = 0
    for _ in range(config.epochs):
        order = torch.randperm(count, generator=generator)
        for start in range(0, count, config.minibatch):
            rows = order[start : start + config.minibatch]
            scores, values = network(planes[rows])
            policy = torch.distributions.Categorical(
                logits=mask_scores(scores, masks[rows])
            )
            ratio = torch.exp(policy.log_prob(actions[rows]) - old_log_probs[rows])
            advantage = advantages[rows]
            advantage = (advantage - advantage.mean()) / (advantage.std() + 1e-8)
            surrogate = torch.min(
                ratio * advantage,
                ratio.clamp(1 - config.clip, 1 + config.clip) * advantage,
            )
            entropy = policy.entropy().mean()
            value_loss = functional.mse_loss(values, returns[rows])
            loss = (
                -surrogate.mean()
                + config.value_weight * value_loss
                - config.entropy * entropy
            )
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(network.parameters(), 1.0)
            optimizer.step()
            stats["clipped"] += float(((ratio - 1).abs() > config.clip).float().mean())
            stats["entropy"] += entropy.item()
            stats["value_loss"] += value_loss.item()
            steps += 1
    return {name: total / steps for name, total in stats.items()}


def save_checkpoint(
    path: Path,
    network: PolicyNetwork,
    optimizer: torch.optim.Optimizer,
    state: RunState,
    config: PPOConfig,
) -> None:
    """Write everything a resumed run needs, atomically (plain tensors and numbers)."""
    checkpoint = {
        "config": dataclasses.asdict(config),
        "state": dataclasses.asdict(state),
        "network": network.state_dict(),
        "optimizer": optimizer.state_dict(),
    }
    write_atomically(path, lambda temporary: torch.save(checkpoint, temporary))


def load_checkpoint(
    path: Path,
    network: PolicyNetwork,
    optimizer: torch.optim.Optimizer,
    config: PPOConfig,
) -> RunState:
    """The counters of the run saved at ``path``, its weights loaded into ``network``
    and ``optimizer``.

    Raises:
        ValueError: the checkpoint is of a run with other settings (the run folder
            belongs to another recipe).
    """
    path = check_regular_file(path, "a PPO checkpoint", WEIGHTS_LIMIT)
    checkpoint = torch.load(path, map_location="cpu", weights_only=True)
    saved = checkpoint["config"]
    ours = dataclasses.asdict(config)
    changed = {
        name: (saved.get(name), ours[name])
        for name in ("board_size", "win_length", "channels", "layers")
        if saved.get(name) != ours[name]
    }
    if changed:
        raise ValueError(
            f"{str(path)!r} is a run with other settings (saved, asked): {changed}; "
            "use another run folder"
        )
    network.load_state_dict(checkpoint["network"])
    optimizer.load_state_dict(checkpoint["optimizer"])
    return RunState(**checkpoint["state"])


def train(
    config: PPOConfig,
    run_dir: str | Path,
    on_point: PointCallback | None = None,
    point_every: int = 0,
    log: Callable[[str], None] = print,
) -> tuple[PolicyNetwork, RunState]:
    """Run (or resume) the recipe in ``run_dir``; returns the network and its counters.

    ``on_point(network, state)`` runs at the start of PPO and every ``point_every``
    env steps (0: only at the start and the end), its CPU time not counted.
    """
    run_dir = Path(run_dir)
    run_dir.mkdir(parents=True, exist_ok=True)
    torch.manual_seed(config.seed)
    torch.set_num_threads(config.threads)
    generator = torch.Generator().manual_seed(config.seed)
    network = PolicyNetwork(PolicyShape(config.channels, config.layers, border=True))
    optimizer = torch.optim.Adam(network.parameters(), lr=config.learning_rate)
    checkpoint = run_dir / "checkpoint.pt"
    state = RunState(opponent_noise=config.opponent_noise)
    if checkpoint.exists():
        state = load_checkpoint(checkpoint, network, optimizer, config)
        log(f"resumed at {state.env_steps} env steps, {state.cpu_hours:.3f} CPU h")
    clock = CpuClock(state)
    if not state.warm_started:
        if config.teacher_samples:
            losses = warm_start(network, config, generator)
            log(f"warm start: {_format(losses)}")
        state.warm_started = True
        clock.tick()
        save_checkpoint(checkpoint, network, optimizer, state, config)
    point = _points(network, state, clock, on_point, point_every)
    point(force=True)
    opponent = NoisyHeuristic(
        config.game, state.opponent_noise, config.noise_step, config.seed
    )
    envs = GomokuVectorEnv(
        config.num_envs, opponent, config=config.game, play_as="random",
        random_opening=config.random_opening,
    )  # fmt: skip
    observations, _ = envs.reset(seed=config.seed + state.updates)
    wins = games = 0
    next_checkpoint = state.env_steps + config.checkpoint_every
    while state.env_steps < config.env_steps and not _out_of_time(config, state):
        rollout, observations, finished = collect(
            network, envs, observations, config.rollout_steps
        )
        stats = ppo_update(network, optimizer, rollout, config, generator)
        state.env_steps += rollout.actions.numel()
        state.updates += 1
        won = int((rollout.rewards > 0).sum())
        opponent.adapt(won / max(finished, 1))
        state.opponent_noise = opponent.noise
        games += finished
        wins += won
        clock.tick()
        if state.updates % 20 == 0:
            log(
                f"{state.env_steps:>9} steps {state.cpu_hours:6.3f} CPU h  won "
                f"{wins / max(games, 1):.2f} of {games} training games, opponent "
                f"noise {opponent.noise:.2f}  "
                f"{_format(stats)}"
            )
            wins = games = 0
        if state.env_steps >= next_checkpoint:
            next_checkpoint += config.checkpoint_every
            save_checkpoint(checkpoint, network, optimizer, state, config)
        point()
    clock.tick()
    save_checkpoint(checkpoint, network, optimizer, state, config)
    point(force=True)
    save_policy(
        run_dir / "policy.pt", network, config.game,
        recipe=dataclasses.asdict(config), env_steps=state.env_steps,
        cpu_hours=state.cpu_hours,
    )  # fmt: skip
    return network, state


def _points(
    network: PolicyNetwork,
    state: RunState,
    clock: CpuClock,
    on_point: PointCallback | None,
    every: int,
) -> Callable[..., None]:
    """A function that calls ``on_point`` when due (or forced), off the CPU clock,
    at most once per env-step count."""
    last = {"steps": -1, "next": state.env_steps + every}

    def point(force: bool = False) -> None:
        due = every and state.env_steps >= last["next"]
        if on_point is None or last["steps"] == state.env_steps or not (force or due):
            return
        last["steps"] = state.env_steps
        while every and last["next"] <= state.env_steps:
            last["next"] += every
        clock.paused(lambda: on_point(network.eval(), state))

    return point


def _out_of_time(config: PPOConfig, state: RunState) -> bool:
    return bool(config.cpu_hours) and state.cpu_hours >= config.cpu_hours


def _format(numbers: dict[str, float]) -> str:
    return "  ".join(f"{name} {value:.3f}" for name, value in numbers.items())

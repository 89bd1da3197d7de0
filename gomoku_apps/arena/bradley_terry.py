"""Ratings from pairwise results: Bradley-Terry maximum likelihood, fit by Newton.

Each player ``i`` has a rating ``r_i`` in Elo points, ``π_i = 10^(r_i / 400)``, and
``i`` beats ``j`` with the logistic Elo probability ``π_i / (π_i + π_j)``. Draws are
handled in one of two ways (``draw_model``):

* ``"half"`` (the default, as Ordo and Elo's own definition do): a draw counts as half a
  win for each side, so a rating gap means an expected score —
  ``1 / (1 + 10^(-gap / 400))`` — whatever the draw rate;
* ``"davidson"``: Davidson's model, where a game ends in a win for ``i``, a draw or a
  win for ``j`` with probabilities ``π_i``, ``ν·sqrt(π_i·π_j)``, ``π_j`` (over their
  sum) and the draw parameter ``ν`` is fit too. Among decisive games the logistic curve
  still holds, but a pairing without draws between players who draw elsewhere reads as
  a large gap, so ratings spread further than in Elo's sense.

The ratings maximise the likelihood, with one player held at 0 (the anchor). Like
BayesElo's virtual draws, every pairing that played also counts ``prior`` virtual games
scored half a win each way, which keeps a 100% score finite. The intervals come from
the inverse of the observed information (the Hessian of the log likelihood). Where
games replay one another (two deterministic agents from the same opening play the same
game move for move), each distinct game is one cluster: given how often each was
played (``repeats``), the covariance is the sandwich ``H⁻¹ B H⁻¹``, whose middle
weighs each pair's information by its design effect ``Σ nₖ² / n``, so 400 games that
are 60 distinct ones no longer claim the precision of 400; the ratings stay the same.

One fit serves the ladder (a round robin) and the reference scales (anchors that play
their neighbours and the anchors two and three steps away): :func:`pair_residuals`
then checks the fit pair by pair, the predicted score against the observed one.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from agents.scales.stats import ELO_PER_NATURAL_UNIT, score_from_elo, z_value

DRAW_MODELS = ("half", "davidson")
Repeats = Mapping[tuple[int, int], Sequence[int]]
"""How many times each distinct game of a pair ``(i, j)``, ``i < j``, was played."""
_MAX_ITERATIONS = 100
_TOLERANCE = 1e-10


@dataclass(frozen=True)
class Ratings:
    """Fitted ratings (Elo, anchor at 0) with the half-widths of their intervals.

    ``draw_parameter`` is Davidson's ``ν`` (0 under the ``"half"`` draw model).
    """

    names: tuple[str, ...]
    anchor: str
    ratings: tuple[float, ...]
    margins: tuple[float, ...]
    draw_parameter: float
    confidence: float
    draw_model: str
    covariance: tuple[tuple[float, ...], ...]
    """The ratings' covariance in Elo² (the anchor's row and column are 0)."""

    def rating(self, name: str) -> float:
        """The rating of ``name``."""
        return self.ratings[self.names.index(name)]

    def gap(self, upper: str, lower: str) -> tuple[float, float]:
        """``upper``'s rating minus ``lower``'s, and the margin of that difference
        (both ratings' errors, with their covariance)."""
        i, j = self.names.index(upper), self.names.index(lower)
        c = self.covariance
        variance = c[i][i] + c[j][j] - 2 * c[i][j]
        margin = z_value(self.confidence) * math.sqrt(max(variance, 0.0))
        return self.ratings[i] - self.ratings[j], margin


@dataclass(frozen=True)
class _Pairs:
    first: np.ndarray
    second: np.ndarray
    wins: np.ndarray
    losses: np.ndarray
    draws: np.ndarray

    @property
    def games(self) -> np.ndarray:
        return self.wins + self.losses + self.draws


def _pairs(
    wins: np.ndarray, draws: np.ndarray, prior: float, draw_model: str
) -> _Pairs:
    first, second = np.triu_indices(len(wins), k=1)
    played = (wins[first, second] + wins[second, first] + draws[first, second]) > 0
    first, second = first[played], second[played]
    drawn = (draws[first, second] + draws[second, first]) / 2
    split = prior / 2 + (drawn / 2 if draw_model == "half" else 0)
    return _Pairs(
        first,
        second,
        wins[first, second] + split,
        wins[second, first] + split,
        drawn if draw_model == "davidson" else np.zeros_like(drawn),
    )


def _pair_replays(
    names: Sequence[str],
    wins: np.ndarray,
    draws: np.ndarray,
    repeats: Repeats | None,
    i: int,
    j: int,
) -> np.ndarray:
    """How many times each distinct game between players ``i < j`` was played: their
    ``repeats`` entry, or all games distinct without one.

    Raises:
        ValueError: the counts do not add up to the games the pair played.
    """
    games = wins[i, j] + wins[j, i] + draws[i, j]
    if repeats is None or (int(i), int(j)) not in repeats:
        return np.ones(int(games))
    counts = np.asarray(repeats[int(i), int(j)], dtype=float)
    if counts.sum() != games or counts.min(initial=1) < 1:
        raise ValueError(
            f"{names[i]} and {names[j]} played {games:g} games, but their "
            f"repeats count {counts.sum():g}"
        )
    return counts


def _design_effect(counts: np.ndarray) -> float:
    """How many times a pair's games overstate what they tell: ``Σ nₖ² / n`` (1 when
    every game differs, ``n`` when one game was played ``n`` times)."""
    return float((counts**2).sum() / counts.sum()) if len(counts) else 1.0


def check_draw_model(draw_model: str) -> None:
    """Raise a ValueError naming ``draw_model`` unless it is one of DRAW_MODELS."""
    if draw_model not in DRAW_MODELS:
        raise ValueError(f"draw_model must be one of {DRAW_MODELS}, got {draw_model!r}")


def _check_counts(names: list[str], wins: np.ndarray, draws: np.ndarray) -> None:
    shape = (len(names), len(names))
    if wins.shape != shape or draws.shape != shape:
        raise ValueError(f"wins and draws must both have shape {shape}")
    if (wins < 0).any() or (draws < 0).any() or not np.allclose(draws, draws.T):
        raise ValueError("counts must be >= 0 and draws symmetric")


def _check_connected(pairs: _Pairs, names: Sequence[str]) -> None:
    reached, frontier = {0}, [0]
    while frontier:
        player = frontier.pop()
        for a, b in zip(pairs.first, pairs.second, strict=True):
            for here, there in ((a, b), (b, a)):
                if here == player and there not in reached:
                    reached.add(int(there))
                    frontier.append(int(there))
    missing = [names[i] for i in range(len(names)) if i not in reached]
    if missing:
        raise ValueError(
            f"cannot rate players not linked by games to {names[0]!r}: {missing}"
        )


def _derivatives(
    strengths: np.ndarray, log_draw: float | None, pairs: _Pairs
) -> tuple[float, np.ndarray, np.ndarray]:
    """Log likelihood, gradient and Hessian in (strengths..., log ν if fitted)."""
    players = len(strengths)
    size = players + (log_draw is not None)
    half = (strengths[pairs.first] - strengths[pairs.second]) / 2
    up, down = np.exp(half), np.exp(-half)
    nu = 0.0 if log_draw is None else math.exp(log_draw)
    total = up + down + nu
    games = pairs.games
    likelihood = float(
        np.sum((pairs.wins - pairs.losses) * half - games * np.log(total))
        + (0.0 if log_draw is None else np.sum(pairs.draws) * log_draw)
    )
    grad_half = pairs.wins - pairs.losses - games * (up - down) / total
    hess_half = -games * ((up + down) * total - (up - down) ** 2) / total**2
    gradient, hessian = np.zeros(size), np.zeros((size, size))
    np.add.at(gradient, pairs.first, grad_half / 2)
    np.add.at(gradient, pairs.second, -grad_half / 2)
    np.add.at(hessian, (pairs.first, pairs.first), hess_half / 4)
    np.add.at(hessian, (pairs.second, pairs.second), hess_half / 4)
    np.add.at(hessian, (pairs.first, pairs.second), -hess_half / 4)
    np.add.at(hessian, (pairs.second, pairs.first), -hess_half / 4)
    if log_draw is not None:
        gradient[-1] = np.sum(pairs.draws - games * nu / total)
        cross = games * (up - down) * nu / total**2
        np.add.at(hessian[-1], pairs.first, cross / 2)
        np.add.at(hessian[-1], pairs.second, -cross / 2)
        hessian[:-1, -1] = hessian[-1, :-1]
        hessian[-1, -1] = -np.sum(games * nu * (up + down) / total**2)
    return likelihood, gradient, hessian


def _newton(
    pairs: _Pairs, players: int, anchor: int, fit_draws: bool
) -> tuple[np.ndarray, float | None, np.ndarray]:
    """Maximise the likelihood; (strengths, log ν or None, free-parameter Hessian)."""
    free = [i for i in range(players + fit_draws) if i != anchor]
    params = np.zeros(players + fit_draws)

    def evaluate(vector: np.ndarray) -> tuple[float, np.ndarray, np.ndarray]:
        log_draw = float(vector[-1]) if fit_draws else None
        value, gradient, hessian = _derivatives(vector[:players], log_draw, pairs)
        return value, gradient[free], hessian[np.ix_(free, free)]

    value, gradient, hessian = evaluate(params)
    for _ in range(_MAX_ITERATIONS):
        step = np.linalg.solve(hessian, -gradient)
        scale = 1.0
        while True:
            trial = params.copy()
            trial[free] += scale * step
            trial_value, trial_gradient, trial_hessian = evaluate(trial)
            if trial_value >= value - 1e-12 or scale < 1e-6:
                break
            scale /= 2
        params, value, gradient, hessian = (
            trial,
            trial_value,
            trial_gradient,
            trial_hessian,
        )
        if np.max(np.abs(scale * step)) < _TOLERANCE:
            break
    log_draw = float(params[-1]) if fit_draws else None
    return params[:players], log_draw, hessian


def fit_ratings(
    names: Sequence[str],
    wins: np.ndarray,
    draws: np.ndarray,
    anchor: str,
    prior: float = 1.0,
    confidence: float = 0.95,
    draw_model: str = "half",
    repeats: Repeats | None = None,
) -> Ratings:
    """Maximum-likelihood ratings of ``names`` from their results against each other.

    Args:
        wins: ``wins[i, j]`` games that player ``i`` won against player ``j``.
        draws: ``draws[i, j]`` (= ``draws[j, i]``) games drawn between them.
        anchor: the player rated 0.
        prior: virtual games per pairing, scored half a win each way (0 for none).
        draw_model: ``"half"`` or ``"davidson"`` (see the module docstring).
        repeats: ``repeats[i, j]`` (``i < j``): how many times each distinct game of
            that pair was played; with it the margins count each distinct game once
            (the module docstring). A pair without an entry is taken as all distinct.

    Raises:
        ValueError: bad shapes or counts, an unknown anchor, players that no chain
            of games links to the others, or a pair whose ``repeats`` do not add up
            to the games it played.
    """
    names = list(names)
    wins, draws = np.asarray(wins, dtype=float), np.asarray(draws, dtype=float)
    _check_counts(names, wins, draws)
    if anchor not in names:
        raise ValueError(f"anchor {anchor!r} is not one of the players {names}")
    if not prior >= 0:
        raise ValueError(f"prior must be >= 0, got {prior!r}")
    check_draw_model(draw_model)
    pairs = _pairs(wins, draws, prior, draw_model)
    _check_connected(pairs, names)
    anchor_index = names.index(anchor)
    fit_draws = bool(np.sum(pairs.draws) > 0)
    strengths, log_draw, hessian = _newton(pairs, len(names), anchor_index, fit_draws)
    players = len(names)
    inverse = np.linalg.inv(-hessian)
    if repeats is not None:
        effects = np.array(
            [
                _design_effect(_pair_replays(names, wins, draws, repeats, i, j))
                for i, j in zip(pairs.first, pairs.second, strict=True)
            ]
        )
        clustered = _Pairs(
            pairs.first,
            pairs.second,
            pairs.wins * effects,
            pairs.losses * effects,
            pairs.draws * effects,
        )
        _, _, middle = _derivatives(strengths, log_draw, clustered)
        kept = [k for k in range(players + fit_draws) if k != anchor_index]
        inverse = inverse @ -middle[np.ix_(kept, kept)] @ inverse
    free = inverse[: players - 1, : players - 1]
    covariance = np.insert(np.insert(free, anchor_index, 0, 0), anchor_index, 0, 1)
    covariance *= ELO_PER_NATURAL_UNIT**2
    z = z_value(confidence)
    return Ratings(
        tuple(names),
        anchor,
        tuple(
            float(s) * ELO_PER_NATURAL_UNIT for s in strengths - strengths[anchor_index]
        ),
        tuple(float(z * math.sqrt(max(v, 0.0))) for v in np.diag(covariance)),
        0.0 if log_draw is None else math.exp(log_draw),
        confidence,
        draw_model,
        tuple(tuple(float(x) for x in row) for row in covariance),
    )


@dataclass(frozen=True)
class PairResidual:
    """How well a fit predicts one pair: ``second``'s score against ``first`` as
    observed and as the ratings predict it, and the interval the observed score falls
    in with the fit's confidence if the ratings are right."""

    first: str
    second: str
    games: int
    distinct: int
    """The games that differ in a move or a player's colour: a game played again
    move for move (two deterministic agents from the same opening) tells nothing new."""
    observed: float
    predicted: float
    low: float
    high: float

    @property
    def outside(self) -> bool:
        """Whether the observed score is outside the predicted interval."""
        return not self.low <= self.observed <= self.high


def pair_residuals(
    ratings: Ratings,
    wins: np.ndarray,
    draws: np.ndarray,
    repeats: Repeats | None = None,
) -> list[PairResidual]:
    """Every pair that played, in name order, with its observed and predicted score.

    The interval is the predicted score ± z standard errors of a mean of the pair's
    game scores, whose variance under the fit is ``p(1 - p) - d/4`` a game for a
    predicted score ``p`` and the pair's observed draw rate ``d`` (draws make a score
    vary less). Games that repeat one another are one observation: ``repeats[i, j]``
    (``i < j``) says how many times each distinct game of that pair was played, and the
    mean's variance is then ``v · Σ nₖ² / n²`` instead of ``v / n`` (two deterministic
    agents from the same opening play the same game; counted as independent, 400 such
    games would claim an interval that 60 distinct ones cannot). Without ``repeats``
    every game is taken as distinct. With a correct model about ``1 - confidence`` of
    the pairs fall outside: many more say the ratings do not hold across those pairs (a
    non-transitive matchup). The fit's own uncertainty is left out: the pair's own
    games helped place the prediction, so a pair that dominates its gap (a chain's
    neighbours) sits nearer to it than chance allows, and the test is, if anything,
    lenient there.

    Raises:
        ValueError: a pair's ``repeats`` do not add up to the games it played.
    """
    wins, draws = np.asarray(wins, dtype=float), np.asarray(draws, dtype=float)
    z = z_value(ratings.confidence)
    names = ratings.names
    found = []
    for i, j in zip(*np.triu_indices(len(names), k=1), strict=True):
        games = wins[i, j] + wins[j, i] + draws[i, j]
        if games == 0:
            continue
        counts = _pair_replays(names, wins, draws, repeats, i, j)
        observed = (wins[j, i] + draws[i, j] / 2) / games
        predicted = score_from_elo(ratings.ratings[j] - ratings.ratings[i])
        variance = predicted * (1 - predicted) - draws[i, j] / games / 4
        spread = z * math.sqrt(max(variance, 0.0) * (counts**2).sum()) / games
        found.append(
            PairResidual(
                names[i],
                names[j],
                int(games),
                len(counts),
                float(observed),
                predicted,
                max(predicted - spread, 0.0),
                min(predicted + spread, 1.0),
            )
        )
    return found

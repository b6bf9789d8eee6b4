"""Round-robin tournaments: every pair of agents plays two-player matches with rotated seats.

``tournament(agents, num_games, seed, cards, progress, match, result_type) -> TournamentResult``
gives the win-rate matrix and a Bradley–Terry rating per agent with a 95 % interval (from the
fit's Hessian, so deterministic) and the range of ranks the uncertainty allows: with a few
hundred games a pair, agents within a few Elo points of each other (the good heuristics and
``optimal``) share a range instead of a false order. The matches are
``pagadores_train.evaluation.evaluate.evaluate_agents``' unless ``match`` plays them another way
(Perudo's tournament passes ``pagadores_train.evaluation.perudo.perudo_match``). A pair ``(i, j)``
is played with the seed ``child_seed(seed, 2, i, j)``, so a result depends only on its arguments;
progress is one step per pair. The result writes CSV, JSON and a heatmap, each file atomically.
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from statistics import NormalDist

import numpy as np

from pagadores_env.core.atomic import write_atomic
from pagadores_env.core.checks import check_int
from pagadores_env.core.seeding import child_seed

from ..progress import Reporter, reporter
from .evaluate import (
    Z95,
    AgentLike,
    EvalResult,
    agent_labels,
    aligned,
    evaluate_agents,
    figure,
    rounding_note,
    save_figure,
)

ELO = 400.0 / math.log(10)  # Elo points per unit of natural-log Bradley–Terry strength


BT_PRIOR = 1.0  # virtual wins each side of every pair gets in the Bradley–Terry fit


@dataclass(frozen=True)
class TournamentResult:
    """Round-robin outcome: ``win_rate[i][j]`` is agent i's win rate against agent j (None on
    the diagonal), from ``wins[i][j]`` of ``num_games``; ``rating`` is a Bradley–Terry strength on
    the Elo scale (mean 0; a gap of d points predicts a win rate of 1 / (1 + 10^(-d/400))),
    with a 95 % interval ``[rating_low, rating_high]`` (``bradley_terry_covariance``).
    ``rank_best``/``rank_worst`` are the ranks each agent could hold given that uncertainty
    (``rank_ranges``): agents whose ranges overlap are not told apart by these games."""

    labels: tuple[str, ...]
    num_games: int
    seed: int
    cards: int
    wins: tuple[tuple[int, ...], ...]
    win_rate: tuple[tuple[float | None, ...], ...]
    rating: tuple[float, ...]
    rating_low: tuple[float, ...]
    rating_high: tuple[float, ...]
    rank_best: tuple[int, ...]
    rank_worst: tuple[int, ...]
    #: The games per pair asked for, which ``num_games`` rounds up to even
    #: (``rounding_note``); None where not known.
    games_asked: int | None = None

    def ranked(self) -> list[int]:
        """Agent indices from the highest rating down (ties keep the given order)."""
        return sorted(range(len(self.labels)), key=lambda i: (-self.rating[i], i))

    def rank_text(self, i: int) -> str:
        """Agent ``i``'s rank, or the range of ranks it could hold (``2–5``)."""
        best, worst = self.rank_best[i], self.rank_worst[i]
        return str(best) if best == worst else f"{best}–{worst}"

    def heading(self) -> str:
        """What was played: the table's title before its legend."""
        return (f"round-robin, {self.num_games} two-player games per pair, {self.cards} cards, "
                f"seed {self.seed}")

    def table(self) -> str:
        """Agents from the highest rating down, rows and columns in that order."""
        order = self.ranked()
        header = ("rank", "agent", "rating", "95% CI", *(self.labels[j] for j in order))
        body = [(self.rank_text(i), self.labels[i], f"{self.rating[i]:+.0f}",
                 f"[{self.rating_low[i]:+.0f}, {self.rating_high[i]:+.0f}]",
                 *("-" if i == j else f"{self.win_rate[i][j]:.3f}" for j in order))
                for i in order]
        title = f"{self.heading()}; cell = row's win rate against column"
        note = ("rating: Bradley–Terry on the Elo scale with its 95% interval; rank a–b: the "
                "ranks the rating differences allow at 95% for all pairs together (agents "
                "with overlapping ranks are not told apart by these games)")
        rounded = rounding_note(self.num_games, self.games_asked, 2, "games per pair")
        return "\n".join([title, aligned([header, *body]), note, *filter(None, [rounded])])

    def to_csv(self, path: str | Path) -> None:
        """The win-rate matrix after the ratings, their intervals and rank ranges (agents in
        the given order; empty cells on the diagonal)."""
        buffer = io.StringIO()
        writer = csv.writer(buffer)
        writer.writerow(["agent", "rating", "rating_low", "rating_high", "rank_best",
                         "rank_worst", *self.labels])
        for i, label in enumerate(self.labels):
            writer.writerow([label, self.rating[i], self.rating_low[i], self.rating_high[i],
                             self.rank_best[i], self.rank_worst[i],
                             *("" if r is None else r for r in self.win_rate[i])])
        write_atomic(path, buffer.getvalue())

    def to_json(self, path: str | Path) -> None:
        """Write every field as JSON to ``path``, atomically."""
        write_atomic(path, json.dumps(asdict(self), indent=2))

    def plot(self, path: str | Path) -> None:
        """Left: heatmap of the win-rate matrix, agents by rating, each cell annotated.
        Right: the ratings with their 95 % intervals, labelled with the rank ranges."""
        order = self.ranked()
        size = len(order)
        labels = [self.labels[i] for i in order]
        fig = figure(size=(5 + 1.1 * size, 1.5 + 1.0 * size))
        heat, bars = fig.subplots(1, 2, width_ratios=(size, 3))
        matrix = np.array([[self.win_rate[i][j] for j in order] for i in order], dtype=float)
        image = heat.imshow(matrix, cmap="RdYlGn", vmin=0, vmax=1)
        for row in range(size):
            for col in range(size):
                if row != col:
                    heat.text(col, row, f"{matrix[row, col]:.2f}", ha="center", va="center")
        heat.set_xticks(range(size), labels, rotation=30, ha="right")
        heat.set_yticks(range(size), labels)
        heat.set_xlabel("opponent")
        heat.set_ylabel("agent")
        heat.set_title(f"win rate of row against column, {self.num_games} games per pair")
        fig.colorbar(image, ax=heat)
        rating = np.array([self.rating[i] for i in order])
        errors = np.array([[self.rating[i] - self.rating_low[i] for i in order],
                           [self.rating_high[i] - self.rating[i] for i in order]])
        bars.errorbar(rating, range(size), xerr=errors, fmt="o", capsize=5)
        bars.axvline(0, color="grey", linestyle=":")
        bars.set_yticks(range(size), [f"{self.rank_text(i)}. {self.labels[i]}" for i in order])
        bars.set_ylim(size - 0.5, -0.5)  # the best on top, as in the heatmap
        bars.set_xlabel("Bradley–Terry rating (Elo), 95% interval")
        bars.set_title("rank: ranks the intervals allow")
        save_figure(fig, path)


#: One pair's match of a tournament: ``match(pair, num_games, seed, cards)`` plays the two
#: agents of ``pair`` against each other and returns their rows in that order.
Match = Callable[[list[AgentLike], int, int, int], EvalResult]


def pagadores_match(pair: list[AgentLike], num_games: int, seed: int, cards: int) -> EvalResult:
    """A Pagadores match (``evaluate_agents``; Monte Carlo only, as a rating needs no exact
    columns)."""
    return evaluate_agents(pair, 2, num_games, seed, cards, exact=False)


def tournament(agents: Sequence[AgentLike], num_games: int = 1000, seed: int = 0,
               cards: int = 10, progress: bool | Reporter = False, match: Match = pagadores_match,
               result_type: type[TournamentResult] = TournamentResult) -> TournamentResult:
    """Round-robin of two-player matches, ``num_games`` per pair (seats rotated, so rounded
    up to even), rated by Bradley–Terry (``bradley_terry``). ``match`` plays each pair
    (another game's evaluation, such as Perudo's, with ``cards`` its starting hand) and
    ``result_type`` holds the outcome. ``progress`` (a ``Reporter``, or True for bars)
    reports phase ``tournament``, one step per pair played."""
    agents = list(agents)
    if len(agents) < 2:
        raise ValueError(f"a tournament needs at least 2 agents, got {len(agents)}")
    check_int("seed", seed, 0)
    size = len(agents)
    wins = np.zeros((size, size), dtype=np.int64)
    played = 0
    pairs = [(i, j) for i in range(size) for j in range(i + 1, size)]
    labels = agent_labels(agents, agents)
    with reporter(progress).phase("tournament", len(pairs), "pair") as phase:
        for i, j in pairs:
            result = match([agents[i], agents[j]], num_games, child_seed(seed, 2, i, j), cards)
            wins[i, j], wins[j, i] = result.rows[0].wins, result.rows[1].wins
            played = result.num_games
            phase.step(note=f"{labels[i]} vs {labels[j]}")
    rates = tuple(tuple(None if i == j else wins[i, j] / played for j in range(size))
                  for i in range(size))
    rating = bradley_terry(wins)
    covariance = bradley_terry_covariance(wins, rating)
    half = Z95 * np.sqrt(np.diag(covariance))
    best, worst = rank_ranges(rating, covariance)
    return result_type(tuple(labels), played, seed, cards,
                       tuple(map(tuple, wins.tolist())), rates, tuple(rating.tolist()),
                       tuple((rating - half).tolist()), tuple((rating + half).tolist()),
                       tuple(best.tolist()), tuple(worst.tolist()), games_asked=num_games)


def bradley_terry(wins: np.ndarray, prior: float = BT_PRIOR, iterations: int = 1000,
                  tol: float = 1e-10) -> np.ndarray:
    """Bradley–Terry strengths fitted by Hunter's MM algorithm, on the Elo scale (mean 0).

    ``wins[i, j]`` counts i's wins over j. ``prior`` virtual wins are added to each side of
    every pair, so an unbeaten or winless agent still gets a finite rating. MM update:
    ``p_i = W_i / sum_j n_ij / (p_i + p_j)``, iterated to ``tol``.
    """
    wins = np.asarray(wins, dtype=float)
    size = len(wins)
    off = ~np.eye(size, dtype=bool)
    w = np.where(off, wins + prior, 0.0)
    n = w + w.T
    p = np.ones(size)
    for _ in range(iterations):
        new = w.sum(axis=1) / (n / (p[:, None] + p[None, :])).sum(axis=1)
        new /= np.exp(np.log(new).mean())
        if np.abs(new - p).max() < tol:
            p = new
            break
        p = new
    return ELO * np.log(p)


def bradley_terry_covariance(wins: np.ndarray, rating: np.ndarray,
                             prior: float = BT_PRIOR) -> np.ndarray:
    """Covariance of the ``bradley_terry`` ratings (Elo scale) from the observed information.

    With strengths ``t = rating / ELO`` and ``n_ij`` games between i and j (prior included),
    the log-likelihood's negative Hessian is the weighted graph Laplacian with weights
    ``n_ij p_ij (1 - p_ij)``, ``p_ij = 1 / (1 + exp(t_j - t_i))``. It is singular along
    "everyone + c" (only differences are identified); its pseudo-inverse is the covariance
    under the mean-0 constraint the ratings are normalised to. Deterministic: no resampling.
    """
    wins = np.asarray(wins, dtype=float)
    off = ~np.eye(len(wins), dtype=bool)
    games = np.where(off, wins + wins.T + 2 * prior, 0.0)
    strength = np.asarray(rating, dtype=float) / ELO
    p = 1.0 / (1.0 + np.exp(strength[None, :] - strength[:, None]))  # p[i, j]: i beats j
    weight = games * p * p.T
    laplacian = np.diag(weight.sum(axis=1)) - weight
    return ELO**2 * np.linalg.pinv(laplacian)


def rank_ranges(rating: np.ndarray, covariance: np.ndarray,
                level: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
    """The best and worst rank (1 = top) each agent could hold: i is placed above j only
    when their rating difference exceeds ``z·se``, with ``z`` Bonferroni-corrected over all
    pairs so that every separation shown holds together at ``level`` (per-pair 95 % tests
    would separate one of 21 equal pairs by chance every other tournament). Agents that
    no pair separates share a range, so ties within the uncertainty show."""
    rating = np.asarray(rating, dtype=float)
    pairs = max(1, len(rating) * (len(rating) - 1) // 2)
    z = NormalDist().inv_cdf(1 - (1 - level) / (2 * pairs))
    var = np.diag(covariance)
    se = np.sqrt(np.maximum(var[:, None] + var[None, :] - 2 * covariance, 0.0))
    above = rating[:, None] - rating[None, :] > z * se  # above[i, j]: i surely above j
    return 1 + above.sum(axis=0), len(rating) - above.sum(axis=1)

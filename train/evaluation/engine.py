"""Evaluating agents of the games without a compiled kernel (Perudo, Paye's dobbelspel, Pasch)
through their engines, with honest error bars: one evaluator for all of them, driven by the
table of games (``pagadores_env.core.games``), grown from Perudo's.

``evaluate_game(game, agents, num_players, num_games, seed, options, progress, label)`` plays
the game's ``Game`` tables in lock-step, so each agent answers all its pending decisions in one
``act_batch`` call (one forward pass for a model). ``agents[0]`` is under test; the rest fill
the other seats, one entry per other seat or a single opponent reused. Seats are rotated: in
game ``g`` entry ``i`` sits at seat ``(i + g) % num_players``, and ``num_games`` is rounded up
to a multiple of ``num_players`` so every entry sits in every seat equally often (the table
says so when it rounded). ``options`` are the game's table options by name
(``GameSpec.options``: Perudo's ``dice``, Paye's ``variant``, ``faces`` and ``rounds``,
Pasch's ``hand`` and ``blocks``), the defaults where left out. ``tournament_game`` is
``evaluate.tournament``'s round robin with each pair played by this evaluator at 2 players.

A row's win rate counts a first place shared by k seats as 1/k of a win (Paye's Y4.4, Pasch's
X1.4; ``core.rewards.win_share``), with its 95 % Wilson interval; beside the mean final place
stands one measure of the game's own (``MEASURES``: Perudo's dice lost per round played, the
final score of Paye and Pasch), and the title gives the mean game length in rounds.

Randomness follows ``evaluate``'s streams (``pagadores_env.core.seeding``): agent row ``r`` is
seeded with ``child_seed(seed, 1, r)`` and the dice of all games come from one generator,
``child_rng(seed, 3)``, drawn in game order, so a result depends only on the arguments.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from pagadores_env.core.checks import check_int
from pagadores_env.core.games import GameSpec, game_spec
from pagadores_env.core.policies import Policy, batch_actions, check_tables, make_policy
from pagadores_env.core.rewards import win_share
from pagadores_env.core.seeding import child_rng, child_seed

from ..progress import Phase, Reporter, reporter
from .evaluate import (
    BACK,
    FRONT,
    AgentLike,
    AgentStats,
    EvalResult,
    agent_labels,
    aligned,
    entry_rows,
    reseed_row,
    rounding_note,
    wilson_interval,
)
from .tournament import TournamentResult, tournament


def rounds_out(game: Any) -> list[int]:
    """Per seat of a Perudo game: the rounds it had dice in (all of them for the winner; up
    to the round that knocked it out for the others, P1.3)."""
    played, out = 0, [0] * game.num_players
    for event in game.log:
        if event.kind == "round":
            played += 1
        elif event.kind == "out":
            out[event.seat] = played
    return [count or played for count in out]


@dataclass(frozen=True)
class Measure:
    """A game's own column: its header, and per finished game and seat the numerator and
    denominator summed over the games (the column shows their ratio); and how many rounds a
    game took."""

    column: str
    per_seat: Callable[[Any, int], tuple[float, float]]
    rounds: Callable[[Any], float]


#: Each engine-driven game's own column (one home per game: what a row says beside its place).
MEASURES: dict[str, Measure] = {
    "perudo": Measure("dice lost/round",
                      lambda game, seat: (game.start_dice[seat] - game.dice_counts[seat],
                                          rounds_out(game)[seat]),
                      lambda game: game.round),
    "paye": Measure("mean score", lambda game, seat: (game.scores[seat], 1),
                    lambda game: game.round),
    "pasch": Measure("mean points", lambda game, seat: (game.scores[seat], 1),
                     lambda game: game.round + 1),
}


def options_text(spec: GameSpec, options: dict[str, Any]) -> str:
    """The table options as the title shows them (``dice 5``, ``variant base, rounds 10``)."""
    given = spec.table_options(**options)
    return ", ".join(f"{o.name} {given[o.argument] if given[o.argument] is not None else 'default'}"
                     for o in spec.options)


@dataclass(frozen=True)
class GameEvalResult(EvalResult):
    """``evaluate_game``'s result: the game's title and options, and its own column
    (``MEASURES``) where Pagadores has cards lost per round."""

    game: str = ""
    options: str = ""

    def table(self) -> str:
        """An aligned plain-text table, one line per agent."""
        columns = (*FRONT, BACK[0], (MEASURES[self.game].column, BACK[1][1]))
        header = tuple(name for name, _ in columns)
        body = [tuple(cell(r) for _, cell in columns) for r in self.rows]
        title = (f"{game_spec(self.game).title}: {self.num_games} games, {self.num_players} "
                 f"players, {self.options}, seed {self.seed}; mean game length "
                 f"{self.mean_game_length:.2f} rounds; fair share {1 / self.num_players:.3f}")
        rounded = rounding_note(self.num_games, self.games_asked, self.num_players)
        return "\n".join([title, aligned([header, *body]), *filter(None, [rounded])])


@dataclass(frozen=True)
class GameTournamentResult(TournamentResult):
    """``tournament_game``'s result: the title names the game and its options."""

    game: str = ""
    options: str = ""

    def heading(self) -> str:
        """What was played: the table's title before its legend."""
        return (f"{game_spec(self.game).title} round-robin, {self.num_games} two-player games "
                f"per pair, {self.options}, seed {self.seed}")


def evaluate_game(game: str, agents: Sequence[AgentLike], num_players: int = 2,
                  num_games: int = 1000, seed: int = 0, options: dict[str, Any] | None = None,
                  progress: bool | Reporter = False, label: str = "evaluate") -> GameEvalResult:
    """Play ``num_games`` games of ``game`` (rounded up to a multiple of ``num_players``) with
    rotated seats, reported to ``progress`` as phase ``label``; see the module docstring.
    Spec strings name the game's players (``make_policy(spec, game=game)``); policy objects
    are reseeded when they have ``reset``. Raises ``ValueError`` in one line on a bad game,
    agent count or spec, table size, option, ``num_games`` or ``seed``, before any game."""
    spec = game_spec(game)
    check_int("players", num_players, spec.min_players, spec.max_players)
    check_int("games", num_games, 1)
    check_int("seed", seed, 0)
    options = dict(options or {})
    spec.start(num_players, **options)  # the options are checked by the game itself, now
    agents = list(agents)
    row_of_entry = entry_rows(len(agents), num_players)
    policies = [make_policy(a, game=game, seed=child_seed(seed, 1, r)) if isinstance(a, str)
                else reseed_row(make_policy(a, game=game), seed, r)
                for r, a in enumerate(agents)]
    # a player that checks its table (core.policies.SupportsCheckTable) is told the size and
    # the game's first option (Perudo's dice)
    check_tables(policies, num_players, next(iter(spec.table_options(**options).values())))
    games = -(-num_games // num_players) * num_players
    rows_at = [[row_of_entry[(seat - g) % num_players] for seat in range(num_players)]
               for g in range(games)]
    with reporter(progress).phase(label, games, "game") as phase:
        tables = play_games(spec, policies, rows_at, num_players, options, child_rng(seed, 3),
                            phase)
    measure = MEASURES[game]
    labels = agent_labels(agents, policies)
    stats = tuple(_row(tables, rows_at, r, labels[r], row_of_entry.count(r), measure,
                       num_players) for r in range(len(policies)))
    length = float(np.mean([measure.rounds(table) for table in tables]))
    return GameEvalResult(num_players, games, seed, 0, length, stats, games_asked=num_games,
                          game=game, options=options_text(spec, options))


def tournament_game(game: str, agents: Sequence[AgentLike], num_games: int = 1000,
                    seed: int = 0, options: dict[str, Any] | None = None,
                    progress: bool | Reporter = False) -> TournamentResult:
    """Round-robin of 2-player matches of ``game`` (``evaluate.tournament``), each pair played
    by ``evaluate_game``. Raises ``ValueError`` in one line on a bad spec, option,
    ``num_games`` or ``seed`` before any game, so a misspelt last agent costs no games."""
    spec = game_spec(game)
    options = dict(options or {})
    spec.start(2, **options)
    agents = list(agents)
    for agent in agents:  # the matches check the rest before their first game
        make_policy(agent, game=game)

    def match(pair: list[AgentLike], games: int, match_seed: int, _: Any) -> EvalResult:
        return evaluate_game(game, pair, 2, games, match_seed, options)

    result = tournament(agents, num_games, seed, 0, progress, match=match,
                        result_type=GameTournamentResult)
    return GameTournamentResult(**{**result.__dict__, "game": game,
                                   "options": options_text(spec, options)})


def play_games(spec: GameSpec, policies: Sequence[Policy], rows_at: Sequence[Sequence[int]],
               num_players: int, options: dict[str, Any],
               rng: np.random.Generator | Sequence[np.random.Generator],
               phase: Phase | None = None,
               until: Callable[[Any], bool] | None = None) -> list[Any]:
    """Play one game per entry of ``rows_at`` (seat → policy row) to the end, in lock-step:
    the dice from ``rng`` in game order (so the draws depend only on the games), or from a
    generator per game (``rng`` a sequence: a game's dice then depend on it alone, as paired
    games need, ``learners.approximate_engine``), and each policy's pending decisions in one
    ``batch_actions`` call. ``phase``
    (``pagadores_train.progress``) hears of each game as it ends. ``until`` stops a game
    earlier, where it first holds of the table before a throw (Pasch's last round:
    ``evaluation.pasch``)."""
    tables = [spec.start(num_players, **options) for _ in rows_at]
    active = list(range(len(tables)))
    while active:
        waiting: list[list[int]] = [[] for _ in policies]
        still = []
        for g in active:
            table = tables[g]
            stop = until is not None and until(table)
            if not stop:
                spec.advance(table, rng if isinstance(rng, np.random.Generator) else rng[g])
            if stop or table.is_terminal():
                if phase is not None:
                    phase.step()
                continue
            still.append(g)
            waiting[rows_at[g][table.current_player]].append(g)
        for policy, mine in zip(policies, waiting, strict=True):
            if not mine:
                continue
            obs = np.stack([spec.encode(tables[g], tables[g].current_player) for g in mine])
            mask = np.stack([spec.legal_mask(tables[g]) for g in mine])
            for g, action in zip(mine, batch_actions(policy, obs, mask), strict=True):
                tables[g].apply_action(int(action))
        active = still
    return tables


def _row(tables: Sequence[Any], rows_at: Sequence[Sequence[int]], row: int, label: str,
         copies: int, measure: Measure, num_players: int) -> AgentStats:
    """Row ``row``'s line of the table, summed over the games it sat in."""
    seated = np.zeros(num_players, dtype=np.int64)
    wins = places = top = bottom = 0.0
    for table, rows in zip(tables, rows_at, strict=True):
        placed = table.placements()
        for seat in (s for s, r in enumerate(rows) if r == row):
            seated[seat] += 1
            wins += win_share(placed[seat], placed.count(placed[seat]))
            places += placed[seat]
            numerator, denominator = measure.per_seat(table, seat)
            top, bottom = top + numerator, bottom + denominator
    trials = int(seated.sum())
    low, high = wilson_interval(wins, trials)
    return AgentStats(label, copies, trials, wins, wins / trials, low, high, places / trials,
                      top / bottom, tuple(seated.tolist()))

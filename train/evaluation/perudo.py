"""Perudo's evaluation: agents against each other through the Perudo engine, with honest
error bars (the Perudo counterpart of ``pagadores_train.evaluation.evaluate.evaluate_agents``).

``evaluate_perudo(agents, num_players, num_games, seed, dice, progress, label)`` plays
``perudo.engine.Game`` tables in lock-step, so each agent answers all its pending decisions
in one ``act_batch`` call (one forward pass for a model). ``agents[0]`` is under test; the
rest fill the other seats, one entry per other seat or a single opponent reused. Seats are
rotated: in game ``g`` entry ``i`` sits at seat ``(i + g) % num_players``. Seat 0 starts the
first round (P2.2), so rotation also rotates who starts, and ``num_games`` is rounded up to a
multiple of ``num_players`` so every entry sits in every seat equally often (the table says
so when it rounded: ``evaluate.rounding_note``). ``progress`` (a
``pagadores_train.progress.Reporter``, or True for bars) hears the games as phase ``label``, a
status line per tenth of them; a tournament reports one step per pair.

``tournament_perudo(agents, num_games, seed, dice, progress)`` is ``evaluate.tournament``'s
round-robin (win-rate matrix, Bradley–Terry ratings with 95 % intervals, rank ranges) with
each pair played by ``perudo_match``, that is ``evaluate_perudo`` at 2 players; every agent
spec is checked before the first game.

Each row is an ``evaluate.AgentStats``: the win rate with its 95 % Wilson interval
(``evaluate.wilson_interval``), the mean final place (1 = winner, ``Game.placements``) and,
in the column Pagadores uses for cards, the dice lost per round played (P4.2: the dice a seat
lost over the game / the rounds it had dice in). The result is an ``evaluate.EvalResult``
whose ``cards`` field holds the starting dice; its table says dice. The one exact number is
``exact_measures``': the exploitability of a player at 2 players with 1 die each
(``pagadores_env.perudo.exact``).

``DiceShaping`` is the training env's optional dense reward (``env.shaping``): on top of the
game's reward, every step pays ``shaping`` per die the other seats lost (averaged over them)
minus ``shaping`` per die the learner lost, so each round's dudo (P4.2) is felt when it
happens, not only at the game's end. It changes what is optimised (dice, not only the win);
evaluations still count wins.

Randomness follows ``evaluate``'s streams (``pagadores_env.core.seeding``): agent row ``r`` is
seeded with ``child_seed(seed, 1, r)`` and the dice of all games come from one face stream of
``child_rng(seed, 3)``, so a result depends only on the arguments.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import gymnasium
import numpy as np

from pagadores_env.core.checks import check_int
from pagadores_env.core.policies import BasePolicy, Policy, batch_actions, check_tables, make_policy
from pagadores_env.core.seeding import child_rng, child_seed
from pagadores_env.pagadores.rules import MAX_PLAYERS, MIN_PLAYERS
from pagadores_env.perudo import exact
from pagadores_env.perudo.aec import roll_to_decision
from pagadores_env.perudo.dice import FaceStream
from pagadores_env.perudo.engine import Game
from pagadores_env.perudo.observation import encode
from pagadores_env.perudo.policies import GAME, SupportsActionProbabilities
from pagadores_env.perudo.rules import MAX_DICE, legal_mask

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

#: Why a Perudo run's evaluations carry no exact columns.
EXACT_NOTE = ("exact: skipped: Perudo's exact yardstick (eval.exact) solves 2 players with 1 "
              "die each only; Monte Carlo only at this table")


class _Greedy(BasePolicy):
    """A policy's ``act_batch`` alone, so ``exact.strategy`` measures its deterministic play
    even when it also states probabilities."""

    def __init__(self, policy: Policy) -> None:
        super().__init__()
        self.policy = policy

    def act_batch(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """The wrapped policy's actions."""
        return batch_actions(self.policy, obs, mask)


def exact_measures(player: Policy, num_players: int, dice: int) -> tuple[float | None, str]:
    """The exact numbers of ``eval.exact`` on a Perudo table: at 2 players with 1 die each,
    the player's exact exploitability (``exact.exploitability``: 0 at an equilibrium) as it
    samples (its ``action_probabilities``, if it states them, else as it acts) and a note with
    that and its exploitability as it acts; else no number and ``EXACT_NOTE``, as no other
    table is solved."""
    if (num_players, dice) != (exact.PLAYERS, exact.DICE):
        return None, EXACT_NOTE
    label = f"exact exploitability ({exact.PLAYERS} players, {exact.DICE} die)"
    acted = exact.exploitability(_Greedy(player))
    if not isinstance(player, SupportsActionProbabilities):
        return acted, f"{label}: {acted:.4f}"
    sampled = exact.exploitability(player)
    return sampled, f"{label}: {sampled:.4f} as sampled, {acted:.4f} at its act"


@dataclass(frozen=True)
class PerudoEvalResult(EvalResult):
    """``evaluate_perudo``'s result: ``cards`` holds the starting dice and the rows'
    ``cards_lost_per_round`` the dice lost per round; the table names them so."""

    def table(self) -> str:
        """An aligned plain-text table, one line per agent."""
        columns = (*FRONT, BACK[0],
                   ("dice lost/round", BACK[1][1]))
        header = tuple(name for name, _ in columns)
        body = [tuple(cell(r) for _, cell in columns) for r in self.rows]
        title = (f"Perudo: {self.num_games} games, {self.num_players} players, {self.cards} "
                 f"dice, seed {self.seed}; mean game length {self.mean_game_length:.2f} rounds;"
                 f" fair share {1 / self.num_players:.3f}")
        rounded = rounding_note(self.num_games, self.games_asked, self.num_players)
        return "\n".join([title, aligned([header, *body]), *filter(None, [rounded])])


@dataclass(frozen=True)
class PerudoTournamentResult(TournamentResult):
    """``tournament_perudo``'s result: ``cards`` holds the starting dice; the title says so."""

    def heading(self) -> str:
        """What was played: the table's title before its legend."""
        return (f"Perudo round-robin, {self.num_games} two-player games per pair, {self.cards} "
                f"dice, seed {self.seed}")


class DiceShaping(gymnasium.Wrapper):
    """``Perudo-v1`` with the dice each step cost the learner and the others added to its
    reward (see the module docstring)."""

    def __init__(self, env: gymnasium.Env, shaping: float) -> None:
        super().__init__(env)
        self.shaping = shaping
        self._counts: list[int] = []

    @property
    def _perudo(self) -> Any:
        """The ``PerudoGymEnv`` inside (its ``game`` and the learner's ``seat``)."""
        return self.env.unwrapped

    def reset(self, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
        """Reset the game and remember its dice."""
        observation, info = self.env.reset(**kwargs)
        self._counts = list(self._perudo.game.dice_counts)
        return observation, info

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """The env's step with the dice lost since the last one priced in."""
        observation, reward, terminated, truncated, info = self.env.step(action)
        game, seat = self._perudo.game, self._perudo.seat
        lost = [before - now for before, now in zip(self._counts, game.dice_counts,
                                                    strict=True)]
        self._counts = list(game.dice_counts)
        others = (sum(lost) - lost[seat]) / (game.num_players - 1)
        return (observation, float(reward) + self.shaping * (others - lost[seat]), terminated,
                truncated, info)


def evaluate_perudo(agents: Sequence[AgentLike], num_players: int = 2, num_games: int = 1000,
                    seed: int = 0, dice: int = MAX_DICE, progress: bool | Reporter = False,
                    label: str = "evaluate") -> PerudoEvalResult:
    """Play ``num_games`` Perudo games (rounded up to a multiple of ``num_players``) with
    rotated seats, reported to ``progress`` as phase ``label``; see the module docstring.
    Spec strings name Perudo's players (``make_policy(spec, game="perudo")``); policy objects
    are reseeded when they have ``reset``. Raises ``ValueError`` in one line on a bad agent
    count or spec, ``num_players``, ``num_games``, ``seed`` or ``dice``, before any game."""
    check_int("num_players", num_players, MIN_PLAYERS, MAX_PLAYERS)
    check_int("num_games", num_games, 1)
    check_int("seed", seed, 0)
    check_int("dice", dice, 1, MAX_DICE)
    agents = list(agents)
    row_of_entry = entry_rows(len(agents), num_players)
    policies = [make_policy(a, game=GAME, seed=child_seed(seed, 1, r)) if isinstance(a, str)
                else reseed_row(make_policy(a, game=GAME), seed, r) for r, a in enumerate(agents)]
    check_tables(policies, num_players, dice)
    games = -(-num_games // num_players) * num_players
    rows_at = [[row_of_entry[(seat - g) % num_players] for seat in range(num_players)]
               for g in range(games)]
    with reporter(progress).phase(label, games, "game") as phase:
        tables = play_games(policies, rows_at, num_players, dice, child_rng(seed, 3), phase)
    totals = _Totals(len(policies), num_players)
    for table, rows in zip(tables, rows_at, strict=True):
        totals.add(table, rows, dice)
    labels = agent_labels(agents, policies)
    stats = tuple(totals.stats(r, labels[r], row_of_entry.count(r)) for r in range(len(policies)))
    length = float(np.mean([table.round for table in tables]))
    return PerudoEvalResult(num_players, games, seed, dice, length, stats,
                            games_asked=num_games)


def perudo_match(pair: list[AgentLike], num_games: int, seed: int, dice: int) -> EvalResult:
    """One pair of a Perudo tournament: ``evaluate_perudo`` at 2 players (``evaluate.Match``)."""
    return evaluate_perudo(pair, 2, num_games, seed, dice)


def tournament_perudo(agents: Sequence[AgentLike], num_games: int = 1000, seed: int = 0,
                      dice: int = MAX_DICE, progress: bool | Reporter = False
                      ) -> TournamentResult:
    """Round-robin of 2-player Perudo matches, as a ``PerudoTournamentResult`` (see the module
    docstring). Raises ``ValueError`` in one line on a bad spec, ``num_games``, ``seed`` or
    ``dice`` before any game, so a misspelt last agent does not cost the other pairs' games."""
    agents = list(agents)
    for agent in agents:  # the matches check the rest before their first game
        make_policy(agent, game=GAME)
    return tournament(agents, num_games, seed, dice, progress, match=perudo_match,
                      result_type=PerudoTournamentResult)


def play_games(policies: Sequence[Policy], rows_at: Sequence[Sequence[int]], num_players: int,
               dice: int, rng: np.random.Generator, phase: Phase | None = None) -> list[Game]:
    """Play one game per entry of ``rows_at`` (seat → policy row) to the end, in lock-step:
    every round's dice from one face stream of ``rng``, in game order (so the draws depend
    only on the games), and each policy's pending decisions in one ``batch_actions`` call.
    ``phase`` (``pagadores_train.progress``) hears of each game as it ends."""
    faces = FaceStream(rng)
    tables = [Game(num_players, dice) for _ in rows_at]
    active = list(range(len(tables)))
    while active:
        waiting: list[list[int]] = [[] for _ in policies]
        still = []
        for g in active:
            table = tables[g]
            roll_to_decision(table, faces)
            if table.is_terminal():
                if phase is not None:
                    phase.step()
                continue
            still.append(g)
            waiting[rows_at[g][table.current]].append(g)
        for policy, mine in zip(policies, waiting, strict=True):
            if not mine:
                continue
            seats = [tables[g].current for g in mine]
            obs = np.stack([encode(tables[g], s) for g, s in zip(mine, seats, strict=True)])
            mask = np.stack([legal_mask(tables[g].bid_action, tables[g].total_dice,
                                        tables[g].palifico) for g in mine])
            for g, action in zip(mine, batch_actions(policy, obs, mask), strict=True):
                tables[g].apply_action(int(action))
        active = still
    return tables


def rounds_in(game: Game) -> list[int]:
    """Per seat: the rounds it had dice in (all of them for the winner; up to the round that
    knocked it out for the others, P1.3)."""
    played, out = 0, [0] * game.num_players
    for event in game.log:
        if event.kind == "round":
            played += 1
        elif event.kind == "out":
            out[event.seat] = played
    return [count or played for count in out]


class _Totals:
    """Sums over finished games per policy row (and per seat for ``seat_counts``)."""

    def __init__(self, rows: int, num_players: int) -> None:
        self.seated = np.zeros((rows, num_players), dtype=np.int64)
        self.wins = np.zeros(rows, dtype=np.int64)
        self.places = np.zeros(rows, dtype=np.int64)
        self.dice_lost = np.zeros(rows, dtype=np.int64)
        self.rounds_in = np.zeros(rows, dtype=np.int64)

    def add(self, game: Game, rows: Sequence[int], dice: int) -> None:
        """Count one finished game whose seat ``s`` was played by row ``rows[s]``."""
        places, rounds = game.placements(), rounds_in(game)
        for seat, row in enumerate(rows):
            self.seated[row, seat] += 1
            self.wins[row] += game.winner == seat
            self.places[row] += places[seat]
            self.dice_lost[row] += dice - game.dice_counts[seat]
            self.rounds_in[row] += rounds[seat]

    def stats(self, row: int, label: str, copies: int) -> AgentStats:
        """Row ``row``'s line of the table."""
        trials, wins = int(self.seated[row].sum()), int(self.wins[row])
        low, high = wilson_interval(wins, trials)
        return AgentStats(label, copies, trials, wins, wins / trials, low, high,
                          float(self.places[row] / trials),
                          float(self.dice_lost[row] / self.rounds_in[row]),
                          tuple(self.seated[row].tolist()))


"""Batch evaluation: many games of fixed policies on ``VectorGame``, seats rotated.

``evaluate_batch(["sensible", "random"], num_players=2, num_games=100_000)`` plays every game
to its end (no auto-reset, so long games are not cut off) with each decision made by the
policy sitting in the deciding seat, through its ``act_batch``. Game ``j`` seats lineup
entry ``k`` in seat ``(k + j) % num_players``, so every policy plays every seat equally often
and the first-insteker advantage (R3.1) cancels out. ``play_lineup`` is the engine underneath
(also behind the ``pagadores evaluate`` command's ``evaluate_agents``): it returns per-game
outcomes (``Played``) rather than summaries; ``Played.totals`` sums them per player.

A player that must know its seat (the observation does not say it; ``equilibrium`` at 4+
players needs it for R6.2) offers ``for_seat(seat, num_players)`` (``core.policies``): a rotation
seats it everywhere, so each seat is played by its copy for that seat (``seat_players``), and
its games are still counted as the one player's.

Any policy plays here: one without ``act_batch`` is asked row by row
(``core.policies.batch_actions``), as is one with ``BasePolicy``'s looping ``act_batch``; the
games are the same either way. It is fastest when ``act_batch`` answers a whole batch in one
numpy (or one network) call, as the shipped players and SB3 models do, and fastest of all for
the players with a decision table (``vector.tables``), whose decisions the kernel makes.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import numpy as np

from ...core.policies import Policy, SupportsForSeat, batch_actions, make_policy
from ...core.seeding import spawned_rng, spawned_seeds
from .game import VectorGame
from .tables import seat_tables


class Totals(NamedTuple):
    """Sums per player (index into the players) over the games of a ``Played``."""

    seated: np.ndarray  # (players, n) games the player sat in each seat
    wins: np.ndarray  # (players, n) games the player won from each seat
    places: np.ndarray  # (players,) final places added up (1 = winner)
    cards_lost: np.ndarray  # (players,)
    rounds_in: np.ndarray  # (players,) rounds the player took part in


class Played(NamedTuple):
    """Outcomes of ``games`` games of ``n`` seats, one row per game in game order."""

    player_of: np.ndarray  # (games, n): index into the players of the one in each seat
    winner: np.ndarray  # (games,) seat
    placements: np.ndarray  # (games, n), 1 = winner, as Game.placements
    rounds: np.ndarray  # (games,) rounds the game lasted
    rounds_in: np.ndarray  # (games, n) rounds each seat took part in
    cards_lost: np.ndarray  # (games, n) start cards − final cards

    def totals(self, players: int) -> Totals:
        """The games summed per player, for ``players`` players (``player_of`` < players)."""
        games, n = self.player_of.shape
        seats = np.broadcast_to(np.arange(n), self.player_of.shape)
        seated = np.zeros((players, n), np.int64)
        np.add.at(seated, (self.player_of, seats), 1)
        wins = np.zeros((players, n), np.int64)
        np.add.at(wins, (self.player_of[np.arange(games), self.winner], self.winner), 1)

        def total(values: np.ndarray) -> np.ndarray:
            return np.bincount(self.player_of.ravel(), values.ravel(),
                               minlength=players).astype(np.int64)

        return Totals(seated, wins, total(self.placements), total(self.cards_lost),
                      total(self.rounds_in))


class EvalGame(VectorGame):
    """A ``VectorGame`` without auto-reset that also tells the rounds each seat took part in,
    for the statistic "cards lost per round played"."""

    def __init__(self, batch: int, num_players: int,
                 cards: int | Sequence[int] | np.ndarray = 10,
                 seed: int | np.random.Generator | None = None) -> None:
        super().__init__(batch, num_players, cards, seed, auto_reset=False)

    def rounds_in(self) -> np.ndarray:
        """``(batch, num_players)``: rounds each seat took part in — up to the round it went
        out in (R1.4, R6; none for a seat that started without cards), else all of the
        game's rounds. Call it once every game is over."""
        if not self.done.all():
            raise ValueError("rounds_in needs every game to be over")
        return np.where(self.out > 0, self.out_round, self.round[:, None])


def play_out(game: VectorGame, players: Sequence[Policy], player_of: np.ndarray,
             on_finished: Callable[[int], Any] | None = None,
             on_decisions: Callable[[int], Any] | None = None) -> None:
    """Let the seated players decide until every game of ``game`` (no auto-reset) is over.

    ``player_of[i, s]`` indexes ``players`` for seat ``s`` of game ``i``. The kernel decides
    for the players that have a decision table (``vector.tables``); each step asks every other
    player once, for all its pending decisions. ``on_finished(k)`` hears of ``k`` games ending;
    ``on_decisions(total)`` of the decisions asked so far, after every step (games played in
    lock-step end late: this says the work goes on before they do).
    """
    if game.auto_reset:
        raise ValueError("play_out needs a VectorGame with auto_reset=False (games must end)")
    tables, table_row = seat_tables(players)
    if len(tables):
        game.play_by_tables(tables, np.ascontiguousarray(table_row[player_of]),
                            np.full(game.batch, -1, np.int64))
        game.advance()
    masks = np.ones((game.batch, 2), bool)  # R3.6: both actions legal at every decision
    reported = decided = 0
    while True:
        rows = np.flatnonzero(game.decision)
        over = game.batch - rows.size  # without auto-reset, every game waits or is over
        if on_finished is not None and over > reported:
            on_finished(over - reported)
            reported = over
        if not rows.size:
            return
        who = player_of[rows, game.seat[rows]]
        obs = game.observations(rows)
        actions = np.zeros(rows.size, np.int64)
        for k, player in enumerate(players):
            mine = who == k
            if mine.any():
                actions[mine] = batch_actions(player, obs[mine], masks[:rows.size][mine])
        game.step(actions, rows)
        decided += rows.size
        if on_decisions is not None:
            on_decisions(decided)


def seated(player: Policy, seat: int, num_players: int) -> Policy:
    """Who plays ``player``'s games at ``seat`` of a ``num_players`` table: its copy for that
    seat if it offers ``for_seat`` (``core.policies.SupportsForSeat``; it refuses a seat it
    cannot play), else itself."""
    if isinstance(player, SupportsForSeat):
        return player.for_seat(seat, num_players)
    return player


def seat_players(players: Sequence[Policy], num_players: int) -> tuple[list[Policy], np.ndarray]:
    """The players that sit when each of ``players`` may sit at every seat of a
    ``num_players`` table: ``(roster, index)``, each player's distinct seat copies
    (``seated``; a player without ``for_seat`` is one entry, itself, as before) and
    ``index[p, s]``, the roster entry playing player ``p``'s games at seat ``s``. ``ValueError``
    from a player that cannot play some seat (``equilibrium:seat=0`` plays seat 0 only)."""
    roster: list[Policy] = []
    index = np.zeros((len(players), num_players), np.int64)
    for p, player in enumerate(players):
        mine: dict[int, int] = {}  # id of one of this player's copies -> its roster entry
        for seat in range(num_players):
            one = seated(player, seat, num_players)
            if id(one) not in mine:
                mine[id(one)] = len(roster)
                roster.append(one)
            index[p, seat] = mine[id(one)]
    return roster, index


def play_lineup(players: Sequence[Policy], lineup: Sequence[int], num_games: int,
                rng: np.random.Generator, cards: int | Sequence[int] = 10,
                chunk: int = 65_536,
                on_finished: Callable[[int], Any] | None = None,
                on_decisions: Callable[[int], Any] | None = None) -> Played:
    """Play ``num_games`` games, ``chunk`` at a time, with lineup entry ``k`` (player
    ``players[lineup[k]]``, or its copy for the seat: ``seat_players``) in seat
    ``(k + g) % len(lineup)`` of game ``g``; dice from ``rng`` (the draws depend on ``chunk``,
    so keep it fixed for reproducible runs); ``on_finished`` and ``on_decisions`` as
    ``play_out`` takes them, per chunk."""
    n = len(lineup)
    if not isinstance(num_games, int) or num_games < 1:
        raise ValueError(f"num_games must be a positive integer, got {num_games!r}")
    if not isinstance(chunk, int) or chunk < 1:
        raise ValueError(f"chunk must be a positive integer, got {chunk!r}")
    lineup_arr = np.asarray(lineup, np.int64)
    roster, index = seat_players(players, n)
    parts = []
    for first in range(0, num_games, chunk):
        size = min(chunk, num_games - first)
        game_ids = first + np.arange(size)
        entry_of = (np.arange(n)[None, :] - game_ids[:, None]) % n  # entry in seat s of game i
        player_of = lineup_arr[entry_of]
        game = EvalGame(size, n, cards, rng)
        play_out(game, roster, index[player_of, np.arange(n)], on_finished, on_decisions)
        parts.append(Played(player_of, game.winner.copy(), game.placements(), game.round.copy(),
                            game.rounds_in(), game.start_cards - game.cards))
    return Played(*(np.concatenate(p) for p in zip(*parts, strict=True)))


def evaluate_batch(policies: Sequence[str | Policy], num_players: int, num_games: int,
                   seed: int | None = 0, cards: int | Sequence[int] = 10,
                   chunk: int = 65_536) -> dict[str, Any]:
    """Play ``num_games`` games of the lineup ``core.policies`` (one per seat, rotated per game).

    Returns per lineup entry ``win_rate``, ``mean_place`` (1 = winner) and
    ``cards_lost_per_round`` (cards lost / rounds played), the ``win_rate_by_seat`` matrix
    (entry × seat), ``mean_rounds``, ``games``, and the wall-clock ``seconds`` and
    ``cpu_seconds`` it took.
    """
    if len(policies) != num_players:
        raise ValueError(f"policies must list one policy per seat ({num_players}), "
                         f"got {len(policies)}")
    # spec strings are seeded with parts 0 … n-1 of the seed, the dice draw from part n
    players = [make_policy(p, seed=s)
               for p, s in zip(policies, spawned_seeds(seed, num_players), strict=True)]
    start, cpu = time.perf_counter(), time.process_time()
    played = play_lineup(players, range(num_players), num_games,
                         spawned_rng(seed, num_players), cards, chunk)
    totals = played.totals(num_players)  # lineup entry × seat
    per_entry = totals.seated.sum(axis=1)
    return {
        "policies": [str(p) for p in policies],
        "num_players": num_players,
        "games": num_games,
        "win_rate": (totals.wins.sum(axis=1) / per_entry).tolist(),
        "mean_place": (totals.places / per_entry).tolist(),
        "cards_lost_per_round": (totals.cards_lost / totals.rounds_in).tolist(),
        "win_rate_by_seat": (totals.wins / np.maximum(totals.seated, 1)).tolist(),
        "mean_rounds": float(played.rounds.mean()),
        "seconds": time.perf_counter() - start,
        "cpu_seconds": time.process_time() - cpu,
    }


"""Pasch's exact measure of a trained player: its last-round NashConv, averaged over the last
rounds that ``greedy`` players reach (issue 47's yardstick of a 2-player agent, X9.2).

The last round of a game at 2 or 3 players is solved exactly (``pasch.exact.nash_conv``: the
sum over seats of what each could gain by its best response while the others play on), but
what it is worth depends on where the round starts: the scores before it, each seat's last
card and blocks left, and the starter. So the measure fixes the positions once:
``last_round_positions`` plays ``games`` games of ``greedy`` against ``greedy`` (seed
``seed``; the dice of the engine evaluator's stream, ``engine.play_games``) up to the start of
their last round and takes each game's position there; ``last_round_nash_conv(player, ...)``
is the mean of the player's exact last-round NashConv (the player in every seat) over those
positions, a position met in several games counted as often (each distinct position solved
once). With 1,000 games and seed 0 (the defaults) it is the number issue 47 sets the goal
by: a trained 2-player agent's at most half of ``greedy``'s.

A player that states its probabilities (a model's ``action_probabilities``) is measured as it
acts (``act_batch``), as it plays in evaluations: ``evaluate.Acting``.

``PointsShaping`` is Pasch's training env's optional dense reward (``env.shaping``): on top of
the game's reward, every step pays ``shaping`` per point the learner gained (X7.2's share-out)
minus the others' mean gain, so each round's cards are felt when they are shared out, not
only at the game's end. The most points win (X1.4), so the two pull the same way; it changes
what is optimised (points, not only the win), and evaluations still count wins.

``LastRoundStarts`` is its other option (``env.last_round_starts``): in that share of the
training games ``greedy`` plays the learner's seat through the earlier rounds and the learner
takes over at the start of the last round, so the rounds the yardstick above measures are met
far more often than once a game. The other seats play as always; the steps ``greedy`` takes
are not the learner's and are not counted or trained on.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import gymnasium

from pagadores_env.core.checks import check_int
from pagadores_env.core.games import game_spec
from pagadores_env.core.policies import Policy, make_policy
from pagadores_env.core.seeding import child_rng
from pagadores_env.pasch import exact
from pagadores_env.pasch.last_round import PLAYERS, check_position, check_size

from .engine import play_games
from .evaluate import Acting
from .shaping import TallyShaping

GAME = "pasch"
#: Issue 47's positions: the last rounds of 1,000 greedy-against-greedy games, seed 0.
GAMES, SEED, PLAYER = 1000, 0, "greedy"

#: A last round's start: the scores before it, each seat's last card and blocks left, the
#: seat that starts it (``pasch.exact.last_round``'s arguments).
Position = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], int]


@dataclass(frozen=True)
class LastRoundNashConv:
    """``last_round_nash_conv``'s result: the mean over ``games`` positions (``distinct`` of
    them different) and its table's size and options."""

    mean: float
    games: int
    distinct: int
    num_players: int
    seed: int


def _in_last_round(game: Any) -> bool:
    return bool(game.round == game.rounds - 1)


def position(game: Any) -> Position:
    """The last round's start of ``game``, a Pasch game in its last round before any dice
    of it are thrown: its starter's card is already played (one card left is forced, X8.3)."""
    seats = range(game.num_players)
    return (tuple(game.scores),
            tuple(game.hands[s][0] if game.played[s] is None else game.played[s]
                  for s in seats),
            tuple(game.blocks), int(game.starter))


def last_round_positions(num_players: int = 2, games: int = GAMES, seed: int = SEED,
                         options: dict[str, Any] | None = None) -> list[Position]:
    """Each of ``games`` games' last-round position, ``greedy`` playing every seat, with the
    table options ``options`` (Pasch's ``hand`` and ``blocks``); ``ValueError`` in one line
    for a table size the last round is not solved at (X9.2) or a bad option."""
    return list(_positions(_size(num_players), check_int("games", games, 1),
                           check_int("seed", seed, 0), _frozen(options)))


@functools.cache
def _positions(num_players: int, games: int, seed: int,
               options: tuple[tuple[str, Any], ...]) -> tuple[Position, ...]:
    spec = game_spec(GAME)
    greedy = make_policy(PLAYER, game=GAME, seed=0)
    tables = play_games(spec, [greedy], [[0] * num_players] * games, num_players,
                        _thawed(options), child_rng(seed, 3), until=_in_last_round)
    return tuple(position(table) for table in tables)


def last_round_nash_conv(player: str | Policy | Sequence[str | Policy], num_players: int = 2,
                         games: int = GAMES, seed: int = SEED,
                         options: dict[str, Any] | None = None, acting: bool = True
                         ) -> LastRoundNashConv:
    """The mean of ``player``'s exact last-round NashConv (in every seat; or a list of one
    player per seat) over ``last_round_positions`` (module docstring); ``acting=False``
    measures the players as given (one stating its probabilities as that mixture). Every
    position's size is checked before any is solved (``pasch.last_round.check_size``)."""
    positions = last_round_positions(num_players, games, seed, options)
    hand = dict(_frozen(options))["hand"]
    entries = [player] if isinstance(player, str | Policy) else list(player)
    if len(entries) not in (1, num_players):
        raise ValueError(f"players must be one for every seat or {num_players} (one per seat), "
                         f"got {len(entries)}")
    built = [make_policy(entry, game=GAME, seed=0) for entry in entries]
    seated = [Acting(p) if acting else p for p in built]
    profile = seated[0] if len(seated) == 1 else seated
    distinct = list(dict.fromkeys(positions))
    for p in distinct:  # a position too big is refused before any work
        check_size(check_position(*p), 1 + num_players)
    solved = {p: exact.nash_conv(profile, *p, hand=hand) for p in distinct}
    mean = sum(solved[p] for p in positions) / len(positions)
    return LastRoundNashConv(mean, len(positions), len(solved), num_players, seed)


@functools.cache
def _scripted(player: str, num_players: int, games: int, seed: int,
              options: tuple[tuple[str, Any], ...]) -> float:
    return last_round_nash_conv(player, num_players, games, seed, _thawed(options)).mean


def scripted_nash_conv(player: str, num_players: int = 2, games: int = GAMES, seed: int = SEED,
                       options: dict[str, Any] | None = None) -> float:
    """``last_round_nash_conv(player, ...).mean`` of a scripted player's spec, kept for the
    process (the reference a trained player's is compared with: ``greedy``'s)."""
    return _scripted(player, _size(num_players), games, seed, _frozen(options))


def _size(num_players: int) -> int:
    if num_players not in PLAYERS:
        raise ValueError(f"Pasch's last round is solved exactly at {' or '.join(map(str, PLAYERS))}"
                         f" players (X9.2), got {num_players!r}")
    return num_players


def _frozen(options: dict[str, Any] | None) -> tuple[tuple[str, Any], ...]:
    """The options by name, the game's defaults filled in, as a hashable key (lists as
    tuples); ``ValueError`` in one line for an option Pasch does not take or a bad value."""
    spec, given = game_spec(GAME), dict(options or {})
    spec.start(min(PLAYERS), **given)
    return tuple((o.name, tuple(v) if isinstance(v, Sequence) else v)
                 for o in spec.options for v in [given.get(o.name, o.default)])


def _thawed(options: tuple[tuple[str, Any], ...]) -> dict[str, Any]:
    return {name: list(v) if isinstance(v, tuple) else v for name, v in options}


class PointsShaping(TallyShaping):
    """``Pasch-v1`` with the points each step gave the learner and the others added to its
    reward (see the module docstring)."""

    TALLY = "scores"


class LastRoundStarts(gymnasium.Wrapper):
    """``Pasch-v1`` whose learner joins a ``share`` of its games at the last round, ``greedy``
    playing its seat before (module docstring). Whether a game is one of them is drawn from
    the env's own generator, so a seeded run repeats exactly."""

    def __init__(self, env: gymnasium.Env, share: float) -> None:
        super().__init__(env)
        self.share = share
        self._before = make_policy(PLAYER, game=GAME, seed=0)

    def reset(self, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
        """A new game at the learner's first decision, in its last round for ``share`` of
        them (every Pasch turn has a decision, X3.2, so the learner has one there)."""
        observation, info = self.env.reset(**kwargs)
        game = self.env.unwrapped.game
        if self.env.unwrapped.np_random.random() < self.share:
            while not _in_last_round(game):
                action = self._before.act(observation, info["action_mask"])
                observation, _, over, _, info = self.env.step(action)
                assert not over  # the last round is still to play
        return observation, info

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

``LastRoundStarts`` is its other option (``env.last_round_starts``): that share of the
training games starts at the last round, at a position drawn from the last rounds of
``POOL_GAMES`` greedy-against-greedy games (seed ``POOL_SEED``, other games than the
yardstick's seed 0, from the same players, so the same spread of positions), with the env's
table options. Half the late starts are drawn as the games reached them (the common ones most
often), half uniformly among the different positions of the pool: at 2 players about 70% of
the games reach one position (equal scores, no blocks left), and the rarer ones, where blocks are
left to spend, need practice too. The learner practises the rounds the yardstick measures far
more often than once a game, and such a game costs only its last round: a late start is about
2.4 learner steps where a whole 2-player game is about 24, so ``share`` counts games, not
steps. The opponents play the last round as always; the earlier rounds are not played at all.

``last_round_response`` is the opponent of ``env.best_response`` at 2 players: in the last
rounds of that pool (matched by scores and cards; any blocks left) it plays the exact best
response to the learner (``pasch.exact.ResponsePolicy``: as the starter the turn that
exploits the learner's second seat most, as the second seat the equilibrium, which is the
best response to any starter), elsewhere ``greedy``. Trained against it, the learner's gradient in
those rounds is that of its last-round NashConv (exploitability descent,
``pagadores_train.learners.best_response``). Solving the starter's response asks the learner
about every decision of its turn as the second seat, 0.5–5 s per position, so it is
recomputed every ``RESPONSE_EVERY`` steps, not before every rollout: the second seat's best
play does not depend on the starter's, so a response a little behind the learner still
points at the decisions it loses most on. Measured at 1,200,000 steps in place of self-play
(the training page), it did not lower the NashConv below self-play's, so the config does not
use it.
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
from pagadores_env.pasch.engine import Game
from pagadores_env.pasch.last_round import PLAYERS, check_position, check_size

from .engine import play_games
from .evaluate import Acting
from .shaping import TallyShaping

GAME = "pasch"
#: Issue 47's positions: the last rounds of 1,000 greedy-against-greedy games, seed 0.
GAMES, SEED, PLAYER = 1000, 0, "greedy"
#: Where ``LastRoundStarts`` draws its positions: other games of the same players (about 5 s
#: to play, once a process).
POOL_GAMES, POOL_SEED = 1000, 1
#: The share of late starts drawn uniformly among the pool's different positions, not as often
#: as the games reached them.
UNIFORM_SHARE = 0.5
#: Training steps between recomputations of ``last_round_response`` (``env.best_response``):
#: solving it for the pool's positions takes seconds (the module docstring).
RESPONSE_EVERY = 50_000

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


def training_positions(num_players: int, options: dict[str, Any] | None = None
                       ) -> tuple[Position, ...]:
    """The pool's positions (``POOL_GAMES`` games, seed ``POOL_SEED``), as the games reached
    them: where ``LastRoundStarts`` starts its games and ``last_round_response`` responds."""
    return _positions(num_players, POOL_GAMES, POOL_SEED, _frozen(options))


def last_round_response(player: Policy, options: dict[str, Any] | None = None
                        ) -> exact.ResponsePolicy:
    """The exact best response to ``player`` in the last rounds of the pool at 2 players
    (``pasch.exact.ResponsePolicy``; any blocks left), ``greedy`` at every other decision:
    the opponent ``env.best_response`` trains a Pasch learner against (module docstring)."""
    table = dict(_frozen(options))
    distinct = tuple(dict.fromkeys(training_positions(2, options)))
    return exact.ResponsePolicy(player, make_policy(PLAYER, game=GAME, seed=0), distinct,
                                hand=table["hand"])


class PointsShaping(TallyShaping):
    """``Pasch-v1`` with the points each step gave the learner and the others added to its
    reward (see the module docstring)."""

    TALLY = "scores"


class LastRoundStarts(gymnasium.Wrapper):
    """``Pasch-v1`` whose ``share`` of games start at a last round drawn from the pool
    (module docstring). Whether a game starts late and where are drawn from the env's own
    generator, so a seeded run repeats exactly."""

    def __init__(self, env: gymnasium.Env, share: float) -> None:
        super().__init__(env)
        self.share = share
        base = env.unwrapped
        self.pool = training_positions(base.num_players,
                                       {"hand": list(base.hand), "blocks": base.blocks})
        self.distinct = tuple(dict.fromkeys(self.pool))
        self._plain = base._make_game
        # the env makes each game with this hook, before its opponents and its learner's
        # first decision: replacing it for this env alone starts the game where drawn
        base._make_game = self._make_game

    def _make_game(self) -> None:
        base = self.env.unwrapped
        rng = base.np_random
        if rng.random() >= self.share:
            self._plain()
            return
        pool = self.distinct if rng.random() < UNIFORM_SHARE else self.pool
        scores, cards, blocks, starter = pool[int(rng.integers(len(pool)))]
        base.game = Game(base.num_players, base.hand, list(blocks),
                         hands=[(card,) for card in cards], scores=list(scores), starter=starter)

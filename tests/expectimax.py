"""A brute-force expectimax through ``engine.Game``: the independent oracle for the
equilibrium solver (issue 10). It knows nothing of the solver; it only drives the real
engine.

Subgame-perfect play: at every decision the acting seat takes the action with the higher win
probability **for itself**, and stops when the two are within ``TIE`` (the solver's tie rule).
Chance nodes average over ``chance_outcomes()``; a terminal node is won by ``game.winner``.
Values are per-seat win probabilities (numpy vectors of ``num_players`` entries).

States are memoised on :func:`state_key`: every field a transition reads, none of the record
of the past. The one way back to an identical state is a kampen that ties again with plain
throws (R5.3), a chance-only loop. So a value is kept as an *affine* form in the value of the
one state still on the recursion stack that it can return to: ``known + back * V(loop)``.
Reaching a state on the stack gives ``0 + 1 * V(state)``; when the loop's own state is done
it solves ``V = known + back * V`` exactly. A loop through a decision, or two open loops at
once, cannot happen under the rules and raises.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

import numpy as np

from pagadores_env.pagadores.engine import Action, Game, Phase

#: Within this, the acting seat's two action values count as equal and it stops.
TIE = 1e-12
ACTIONS = (Action.STOP, Action.THROW)
#: Fields no transition reads: the record of the past and the start position (``out`` and
#: ``eliminations`` only feed ``placements``; ``round`` only numbers the log's events).
_NOT_STATE = frozenset({"history", "log", "round", "start_cards", "first_insteker", "out",
                        "eliminations"})
#: The turn's fields: a kampen never reads them (it has no turns, R5.1) and the next round
#: starts them afresh.
_TURN_FIELDS = frozenset({"pos", "throw_limit", "throws", "current", "scores"})
_STATE_FIELDS = tuple(name for name in Game.__slots__ if name not in _NOT_STATE)
_ABOVE = 10**6  # stands for every score above the round's lowest

Key = tuple


def state_key(game: Game) -> Key:
    """A hashable key, equal for games whose futures are identical, built from every field a
    transition can read. Three fields are read only in part, so the key keeps only that part:

    - ``current`` at a chance node: the next throw overwrites it before anything reads it;
    - in a kampen, the turn's fields (``_TURN_FIELDS``): no turn is played any more;
    - ``scores`` in a round and ``kampen_scores`` in a kampen: a score above the lowest so far
      can never be the lowest (R3.5, R5.3), so only the lowest and who holds it matter.
    """
    kampen = game.phase == Phase.KAMPEN
    values = []
    for name in _STATE_FIELDS:
        value = getattr(game, name)
        if (kampen and name in _TURN_FIELDS) or (name == "current" and not game.decision):
            value = None
        elif name in ("scores", "kampen_scores"):
            value = lowest_only(value)
        values.append(tuple(value) if isinstance(value, list) else value)
    return tuple(values)


def lowest_only(scores: list[int]) -> tuple[int, ...]:
    """Scores (-1: none yet) with every score above the lowest so far made equal."""
    low = min((s for s in scores if s >= 0), default=-1)
    return tuple(s if s in (-1, low) else _ABOVE for s in scores)


class _Affine(NamedTuple):
    """``known + back * V(loop)``; ``loop`` is None for a plain value."""

    known: np.ndarray
    back: float
    loop: Key | None


def _child(game: Game, move: Action | tuple[int, int, int]) -> Game:
    nxt = game.clone()
    if isinstance(move, Action):
        nxt.apply_action(move)
    else:
        nxt.apply_throw(move)
    nxt.history.clear()  # kept short so clones stay cheap; no transition reads them
    nxt.log.clear()
    return nxt


class Expectimax:
    """The oracle, with a memo shared by every query (positions of one table size).

    With ``leaf``, a round that starts below the query is not played but valued by
    ``leaf(game)`` (per-seat values): the search covers one round only, a local check of a
    solver against its own values at the next round. Without it the search is exact.
    """

    def __init__(self, num_players: int,
                 leaf: Callable[[Game], Sequence[float]] | None = None) -> None:
        self.num_players = num_players
        self._leaf = leaf
        self._memo: dict[Key, _Affine] = {}
        self._open: set[Key] = set()
        self._won = np.eye(num_players)  # row s: seat s has won (R1.5)

    def values(self, game: Game) -> np.ndarray:
        """Per-seat win probabilities from ``game`` (any node) under subgame-perfect play."""
        self._check(game)
        start = _child_free(game)
        if self._leaf is not None and _new_round(start):  # search the query's own round
            result = self._expectation(start, state_key(start))
        else:
            result = self._value(start)
        assert result.loop is None
        return result.known.copy()

    def action_values(self, game: Game) -> np.ndarray:
        """``(2, num_players)``: per-seat win probabilities after [STOP, THROW] at a decision
        node, with subgame-perfect play afterwards."""
        if not game.is_decision_node():
            raise ValueError(f"action values need a decision node, got {game!r}")
        self._check(game)
        start = _child_free(game)
        return np.array([self._plain(self._value(_child(start, a))) for a in ACTIONS])

    def _check(self, game: Game) -> None:
        if game.num_players != self.num_players:
            raise ValueError(f"this oracle is for {self.num_players} players, got {game!r}")

    def _plain(self, value: _Affine) -> np.ndarray:
        if value.loop is not None:
            raise AssertionError(f"a decision inside a chance loop at {value.loop}")
        return value.known

    def _resolved(self, value: _Affine) -> _Affine:
        """A memoised form whose loop state has been solved since, as a plain value."""
        if value.loop is None or value.loop in self._open:
            return value
        head = self._memo[value.loop]
        return _Affine(value.known + value.back * head.known, 0.0, None)

    def _value(self, game: Game) -> _Affine:
        if game.is_terminal():
            return _Affine(self._won[game.winner], 0.0, None)
        key = state_key(game)
        if key in self._memo:
            return self._resolved(self._memo[key])
        if self._leaf is not None and _new_round(game):
            self._memo[key] = _Affine(np.asarray(self._leaf(game), dtype=float), 0.0, None)
            return self._memo[key]
        if key in self._open:  # R5.3: the same kampen again
            return _Affine(np.zeros(self.num_players), 1.0, key)
        self._open.add(key)
        if game.is_decision_node():
            stop, throw = (self._plain(self._value(_child(game, a))) for a in ACTIONS)
            seat = game.current_player
            result = _Affine(throw if throw[seat] > stop[seat] + TIE else stop, 0.0, None)
        else:
            result = self._expectation(game, key)
        self._open.remove(key)
        self._memo[key] = result
        return result

    def _expectation(self, game: Game, key: Key) -> _Affine:
        known = np.zeros(self.num_players)
        back, loop = 0.0, None
        for dice, p in game.chance_outcomes():
            value = self._value(_child(game, dice))
            known += p * value.known
            if value.loop is not None:
                if loop not in (None, value.loop):
                    raise AssertionError(f"two open chance loops below {key}")
                back += p * value.back
                loop = value.loop
        if loop == key:  # V = known + back * V
            return _Affine(known / (1.0 - back), 0.0, None)
        return _Affine(known, back, loop)


def _new_round(game: Game) -> bool:
    """A round about to start: its insteker's first throw comes next (R3.1, R3.5)."""
    return game.phase == Phase.ROUND and game.pos == 0 and game.throws == 0


def _child_free(game: Game) -> Game:
    """A copy of ``game`` without its record (the caller's game is left as it was)."""
    copy = game.clone()
    copy.history.clear()
    copy.log.clear()
    return copy


def expectimax(game: Game) -> np.ndarray:
    """Per-seat win probabilities from ``game`` under subgame-perfect play (fresh memo)."""
    return Expectimax(game.num_players).values(game)


def expectimax_action_values(game: Game) -> np.ndarray:
    """``(2, num_players)`` per-seat values of [STOP, THROW] at a decision node (fresh memo)."""
    return Expectimax(game.num_players).action_values(game)

"""Playing a solved sweep: the values of both actions at a decision, and a player that acts
on them from observations (the equilibrium, a best response)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from ...core.policies import BasePolicy
from ...core.seats import CLOCKWISE
from ..observation import OBS_SIZE, ObsFields, decode
from ..rules import MAX_CARDS, MAX_PLAYERS, MAX_THROWS, check_table, throws_allowed, turn_order
from .multi_kampen import Cards
from .scores import score_states
from .sweep import Position
from .two_player import throws_again

#: A decision's turn as one integer: insteker slot, throw limit and throws used, each below
#: ``_BASE`` (``SweepPolicy.act_fields`` groups rows by it and the card counts).
_BASE = max(MAX_PLAYERS, MAX_THROWS + 1)
_TURN_DIGITS = _BASE ** np.arange(3)
_TURNS = _BASE**3


def decision_values(position: Position, m: int, full: bool, role: int, limit: int, used: int,
                    scores: Sequence[int] | np.ndarray, strength: int | np.ndarray
                    ) -> np.ndarray:
    """``[2, ..., V, n]``: the values after STOP and THROW at decisions of ``role`` of an
    ``m``-role round (after ``used`` throws, throw limit ``limit``, 0 while the insteker
    sets it), the earlier roles having scored ``scores`` ``[..., role]``, the current
    throw being ``strength`` ``[...]``."""
    if used >= throws_allowed(limit):
        raise ValueError("no throws left: this is not a decision (R3.6)")
    states = score_states(m, full)
    q = states.index(scores)
    stop = stop_values(position, m, full, role, limit, used, states.next[role][q, strength])
    throw = position.before[(role, limit, used + 1)][q]
    return np.stack([stop, throw])


def stop_values(position: Position, m: int, full: bool, role: int, limit: int, used: int,
                after: np.ndarray) -> np.ndarray:
    """``[..., V, n]``: the values once ``role`` stops after ``used`` throws (throw limit
    ``limit``, 0 while the insteker sets it) with the round in score states ``after``: the
    next role's turn, or the round's end after the last role."""
    if role == m - 1:
        return position.settle[score_states(m, full).holders[after]]
    # the insteker's stop fixes the limit (R3.2)
    return position.before[(role + 1, limit or used, 1)][after]


def symmetric(num_players: int, start: Sequence[int]) -> bool:
    """Whether a table's values are the same from every seat, so that a player needs no
    seat: at most 3 players (R6.2's youngest-player rule only tells seats apart when one
    special empties two players and two stay) and the same cards for all."""
    return num_players <= 3 and len(set(start)) == 1


class SweepPolicy(BasePolicy):
    """Plays the maximising seat of a kept sweep (variant 0, lowest-score view) from
    observations.

    ``seat`` is the seat it plays. The observation does not say which seat its observer is
    (slots are relative, R1.2), and the rules tell seats apart only when one special empties
    two players at once and the youngest left insteeks (R6.2): with three players that ends
    the game, so at 2–3 players with equal cards the values are the same from every seat
    and ``seat=None`` plays any seat. At 4 or more players give the seat."""

    #: its answers are looked up in the position's tables (``policies.DeclaresPositionAnswers``)
    position_answers = True

    def __init__(self, positions: Mapping[tuple[Cards, int], Position], num_players: int,
                 start: Cards, seat: int | None = None, name: str = "table",
                 seed: int | None = None) -> None:
        super().__init__(seed)
        self.positions = positions
        self.num_players = num_players
        self.start = start
        self.seat = seat
        self.name = name

    def check_table(self, num_players: int, cards: int | Sequence[int]) -> None:
        """``ValueError`` unless this player covers the table (``core.policies.check_tables``)."""
        start = check_table(num_players, cards)[1]
        if num_players != self.num_players or any(
                c > most for c, most in zip(start, self.start, strict=True)):
            raise ValueError(f"{self.name!r} was solved for {self.num_players} players with up "
                             f"to {list(self.start)} cards, got {num_players} players with "
                             f"{list(start)}")
        if self.seat is None and not self.symmetric:
            raise ValueError(f"{self.name!r} at {num_players} players needs its seat (the "
                             f"observation does not say it, and R6.2 does): give seat=0…"
                             f"{num_players - 1}")

    @property
    def symmetric(self) -> bool:
        """Whether every seat sees the same values (see the class docstring)."""
        return symmetric(self.num_players, self.start)

    def act(self, obs: np.ndarray, mask: np.ndarray) -> int:
        """The kept action at one observation."""
        return int(self.act_batch(np.reshape(obs, (1, OBS_SIZE)), np.reshape(mask, (1, 2)))[0])

    def act_batch(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """The kept actions at rows of observations; a single legal action is taken."""
        return self.act_fields(decode(np.reshape(obs, (-1, OBS_SIZE))), mask)

    def act_fields(self, seen: ObsFields, mask: np.ndarray) -> np.ndarray:
        """``act_batch`` on decoded observations (``pagadores.policies.SupportsActFields``:
        the exact solver hands them over without writing and reading rows)."""
        legal = np.asarray(mask).reshape(len(seen.my_strength), 2).astype(bool)
        actions = legal[:, 1].astype(np.int64)
        both = np.flatnonzero(legal[:, 0] & legal[:, 1])
        n = self.num_players
        players = np.broadcast_to(seen.players, (len(legal),))[both]
        if len(both) and (players != n).any():
            raise ValueError(f"{self.name!r} plays {n}-player tables, got an observation of "
                             f"{int(players[players != n][0])} players")
        if len(both) and self.seat is None and not self.symmetric:
            raise ValueError(f"{self.name!r} needs its seat at {n} players")
        me = 0 if self.seat is None else self.seat
        slots = CLOCKWISE[n][me]  # the seat in each slot
        seats = [slots.index(s) for s in range(n)]  # the slot of each seat
        # rows that share a position and a turn are looked up together: one integer per
        # (cards per seat, insteker slot, limit, throws used) to group them by
        cards = np.asarray(seen.cards)[both][:, seats]
        turn = np.column_stack([np.asarray(seen.insteker)[both], seen.throw_limit[both],
                                seen.throws_used[both]])
        keys = (cards @ (MAX_CARDS + 1) ** np.arange(n)) * _TURNS + turn @ _TURN_DIGITS
        groups, which = np.unique(keys, return_inverse=True)
        by_group = np.argsort(which, kind="stable")
        ends = np.cumsum(np.bincount(which, minlength=len(groups)))
        for g in range(len(groups)):
            rows = both[by_group[(ends[g - 1] if g else 0):ends[g]]]
            first = by_group[ends[g] - 1]
            insteker = slots[int(turn[first, 0])]
            limit, used = int(turn[first, 1]), int(turn[first, 2])
            at = tuple(int(c) for c in cards[first])
            order = turn_order(at, insteker)
            role = order.index(me)
            scores = np.asarray(seen.scores)[rows][:, [seats[s] for s in order[:role]]]
            values = decision_values(self.positions[(at, insteker)], len(order),
                                     False, role, limit if role else 0, used, scores,
                                     np.asarray(seen.my_strength)[rows])
            stop, throw = values[..., 0, me]
            actions[rows] = throws_again(throw, stop)
        return actions

"""Exact backward induction for two players (R1–R6), generic in how each seat decides.

Idea: the total number of cards falls every round (someone loses at least one card, R3.5,
R4.4), and inside a round the only state is who insteeks, both card counts, the throw limit,
the insteker's score and the current throw. So every value can be computed from values at
fewer cards, plus the values later in the same round. Everything is an exact expectation
over a throw's 42 strengths (the 56 unordered throws merged by strength: equal strengths
are equal throws, and each special is a single strength, R2.2–R2.5).

Values are always **seat 0's** probability of winning the game. Seat ``i`` insteeks with
``a`` cards against ``b`` cards of seat ``1 - i`` (all arrays index cards as
*(insteker, follower)*). Each seat decides by a :data:`Rule`: ``"max"`` (seat 0 playing
optimally / best-responding), ``"min"`` (seat 1 playing optimally against seat 0) or a
:class:`PolicyTable` (a fixed policy's action at every decision state). With rules
``("max", "min")`` this is the game's optimal solution; with ``("max", table)`` a best
response; with two tables an exact evaluation of a pair of policies.

Kampen repeats (R5.3) are a fixed point: a tie without specials returns to the same
kampen at the same cards, so ``K = known + tie * K`` gives ``K = known / (1 - tie)``
(ties after specials change the cards and use ``K`` at fewer cards).

With two fixed policies every step is an expectation, so the same pass with other values at
the end of a round gives the **expected number of rounds** a game lasts (``backward_rounds``):
a round that ends the game is worth 1, one that leads to a next round 1 plus that round's
expected count.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np

from ...core.checks import check_int
from ..rules import (
    MAX_CARDS,
    MAX_THROWS,
    NUM_STRENGTHS,
    PICARO_LOSS,
    ROUND_LOSS,
)
from ..rules import PICARO_STRENGTH as PICARO
from ..rules import PLAIN_STRENGTHS as PLAIN
from ..rules import SPECIAL_STRENGTHS as SPECIALS
from ..rules import STRENGTH_PENALTY as PENALTY
from ..rules import STRENGTH_PROB as PROB

NS = NUM_STRENGTHS
#: Chance of each plain strength (``PLAIN``): the throws that move no cards.
P_PLAIN = PROB[PLAIN]
#: Chance that a throw is plain and strictly below / above strength s (kampen comparisons).
P_IF_PLAIN = np.zeros(NS)
P_IF_PLAIN[PLAIN] = P_PLAIN
PLAIN_UP_TO = np.cumsum(P_IF_PLAIN)
PLAIN_BELOW = PLAIN_UP_TO - P_IF_PLAIN
PLAIN_ABOVE = PLAIN_UP_TO[-1] - PLAIN_UP_TO
INSTEKER, FOLLOWER = 0, 1


@dataclass(frozen=True)
class PolicyTable:
    """A fixed policy's choice (True = throw again) at every two-player decision state, or,
    for a stochastic policy, its probability of throwing again (a float table).

    ``insteker[a, b, t, s]``: the insteker with ``a`` cards against ``b``, after ``t`` throws
    (1 or 2), current throw strength ``s``. ``follower[a, b, L, S, u, s]``: the follower with
    ``b`` cards against the insteker's ``a``, throw limit ``L``, insteker's score ``S``,
    after ``u < L`` throws, current strength ``s``. Other entries are never read.
    """

    cards: int
    insteker: np.ndarray
    follower: np.ndarray

    @classmethod
    def empty(cls, cards: int, mixed: bool = False) -> PolicyTable:
        """A table with no choices yet (``mixed``: probabilities instead of actions)."""
        c = cards + 1
        dtype = float if mixed else bool
        return cls(cards,
                   np.zeros((c, c, MAX_THROWS, NS), dtype=dtype),
                   np.zeros((c, c, MAX_THROWS + 1, NS, MAX_THROWS, NS), dtype=dtype))

    @property
    def mixed(self) -> bool:
        """Whether the table holds probabilities of throwing again (a stochastic policy)."""
        return self.insteker.dtype != bool


Rule = Literal["max", "min"] | PolicyTable


@dataclass(frozen=True)
class Tables:
    """Seat 0's win probability at every state, for seat ``i`` insteeking (first index).

    - ``win[i, a, b]``: between rounds (the round about to start).
    - ``kampen[i, a, b]``: a kampen about to start, seat ``i`` throwing first (R5.1).
    - ``resolve[i, a, b, S, s]``: the follower stops with strength ``s`` against score ``S``.
    - ``follower_throw[i, a, b, L, S, k]``: before the follower's ``k``-th throw (k = 1…L).
    - ``insteker_throw[i, a, b, k]``: before the insteker's ``k``-th throw (k = 1…3).
    """

    cards: int
    win: np.ndarray
    kampen: np.ndarray
    resolve: np.ndarray
    follower_throw: np.ndarray
    insteker_throw: np.ndarray

    @staticmethod
    def shapes(cards: int) -> dict[str, tuple[int, ...]]:
        """The shape of each value array for 1…``cards`` cards a side (index 0 unused)."""
        c = cards + 1
        return {"win": (2, c, c), "kampen": (2, c, c), "resolve": (2, c, c, NS, NS),
                "follower_throw": (2, c, c, MAX_THROWS + 1, NS, MAX_THROWS + 2),
                "insteker_throw": (2, c, c, MAX_THROWS + 2)}


def _choose(rule: Rule, stop: np.ndarray, throw: np.ndarray, table: np.ndarray | None
            ) -> np.ndarray:
    if rule == "max":
        return np.maximum(stop, throw)
    if rule == "min":
        return np.minimum(stop, throw)
    assert table is not None  # a PolicyTable rule comes with its slice of the table
    return follow(table, stop, throw)


def follow(table: np.ndarray, stop: np.ndarray, throw: np.ndarray) -> np.ndarray:
    """The value of a fixed policy's choice: ``table`` holds its actions (True = throw
    again) or, for a stochastic policy, its probabilities of throwing again."""
    if table.dtype == bool:
        return np.where(table, throw, stop)
    return stop + table * (throw - stop)  # a mixed policy: the expectation over its actions


class _Backward:
    """One backward-induction pass; see the module docstring."""

    def __init__(self, cards: int, rules: tuple[Rule, Rule]) -> None:
        for rule in rules:
            if isinstance(rule, PolicyTable) and rule.cards < cards:
                raise ValueError(f"policy table covers {rule.cards} cards, need {cards}")
            if not isinstance(rule, PolicyTable) and rule not in ("max", "min"):
                raise ValueError(f"a seat rule must be 'max', 'min' or a PolicyTable, got {rule!r}")
        self.cards = cards
        self.rules = rules
        shapes = Tables.shapes(cards)
        self.win = np.zeros(shapes["win"])
        self.kampen = np.zeros(shapes["kampen"])
        self.resolve = np.zeros(shapes["resolve"])
        self.follower_throw = np.zeros(shapes["follower_throw"])
        self.insteker_throw = np.zeros(shapes["insteker_throw"])

    def run(self) -> Tables:
        n = self.cards
        for total in range(2, 2 * n + 1):  # fewer cards first: every round removes some
            for a in range(max(1, total - n), min(n, total - 1) + 1):
                for i in (0, 1):
                    self._solve_position(i, a, total - a)
        return Tables(n, self.win, self.kampen, self.resolve, self.follower_throw,
                      self.insteker_throw)

    # -- terminal and between-round values ---------------------------------------------
    @staticmethod
    def _wins(seat: int) -> float:
        return 1.0 if seat == 0 else 0.0

    def _next_round(self, i: int, a: int, b: int) -> float:
        """The value as the round with seat ``i`` insteeking (``a`` against ``b``) starts."""
        return float(self.win[i, a, b])

    def _loses(self, i: int, a: int, b: int, role: int, count: int) -> float:
        """``role`` loses ``count`` cards at the end of the round and insteeks next (R3.5,
        R4.4, R5.3); emptied, the other seat has won (R1.5, R6.1, R6.3)."""
        if role == INSTEKER:
            return self._wins(1 - i) if a <= count else self._next_round(i, a - count, b)
        return self._wins(i) if b <= count else self._next_round(1 - i, b - count, a)

    # -- one position --------------------------------------------------------------------
    def _solve_position(self, i: int, a: int, b: int) -> None:
        self.kampen[i, a, b] = self._kampen(i, a, b)
        below = self._loses(i, a, b, FOLLOWER, ROUND_LOSS)  # follower's score is lower
        above = self._loses(i, a, b, INSTEKER, ROUND_LOSS)
        s = np.arange(NS)
        self.resolve[i, a, b] = np.where(s[None, :] < s[:, None], below,  # [S, s]
                                         np.where(s[None, :] > s[:, None], above,
                                                  self.kampen[i, a, b]))
        for limit in range(1, MAX_THROWS + 1):
            for k in range(limit, 0, -1):
                self.follower_throw[i, a, b, limit, :, k] = self._follower_throw(i, a, b, limit, k)
        for k in range(MAX_THROWS, 0, -1):
            self.insteker_throw[i, a, b, k] = self._insteker_throw(i, a, b, k)
        self.win[i, a, b] = self.insteker_throw[i, a, b, 1]

    def _follower_after(self, i: int, a: int, b: int, limit: int, k: int) -> np.ndarray:
        """Seat 0's value ``[S, s]`` once the follower's ``k``-th throw shows ``s``."""
        stop = self.resolve[i, a, b]
        if k == limit:  # R3.4: no throws left, the throw is the score
            return stop
        rule = self.rules[1 - i]
        table = rule.follower[a, b, limit, :, k, :] if isinstance(rule, PolicyTable) else None
        return _choose(rule, stop, self.follower_throw[i, a, b, limit, :, k + 1, None], table)

    def _follower_throw(self, i: int, a: int, b: int, limit: int, k: int) -> np.ndarray:
        value = PROB[PICARO] * self._loses(i, a, b, FOLLOWER, PICARO_LOSS)  # R4.4
        value = value + self._follower_after(i, a, b, limit, k)[:, PLAIN] @ P_PLAIN
        for x in SPECIALS:  # R4.1/R4.2: the insteker loses cards; emptied ends it (R6.2)
            left = a - PENALTY[x]
            value = value + PROB[x] * (self._wins(1 - i) if left <= 0 else
                                       self._follower_after(i, left, b, limit, k)[:, x])
        return value

    def _insteker_after(self, i: int, a: int, b: int, k: int) -> np.ndarray:
        """Seat 0's value ``[s]`` once the insteker's ``k``-th throw shows ``s``."""
        stop = self.follower_throw[i, a, b, k, :, 1]  # stopping sets the limit to k (R3.2)
        if k == MAX_THROWS:
            return stop
        rule = self.rules[i]
        table = rule.insteker[a, b, k] if isinstance(rule, PolicyTable) else None
        return _choose(rule, stop, self.insteker_throw[i, a, b, k + 1], table)

    def _insteker_throw(self, i: int, a: int, b: int, k: int) -> float:
        value = PROB[PICARO] * self._loses(i, a, b, INSTEKER, PICARO_LOSS)  # R4.4
        value += float(self._insteker_after(i, a, b, k)[PLAIN] @ P_PLAIN)
        for x in SPECIALS:  # R4.1/R4.2 on the follower; emptied ends the game (R6.2)
            left = b - PENALTY[x]
            value += PROB[x] * (self._wins(i) if left <= 0 else
                                float(self._insteker_after(i, a, left, k)[x]))
        return value

    # -- kampen (R5) ---------------------------------------------------------------------
    def _kampen(self, i: int, a: int, b: int) -> float:
        """Seat ``i`` (``a`` cards) throws first, then seat ``1 - i`` (``b`` cards)."""
        known = PROB[PICARO] * self._loses(i, a, b, INSTEKER, PICARO_LOSS)  # R5.2 → R4.4
        tie = 0.0
        for x in range(NS):
            if x == PICARO:
                continue
            left = b - PENALTY[x]  # R5.2: the special hits the other kampen player
            if left <= 0:
                known += PROB[x] * self._wins(i)  # R6.2
                continue
            value, same = self._kampen_answer(i, a, left, x)
            known += PROB[x] * value
            tie += PROB[x] * same
        return known / (1.0 - tie)

    def _kampen_answer(self, i: int, a: int, b: int, x: int) -> tuple[float, float]:
        """Second kampen throw against the first thrower's ``x``: (known value, chance of a
        tie that repeats this very kampen, R5.3)."""
        first_higher = self._loses(i, a, b, FOLLOWER, ROUND_LOSS)
        second_higher = self._loses(i, a, b, INSTEKER, ROUND_LOSS)
        known = PROB[PICARO] * self._loses(i, a, b, FOLLOWER, PICARO_LOSS)
        known += PLAIN_BELOW[x] * first_higher + PLAIN_ABOVE[x] * second_higher
        # A plain tie repeats this very kampen (a plain first throw changed no cards).
        same = PROB[x] if PENALTY[x] == 0 else 0.0
        for y in SPECIALS:
            left = a - PENALTY[y]
            if left <= 0:
                known += PROB[y] * self._wins(1 - i)
            elif y == x:
                known += PROB[y] * float(self.kampen[i, left, b])
            else:
                role = INSTEKER if y > x else FOLLOWER
                known += PROB[y] * self._loses(i, left, b, role, ROUND_LOSS)
        return known, same


class _Rounds(_Backward):
    """The pass for the expected number of rounds under two fixed policies: the arrays named
    for win probabilities hold expected rounds counted from the current round on. A game's
    end adds the round it ends in; a round that leads to another adds itself to that round's
    count. Kampen and its repeats belong to the round they settle (R5.3, R5.4), so they add
    no round."""

    @staticmethod
    def _wins(seat: int) -> float:
        return 1.0  # whoever won, the game lasted through this round

    def _next_round(self, i: int, a: int, b: int) -> float:
        return 1.0 + float(self.win[i, a, b])


def check_cards(cards: int) -> int:
    """``cards`` as an int, or ``ValueError`` unless it is 1…MAX_CARDS (R1.1)."""
    return check_int("cards", cards, 1, MAX_CARDS)


def backward(cards: int, rules: tuple[Rule, Rule]) -> Tables:
    """Seat 0's exact win probabilities for every position with 1…``cards`` cards a side."""
    return _Backward(check_cards(cards), rules).run()


def backward_rounds(cards: int, rules: tuple[PolicyTable, PolicyTable]) -> np.ndarray:
    """``rounds[i, a, b]``: the exact expected number of rounds a game lasts from a round
    about to start with seat ``i`` insteeking, ``a`` cards against ``b`` (1…``cards`` a side),
    when both seats play fixed policies. ``ValueError`` for ``"max"``/``"min"``: an optimal
    player maximises its win probability, not a round count."""
    for rule in rules:
        if not isinstance(rule, PolicyTable):
            raise ValueError(f"expected rounds need a fixed policy table for each seat, "
                             f"got {rule!r}")
    return _Rounds(check_cards(cards), rules).run().win

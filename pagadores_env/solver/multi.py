"""Exact best response of one seat against fixed policies at tables of 2–4 players.

``best_response_multi(opponents, num_players, cards, hero_seat)`` gives the hero's exact
optimal win probability (and, on request, the best-response policy) against fixed opponent
policies, asked once about every decision state on the rows ``observation.encode`` gives.

Idea (as in ``model`` for two players): every round takes at least one card (R3.5, R4.4),
so positions — card counts and the insteker — are solved in order of the card total, each
from positions with fewer cards. Inside a round the order of play is fixed (nobody leaves a
round and play goes on, R6.2), and the state before role ``j``'s ``k``-th throw is the throw
limit ``L`` and the earlier roles' scores: arrays ``[42] * j`` over those scores, filled
from the last role back. A special (R4.1) keeps the round going at fewer cards, so it is
looked up in the same arrays of an earlier-solved position (``_Store``); a special that
empties someone ends the round (R6.2). Values are exact sums over a throw's 42 strengths.
Players out of the game keep their seat in the observations (0 cards), and a hero who is out
has lost. Kampen is in ``multi_kampen``.

Size: a position with ``m`` seats holding cards keeps arrays of ``42 ** m`` values per round
state and asks each opponent ``41 ** (j + 1)`` rows per decision of role ``j``, so the work
explodes with the players. ``solve_cost`` counts the positions and rows exactly and
estimates the memory before anything runs; ``best_response_multi`` refuses tables beyond
``MAX_ROWS`` or ``MAX_BYTES`` (in practice: 2–3 players with any cards, 4 with up to 2).
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import reduce
from itertools import product

import numpy as np

from ..observation import OBS_SIZE, ObsFields, decode
from ..policies import BasePolicy, Policy, check_tables
from ..rules import (
    CLOCKWISE,
    MAX_CARDS,
    MAX_PLAYERS,
    MAX_THROWS,
    MIN_PLAYERS,
    PICARO_LOSS,
    ROUND_LOSS,
    next_insteker,
    special_hits,
    throws_allowed,
    turn_order,
)
from .model import NS, P_PLAIN, PENALTY, PICARO, PLAIN, PROB, SPECIALS, follow
from .multi_kampen import Cards, Kampen
from .multi_rows import THROWN, decision_keys, decision_row_chunks
from .response import _ask
from .two_player import TIE_TOLERANCE

#: Rows per ``act_batch`` call.
BATCH_ROWS = 1 << 18
#: A round state key: (role, throw limit (0 for the insteker), throws used).
Key = tuple[int, int, int]


@dataclass(frozen=True)
class MultiBestResponse:
    """The hero's exact win probabilities against the fixed opponents.

    ``values[(cards, insteker)]`` is the hero's win probability as that round is about to
    start (positions where the hero is out are 0 and not listed). ``table`` (when kept) holds
    the hero's best action at every decision: ``table[(cards, insteker)][(role, L, k)]`` is
    a bool array over (earlier scores…, current strength), True = throw again.
    """

    num_players: int
    start_cards: Cards
    hero_seat: int
    first_insteker: int
    values: dict[tuple[Cards, int], float]
    table: dict[tuple[Cards, int], dict[Key, np.ndarray]] | None
    rows_asked: int
    seconds: float

    @property
    def value(self) -> float:
        """The hero's win probability from the start of the game (R3.1)."""
        return self.values[(self.start_cards, self.first_insteker)]

    def policy(self) -> MultiResponsePolicy:
        """The best response as a player for the hero's seat."""
        if self.table is None:
            raise ValueError("the best-response table was not kept: solve with keep_policy=True")
        return MultiResponsePolicy(self)


class MultiResponsePolicy(BasePolicy):
    """Plays a :class:`MultiBestResponse` table from the hero seat's observations."""

    name = "multi-best-response"

    def __init__(self, response: MultiBestResponse, seed: int | None = None) -> None:
        super().__init__(seed)
        self.response = response

    def act(self, obs: np.ndarray, mask: np.ndarray) -> int:
        return int(self.act_batch(np.reshape(obs, (1, OBS_SIZE)), np.reshape(mask, (1, 2)))[0])

    def act_batch(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        seen = decode(np.reshape(obs, (-1, OBS_SIZE)))
        legal = np.asarray(mask).reshape(len(seen.cards), 2).astype(bool)
        both = legal[:, 0] & legal[:, 1]  # otherwise the one legal action is taken
        return np.array([self._one(seen, k) if both[k] else int(legal[k, 1])
                         for k in range(len(legal))], dtype=np.int64)

    def _one(self, seen: ObsFields, k: int) -> int:
        """The table's action at row ``k`` of the decoded observations."""
        r = self.response
        seats = CLOCKWISE[r.num_players][r.hero_seat]  # the seat in each slot
        cards = [0] * r.num_players
        for slot, seat in enumerate(seats):
            cards[seat] = int(seen.cards[k, slot])
        insteker = seats[seen.insteker[k]]
        order = turn_order(cards, insteker)
        role = order.index(r.hero_seat)
        limit = int(seen.throw_limit[k]) if role else 0
        index = tuple(int(seen.scores[k, seats.index(s)]) for s in order[:role])
        index += (int(seen.my_strength[k]),)
        key = (role, limit, int(seen.throws_used[k]))
        assert r.table is not None  # MultiBestResponse.policy() refuses a response without one
        return int(r.table[(tuple(cards), insteker)][key][index])


class _Store:
    """Per solved position: after-throw values at the three special strengths, for every
    round state key — what a special thrown at more cards lands on. Kept only while a
    position with more cards can still reach it (a special takes at most 3 cards from
    each other player)."""

    def __init__(self, num_players: int) -> None:
        self.reach = 3 * (num_players - 1)
        self.by_total: dict[int, list[tuple[Cards, int]]] = {}
        self.slices: dict[tuple[Cards, int], dict[Key, np.ndarray]] = {}

    def put(self, cards: Cards, insteker: int, slices: dict[Key, np.ndarray]) -> None:
        self.slices[(cards, insteker)] = slices
        self.by_total.setdefault(sum(cards), []).append((cards, insteker))

    def forget_below(self, total: int) -> None:
        for old in [t for t in self.by_total if t < total - self.reach]:
            for key in self.by_total.pop(old):
                del self.slices[key]


class _MultiBackward:
    """One backward-induction pass for the hero against fixed opponents."""

    def __init__(self, players: dict[int, Policy], start: Cards, hero: int,
                 keep_policy: bool) -> None:
        self.n = len(start)
        self.players = players
        self.start = start
        self.hero = hero
        self.keep_policy = keep_policy
        self.values: dict[tuple[Cards, int], float] = {}
        self.table: dict[tuple[Cards, int], dict[Key, np.ndarray]] = {}
        self.store = _Store(self.n)
        self.kampen = Kampen(self.lose, self.hit)
        self.rows_asked = 0

    # -- values at the end of a round ------------------------------------------------
    def value_at(self, cards: Cards, insteker: int) -> float:
        """The hero's win probability as a round starts (or the game is over, R1.5)."""
        if cards[self.hero] == 0:
            return 0.0
        if sum(1 for c in cards if c) == 1:
            return 1.0
        return self.values[(cards, insteker)]

    def lose(self, cards: Cards, seat: int, count: int) -> float:
        """``seat`` loses ``count`` cards as the round ends and insteeks next (R3.5, R4.4,
        R5.3), or the next seat with cards does if it is out (R6.1)."""
        after = list(cards)
        after[seat] -= min(count, after[seat])  # R1.4
        left = tuple(after)
        return self.value_at(left, next_insteker(left, [seat]))

    def hit(self, cards: Cards, thrower: int, group: tuple[int, ...], penalty: int
            ) -> tuple[Cards, float | None]:
        """A special by ``thrower`` takes ``penalty`` cards from the rest of ``group``
        (R4.1, R5.2): the cards after it, and the value if it emptied someone (R6.2)."""
        after = list(cards)
        hits = special_hits(cards, thrower, group, penalty)
        for victim, lost in hits:
            after[victim] -= lost
        left = tuple(after)
        emptied = [victim for victim, _ in hits if not left[victim]]
        if not emptied:
            return left, None
        return left, self.value_at(left, next_insteker(left, emptied))

    # -- the pass ------------------------------------------------------------------------
    def run(self) -> None:
        positions = sorted((c for c in product(*(range(s + 1) for s in self.start))
                            if c[self.hero] and sum(1 for x in c if x) >= 2), key=sum)
        for cards in positions:
            self.store.forget_below(sum(cards))
            for insteker in (s for s in range(self.n) if cards[s]):
                self._solve_position(cards, insteker)

    def _ask_opponent(self, cards: Cards, order: tuple[int, ...], role: int
                      ) -> dict[tuple[int, int], np.ndarray]:
        """The opponent's choice at every decision of ``role`` here, as bool arrays (or
        probabilities of throwing again, for a policy that reports them) over (earlier
        scores…, current strength); Picaro entries are unreachable (0)."""
        policy = self.players[order[role]]
        choices = {}
        for limit, used in decision_keys(role):
            answers = np.concatenate([
                _ask(policy, rows) for rows in decision_row_chunks(
                    self.n, cards, order, role, limit, used, BATCH_ROWS)])
            self.rows_asked += len(answers)
            full = np.zeros((NS,) * (role + 1), dtype=answers.dtype)  # float: probabilities
            full[(slice(PICARO + 1, None),) * (role + 1)] = answers.reshape(
                (NS - PICARO - 1,) * (role + 1))
            choices[(limit, used)] = full
        return choices

    def _settle(self, cards: Cards, order: tuple[int, ...]) -> np.ndarray:
        """Value ``[42] * m`` once every role scored: the lowest loses a card (R3.5); a shared
        lowest plays kampen in round order (R5.1)."""
        m = len(order)
        axes = [np.arange(NS).reshape((NS,) + (1,) * (m - 1 - r)) for r in range(m)]
        low = reduce(np.minimum, axes)
        holders = sum((a == low).astype(np.int64) << r for r, a in enumerate(axes))
        table = np.zeros(1 << m)
        for mask in range(1, 1 << m):
            tied = tuple(s for r, s in enumerate(order) if mask >> r & 1)
            table[mask] = (self.lose(cards, tied[0], ROUND_LOSS) if len(tied) == 1
                           else self.kampen.value(cards, tied))
        return table[holders]

    def _solve_position(self, cards: Cards, insteker: int) -> None:
        order = turn_order(cards, insteker)
        m = len(order)
        rules = {j: None if seat == self.hero else self._ask_opponent(cards, order, j)
                 for j, seat in enumerate(order)}
        final = self._settle(cards, order)
        before: dict[Key, np.ndarray] = {}
        slices: dict[Key, np.ndarray] = {}
        mine: dict[Key, np.ndarray] = {}
        for j in range(m - 1, -1, -1):
            seat = order[j]
            rule = rules[j]
            picaro = PROB[PICARO] * self.lose(cards, seat, PICARO_LOSS)  # R4.4
            specials = [(idx, y, self.hit(cards, seat, order, int(PENALTY[y])))  # R4.1
                        for idx, y in enumerate(SPECIALS)]
            for limit in ([0] if j == 0 else range(1, MAX_THROWS + 1)):
                top = throws_allowed(limit)
                for k in range(top, 0, -1):
                    key = (j, limit, k)
                    if j == 0:
                        stop = before[(1, k, 1)]  # stopping fixes the limit at k (R3.2)
                    elif j == m - 1:
                        stop = final
                    else:
                        stop = before[(j + 1, limit, 1)]
                    if k == top:  # no throws left: the throw is the score (R3.6)
                        after = stop
                    else:
                        again = before[(j, limit, k + 1)][..., None]
                        if rule is None:
                            after = np.maximum(stop, again)
                            if self.keep_policy:
                                mine[key] = again > stop + TIE_TOLERANCE
                        else:
                            after = follow(rule[(limit, k)], stop, again)
                    slices[key] = np.ascontiguousarray(after[..., list(SPECIALS)])
                    value = picaro + after[..., PLAIN] @ P_PLAIN
                    for idx, y, (left, ended) in specials:  # R4.2: every throw counts
                        landed = (ended if ended is not None
                                  else self.store.slices[(left, insteker)][key][..., idx])
                        value = value + PROB[y] * landed
                    before[key] = value
        self.values[(cards, insteker)] = float(before[(0, 0, 1)])
        self.store.put(cards, insteker, slices)
        if self.keep_policy:
            self.table[(cards, insteker)] = mine


def _start_cards(num_players: int, cards: int | Sequence[int]) -> Cards:
    if isinstance(cards, Sequence) and not isinstance(cards, str):
        start = tuple(int(c) for c in cards)
        ok = len(start) == num_players and all(0 <= c <= MAX_CARDS for c in start)
        if not ok or sum(1 for c in start if c) < 2:
            raise ValueError(f"cards per seat must be {num_players} numbers 0–{MAX_CARDS} with "
                             f"at least two above 0, got {list(cards)}")
        return start
    if isinstance(cards, bool) or not isinstance(cards, (int, np.integer)) \
            or not 1 <= cards <= MAX_CARDS:
        raise ValueError(f"cards must be an integer 1–{MAX_CARDS} or one per seat, got {cards!r}")
    return (int(cards),) * num_players


def _table(num_players: int, cards: int | Sequence[int], hero_seat: int,
           first_insteker: int | None = None) -> Cards:
    """The start cards of a valid table, or ``ValueError`` naming the bad argument (the
    first insteker is checked when given)."""
    if isinstance(num_players, bool) or not isinstance(num_players, int) \
            or not MIN_PLAYERS <= num_players <= MAX_PLAYERS:
        raise ValueError(f"num_players must be {MIN_PLAYERS}–{MAX_PLAYERS}, got {num_players!r}")
    start = _start_cards(num_players, cards)
    seats = {"hero_seat": hero_seat, "first_insteker": first_insteker}
    for name, seat in ((name, seat) for name, seat in seats.items() if seat is not None):
        if isinstance(seat, bool) or not isinstance(seat, int) \
                or not 0 <= seat < num_players or not start[seat]:
            raise ValueError(f"{name} must be a seat 0–{num_players - 1} with cards, got {seat!r}")
    return start


# -- how big a solve is ------------------------------------------------------------------
#: Solves that would ask the opponents more observation rows than this are refused: about
#: 25 minutes at the ~0.7 M rows/s measured at four seats (3 players with 10 cards ask
#: 4.3e8 rows, ~3 min; 4 players with 2 cards 4.3e8, ~10 min; with 3 cards 2.2e9).
MAX_ROWS = 10**9
#: ... and those whose arrays would need more memory than this (5 players need ~12 GB for a
#: single position's value arrays, which hold 42 ** 5 entries per round state).
MAX_BYTES = 4 * 10**9
_FLOAT = np.dtype(np.float64).itemsize


@dataclass(frozen=True)
class SolveCost:
    """What ``best_response_multi`` takes for a table, known before it starts."""

    positions: int  # (cards, insteker) positions solved, exactly
    rows: int  # observation rows the opponents are asked, exactly
    bytes: int  # peak memory of the solver's arrays, estimated from their shapes

    @property
    def fits(self) -> bool:
        """Whether the solve is within ``MAX_ROWS`` and ``MAX_BYTES``."""
        return self.rows <= MAX_ROWS and self.bytes <= MAX_BYTES


def _value_keys(role: int) -> int:
    """Round states (limit, throws used) whose values the solver keeps for ``role``: the
    insteker's throws 1–3, a follower's throws 1…L for limits L = 1…3."""
    return MAX_THROWS if role == 0 else MAX_THROWS * (MAX_THROWS + 1) // 2


def _position_cost(alive: int) -> tuple[int, int, int]:
    """For a card position with ``alive`` seats holding cards: rows asked over all its
    instekers, bytes ``_Store`` keeps per insteker, bytes of ``_solve_position``'s arrays
    (values, opponent choices, and the settle step's four ``[42] * alive`` arrays)."""
    asked = [len(decision_keys(j)) * len(THROWN) ** (j + 1) for j in range(alive)]
    rows = (alive - 1) * sum(asked)  # over the instekers the hero holds each role once
    stored = _FLOAT * len(SPECIALS) * sum(_value_keys(j) * NS**j for j in range(alive))
    working = _FLOAT * (sum((_value_keys(j) + len(decision_keys(j))) * NS ** (j + 1)
                            for j in range(alive)) + 4 * NS**alive)
    return rows, stored, working


def solve_cost(num_players: int, cards: int | Sequence[int] = MAX_CARDS,
               hero_seat: int = 0) -> SolveCost:
    """The positions, opponent rows and memory of ``best_response_multi`` at this table,
    counted without enumerating positions: by card total and seats with cards (``run``
    solves every position where the hero and someone else hold cards)."""
    start = _table(num_players, cards, hero_seat)
    counts: Counter[tuple[int, int]] = Counter({(0, 0): 1})  # (card total, seats with cards)
    for seat, most in enumerate(start):
        grown: Counter[tuple[int, int]] = Counter()
        for (total, alive), n in counts.items():
            for c in range(1 if seat == hero_seat else 0, most + 1):
                grown[(total + c, alive + (c > 0))] += n
        counts = grown
    positions = rows = working = 0
    stored: Counter[int] = Counter()  # bytes stored per card total
    for (total, alive), n in counts.items():
        if alive >= 2:
            asked, kept, arrays = _position_cost(alive)
            positions += n * alive
            rows += n * asked
            stored[total] += n * alive * kept
            working = max(working, arrays)
    reach = _Store(num_players).reach  # the store holds this many totals below the current
    store = max(sum(stored[t] for t in range(top - reach, top + 1)) for top in list(stored))
    batch = BATCH_ROWS * OBS_SIZE * (_FLOAT + 4)  # one batch of rows, float64 and float32
    return SolveCost(positions, rows, store + working + batch)


def within_limits() -> str:
    """The tables with equal cards that fit ``MAX_ROWS`` and ``MAX_BYTES``, in words, e.g.
    "2–3 players with up to 10 cards each, 4 players with up to 2 cards each"."""
    most: dict[int, int] = {}
    for n in range(MIN_PLAYERS, MAX_PLAYERS + 1):
        most[n] = 0
        while most[n] < MAX_CARDS and solve_cost(n, most[n] + 1).fits:  # grows with cards
            most[n] += 1
    groups: list[list[int]] = []  # runs of player counts with the same card limit
    for n in (n for n in most if most[n]):
        if groups and most[groups[-1][-1]] == most[n] and groups[-1][-1] == n - 1:
            groups[-1].append(n)
        else:
            groups.append([n])
    return ", ".join(f"{g[0]}{f'–{g[-1]}' if len(g) > 1 else ''} players with up to "
                     f"{most[g[0]]} cards each" for g in groups)


def check_size(num_players: int, cards: int | Sequence[int] = MAX_CARDS,
               hero_seat: int = 0) -> SolveCost:
    """``solve_cost`` of the table, or ``ValueError`` if it is beyond the limits."""
    start = _table(num_players, cards, hero_seat)
    cost = solve_cost(num_players, start, hero_seat)
    if not cost.fits:
        table = (f"{start[0]} cards each" if len(set(start)) == 1
                 else f"cards {', '.join(map(str, start))}")
        raise ValueError(
            f"{num_players} players with {table} is too big to solve exactly: "
            f"{cost.rows:.1e} opponent queries (limit {MAX_ROWS:.0e}) and about "
            f"{cost.bytes / 1e9:.1f} GB of arrays (limit {MAX_BYTES / 1e9:.0f} GB); "
            f"within the limits: {within_limits()}")
    return cost


def best_response_multi(opponents: Sequence[Policy], num_players: int = 3,
                        cards: int | Sequence[int] = MAX_CARDS, hero_seat: int = 0,
                        first_insteker: int = 0, keep_policy: bool = False
                        ) -> MultiBestResponse:
    """The hero's exact best response at ``hero_seat`` against ``opponents`` (one policy per
    other seat, in seat order), from the start position ``cards`` with ``first_insteker``
    starting (R3.1). ``keep_policy`` keeps the hero's decisions for ``.policy()``. Raises
    ``ValueError`` for a bad argument and, before any work, for a table beyond
    ``MAX_ROWS``/``MAX_BYTES`` (``check_size``)."""
    start = _table(num_players, cards, hero_seat, first_insteker)
    check_size(num_players, start, hero_seat)
    opponents = list(opponents)
    if len(opponents) != num_players - 1 or not all(isinstance(p, Policy) for p in opponents):
        raise ValueError(f"opponents must be {num_players - 1} policies (one per other seat, "
                         f"in seat order), got {opponents!r}")
    check_tables(opponents, num_players, start)
    others = [s for s in range(num_players) if s != hero_seat]
    solver = _MultiBackward(dict(zip(others, opponents, strict=True)), start, hero_seat,
                            keep_policy)
    began = time.perf_counter()
    solver.run()
    return MultiBestResponse(num_players, start, hero_seat, first_insteker, solver.values,
                             solver.table if keep_policy else None, solver.rows_asked,
                             time.perf_counter() - began)

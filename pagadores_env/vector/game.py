"""Many games of Dados de Pagadores as numpy arrays, advanced in lock-step.

``VectorGame`` holds ``batch`` games of one table size as arrays (one row per game, one column
per seat) and applies the rules R1–R7 to every row at once. It is the fast twin of the scalar
``engine.Game``: the same state machine, the same decisions, and — checked throw by throw by
``tests/test_vector_differential.py`` — the same transitions. Each transition works on an index
array of the rows it concerns, so games in different phases (a turn, a kampen, over) advance
together: while some games throw, the others simply are not in the index.

A game is at a *chance node* (its current seat is about to throw), a *decision node* (R3.6:
stop or throw again) or *over*. ``advance()`` throws dice for every game at a chance node, again
and again, until every game sits at a decision node (or is over); ``step(actions)`` applies
decisions and advances. With ``auto_reset`` a finished game is recorded (``pop_finished``) and
started again from its start position at once, so a learner always finds a decision.

Dice come from a seeded ``np.random.Generator`` through ``draw_dice``; overriding that one
method is how the differential test feeds both engines the same throws.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any, NamedTuple

import numpy as np

from ..engine import Phase
from ..observation import OBS_SIZE, ObsFields, encode_batch
from ..rules import (
    CLOCKWISE,
    MAX_CARDS,
    MAX_PLAYERS,
    MAX_THROWS,
    MIN_PLAYERS,
    NUM_OUTCOMES,
    NUM_STRENGTHS,
    OUTCOME_KIND,
    OUTCOME_PENALTY,
    OUTCOME_STRENGTH,
    PICARO_LOSS,
    ROUND_LOSS,
    THROWS,
    Kind,
    next_insteker,
    special_hits,
    throws_allowed,
    turn_order,
)

# Phases as small integers; ``PHASES`` names them as ``engine.Phase`` does.
ROUND, KAMPEN, OVER = 0, 1, 2
PHASES = (Phase.ROUND, Phase.KAMPEN, Phase.OVER)

#: The sorted dice of each ordered outcome 0…215 (``rules.ordered_index``), for tests and logs.
SORTED_DICE = tuple(t.dice for t in THROWS)

_NO_SCORE = NUM_STRENGTHS  # above every strength: "no score" never is the lowest
_F32 = np.float32
#: [current]: the strength of the current turn's last throw (an ordered outcome); [-1]: -1, none.
_STRENGTH_OF_CURRENT = np.append(OUTCOME_STRENGTH, -1)

# Sets of seats are bitmasks (bit s = seat s), so the common path needs no per-seat arrays.
_MASKS = 1 << MAX_PLAYERS
_BIT = 1 << np.arange(MAX_PLAYERS + 1)  # one spare entry so -1 (no seat) indexes harmlessly
_BITS = (np.arange(_MASKS)[:, None] >> np.arange(MAX_PLAYERS)) & 1  # mask -> 0/1 per seat
_POPCOUNT = _BITS.sum(axis=1)
_HIGHEST = np.array([m.bit_length() - 1 for m in range(_MASKS)])  # the only seat of 1-bit masks
_IS_PICARO = OUTCOME_KIND == Kind.PICARO  # R4.4
_RARE = (OUTCOME_PENALTY > 0) | _IS_PICARO  # throws that move cards (R4.1, R4.4)
#: [throw limit]: the throws allowed in a turn (0: the limit is not set yet, R3.2, R3.4)
_MAX_THROWS_OF_LIMIT = np.array([throws_allowed(limit) for limit in range(MAX_THROWS + 1)])
# Card losses of a throw: code = the special's penalty (R4.1), or _PICARO_CODE (R4.4)
_PICARO_CODE = int(OUTCOME_PENALTY.max()) + 1
_LOSS_CODE = np.where(_IS_PICARO, _PICARO_CODE, OUTCOME_PENALTY)


class _SeatTables(NamedTuple):
    """The rules' seat helpers (``rules.turn_order``, ``next_insteker``, ``special_hits``)
    as lookup tables over seat bitmasks, for one table size."""

    #: [start * masks + mask]: the first seat clockwise after ``start`` in ``mask`` (``start``
    #: itself last), -1 if the mask is empty (R1.2).
    next_seat: np.ndarray
    #: [(seat * masks + emptied) * masks + alive]: who insteeks when a round ends by ``seat``
    #: losing cards (``emptied`` = 0) or by the seats of ``emptied`` going out, ``alive``
    #: being the seats with cards after it (R3.5, R4.4, R6.1, R6.2).
    insteker: np.ndarray
    #: [(code * n + thrower) * masks + group, seat]: cards each seat loses to a throw of loss
    #: code ``code`` (``_LOSS_CODE``), before the R1.4 cap (R4.1, R4.4, R5.2).
    losses: np.ndarray


@cache
def _seat_tables(n: int) -> _SeatTables:
    masks = range(1 << n)
    holding = [tuple(m >> s & 1 for s in range(n)) for m in masks]  # as card counts
    seats_of = [tuple(s for s in range(n) if m >> s & 1) for m in masks]
    full = (MAX_CARDS,) * n  # more than any special takes: the losses before the cap
    next_seat = [next(iter(turn_order(holding[m], (s + 1) % n)), -1) for s in range(n)
                 for m in masks]
    insteker = [next_insteker(holding[alive], seats_of[emptied] or (s,)) if alive else -1
                for s in range(n) for emptied in masks for alive in masks]
    losses = [[PICARO_LOSS * (v == s) for v in range(n)] if code == _PICARO_CODE else
              [dict(special_hits(full, s, seats_of[m], code)).get(v, 0) for v in range(n)]
              for code in range(_PICARO_CODE + 1) for s in range(n) for m in masks]
    return _SeatTables(np.array(next_seat), np.array(insteker), np.array(losses))


class Finished(NamedTuple):
    """Games that ended, one entry each (a game slot may appear twice if it ended twice).

    ``obs`` holds the final observation of each game's ``observer`` seat (all zeros without an
    observer); ``placements`` is per seat, 1 = winner, as ``Game.placements``."""

    rows: np.ndarray
    winner: np.ndarray
    placements: np.ndarray
    rounds: np.ndarray
    cards: np.ndarray
    obs: np.ndarray


class VectorGame:
    """``batch`` games of ``num_players`` seats (R1.1) played in lock-step.

    ``cards`` is one count for everyone (1–10), one count per seat, or a ``(batch, num_players)``
    array of per-game start positions (0–10 each, at least two seats with cards per game);
    ``first_insteker`` is one seat or one per game (R3.1). ``seed`` seeds the dice generator
    that ``draw_dice`` reads (a subclass may override ``draw_dice`` to choose the dice, as the
    differential test does). ``observer`` (one seat or one per game) is whose final observation
    ``pop_finished`` reports. After construction every game is at its first decision node
    (or over, without ``auto_reset``).
    """

    def __init__(self, batch: int, num_players: int, cards: int | Sequence[int] | np.ndarray = 10,
                 seed: int | np.random.Generator | None = None, *,
                 first_insteker: int | Sequence[int] | np.ndarray = 0, auto_reset: bool = True,
                 observer: int | Sequence[int] | np.ndarray | None = None) -> None:
        if not isinstance(batch, (int, np.integer)) or isinstance(batch, bool) or batch < 1:
            raise ValueError(f"batch must be a positive integer, got {batch!r}")
        if (not isinstance(num_players, (int, np.integer)) or isinstance(num_players, bool)
                or not MIN_PLAYERS <= num_players <= MAX_PLAYERS):
            raise ValueError(
                f"num_players must be an integer {MIN_PLAYERS}–{MAX_PLAYERS}, got {num_players!r}"
            )
        self.batch = b = int(batch)
        self.num_players = n = int(num_players)
        self.start_cards = _start_cards(b, n, cards)
        # what a restart copies per game (R1.1): seats out from the start, and who holds cards
        self._start_out = (self.start_cards == 0).astype(np.int64)
        self._start_eliminations = self._start_out.max(axis=1)
        self._start_alive = (self.start_cards > 0) @ _BIT[:n]
        self.first_insteker = _seats(b, n, first_insteker, "first_insteker")
        if not self.start_cards[np.arange(b), self.first_insteker].all():
            raise ValueError("first_insteker must be a seat that has cards in every game")
        self.observer = None if observer is None else _seats(b, n, observer, "observer")
        self.auto_reset = bool(auto_reset)
        self.rng = np.random.default_rng(seed)
        self._rot = np.array(CLOCKWISE[n])  # _rot[s]: s, s+1, … (R1.2)
        self._masks = 1 << n
        self._bits = _BITS[:self._masks, :n]
        self._seat_in = self._bits == 1  # [mask, seat]: seat in mask
        # [seat * masks + mask]: the mask's seats in slot order from ``seat`` (observations)
        self._rot_bits = np.array([[m >> t & 1 for t in CLOCKWISE[n][s]]
                                   for s in range(n) for m in range(self._masks)], bool)
        self._next_table, self._insteker_table, self._loss_table = _seat_tables(n)
        i64 = np.int64
        self.cards = np.zeros((b, n), i64)
        self.out = np.zeros((b, n), i64)  # elimination batch (1-based) per seat, 0 = still in
        self.eliminations = np.zeros(b, i64)
        self.round = np.zeros(b, i64)
        self.phase = np.zeros(b, i64)
        self.insteker = np.zeros(b, i64)  # -1 once over (R6.3)
        self.seat = np.zeros(b, i64)  # current player: thrower or decider; -1 once over
        self.throw_limit = np.zeros(b, i64)  # R3.2; 0 while the insteker has not fixed it
        self.throws = np.zeros(b, i64)  # throws used this turn
        self.current = np.zeros(b, i64)  # ordered outcome of the current turn's last throw, or -1
        self.decision = np.zeros(b, bool)
        self._scores = np.zeros((b, n), i64)  # round scores (R3.3), valid where ``scored``
        self.kampen_scores = np.zeros((b, n), i64)  # R5.1, valid for kampen players who threw
        # seat sets as bitmasks: who holds cards; who plays this round or kampen; who of those
        # has not finished (the current player included); who holds the lowest score so far
        self.alive = np.zeros(b, i64)
        self.scored = np.zeros(b, i64)  # seats with a score this round
        self.members = np.zeros(b, i64)
        self.todo = np.zeros(b, i64)
        self.lowest = np.zeros(b, i64)
        self.low = np.zeros(b, i64)  # that lowest score, _NO_SCORE while nobody has one
        self._scores_flat = self._scores.reshape(-1)  # views for (row, seat) scatters
        self._kampen_flat = self.kampen_scores.reshape(-1)
        self._cards_flat = self.cards.reshape(-1)
        self.winner = np.zeros(b, i64)  # -1 until over
        self._finished: list[Finished] = []
        self.games_finished = 0
        self.reset_games(np.arange(b))

    # ------------------------------------------------------------------ queries
    @property
    def done(self) -> np.ndarray:
        """Per game: over (only ever true without ``auto_reset``)."""
        return self.phase == OVER

    @property
    def decision_seat(self) -> np.ndarray:
        """Per game: the seat that must decide, -1 where no decision is pending."""
        return np.where(self.decision, self.seat, -1)

    @property
    def scores(self) -> np.ndarray:
        """``(batch, num_players)`` round scores as strengths, -1 where none yet (R3.3)."""
        return np.where(self._bits[self.scored] == 1, self._scores, -1)

    def chance_rows(self) -> np.ndarray:
        """Indices of the games at a chance node (someone is about to throw)."""
        return np.flatnonzero((self.phase != OVER) & ~self.decision)

    def action_masks(self) -> np.ndarray:
        """``(batch, 2)`` bool: ``[stop, throw again]`` legal (both at a decision node, R3.6)."""
        return np.repeat(self.decision[:, None], 2, axis=1)

    def placements(self, rows: np.ndarray | None = None) -> np.ndarray:
        """Place per seat (1 = winner; seats knocked out together share a place), as
        ``Game.placements``; meaningful for games that are over."""
        rows = np.arange(self.batch) if rows is None else np.asarray(rows)
        out = self.out.take(rows, axis=0)
        batch = np.where(out == 0, self.eliminations.take(rows)[:, None] + 1, out)
        return 1 + (batch[:, None, :] > batch[:, :, None]).sum(axis=2)

    def snapshot(self, i: int) -> dict[str, Any]:
        """Game ``i``'s observable state in exactly the form of ``Game.snapshot()``."""
        over = self.phase[i] == OVER
        return {
            "cards": self.cards[i].tolist(),
            "round": int(self.round[i]),
            "phase": PHASES[self.phase[i]],
            "insteker": None if over else int(self.insteker[i]),
            "current_player": int(self.seat[i]),
            "throw_limit": int(self.throw_limit[i]) or None,
            "throws": int(self.throws[i]),
            "decision": bool(self.decision[i]),
            "winner": int(self.winner[i]) if over else None,
        }

    def observations(self, rows: np.ndarray | None = None,
                     seats: np.ndarray | None = None) -> np.ndarray:
        """``(len(rows), OBS_SIZE)`` float32, row k equal to ``observation.encode(game, seat)``
        for game ``rows[k]`` and observer ``seats[k]`` (default: every game, current seat)."""
        rows = np.arange(self.batch) if rows is None else np.asarray(rows)
        seats = self.seat[rows] if seats is None else np.asarray(seats)
        n = self.num_players
        flat = (rows * n)[:, None] + self._rot.take(seats, axis=0)  # (row, seat) of each slot
        key = seats * self._masks
        scored = self._rot_bits.take(key + self.scored[rows], axis=0)
        in_round = self.phase[rows] == ROUND  # kampen and game over have no turn
        insteker = self.insteker[rows]
        # order[pos+1:] of the scalar engine: players of the round still to throw after the
        # current player (R3.4)
        after = np.where(in_round, self.todo[rows] & ~_BIT[self.seat[rows]], 0)
        limit = self.throw_limit[rows]
        used = np.where(in_round, self.throws[rows], 0)
        return encode_batch(ObsFields(
            players=np.asarray(n),
            cards=self._cards_flat[flat],
            insteker=np.where(insteker < 0, -1, (insteker - seats) % n),
            scores=np.where(scored, self._scores_flat[flat], -1),
            to_throw=self._rot_bits.take(key + after, axis=0),
            throw_limit=limit,
            throws_used=used,
            throws_left=np.where(in_round, _MAX_THROWS_OF_LIMIT[limit] - used, 0),
            my_strength=_STRENGTH_OF_CURRENT.take(self.current[rows])))

    # ------------------------------------------------------------------ inputs
    def step(self, actions: np.ndarray | Sequence[int], rows: np.ndarray | None = None) -> None:
        """Apply decisions (0 = stop, 1 = throw again; R3.2, R3.4) and advance.

        Without ``rows``, ``actions`` has one entry per game and is read only where a decision
        is pending; with ``rows`` (games at decision nodes) it has one entry per row. Bad input
        raises ``ValueError`` before anything changes."""
        actions = np.asarray(actions)
        if rows is None:
            rows = np.flatnonzero(self.decision)
            if actions.shape != (self.batch,):
                raise ValueError(f"actions must have shape ({self.batch},), got {actions.shape}")
            actions = actions[rows]
        else:
            rows = np.asarray(rows)
            if rows.ndim != 1 or actions.shape != rows.shape:
                raise ValueError(f"actions must have shape {rows.shape} (one per row), got "
                                 f"{actions.shape}")
            if rows.size and (rows.min() < 0 or rows.max() >= self.batch
                              or not self.decision[rows].all()
                              or np.bincount(rows, minlength=self.batch).max() > 1):
                raise ValueError(
                    "rows must be distinct games at decision nodes (decision_seat >= 0)"
                )
        if actions.size and not ((actions == 0) | (actions == 1)).all():
            raise ValueError(f"actions must be 0 (stop) or 1 (throw again), got "
                             f"{np.unique(actions).tolist()}")
        self.decision[rows] = False  # R3.2: after "again" the same seat throws once more
        stop = rows[actions == 0]
        if stop.size:
            self._end_turn(stop)  # may settle the round and end the game
        self.advance(rows)  # only the games that just acted can be at chance nodes (or over)

    def advance(self, rows: np.ndarray | None = None) -> None:
        """Throw for every game at a chance node until all sit at decision nodes (or are over;
        with ``auto_reset``, finished games are recorded and restarted). ``rows``, if given,
        must include every game at a chance node (it saves a scan of the batch)."""
        rows = np.flatnonzero(~self.decision) if rows is None else rows
        while True:
            phase = self.phase[rows]
            over = phase == OVER
            if self.auto_reset and over.any():
                self._finish(rows[over])
                over[over] = False  # restarted: at a chance node now
            rows = rows[~(self.decision[rows] | over)]
            if not rows.size:
                return
            self.chance_step(rows)

    def chance_step(self, rows: np.ndarray | None = None) -> np.ndarray:
        """One throw in each game of ``rows`` (default: all at chance nodes); returns the rows."""
        rows = self.chance_rows() if rows is None else np.asarray(rows)
        dice = np.asarray(self.draw_dice(rows))
        # the own generator's dice need no check; dice from an overriding ``draw_dice`` do
        if getattr(self.draw_dice, "__func__", None) is not VectorGame.draw_dice and (
                dice.shape != rows.shape or (dice.size and (dice.min() < 0
                                                            or dice.max() >= NUM_OUTCOMES))):
            raise ValueError(f"dice must give one ordered outcome 0–{NUM_OUTCOMES - 1} per row")
        self._throw(rows, dice.astype(np.int64, copy=False))
        return rows

    def reset_games(self, rows: np.ndarray) -> None:
        """Start the games in ``rows`` again from their start positions and advance them."""
        rows = np.asarray(rows)
        self._restart(rows)
        self.advance(rows)

    def _restart(self, rows: np.ndarray) -> None:
        self.cards[rows] = self.start_cards.take(rows, axis=0)
        self.out[rows] = self._start_out.take(rows, axis=0)
        self.eliminations[rows] = self._start_eliminations.take(rows)
        alive = self._start_alive.take(rows)
        self.alive[rows] = alive
        self.round[rows] = 0
        self.winner[rows] = -1
        self.decision[rows] = False  # reset_games may restart games waiting at a decision
        self._start_round(rows, self.first_insteker.take(rows), alive)

    def pop_finished(self) -> Finished:
        """The games that ended since the last call (``auto_reset`` only), in order."""
        parts, self._finished = self._finished, []
        if not parts:
            n = self.num_players
            empty = np.zeros(0, np.int64)
            return Finished(empty, empty, np.zeros((0, n), np.int64), empty,
                            np.zeros((0, n), np.int64), np.zeros((0, OBS_SIZE), _F32))
        return Finished(*(np.concatenate(f) for f in zip(*parts, strict=True)))

    def draw_dice(self, rows: np.ndarray) -> np.ndarray:
        """One ordered outcome 0…215 (``rules.ordered_index``) per game in ``rows`` (R7.2)."""
        return self.rng.integers(0, NUM_OUTCOMES, size=rows.size)

    # ------------------------------------------------------------------ transitions
    def _finish(self, rows: np.ndarray) -> None:
        if self.observer is None:
            obs = np.zeros((rows.size, OBS_SIZE), _F32)
        else:
            obs = self.observations(rows, self.observer[rows])
        self._finished.append(Finished(rows, self.winner[rows], self.placements(rows),
                                       self.round[rows], self.cards.take(rows, axis=0), obs))
        self.games_finished += rows.size
        self._restart(rows)  # advance() throws on for them

    def _next(self, start: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """Per row, the first seat strictly after ``start`` clockwise (R1.2) in bitmask
        ``mask``, -1 if the mask is empty."""
        return self._next_table[start * self._masks + mask]

    def _throw(self, rows: np.ndarray, dice: np.ndarray) -> None:
        """A throw at a chance node, in a round (R3, R4) or a kampen (R5)."""
        in_round = self.phase[rows] == ROUND
        all_round = in_round.all()  # the common case: no kampen among the throwers
        round_rows = rows if all_round else rows[in_round]
        throws = self.throws[round_rows] + 1
        self.throws[round_rows] = throws
        self.current[round_rows] = dice if all_round else dice[in_round]
        rare = _RARE[dice]  # Picaro or a special: cards change
        if rare.any():
            ended = self._losses(rows[rare], dice[rare], in_round[rare])
            if ended.any():
                rare[rare] = ended
                going = ~rare
                throws = throws[going if all_round else going[in_round]]
                rows, dice, in_round = rows[going], dice[going], in_round[going]
                all_round = all_round or in_round.all()
        turn_rows = rows if all_round else rows[in_round]
        if turn_rows.size:
            left = throws < _MAX_THROWS_OF_LIMIT[self.throw_limit[turn_rows]]
            self.decision[turn_rows] = left  # R3.6: a decision only with throws left
            if not left.all():
                self._end_turn(turn_rows[~left])
        if not all_round:  # R5.1: a single kampen throw is its thrower's kampen score
            kampen = ~in_round
            kampen_rows = rows[kampen]
            seat = self.seat[kampen_rows]
            strength = OUTCOME_STRENGTH[dice[kampen]]
            self._kampen_flat[kampen_rows * self.num_players + seat] = strength
            self._scored(kampen_rows, seat, _BIT[seat], strength)

    def _losses(self, rows: np.ndarray, dice: np.ndarray, in_round: np.ndarray) -> np.ndarray:
        """Picaro (R4.4, R5.2) and specials (R4.1, R5.2); returns which rows' round ended."""
        n = self.num_players
        seat = self.seat.take(rows)
        cards = self.cards.take(rows, axis=0)
        alive = self.alive.take(rows)
        # R4.1: every other player still in the game; R5.2: the other kampen players
        group = np.where(in_round, alive, self.members.take(rows))
        key = (_LOSS_CODE.take(dice) * n + seat) * self._masks + group
        cards -= np.minimum(self._loss_table.take(key, axis=0), cards)  # R1.4: never below 0
        self.cards[rows] = cards
        holding = (cards > 0) @ _BIT[:n]
        emptied = alive & ~holding  # as a seat mask: who lost their last card just now
        ended = _IS_PICARO.take(dice) | (emptied != 0)  # R4.4 / R6.2: the round stops at once
        if ended.any():
            rows, seat, emptied, alive = rows[ended], seat[ended], emptied[ended], holding[ended]
            self.alive[rows] = alive
            insteker = self._insteker_table.take(  # R4.4, R6.1, R6.2
                (seat * self._masks + emptied) * self._masks + alive)
            hit = emptied != 0
            if hit.any():
                self._eliminate(rows[hit], emptied[hit])
            self._new_round(rows, insteker)
        return ended

    def _end_turn(self, rows: np.ndarray) -> None:
        """The current player's last throw becomes their score (R3.3). The rows are no
        longer at a decision node: the callers have cleared ``decision``."""
        seat = self.seat[rows]
        first = rows[seat == self.insteker[rows]]
        self.throw_limit[first] = self.throws[first]  # R3.2
        strength = OUTCOME_STRENGTH[self.current[rows]]
        self._scores_flat[rows * self.num_players + seat] = strength
        bit = _BIT[seat]
        self.scored[rows] |= bit
        self.throws[rows] = 0
        self.current[rows] = -1
        self._scored(rows, seat, bit, strength)

    def _scored(self, rows: np.ndarray, seat: np.ndarray, bit: np.ndarray,
                strength: np.ndarray) -> None:
        """``seat`` (bit ``bit``) has its score (round or kampen): track the lowest, pass the
        turn on clockwise (R3.4, R5.1) or settle when everyone has one (R3.5, R5.3)."""
        low, lowest = self.low[rows], self.lowest[rows]
        self.lowest[rows] = np.where(strength < low, bit,
                                     np.where(strength == low, lowest | bit, lowest))
        self.low[rows] = np.minimum(low, strength)
        todo = self.todo[rows] & ~bit
        self.todo[rows] = todo
        self.seat[rows] = self._next(seat, todo)  # -1 where all have thrown: _settle sets it
        done = todo == 0
        if done.any():
            self._settle(rows[done])

    def _settle(self, rows: np.ndarray) -> None:
        """Lowest score loses a card (R3.5); a shared lowest plays kampen (R5.1, R5.3)."""
        losers = self.lowest.take(rows)
        tie = _POPCOUNT.take(losers) > 1
        if tie.any():
            tie_rows, group = rows[tie], losers[tie]
            self.phase[tie_rows] = KAMPEN
            self.members[tie_rows] = group
            self.todo[tie_rows] = group
            self.low[tie_rows] = _NO_SCORE
            self.lowest[tie_rows] = 0
            # R5.1: in round order, which runs clockwise from the insteker
            self.seat[tie_rows] = self._next((self.insteker[tie_rows] - 1) % self.num_players,
                                             group)
            single = np.flatnonzero(~tie)
            rows, losers = rows.take(single), losers.take(single)
        if rows.size:
            loser = _HIGHEST.take(losers)
            flat = rows * self.num_players + loser
            cards = self._cards_flat.take(flat) - ROUND_LOSS
            self._cards_flat[flat] = cards
            out = cards == 0
            if out.any():
                gone = np.where(out, _BIT.take(loser), 0)
                alive = self.alive.take(rows) & ~gone
                self.alive[rows] = alive
                self._eliminate(rows[out], gone[out])
                # R3.5: the loser insteeks; R6.1: if out, the next player clockwise with cards
                loser = self._insteker_table.take((loser * self._masks + gone) * self._masks
                                                  + alive)
            self._new_round(rows, loser)

    def _eliminate(self, rows: np.ndarray, emptied: np.ndarray) -> None:
        """The seats of each nonzero mask ``emptied`` went out together and share one
        elimination batch (R1.4, for placements)."""
        batch = self.eliminations.take(rows) + 1
        self.eliminations[rows] = batch
        self.out[rows] = np.where(self._seat_in.take(emptied, axis=0), batch[:, None],
                                  self.out.take(rows, axis=0))

    def _new_round(self, rows: np.ndarray, insteker: np.ndarray) -> None:
        """Start the next round, or end the game when one player has cards (R1.5, R6.3)."""
        alive = self.alive.take(rows)
        going = _POPCOUNT.take(alive) > 1
        if going.all():
            self._start_round(rows, insteker, alive)
            return
        self._start_round(rows[going], insteker[going], alive[going])
        over = rows[~going]
        self.phase[over] = OVER
        self.insteker[over] = -1
        self.seat[over] = -1
        self.decision[over] = False
        self.winner[over] = _HIGHEST[alive[~going]]

    def _start_round(self, rows: np.ndarray, insteker: np.ndarray, alive: np.ndarray) -> None:
        """Round state for ``rows`` (at chance nodes) whose seats with cards are ``alive``."""
        self.round[rows] += 1
        self.insteker[rows] = insteker
        self.seat[rows] = insteker
        self.phase[rows] = ROUND
        self.members[rows] = alive  # R1.2: the round skips players without cards
        self.todo[rows] = alive
        self.low[rows] = _NO_SCORE
        self.lowest[rows] = 0
        self.throw_limit[rows] = 0
        self.throws[rows] = 0
        self.current[rows] = -1
        self.scored[rows] = 0


def _start_cards(batch: int, n: int, cards: Any) -> np.ndarray:
    allowed = (f"one count 1–{MAX_CARDS}, {n} per-seat counts, or a ({batch}, {n}) array of "
               f"counts 0–{MAX_CARDS} with at least two seats above 0 per game")
    try:
        arr = np.asarray(cards)
        ok = arr.dtype.kind in "iu"
    except (TypeError, ValueError):
        ok = False
    if not ok:
        raise ValueError(f"cards must be {allowed}; got {cards!r}")
    if arr.ndim == 0:
        if not 1 <= arr <= MAX_CARDS:
            raise ValueError(f"cards must be {allowed}; got {cards!r}")
        arr = np.full(n, arr)
    if arr.shape not in ((n,), (batch, n)):
        raise ValueError(f"cards must be {allowed}; got shape {arr.shape}")
    arr = np.broadcast_to(arr, (batch, n)).astype(np.int64)
    if arr.min() < 0 or arr.max() > MAX_CARDS or ((arr > 0).sum(axis=1) < 2).any():
        raise ValueError(f"cards must be {allowed}; got {cards!r}")
    return arr


def _seats(batch: int, n: int, value: Any, name: str) -> np.ndarray:
    arr = np.asarray(value)
    if arr.dtype.kind not in "iu" or arr.shape not in ((), (batch,)) or (
            arr.size and (arr.min() < 0 or arr.max() >= n)):
        raise ValueError(f"{name} must be one seat 0–{n - 1} or one per game ({batch}), "
                         f"got {value!r}")
    return np.broadcast_to(arr, (batch,)).astype(np.int64)

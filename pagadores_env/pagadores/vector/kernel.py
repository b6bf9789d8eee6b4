"""The compiled rules kernel of the batch engine: R1–R7 over a packed state array.

Each game is one ``int16`` row of the state (``STATE_DTYPE``, layout below: every value fits,
and a row of 96 bytes keeps a batch of 4096 games in a core's cache, where int64 rows took
about 10% longer); the transition functions take the state and a game's index (a row view would
update its reference count atomically at every game) and change that row in place, and ``run``
loops over games, taking each on until it waits at a decision node (or is over), making the
decisions of seats played by a decision table itself (``vector.tables``); ``observe``
writes observation rows straight from the state. ``play`` (with the decider's observation) and
``observe_one`` do the same for one game at a time, with as few arguments as possible (a
compiled call costs about 0.1 µs per array it is passed): the AEC and Gymnasium envs call them
at every agent step. They are compiled by numba on first use (``cache=True``: later processes
load the machine code from ``__pycache__``), so importing this module compiles nothing.

Dice come in as a buffer of ordered outcomes 0–215 (``rules.ordered_index``), used in order.
The batch engine makes them from random bytes (``random_words``), keeping those below 216
(``keep_outcomes``), so the throws are uniform over the 216 outcomes (R7.2): a separate,
branch-free pass, because a rejection branch at every throw, mispredicted one time in seven,
made the kernel measurably slower. ``run`` returns to its caller when the buffer is used up
(or when the buffer of finished games is full) and carries on from the same game when called
again.

The transition functions are inlined into ``run`` (``inline="always"``): a call between
compiled functions that passes an array updates its reference count twice, atomically, which
costs more than most transitions do. ``error_model="numpy"`` drops Python's checks for
division by zero (no divisor here is ever 0): about a third faster. The
rule tables and the observation's lookup tables (``observation.ENCODE_TABLES``) are compiled in
as constants, and numba's disk cache is keyed on this file only (its folder's ``__pycache__``,
or a folder named after it under ``NUMBA_CACHE_DIR``; the file's name, each function's name and
line, the file's time and size): a moved module starts with no cache. ``RULES_FINGERPRINT``
ties the tables to this file, so a change to the rules or to the observation cannot meet a
stale cache.

State layout, one row per game (a set of seats is a bitmask: bit ``s`` = seat ``s``):

=================  ==============================================================
column             meaning
=================  ==============================================================
CARDS + s          cards seat ``s`` holds (R1.1, R1.4)
OUT + s            the elimination batch (1-based) that put seat ``s`` out; 0 = in
OUT_ROUND + s      the round seat ``s`` went out in (0: it started without cards)
SCORE + s          seat ``s``'s score this round as a strength (R3.3), where SCORED
KAMPEN_SCORE + s   seat ``s``'s kampen throw (R5.1), for kampen players who threw
ELIMINATIONS       elimination batches so far
ROUND_NO           the round number, 1-based
PHASE              ROUND, KAMPEN or OVER
INSTEKER           this round's insteker (R3.1); -1 once over
SEAT               the current player (thrower or decider); -1 once over
LIMIT              the throw limit (R3.2); 0 while the insteker has not fixed it
THROWS_USED        throws used in the current turn
CURRENT            ordered outcome of the current turn's last throw; -1 for none
DECISION           1 at a decision node (R3.6)
ALIVE              seats that hold cards
SCORED             seats with a score this round
MEMBERS            seats that play this round or this kampen
TODO               of those, the seats that have not finished (current player included)
LOWEST             seats holding the lowest score so far
LOW                that lowest score; NO_SCORE while nobody has one
WINNER             the winner once over, else -1
=================  ==============================================================
"""

from __future__ import annotations

import functools
import hashlib
import warnings
from typing import Any

import numpy as np
from numba import njit

from ..observation import ENCODE_TABLES
from ..rules import (
    MAX_PLAYERS,
    MAX_THROWS,
    NUM_OUTCOMES,
    NUM_STRENGTHS,
    OUTCOME_KIND,
    OUTCOME_PENALTY,
    OUTCOME_STRENGTH,
    PICARO_LOSS,
    ROUND_LOSS,
    Kind,
)

# The state's columns (see the module docstring).
CARDS = 0
OUT = CARDS + MAX_PLAYERS
OUT_ROUND = OUT + MAX_PLAYERS
SCORE = OUT_ROUND + MAX_PLAYERS
KAMPEN_SCORE = SCORE + MAX_PLAYERS
(ELIMINATIONS, ROUND_NO, PHASE, INSTEKER, SEAT, LIMIT, THROWS_USED, CURRENT, DECISION, ALIVE,
 SCORED, MEMBERS, TODO, LOWEST, LOW, WINNER) = range(KAMPEN_SCORE + MAX_PLAYERS,
                                                     KAMPEN_SCORE + MAX_PLAYERS + 16)
WIDTH = WINNER + 1
# Columns of a game's start position: its cards, then its first insteker (R3.1).
START_FIRST = MAX_PLAYERS
START_WIDTH = START_FIRST + 1

ROUND, KAMPEN, OVER = 0, 1, 2  # phases
NO_SCORE = 1 << 14  # above every strength: "no score" never is the lowest
#: Every column's values fit in 16 bits; a smaller row keeps more games in cache.
STATE_DTYPE = np.int16
# What ``run`` returns with the index of the game it stopped at.
DONE, NEED_DICE, NEED_ROOM = 0, 1, 2
# What ``play`` returns when it does not stop at a decision (a seat number when it does).
PLAY_NO_DECISION, PLAY_NEED_DICE = -1, -2
#: The facts a table-played seat decides on (``vector.tables``), one axis each: the decider
#: fixes the throw limit (R3.2: it insteeks and has not stopped yet), throws used - 1, its
#: throw's strength, the score to beat + 1 (0: none yet, R3.5), it holds its last card, another
#: seat holds its last card. A decision's entry in a table is its index in this shape.
TABLE_SHAPE = (2, MAX_THROWS, NUM_STRENGTHS, NUM_STRENGTHS + 1, 2, 2)
TABLE_SIZE = int(np.prod(TABLE_SHAPE))

# The rules as the kernel reads them, per ordered outcome: strength (R2.3), cards every other
# player loses (R4.1), Picaro or not (R4.4).
_STRENGTH = np.ascontiguousarray(OUTCOME_STRENGTH)
_PENALTY = np.ascontiguousarray(OUTCOME_PENALTY)
_PICARO = (OUTCOME_KIND == Kind.PICARO).astype(np.int64)
_NUMBERS = (NUM_OUTCOMES, MAX_THROWS, PICARO_LOSS, ROUND_LOSS)
# The observation's lookup tables (``observation.EncodeTables``).
(_OBS_STARTS, _OBS_CARDS, _OBS_SCORES, _OBS_TURN, _OBS_THROW) = (
    np.ascontiguousarray(table) for table in ENCODE_TABLES)


def rules_fingerprint() -> str:
    """A digest of every rule fact and observation table the kernel compiles in."""
    digest = hashlib.sha256(repr(_NUMBERS).encode())
    for table in (_STRENGTH, _PENALTY, _PICARO):
        digest.update(table.astype(np.int64).tobytes())
    for table in (_OBS_STARTS, _OBS_CARDS, _OBS_SCORES, _OBS_TURN, _OBS_THROW):
        digest.update(table.tobytes())
    return digest.hexdigest()[:16]


#: ``rules_fingerprint()`` of the tables this file was written for.
RULES_FINGERPRINT = "4ec49a7abcd5f141"
if rules_fingerprint() != RULES_FINGERPRINT:
    raise ImportError(
        f"the rule or observation tables changed (fingerprint {rules_fingerprint()}): set "
        "RULES_FINGERPRINT "
        "in pagadores_env/vector/kernel.py to it, which also recompiles the kernel"
    )


def _clockwise() -> np.ndarray:
    """``[n, start, mask]``: at a table of ``n`` seats, the first seat clockwise after ``start``
    (R1.2) in the set ``mask``, ``start`` itself last; -1 if the set is empty. Looked up at every
    turn, where a loop over seats cost a mispredicted branch or two."""
    table = np.full((MAX_PLAYERS + 1, MAX_PLAYERS, 1 << MAX_PLAYERS), -1, np.int8)
    for n in range(1, MAX_PLAYERS + 1):
        for start in range(n):
            for mask in range(1 << n):
                table[n, start, mask] = next(((start + step) % n for step in range(1, n + 1)
                                              if mask >> (start + step) % n & 1), -1)
    return table


_NEXT_SEAT = _clockwise()
#: ``[mask]``: the highest seat of the set ``mask`` (-1 if empty): the only one of a one-seat
#: set, the youngest (R1.3).
_HIGHEST = np.array([mask.bit_length() - 1 for mask in range(1 << MAX_PLAYERS)], np.int8)


@njit(cache=True, error_model="numpy", inline="always")
def _start_round(state: np.ndarray, g: int, insteker: int) -> None:
    """A new round insteeked by ``insteker``, played by every seat with cards (R1.2, R3.1)."""
    state[g, ROUND_NO] += 1
    state[g, INSTEKER] = insteker
    state[g, SEAT] = insteker
    state[g, PHASE] = ROUND
    state[g, MEMBERS] = state[g, ALIVE]
    state[g, TODO] = state[g, ALIVE]
    state[g, LOW] = NO_SCORE
    state[g, LOWEST] = 0
    state[g, LIMIT] = 0
    state[g, THROWS_USED] = 0
    state[g, CURRENT] = -1
    state[g, SCORED] = 0


@njit(cache=True, error_model="numpy", inline="always")
def _new_round(state: np.ndarray, g: int, insteker: int) -> None:
    """Start the next round, or end the game when one player has cards (R1.5, R6.3)."""
    alive = state[g, ALIVE]
    if alive & (alive - 1):
        _start_round(state, g, insteker)
        return
    state[g, PHASE] = OVER
    state[g, INSTEKER] = -1
    state[g, SEAT] = -1
    state[g, DECISION] = 0
    state[g, WINNER] = _HIGHEST[alive]


@njit(cache=True, error_model="numpy", inline="always")
def _eliminate(state: np.ndarray, g: int, emptied: int, n: int) -> None:
    """The seats of ``emptied`` went out together, in this round (R1.4)."""
    state[g, ALIVE] &= ~emptied
    batch = state[g, ELIMINATIONS] + 1
    state[g, ELIMINATIONS] = batch
    for seat in range(n):
        if emptied >> seat & 1:
            state[g, OUT + seat] = batch
            state[g, OUT_ROUND + seat] = state[g, ROUND_NO]


@njit(cache=True, error_model="numpy")
def restart(state: np.ndarray, g: int, starts: np.ndarray, n: int) -> None:
    """Game ``g`` from its start position (its row of ``starts``: start cards and first
    insteker)."""
    alive = 0
    eliminations = 0
    for seat in range(n):
        cards = starts[g, CARDS + seat]
        state[g, CARDS + seat] = cards
        state[g, OUT_ROUND + seat] = 0
        if cards:
            alive |= 1 << seat
            state[g, OUT + seat] = 0
        else:  # out from the start: the first elimination batch
            state[g, OUT + seat] = 1
            eliminations = 1
    state[g, ELIMINATIONS] = eliminations
    state[g, ALIVE] = alive
    state[g, ROUND_NO] = 0
    state[g, WINNER] = -1
    state[g, DECISION] = 0
    _start_round(state, g, starts[g, START_FIRST])


@njit(cache=True, error_model="numpy")
def restart_rows(state: np.ndarray, rows: np.ndarray, starts: np.ndarray, n: int) -> None:
    """``restart`` for the games ``rows``."""
    for g in rows:
        restart(state, g, starts, n)


@njit(cache=True, error_model="numpy", inline="always")
def _settle(state: np.ndarray, g: int, n: int) -> None:
    """Everyone has a score: the lowest loses a card (R3.5, R5.3); a shared lowest plays
    kampen (R5.1)."""
    losers = state[g, LOWEST]
    if losers & (losers - 1):
        state[g, PHASE] = KAMPEN
        state[g, MEMBERS] = losers
        state[g, TODO] = losers
        state[g, LOW] = NO_SCORE
        state[g, LOWEST] = 0
        # R5.1: in round order, which runs clockwise from the insteker
        state[g, SEAT] = _NEXT_SEAT[n, (state[g, INSTEKER] + n - 1) % n, losers]
        return
    loser = _HIGHEST[losers]
    cards = state[g, CARDS + loser] - ROUND_LOSS
    state[g, CARDS + loser] = cards
    if cards:
        _start_round(state, g, loser)  # R3.5: the loser insteeks
        return
    _eliminate(state, g, losers, n)
    _new_round(state, g, _NEXT_SEAT[n, loser, state[g, ALIVE]])  # R6.1


@njit(cache=True, error_model="numpy", inline="always")
def _scored(state: np.ndarray, g: int, seat: int, strength: int, n: int) -> None:
    """``seat`` has its score (round or kampen): track the lowest, pass the turn on clockwise
    (R3.4, R5.1) or settle when everyone has one."""
    bit = 1 << seat
    low = state[g, LOW]
    if strength < low:
        state[g, LOWEST] = bit
        state[g, LOW] = strength
    elif strength == low:
        state[g, LOWEST] |= bit
    todo = state[g, TODO] & ~bit
    state[g, TODO] = todo
    state[g, SEAT] = _NEXT_SEAT[n, seat, todo]
    if todo == 0:
        _settle(state, g, n)


@njit(cache=True, error_model="numpy", inline="always")
def _end_turn(state: np.ndarray, g: int, n: int) -> None:
    """The current player's last throw becomes their score (R3.3)."""
    seat = state[g, SEAT]
    if seat == state[g, INSTEKER]:
        state[g, LIMIT] = state[g, THROWS_USED]  # R3.2
    strength = _STRENGTH[state[g, CURRENT]]
    state[g, SCORE + seat] = strength
    state[g, SCORED] |= 1 << seat
    state[g, THROWS_USED] = 0
    state[g, CURRENT] = -1
    _scored(state, g, seat, strength, n)


@njit(cache=True, error_model="numpy", inline="always")
def throw(state: np.ndarray, g: int, die: int, n: int) -> None:
    """The current player throws ordered outcome ``die``, in a round (R3, R4) or a kampen
    (R5)."""
    seat = state[g, SEAT]
    in_round = state[g, PHASE] == ROUND
    if in_round:
        state[g, THROWS_USED] += 1
        state[g, CURRENT] = die
    if _PICARO[die]:  # R4.4, R5.2: the round ends at once
        cards = state[g, CARDS + seat] - min(PICARO_LOSS, state[g, CARDS + seat])
        state[g, CARDS + seat] = cards
        if cards:
            _new_round(state, g, seat)
        else:
            _eliminate(state, g, 1 << seat, n)
            _new_round(state, g, _NEXT_SEAT[n, seat, state[g, ALIVE]])  # R6.1
        return
    penalty = _PENALTY[die]
    if penalty:  # R4.1: every other player still in; R5.2: the other kampen players
        group = state[g, ALIVE] if in_round else state[g, MEMBERS]
        emptied = 0
        for victim in range(n):
            if victim != seat and group >> victim & 1:
                cards = state[g, CARDS + victim] - min(penalty, state[g, CARDS + victim])  # R1.4
                state[g, CARDS + victim] = cards
                if not cards:
                    emptied |= 1 << victim
        if emptied:  # R6.2: the round stops at once
            _eliminate(state, g, emptied, n)
            if emptied & (emptied - 1):
                _new_round(state, g, _HIGHEST[state[g, ALIVE]])  # several out: the youngest left
            else:
                _new_round(state, g, _NEXT_SEAT[n, _HIGHEST[emptied], state[g, ALIVE]])
            return
    if in_round:
        limit = state[g, LIMIT]
        if state[g, THROWS_USED] < (limit if limit else MAX_THROWS):
            state[g, DECISION] = 1  # R3.6: a decision only with throws left
        else:
            _end_turn(state, g, n)
    else:  # R5.1: a single kampen throw is its thrower's kampen score
        strength = _STRENGTH[die]
        state[g, KAMPEN_SCORE + seat] = strength
        _scored(state, g, seat, strength, n)


@njit(cache=True, error_model="numpy", inline="always")
def decide(state: np.ndarray, g: int, action: int, n: int) -> None:
    """Apply STOP (0) or THROW (1) at a decision node (R3.2, R3.4): after "again" the same
    seat throws once more."""
    state[g, DECISION] = 0
    if action == 0:
        _end_turn(state, g, n)


@njit(cache=True, error_model="numpy", inline="always")
def _table_entry(state: np.ndarray, g: int, seat: int, n: int) -> int:
    """The index in ``TABLE_SHAPE`` of the decision ``seat`` faces in game ``g``."""
    low = state[g, LOW]  # at a decision node (a round's), the lowest round score so far
    other_last = 0
    for other in range(n):
        if other != seat and state[g, CARDS + other] == 1:
            other_last = 1
    entry = (1 if state[g, LIMIT] == 0 else 0) * MAX_THROWS + state[g, THROWS_USED] - 1
    entry = entry * NUM_STRENGTHS + _STRENGTH[state[g, CURRENT]]
    entry = entry * (NUM_STRENGTHS + 1) + (0 if low == NO_SCORE else low + 1)
    entry = entry * 2 + (1 if state[g, CARDS + seat] == 1 else 0)
    return entry * 2 + other_last


@njit(cache=True, error_model="numpy")
def random_words(seed: np.uint64, out: np.ndarray) -> None:
    """Fill ``out`` (uint64) with the SplitMix64 sequence from ``seed`` (Steele, Lea and Flood
    2014; it passes BigCrush): the random bytes of the dice (``keep_outcomes``), about eight
    times faster than ``Generator.bytes``."""
    state = seed
    for i in range(out.size):
        state += np.uint64(0x9E3779B97F4A7C15)
        z = (state ^ (state >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        out[i] = z ^ (z >> np.uint64(31))


@njit(cache=True, error_model="numpy")
def keep_outcomes(dice: np.ndarray) -> int:
    """Move the bytes of ``dice`` below 216 to its front, in order, and return how many there
    are (R7.2: rejection sampling, without a branch per byte)."""
    kept = 0
    for i in range(dice.size):
        byte = dice[i]
        dice[kept] = byte
        kept += byte < NUM_OUTCOMES
    return kept


@njit(cache=True, error_model="numpy")
def bad_action(state: np.ndarray, rows: np.ndarray, actions: np.ndarray) -> int:
    """The first index ``k`` whose game ``rows[k]`` waits at a decision node while
    ``actions[k]`` is neither 0 nor 1; -1 if there is none."""
    for k in range(rows.size):
        if state[rows[k], DECISION] and actions[k] != 0 and actions[k] != 1:
            return k
    return -1


@njit(cache=True, error_model="numpy")
def run(state: np.ndarray, rows: np.ndarray, actions: np.ndarray, act: bool, first: int,
        starts: np.ndarray, dice: np.ndarray, cursor: np.ndarray, done_rows: np.ndarray,
        done_states: np.ndarray, auto_reset: bool, n: int, tables: np.ndarray,
        table_of: np.ndarray, watched: np.ndarray) -> tuple[int, int]:
    """Take the games ``rows[first:]`` one after another to their next decision node.

    With ``act``, a game waiting at a decision node first applies ``actions[k]``. Where seat
    ``s`` of game ``g`` has a table (``table_of[g, s] >= 0``; none when ``tables`` has no rows)
    the kernel makes that seat's decisions itself, ``tables[table_of[g, s]]`` at the decision's
    ``TABLE_SHAPE`` index, and stops only at the other seats' decisions, or at any decision
    once the seat ``watched[g]`` (if >= 0) holds no cards. A game that is over stays so, or
    with ``auto_reset`` has its final state copied to ``done_states`` (its index to
    ``done_rows``) and starts again from its row of ``starts``. Dice come from the outcomes
    ``dice[cursor[0]:]`` (see the module docstring); ``cursor[1]`` counts the finished games
    recorded. Returns ``(len(rows), DONE)``, or the index of the game it stopped at and why:
    ``NEED_DICE`` (the buffer is used up; that game is at a chance node) or ``NEED_ROOM`` (the
    finished games' buffer is full; that game is over). Calling again from there carries
    on."""
    at, done = cursor[0], cursor[1]  # in registers; written back on return
    tabled = tables.shape[0] > 0
    for k in range(first, rows.size):
        g = rows[k]
        # the caller's action, for a game waiting at a decision; then the tables' (one call
        # of decide: each inlined copy of the transitions costs compile time and code cache)
        action = actions[k] if act and state[g, DECISION] else -1
        while True:
            if state[g, DECISION]:
                if action < 0:
                    if not tabled:
                        break
                    seat = state[g, SEAT]
                    table = table_of[g, seat]
                    if table < 0 or (watched[g] >= 0 and state[g, CARDS + watched[g]] == 0):
                        break
                    action = tables[table, _table_entry(state, g, seat, n)]
                decide(state, g, action, n)
                action = -1
                continue
            if state[g, PHASE] == OVER:
                if not auto_reset:
                    break
                if done == done_rows.size:
                    cursor[0], cursor[1] = at, done
                    return k, NEED_ROOM
                done_rows[done] = g
                done_states[done] = state[g]
                done += 1
                restart(state, g, starts, n)
                continue
            if at == dice.size:
                cursor[0], cursor[1] = at, done
                return k, NEED_DICE
            throw(state, g, dice[at], n)
            at += 1
    cursor[0], cursor[1] = at, done
    return rows.size, DONE


@njit(cache=True, error_model="numpy", inline="always")
def _observe_row(state: np.ndarray, g: int, me: int, n: int, o: np.ndarray) -> None:
    """``o``: the observation of game ``g`` by seat ``me``, bit for bit what
    ``observation.encode`` writes. Every value of the first ``n`` slots is written: ``o`` may
    hold an earlier observation of the same table, and its padding slots must be 0."""
    cards_at, present_at, insteker_at, scores_at, lowest_at, to_throw_at, turn_at, throw_at = (
        _OBS_STARTS[0], _OBS_STARTS[1], _OBS_STARTS[2], _OBS_STARTS[3], _OBS_STARTS[4],
        _OBS_STARTS[5], _OBS_STARTS[6], _OBS_STARTS[7])
    none = _OBS_SCORES.size - 1  # "no score" above every strength, as the tables index it
    st = state[g]
    in_round = st[PHASE] == ROUND  # kampen and game over have no turn
    scored = st[SCORED]
    low = none  # R3.5: the score to beat
    for seat in range(n):
        if scored >> seat & 1 and st[SCORE + seat] < low:
            low = st[SCORE + seat]
    # order[pos+1:] of the scalar engine: players still to throw after me (R3.4)
    after = st[TODO] & ~(1 << st[SEAT]) if in_round else 0
    seat = me
    for slot in range(n):  # slot 0 is me, then clockwise (R1.2)
        o[cards_at + slot] = _OBS_CARDS[st[CARDS + seat]]
        o[present_at + slot] = 1.0
        lowest = scored >> seat & 1 and st[SCORE + seat] == low
        o[scores_at + slot] = _OBS_SCORES[st[SCORE + seat] if lowest else -1]
        o[lowest_at + slot] = 1.0 if lowest else 0.0
        o[to_throw_at + slot] = after >> seat & 1
        o[insteker_at + slot] = 0.0  # set below for one slot, if any
        seat = seat + 1 if seat + 1 < n else 0
    insteker = st[INSTEKER]
    if insteker >= 0:  # -1 once over
        o[insteker_at + (insteker - me + n) % n] = 1.0
    limit = st[LIMIT]
    used = st[THROWS_USED] if in_round else 0
    left = (limit if limit else MAX_THROWS) - used if in_round else 0
    turn = _OBS_TURN[(limit * 4 + used) * 4 + left]
    for i in range(turn.size):
        o[turn_at + i] = turn[i]
    mine = _STRENGTH[st[CURRENT]] if st[CURRENT] >= 0 else -1
    throw_row = _OBS_THROW[(mine + 1) * (none + 1) + low]
    for i in range(throw_row.size):
        o[throw_at + i] = throw_row[i]


@njit(cache=True, error_model="numpy")
def observe(state: np.ndarray, rows: np.ndarray, seats: np.ndarray, n: int,
            out: np.ndarray) -> None:
    """``out[k]``: the observation of game ``rows[k]`` by seat ``seats[k]`` (``out`` zeroed)."""
    for k in range(rows.size):
        _observe_row(state, rows[k], seats[k], n, out[k])


@njit(cache=True, error_model="numpy")
def observe_one(state: np.ndarray, seat: int, n: int, out: np.ndarray) -> None:
    """``out``: the observation of game 0 by ``seat`` (``out`` zeroed)."""
    _observe_row(state, 0, seat, n, out)


@njit(cache=True, error_model="numpy")
def play(state: np.ndarray, action: int, dice: np.ndarray, cursor: np.ndarray, n: int,
         watched: int, obs: np.ndarray) -> int:
    """Game 0 of ``state``: apply ``action`` at its decision node if it is 0 or 1 (-1: none),
    then throw ``dice[cursor[0]:]`` (outcomes, as ``run`` reads them) until the game waits at a
    decision node: return the seat to decide, its observation written to ``obs`` (an earlier
    observation of the same table, or zeros). Or return ``PLAY_NO_DECISION`` once the game is
    over or seat ``watched`` (if >= 0) holds no cards, ``PLAY_NEED_DICE`` when the dice are
    used up (the game is at a chance node: call again with more dice and action -1)."""
    if action >= 0:
        decide(state, 0, action, n)
    at = cursor[0]
    result = PLAY_NO_DECISION
    while state[0, PHASE] != OVER:
        if state[0, DECISION]:
            result = state[0, SEAT]
            _observe_row(state, 0, result, n, obs)
            break
        if watched >= 0 and state[0, CARDS + watched] == 0:
            break
        if at == dice.size:
            result = PLAY_NEED_DICE
            break
        throw(state, 0, dice[at], n)
        at += 1
    cursor[0] = at
    return result


#: Every compiled function of this module (each has a disk cache: ``check_caches`` reads them).
COMPILED = tuple(value for value in list(globals().values())
                 if hasattr(value, "py_func") and value.py_func.__module__ == __name__)


@functools.cache
def check_caches() -> tuple[str, ...]:
    """Once per process: empty the disk cache of each compiled function that cannot be read back (a
    truncated or damaged file: a full disk, a crash while numba wrote it), so that it compiles
    again instead of failing with a traceback at its first call, and warn in one line. Returns
    the names of the emptied caches. It reads numba's cache objects (``dispatcher._cache``),
    which numba does not document: with a numba that lacks them, nothing is checked."""
    emptied = []
    for dispatcher in COMPILED:
        cache: Any = getattr(dispatcher, "_cache", None)
        files: Any = getattr(cache, "_cache_file", None)
        if files is None:
            continue
        try:
            for data_name in files._load_index().values():
                files._load_data(data_name)
        except AttributeError:  # another numba's cache layout: leave it to numba
            continue
        except Exception:  # noqa: BLE001 (any unreadable file: numba would raise the same)
            cache.flush()  # an empty index, written atomically: the next call compiles
            emptied.append(dispatcher.__name__)
    if emptied:
        warnings.warn(f"the rules kernel's compiled cache could not be read "
                      f"({', '.join(emptied)}): compiling it again", RuntimeWarning, stacklevel=3)
    return tuple(emptied)

"""The observation vector an acting seat sees (R7.1: everything is public).

Seats are rotated so the observer is slot 0 and the next seat clockwise is slot 1 (R1.2);
slots past the table's size are padding (``present`` = 0), so one vector size serves 2–6
players. The vector is sufficient for optimal play: every quantity the rest of the game
depends on from a decision point is in it.

Of the round's scores it shows only the score to beat and who holds it (``scores`` of a
higher score reads -1, as before a seat has thrown; ``to_throw`` tells the two apart). A score
above the lowest can never become the lowest again (scores only come in), so it cannot lose
the round or play kampen (R3.5, R5) and nothing later depends on it: two states that differ
only there have the same future. Leaving it out keeps policies from reading noise, and it
lets the exact solver ask any policy about one row per (score to beat, holders) instead of
one per combination of scores (``solver.scores``). At two players nothing is left out: the
one earlier score is the lowest.

``FIELDS`` is the single source for the layout; ``SLICES`` and ``OBS_SIZE`` derive from it,
and the env's docstring table is printed from it.

This module is the one codec of that vector. ``encode_batch(fields)`` writes rows from
:class:`ObsFields`, the observation's content as integers (the solvers, which hold states as
arrays); ``encode(game, seat)`` writes one observation of an ``engine.Game`` through it
(``fields_of``); ``decode(obs)`` reads those integers back from one observation or from rows
(the scripted players and the solvers' table policies). The batch engine and the envs write
the same rows with the compiled kernel (``vector.kernel.observe``, from ``ENCODE_TABLES``).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..core import fields as layout
from ..core.seats import CLOCKWISE
from .engine import Game, Phase
from .rules import (
    MAX_CARDS,
    MAX_PLAYERS,
    MAX_THROWS,
    NUM_STRENGTHS,
    STRENGTH_KIND,
    TOP,
    Kind,
    throws_allowed,
    turn_order,
)

_KINDS = len(Kind)

#: (name, length, meaning). Per-seat fields are in rotated slot order (slot 0 = me).
FIELDS: tuple[tuple[str, int, str], ...] = (
    ("cards", MAX_PLAYERS, "cards held / 10 (R1.1, R1.4)"),
    ("present", MAX_PLAYERS, "1 if the slot is a seat at this table (else padding)"),
    ("insteker", MAX_PLAYERS, "one-hot: who insteeks this round (R3.1)"),
    ("scores", MAX_PLAYERS, "score this round / 41 if it is the score to beat, else -1 (R3.5)"),
    ("lowest", MAX_PLAYERS, "1 if the seat holds the score to beat (R3.5)"),
    ("to_throw", MAX_PLAYERS, "1 if the seat still throws after me this round (R3.4)"),
    ("limit_set", 1, "1 once the insteker has fixed the throw limit (R3.2)"),
    ("throw_limit", 1, "throw limit / 3; 0 while unset"),
    ("throws_used", 1, "my throws so far this turn / 3"),
    ("throws_left", 1, "throws I may still use / 3 (R3.2, R3.4)"),
    ("my_strength", 1, "strength of my current throw / 41 (R2.3)"),
    ("my_kind", _KINDS, "one-hot kind of my current throw, Celebro … Picaro (R2.2)"),
    ("to_beat", 1, "score to beat (lowest final score so far) / 41; -1 if none"),
    ("versus", 1, "my throw against the score to beat: 1 above, 0 equal, -1 below or none"),
)


SLICES, OBS_SIZE = layout.field_slices(FIELDS)
_CARDS = [c / MAX_CARDS for c in range(MAX_CARDS + 1)]
_STRENGTH = [s / TOP for s in range(NUM_STRENGTHS)]

_NONE = NUM_STRENGTHS  # "no score" in array code: above every strength, never the lowest


def _lowest_score(scores: np.ndarray) -> np.ndarray:
    """The lowest final score over the last axis (R3.5), ``_NONE`` if nobody has one. Rows
    go column by column: numpy's reductions over a short last axis cost per row."""
    known = np.where(scores < 0, _NONE, scores)
    if known.ndim < 2:
        return known.min(axis=-1)
    low = known[:, 0].copy()
    for slot in range(1, known.shape[1]):
        np.minimum(low, known[:, slot], out=low)
    return low


class ObsFields(NamedTuple):
    """What an observation says, as integer arrays: ``decode`` reads them, ``encode_batch``
    writes them. Per-slot fields have a last axis of slots (slot 0 = the observer, then
    clockwise, R1.2); the others have none. ``decode`` gives the observations' leading shape
    (0-d for one observation) and ``MAX_PLAYERS`` slots; ``encode_batch`` takes rows (see
    there)."""

    players: np.ndarray  #: seats at the table (R1.1): slots ≥ players are padding
    cards: np.ndarray  #: per slot: cards held (R1.4); 0 for padding
    insteker: np.ndarray  #: slot of this round's insteker (R3.1), -1 once the game is over
    scores: np.ndarray  #: per slot: final score this round as a strength, -1 if none (R3.3);
    #: read from a vector, only the score to beat shows (see the module docstring)
    to_throw: np.ndarray  #: per slot: 1 if that seat still throws after me this round (R3.4)
    throw_limit: np.ndarray  #: the round's throw limit, 0 while not fixed yet (R3.2)
    throws_used: np.ndarray  #: my throws so far this turn (0 outside a round's turn)
    throws_left: np.ndarray  #: throws I may still use this turn (R3.2, R3.4)
    my_strength: np.ndarray  #: strength of my current throw, -1 if I hold none (R2.3)

    @property
    def to_beat(self) -> np.ndarray:
        """The score to beat: the lowest final score so far this round, -1 if none (R3.5)."""
        low = _lowest_score(np.asarray(self.scores))
        return np.where(low == _NONE, -1, low)

    @property
    def lowest(self) -> np.ndarray:
        """Per slot: 1 if that seat holds the score to beat (R3.5)."""
        scores = np.asarray(self.scores)  # -1 (no score) never equals the lowest score
        return (scores == _lowest_score(scores)[..., None]).astype(np.int64)


# encode_batch's lookup tables: float64 values rounded to float32.
#: The per-slot fields, first in FIELDS, MAX_PLAYERS values each.
_PER_SLOT = ("cards", "present", "insteker", "scores", "lowest", "to_throw")
_CARDS_F = np.array(_CARDS, dtype=np.float32)
_SCORES_F = np.array([*_STRENGTH, -1.0], dtype=np.float32)  # [-1]: no score
#: _SLOT_HOT[width][slot]: one-hot over ``width`` slots; [-1] (no slot) is all zeros.
_SLOT_HOT = {w: np.eye(w + 1, w, dtype=np.float32) for w in range(1, MAX_PLAYERS + 1)}
#: _TURN_ROWS[(limit * 4 + used) * 4 + left]: the fields limit_set … throws_left.
_TURN = slice(SLICES["limit_set"].start, SLICES["throws_left"].stop)
_TURN_ROWS = np.array([(limit > 0, limit / MAX_THROWS, used / MAX_THROWS, left / MAX_THROWS)
                       for limit, used, left in np.ndindex((MAX_THROWS + 1,) * 3)],
                      dtype=np.float32)
#: _THROW_ROWS[(my_strength + 1) * (_NONE + 1) + low]: the fields my_strength … versus, for
#: my throw (-1: none) against the lowest score ``low`` (``_NONE``: nobody has one).
_THROW = slice(SLICES["my_strength"].start, SLICES["versus"].stop)


def _throw_row(mine: int, low: int) -> tuple[float, ...]:
    kind = [0.0] * len(Kind)
    if mine >= 0:
        kind[STRENGTH_KIND[mine] - 1] = 1.0
    versus = -1.0 if mine < 0 or low == _NONE else float((mine > low) - (mine < low))
    return (_STRENGTH[mine] if mine >= 0 else 0.0, *kind,
            -1.0 if low == _NONE else _STRENGTH[low], versus)


_THROW_ROWS = np.array([_throw_row(mine, low) for mine in range(-1, NUM_STRENGTHS)
                        for low in range(_NONE + 1)], dtype=np.float32)


class EncodeTables(NamedTuple):
    """``encode_batch``'s lookup tables and where they go in the vector, for a compiled
    encoder that writes the same rows (the batch engine's kernel, ``vector.kernel.observe``).
    """

    #: starts of cards, present, insteker, scores, lowest, to_throw (per-slot fields), of
    #: limit_set … throws_left (``turn`` rows) and of my_strength … versus (``throw`` rows)
    starts: np.ndarray
    cards: np.ndarray  #: [cards] as a value
    scores: np.ndarray  #: [strength] as a value; [-1]: no score
    turn: np.ndarray  #: [(limit * 4 + used) * 4 + left]: limit_set … throws_left
    throw: np.ndarray  #: [(my strength + 1) * (NUM_STRENGTHS + 1) + lowest]: my_strength … versus


ENCODE_TABLES = EncodeTables(
    np.array([SLICES[name].start for name in _PER_SLOT] + [_TURN.start, _THROW.start]),
    _CARDS_F, _SCORES_F, _TURN_ROWS, _THROW_ROWS)


def encode_batch(fields: ObsFields) -> np.ndarray:
    """Observation rows ``(B, OBS_SIZE)`` float32 from ``fields``, each row equal, bit for bit,
    to what ``encode`` gives for the state it describes. Per-slot fields are ``(B, slots)``
    with ``players`` ≤ slots ≤ ``MAX_PLAYERS``; ``players`` may be one number (a 0-d array)
    for every row, ``to_throw`` one row of slots.

    Few numpy calls, and lookups rather than arithmetic: the batch engine asks for these
    rows at every step, often for a handful of games."""
    cards, scores, players = fields.cards, fields.scores, np.asarray(fields.players)
    rows, width = cards.shape
    padding = None
    if players.ndim or int(players) != width:
        padding = np.arange(width) >= players[..., None]
        scores = np.where(padding, -1, scores)  # padding holds no score
    low = _lowest_score(scores)
    obs = np.zeros((rows, OBS_SIZE), np.float32)
    per_slot = obs[:, :len(_PER_SLOT) * MAX_PLAYERS].reshape(rows, len(_PER_SLOT), MAX_PLAYERS)
    per_slot = per_slot[:, :, :width]  # (row, field, slot), fields in _PER_SLOT order
    per_slot[:, 0] = _CARDS_F.take(cards)
    per_slot[:, 1] = 1.0
    per_slot[:, 2] = _SLOT_HOT[width].take(fields.insteker, axis=0)
    lowest = scores == low[:, None]  # R3.5: -1 (no score) never equals it
    per_slot[:, 3] = _SCORES_F.take(np.where(lowest, scores, -1))  # only the lowest shows
    per_slot[:, 4] = lowest
    per_slot[:, 5] = fields.to_throw
    if padding is not None:
        np.copyto(per_slot, 0.0, where=padding[:, None, :])
    side = MAX_THROWS + 1
    obs[:, _TURN] = _TURN_ROWS.take((fields.throw_limit * side + fields.throws_used) * side
                                    + fields.throws_left, axis=0)
    obs[:, _THROW] = _THROW_ROWS.take((fields.my_strength + 1) * (_NONE + 1) + low, axis=0)
    return obs


def fields_of(game: Game, seat: int) -> ObsFields:
    """What ``seat`` sees of ``game`` (R7.1), as one row of :class:`ObsFields`: the seats in
    slot order, ``seat`` first, then clockwise (R1.2)."""
    slots = CLOCKWISE[game.num_players][seat]
    in_round = game.phase == Phase.ROUND  # kampen and game over have no turn
    after = game.order[game.pos + 1:] if in_round else []  # who still throws after me (R3.4)
    used = game.throws if in_round else 0
    return ObsFields(
        players=np.asarray(game.num_players),
        cards=np.array([[game.cards[s] for s in slots]]),
        insteker=np.array([-1 if game.insteker is None else slots.index(game.insteker)]),
        scores=np.array([[game.scores[s] for s in slots]]),
        to_throw=np.array([[int(s in after) for s in slots]]),
        throw_limit=np.array([game.throw_limit or 0]),
        throws_used=np.array([used]),
        throws_left=np.array([throws_allowed(game.throw_limit) - used if in_round else 0]),
        # the turn's latest throw, kept when a throw ends the game
        my_strength=np.array([-1 if game.current is None else game.current.strength]),
    )


def encode(game: Game, seat: int) -> np.ndarray:
    """The float32 observation of ``seat`` (normally the player to act): ``encode_batch`` of
    ``fields_of``. The envs' observations come from the compiled kernel instead
    (``vector.kernel.observe``), which the tests hold equal to this."""
    return encode_batch(fields_of(game, seat))[0]


def game_at(obs: np.ndarray, seat: int = 0) -> Game:
    """An engine game at the decision ``obs`` shows, its observer in ``seat`` (the observation
    does not say which seat, R1.2; it matters only at 4+ players, R6.2), for players that
    search ahead from an observation (``Game.at_decision``). The scores above the score to
    beat, which the observation leaves out, are set to the highest strength: nothing later
    depends on them (module docstring). ``encode(game_at(obs, seat), seat)`` is ``obs``;
    ``ValueError`` for an observation at no decision."""
    seen = decode(obs)
    n = int(seen.players)
    if not 0 <= seat < n:
        raise ValueError(f"seat must be 0–{n - 1} at a {n}-player table, got {seat}")
    if int(seen.my_strength) < 0 or int(seen.insteker) < 0:
        raise ValueError("this observation shows no decision (no throw in hand, or the game "
                         "is over)")
    slots = CLOCKWISE[n][seat]
    cards = [0] * n
    scores = [-1] * n
    for slot, s in enumerate(slots):
        cards[s] = int(seen.cards[slot])
        scores[s] = int(seen.scores[slot])
    insteker = slots[int(seen.insteker)]
    order = turn_order(cards, insteker)
    for s in order[:order.index(seat)] if seat in order else []:
        if scores[s] < 0:  # a seat before mine without a shown score holds a higher one
            scores[s] = TOP
    return Game.at_decision(cards, insteker, seat, scores, int(seen.throw_limit),
                            int(seen.throws_used), int(seen.my_strength))


#: What each value of the vector was divided by, so that one multiplication reads all back.
_SCALE = np.ones(OBS_SIZE, np.float32)
for _name, _scale in (("cards", MAX_CARDS), ("scores", TOP), ("throw_limit", MAX_THROWS),
                      ("throws_used", MAX_THROWS), ("throws_left", MAX_THROWS),
                      ("my_strength", TOP), ("to_beat", TOP)):
    _SCALE[SLICES[_name]] = _scale
_AT = {name: SLICES[name].start for name in SLICES}
_SLOT_ONES = np.ones(MAX_PLAYERS, np.int64)
_KIND_ONES = np.ones(len(Kind), np.int64)
_SLOT_NUMBER = np.arange(1, MAX_PLAYERS + 1)  # one-hot @ _SLOT_NUMBER - 1: slot, or -1


def decode(obs: np.ndarray) -> ObsFields:
    """The integers an observation says (see :class:`ObsFields`), from one observation
    ``(OBS_SIZE,)`` or from rows ``(..., OBS_SIZE)``. ``ValueError`` for another shape."""
    obs = layout.observation_rows(obs, OBS_SIZE, np.float32)
    # in float32, as the vector is: a value's rounding error times its scale stays far below
    # 1/2, and numpy rounds float32 much faster than float64
    values = obs * _SCALE
    np.rint(values, out=values)
    values = values.astype(np.int64)
    present = values[..., SLICES["present"]]
    scores = values[..., SLICES["scores"]]
    # sums over slots as products: numpy's reductions over a short last axis are slow
    return ObsFields(
        players=present @ _SLOT_ONES,
        cards=values[..., SLICES["cards"]],
        insteker=values[..., SLICES["insteker"]] @ _SLOT_NUMBER - 1,  # -1: none (over)
        scores=np.where((present == 1) & (scores >= 0), scores, -1),
        to_throw=values[..., SLICES["to_throw"]],
        throw_limit=values[..., _AT["throw_limit"]],
        throws_used=values[..., _AT["throws_used"]],
        throws_left=values[..., _AT["throws_left"]],
        # strength 0 (the Picaro) and no throw both read 0: the kind tells them apart
        my_strength=np.where(values[..., SLICES["my_kind"]] @ _KIND_ONES == 1,
                             values[..., _AT["my_strength"]], -1),
    )


def field_table() -> str:
    """The layout as a reStructuredText table, for docs (``pagadores_v1``'s page)."""
    return layout.field_table(FIELDS)

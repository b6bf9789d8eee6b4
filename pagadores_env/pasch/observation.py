"""The observation vector of one seat. Everything in Pasch is public except the dice to come
(X8.2), so every seat sees the same facts, from its own seat: seats are rotated so the
observer is slot 0 and the next seat clockwise slot 1 (X1.1); slots past the table's size are
padding (``present`` = 0), so one vector size serves 2–6 players and every hand.

A disc is written as its class (``rules``: 0 beside the board, then the 36 fields in the
order of X7.1) plus one, over 37, so 0 means "no disc"; ``disc_order`` says when it was
placed this round (a later disc on the same field lies on top and ranks higher, X6.4, X7.1).
``dice`` shows the five dice of the seat whose turn it is, by sorted position (X3.3): the
positions the dice actions name.

``FIELDS`` is the single source of the layout; ``SLICES`` and ``OBS_SIZE`` derive from it and
``pasch_v1``'s docstring prints it (``field_table``). ``Facts`` are the integers an
observation is written from, in seat order and with a leading axis of rows: ``facts(game)``
reads them from a game and ``write(facts, seat)`` writes rows of them, so the exact
yardstick, which writes many positions at once, writes them exactly as ``encode`` writes the
envs' one row a step (straight from the game, for speed; the tests hold the two equal).
``decode`` reads the integers back (``ObsFields``).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..core import fields as layout
from .engine import Game, Phase
from .rules import (
    CARD_VALUES,
    CLASSES,
    DICE,
    FACES,
    HANDS,
    MAX_BLOCKS,
    MAX_HAND,
    MAX_PLAYERS,
    MAX_THROWS,
    hand_indices,
    placement_classes,
)

CARDS = len(CARD_VALUES)  # 12 card values, -1 … 10
SCORE_SCALE = 100  # 10 rounds of at most 10 points (X1.3)
#: The phases a decision is taken in, in their one-hot order; any other phase writes zeros.
PHASES = (Phase.CARD, Phase.CHOOSE, Phase.BLOCKS)

#: (name, length, meaning). Per-seat fields are in rotated slot order (slot 0 = me).
FIELDS: tuple[tuple[str, int, str], ...] = (
    ("hands", MAX_PLAYERS * CARDS,
     "per slot, its cards of value -1, 0, 1 … 10 still in hand / 10 (X1.3, X8.2)"),
    ("present", MAX_PLAYERS, "1 if the slot is a seat at this table (else padding)"),
    ("starter", MAX_PLAYERS, "one-hot: who started this round (X2.1)"),
    ("turn", MAX_PLAYERS, "one-hot: whose turn it is (zeros once the game is over)"),
    ("round", 1, "rounds played before this one / 10 (X1.4)"),
    ("last_round", 1, "1 in the game's last round (X1.4)"),
    ("scores", MAX_PLAYERS, "points so far / 100 (X7.3)"),
    ("blocks", MAX_PLAYERS, "action blocks left / 10 (X1.3, X4.1)"),
    ("has_played", MAX_PLAYERS, "1 if the slot has played its card this round (X5.1)"),
    ("played", MAX_PLAYERS, "the card it played this round / 10 (X5.1)"),
    ("disc", MAX_PLAYERS, "its disc this round: (class + 1) / 37, 0 for none (X6, X7.1)"),
    ("disc_order", MAX_PLAYERS, "when it placed its disc: (1 + place in order) / 6 (X6.4)"),
    ("best_disc", 1, "the round's highest-ranked disc so far: (class + 1) / 37, 0 for none"),
    ("dice", DICE * FACES, "one-hot per sorted position 0 … 4: the face 1 … 6 it shows (X3.3)"),
    ("dice_disc", 1, "the dice's placement now (two pairs: the higher column), as disc"),
    ("throws", 1, "throws used this turn / 3 (X3.2)"),
    ("phase", len(PHASES), "one-hot: play a card, stop or throw again, spend a block or place"),
)

SLICES, OBS_SIZE = layout.field_slices(FIELDS)
_AT = {name: part.start for name, part in SLICES.items()}
#: The class + 1 of each sorted hand's (higher) placement, then 0 for no dice (index -1).
_DISC_OF_HAND = np.array([placement_classes(hand)[0] + 1 for hand in HANDS] + [0])
_DISC_OF_DICE = dict(zip(HANDS, _DISC_OF_HAND.tolist(), strict=False))  # ``encode``'s


#: Where ``write`` puts the per-seat fields (as value / scale), the scalars and the cards.
_PER_SLOT_AT = np.array([_AT[name] for name in ("scores", "blocks", "has_played", "played",
                                                "disc", "disc_order")])[:, None]
_PER_SLOT_SCALE = np.array([SCORE_SCALE, MAX_BLOCKS, 1, MAX_HAND, CLASSES, MAX_PLAYERS],
                           dtype=np.float64)[:, None]
_SCALAR_AT = np.array([_AT[name] for name in ("round", "last_round", "best_disc", "dice_disc",
                                              "throws")])
_CARD_CELLS, _DIE_CELLS = np.arange(CARDS), np.arange(DICE) * FACES


class Facts(NamedTuple):
    """The integers an observation is written from (module docstring), one row per leading
    index, seats in seat order (not rotated)."""

    num_players: int
    hands: np.ndarray  #: (R, n, 12) each seat's cards of each value -1 … 10
    starter: np.ndarray  #: (R,) the round's starter
    turn: np.ndarray  #: (R,) the seat whose turn it is, -1 once over
    round: np.ndarray  #: (R,) rounds played before this one
    last_round: np.ndarray  #: (R,) 1 in the last round
    scores: np.ndarray  #: (R, n)
    blocks: np.ndarray  #: (R, n)
    played: np.ndarray  #: (R, n) the card played this round; where not yet, anything
    has_played: np.ndarray  #: (R, n) 1 where played
    disc: np.ndarray  #: (R, n) the disc's class, -1 for none
    disc_order: np.ndarray  #: (R, n) its place in the round's order of discs, -1 for none
    dice: np.ndarray  #: (R, 5) the sorted dice of the seat whose turn it is, zeros for none
    throws: np.ndarray  #: (R,)
    phase: np.ndarray  #: (R,) index into ``PHASES``, -1 for any other phase


def facts(game: Game) -> Facts:
    """The facts of ``game`` as one row."""
    n = game.num_players
    hands = np.zeros((1, n, CARDS), dtype=np.int64)
    for seat, held in enumerate(game.hands):
        for card in held:
            hands[0, seat, card - CARD_VALUES[0]] += 1
    disc, order = np.full((1, n), -1), np.full((1, n), -1)
    for k, (seat, cls) in enumerate(game.discs):
        disc[0, seat], order[0, seat] = cls, k
    return Facts(
        num_players=n, hands=hands, starter=np.array([game.starter]),
        turn=np.array([game.turn]), round=np.array([game.round]),
        last_round=np.array([int(game.round == game.rounds - 1)]),
        scores=np.array([game.scores]), blocks=np.array([game.blocks]),
        played=np.array([[0 if c is None else c for c in game.played]]),
        has_played=np.array([[c is not None for c in game.played]], dtype=np.int64),
        disc=disc, disc_order=order,
        dice=np.array([game.dice or (0,) * DICE]), throws=np.array([game.throws]),
        phase=np.array([PHASES.index(game.phase) if game.phase in PHASES else -1]))


def write(f: Facts, seat: int) -> np.ndarray:
    """The float32 rows ``(R, OBS_SIZE)`` of the facts ``f`` seen from ``seat``. A handful of
    whole-row numpy operations, each over all the rows (the yardstick writes many at once)."""
    n, rows = f.num_players, len(f.turn)
    out = np.zeros((rows, OBS_SIZE + 1), dtype=np.float32)  # the last cell: "no one-hot"
    slot_of = (np.arange(n) - seat) % n  # seat -> slot

    out[:, _AT["hands"] + (slot_of[:, None] * CARDS + _CARD_CELLS).ravel()] = (
        f.hands.reshape(rows, -1) / MAX_HAND)
    out[:, _AT["present"]:_AT["present"] + n] = 1.0
    per_slot = np.stack([f.scores, f.blocks, f.has_played, f.played * f.has_played,
                         f.disc + 1, np.where(f.disc_order >= 0, f.disc_order + 1, 0)], axis=1)
    out[:, (_PER_SLOT_AT + slot_of).ravel()] = (per_slot / _PER_SLOT_SCALE).reshape(rows, -1)
    best = np.where(f.disc >= 0, f.disc * MAX_PLAYERS + f.disc_order, -1).max(axis=1)
    out[:, _SCALAR_AT] = np.stack([
        f.round / MAX_HAND, f.last_round, np.where(best >= 0, best // MAX_PLAYERS + 1, 0) / CLASSES,
        _DISC_OF_HAND[hand_indices(f.dice)] / CLASSES, f.throws / MAX_THROWS], axis=1)
    ones = np.concatenate([  # each row's one-hot cells; OBS_SIZE where a field says none
        np.where(f.starter >= 0, _AT["starter"] + slot_of[f.starter], OBS_SIZE)[:, None],
        np.where(f.turn >= 0, _AT["turn"] + slot_of[f.turn], OBS_SIZE)[:, None],
        np.where(f.dice[:, :1] > 0, _AT["dice"] + _DIE_CELLS + f.dice - 1, OBS_SIZE),
        np.where(f.phase >= 0, _AT["phase"] + f.phase, OBS_SIZE)[:, None]], axis=1)
    out[np.arange(rows)[:, None], ones] = 1.0
    return out[:, :OBS_SIZE].copy()


def encode(game: Game, seat: int) -> np.ndarray:
    """The float32 observation of ``seat`` (any seat, at any time): the row ``write`` writes
    of ``facts(game)``, value for value, built from the game in plain Python because the envs
    write one a step and numpy's overhead per call would be most of its cost (the tests hold
    the two to the same rows over random games)."""
    n = game.num_players
    slot = [(s - seat) % n for s in range(n)]
    held: dict[int, int] = {}
    for s, hand in enumerate(game.hands):
        for card in hand:
            at = _AT["hands"] + slot[s] * CARDS + card - CARD_VALUES[0]
            held[at] = held.get(at, 0) + 1
    cells = {at: count / MAX_HAND for at, count in held.items()}
    for s in range(n):
        cells[_AT["present"] + s] = 1.0
        played = game.played[s]
        cells[_AT["scores"] + slot[s]] = game.scores[s] / SCORE_SCALE
        cells[_AT["blocks"] + slot[s]] = game.blocks[s] / MAX_BLOCKS
        cells[_AT["has_played"] + slot[s]] = float(played is not None)
        cells[_AT["played"] + slot[s]] = (played or 0) / MAX_HAND
    for order, (s, cls) in enumerate(game.discs):
        cells[_AT["disc"] + slot[s]] = (cls + 1) / CLASSES
        cells[_AT["disc_order"] + slot[s]] = (order + 1) / MAX_PLAYERS
    if game.discs:  # the best disc's class (a later disc on the same field ranks higher)
        cells[_AT["best_disc"]] = (max(cls for _, cls in game.discs) + 1) / CLASSES
    cells[_AT["starter"] + slot[game.starter]] = 1.0
    if game.turn >= 0:
        cells[_AT["turn"] + slot[game.turn]] = 1.0
    cells[_AT["round"]] = game.round / MAX_HAND
    cells[_AT["last_round"]] = float(game.round == game.rounds - 1)
    if game.dice:
        for position, face in enumerate(game.dice):
            cells[_AT["dice"] + position * FACES + face - 1] = 1.0
        cells[_AT["dice_disc"]] = _DISC_OF_DICE[game.dice] / CLASSES
    cells[_AT["throws"]] = game.throws / MAX_THROWS
    if game.phase in PHASES:
        cells[_AT["phase"] + PHASES.index(game.phase)] = 1.0
    out = np.zeros(OBS_SIZE, dtype=np.float32)
    out[list(cells)] = list(cells.values())
    return out


class ObsFields(NamedTuple):
    """What an observation says, as integers (``decode``); one leading axis per row, none for
    one observation. Slots are rotated as in the vector: slot 0 is the observer; a slot's
    seat-relative fields are -1 where they say nothing."""

    hands: np.ndarray  #: (..., 6, 12) per slot, its cards of value -1 … 10
    players: np.ndarray  #: (...) seats at the table
    starter: np.ndarray  #: (...) the slot that started the round
    turn: np.ndarray  #: (...) the slot whose turn it is, -1 once over
    round: np.ndarray  #: (...) rounds played before this one
    last_round: np.ndarray  #: (...) bool
    scores: np.ndarray  #: (..., 6)
    blocks: np.ndarray  #: (..., 6)
    played: np.ndarray  #: (..., 6) the card played this round, -2 for none yet
    disc: np.ndarray  #: (..., 6) the disc's class, -1 for none
    disc_order: np.ndarray  #: (..., 6) its place in the round's order of discs, -1 for none
    best_disc: np.ndarray  #: (...) the class of the round's best disc so far, -1 for none
    dice: np.ndarray  #: (..., 5) the sorted dice, zeros for none
    dice_disc: np.ndarray  #: (...) the class the dice would be placed at, -1 with no dice
    throws: np.ndarray  #: (...)
    phase: np.ndarray  #: (...) index into ``PHASES``, -1 for none


def decode(obs: np.ndarray) -> ObsFields:
    """The integers an observation says (``ObsFields``), from one observation
    ``(OBS_SIZE,)`` or rows ``(..., OBS_SIZE)``; ``ValueError`` for another shape."""
    obs = layout.observation_rows(obs, OBS_SIZE, np.float32)  # every value is k / scale

    def field(name: str, scale: float = 1) -> np.ndarray:
        return np.rint(obs[..., SLICES[name]] * np.float32(scale)).astype(np.int64)

    def slot(values: np.ndarray) -> np.ndarray:
        return np.where(values.max(axis=-1) > 0, values.argmax(axis=-1), -1)

    dice = field("dice").reshape(*obs.shape[:-1], DICE, FACES)
    has_played = field("has_played") > 0
    return ObsFields(
        hands=field("hands", MAX_HAND).reshape(*obs.shape[:-1], MAX_PLAYERS, CARDS),
        players=field("present").sum(axis=-1),
        starter=slot(field("starter")),
        turn=slot(field("turn")),
        round=field("round", MAX_HAND)[..., 0],
        last_round=field("last_round")[..., 0] > 0,
        scores=field("scores", SCORE_SCALE),
        blocks=field("blocks", MAX_BLOCKS),
        played=np.where(has_played, field("played", MAX_HAND), -2),
        disc=field("disc", CLASSES) - 1,
        disc_order=field("disc_order", MAX_PLAYERS) - 1,
        best_disc=field("best_disc", CLASSES)[..., 0] - 1,
        dice=np.where(dice.max(axis=-1) > 0, dice.argmax(axis=-1) + 1, 0),
        dice_disc=field("dice_disc", CLASSES)[..., 0] - 1,
        throws=field("throws", MAX_THROWS)[..., 0],
        phase=slot(field("phase")),
    )


def field_table() -> str:
    """The layout as a reStructuredText table, for docs (``core.fields.field_table``)."""
    return layout.field_table(FIELDS)


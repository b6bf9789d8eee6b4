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
yardstick, which writes many positions at once, writes them exactly as ``encode`` does.
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
    """The float32 rows ``(R, OBS_SIZE)`` of the facts ``f`` seen from ``seat``."""
    n, rows = f.num_players, len(f.turn)
    out = np.zeros((rows, OBS_SIZE), dtype=np.float32)
    slot_of = (np.arange(n) - seat) % n  # seat -> slot
    at = np.arange(rows)

    def per_slot(name: str, values: np.ndarray, scale: float) -> None:
        out[:, _AT[name] + slot_of] = values / scale

    def one_hot(name: str, seats: np.ndarray) -> None:
        live = seats >= 0
        out[at[live], _AT[name] + slot_of[seats[live]]] = 1.0

    hands = np.zeros((rows, MAX_PLAYERS, CARDS))
    hands[:, slot_of] = f.hands / MAX_HAND
    out[:, SLICES["hands"]] = hands.reshape(rows, -1)
    out[:, _AT["present"]:_AT["present"] + n] = 1.0
    one_hot("starter", f.starter)
    one_hot("turn", f.turn)
    out[:, _AT["round"]] = f.round / MAX_HAND
    out[:, _AT["last_round"]] = f.last_round
    per_slot("scores", f.scores, SCORE_SCALE)
    per_slot("blocks", f.blocks, MAX_BLOCKS)
    per_slot("has_played", f.has_played, 1)
    per_slot("played", f.played * f.has_played, MAX_HAND)
    per_slot("disc", f.disc + 1, CLASSES)
    per_slot("disc_order", np.where(f.disc_order >= 0, f.disc_order + 1, 0), MAX_PLAYERS)
    best = np.where(f.disc >= 0, f.disc * MAX_PLAYERS + f.disc_order, -1).max(axis=1)
    out[:, _AT["best_disc"]] = np.where(best >= 0, best // MAX_PLAYERS + 1, 0) / CLASSES
    thrown = f.dice[:, 0] > 0
    cells = _AT["dice"] + np.arange(DICE) * FACES + f.dice - 1
    out[at[thrown, None], cells[thrown]] = 1.0
    out[:, _AT["dice_disc"]] = _DISC_OF_HAND[hand_indices(f.dice)] / CLASSES
    out[:, _AT["throws"]] = f.throws / MAX_THROWS
    live = f.phase >= 0
    out[at[live], _AT["phase"] + f.phase[live]] = 1.0
    return out


def encode(game: Game, seat: int) -> np.ndarray:
    """The float32 observation of ``seat`` (any seat, at any time)."""
    return write(facts(game), seat)[0]


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


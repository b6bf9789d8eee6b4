"""The observation vector of one seat. Everything in Paye is public (Y5.1), so every seat sees
the same facts, from its own seat: seats are rotated so the observer is slot 0 and the next
seat clockwise slot 1 (Y1.1); slots past the table's size are padding (``present`` = 0), so
one vector size serves 2–6 players and both variants.

The vector is sufficient for optimal play (Y8.1): a position is the scores, the round and the
turn within the round (the slots of the round's first player and of the player to move give
it), and in the expansion the dice set aside this round, whether the player to move throws a
blue die too and, at the blue choice, the red die chosen. The faces of the special dice are
part of it, so one policy can play any ``dice``. Scores are divided by the target (50, or 100
in the expansion). A face may exceed the target, so a face ``f`` shows as ``f / (f + target)``:
0 for 0, ½ for the target, below 1 for any face, read back exactly for faces below 10,000
(float32), so every entry lies in [0, 1].

``FIELDS`` is the single source of the layout; ``SLICES`` and ``OBS_SIZE`` derive from it,
and ``paye_v1``'s docstring table is printed from it (``field_table``). ``encode(game,
seat)`` writes a seat's observation, ``decision_rows`` the rows of many positions at once
(the exact yardstick asks policies about them), ``decode(obs)`` reads the integers back
(:class:`ObsFields`) from one observation or from rows, for the players.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..core import fields as layout
from ..core.seats import CLOCKWISE
from .engine import BLUE_CHOICE, OVER, Game
from .rules import FACES, MAX_PLAYERS, NUM_ACTIONS, SPECIAL_DICE, TARGETS, TRADITIONAL_RED

#: (name, length, meaning). Per-seat fields are in rotated slot order (slot 0 = me).
FIELDS: tuple[tuple[str, int, str], ...] = (
    ("scores", MAX_PLAYERS, "score / target (Y3.3)"),
    ("present", MAX_PLAYERS, "1 if the slot is a seat at this table (else padding)"),
    ("first", MAX_PLAYERS, "one-hot: the round's first player (Y2.1); 0s before it is known"),
    ("mover", MAX_PLAYERS, "one-hot: whose turn it is (Y2.2); 0s before play and at the end"),
    ("round", 1, "round / rounds (Y2.2)"),
    ("rounds", 1, "1 / rounds: the game's length in rounds (Y2.2)"),
    ("expansion", 1, "1 in the expansion (Y6, target 100), 0 in the base game (target 50)"),
    ("blue_due", 1, "1 if the player to move throws a blue die too this turn (Y6.3)"),
    ("blue_choice", 1, "1 at the blue choice (Y6.6)"),
    ("chosen", TRADITIONAL_RED + 1, "one-hot: the (red) die chosen this turn, action 0–6"),
    ("aside", NUM_ACTIONS, "1 for each die set aside this round, by action id (Y6.4)"),
    ("faces", SPECIAL_DICE * FACES,
     "the faces f of S0 … S5 as f / (f + target), each die's ascending (Y1.2)"),
)

SLICES, OBS_SIZE = layout.field_slices(FIELDS)
#: Faces read back exactly (``decode``) below this: ``f / (f + target)`` in float32.
EXACT_FACES = 10_000

_AT = {name: part.start for name, part in SLICES.items()}
#: _SLOT[n][seat][other]: the slot where ``seat`` sees ``other`` (Y1.1).
_SLOT = {n: tuple(tuple(rotation.index(other) for other in range(n)) for rotation in rotations)
         for n, rotations in CLOCKWISE.items()}


def _faces(dice: tuple[tuple[int, ...], ...], target: int) -> np.ndarray:
    faces = np.array([sorted(die) for die in dice], dtype=np.float64).ravel()
    return faces / (faces + target)


def encode(game: Game, seat: int) -> np.ndarray:
    """The float32 observation of ``seat`` (any seat, at any time)."""
    n, target = game.num_players, game.target
    slot = _SLOT[n][seat]
    obs = np.zeros(OBS_SIZE, dtype=np.float32)
    for other, score in enumerate(game.scores):
        obs[_AT["scores"] + slot[other]] = score / target
    obs[_AT["present"]:_AT["present"] + n] = 1.0
    if game.first is not None:
        obs[_AT["first"] + slot[game.first]] = 1.0
        if game.phase != OVER:
            obs[_AT["mover"] + slot[game.mover]] = 1.0
    obs[_AT["round"]] = game.round / game.rounds
    obs[_AT["rounds"]] = 1.0 / game.rounds
    obs[_AT["expansion"]] = float(game.variant == "expansion")
    obs[_AT["blue_due"]] = float(game.blue_due and game.phase != OVER)
    obs[_AT["blue_choice"]] = float(game.phase == BLUE_CHOICE)
    if game.red is not None:
        obs[_AT["chosen"] + game.red] = 1.0
    for action in game.aside:
        obs[_AT["aside"] + action] = 1.0
    obs[SLICES["faces"]] = _faces(game.dice, target)
    return obs


def decision_rows(template: np.ndarray, scores: np.ndarray, target: int) -> np.ndarray:
    """Observation rows of the player to move at many positions that differ only in the
    scores: ``template`` is that player's observation at one of them (``encode``), and
    ``scores`` holds one row of scores per position in slot order (slot 0 = the player to
    move, as ``encode`` rotates them)."""
    rows = np.repeat(template[None, :], len(scores), axis=0)
    n = scores.shape[1]
    rows[:, _AT["scores"]:_AT["scores"] + n] = scores / np.float32(target)
    return rows


class ObsFields(NamedTuple):
    """What an observation says, as integers (``decode``); one leading axis per row, none for
    one observation. Slots are rotated as in the vector: slot 0 is the observer."""

    scores: np.ndarray  #: (..., 6) score per slot (Y3.3)
    players: np.ndarray  #: (...) seats at the table (Y1.1)
    first: np.ndarray  #: (...) the slot of the round's first player; -1 before it is known
    mover: np.ndarray  #: (...) the slot whose turn it is; -1 before play and at the end
    turn: np.ndarray  #: (...) the turn within the round (Y2.2); -1 where ``mover`` is
    round: np.ndarray  #: (...) the round, 1 … rounds (Y2.2)
    rounds: np.ndarray  #: (...) the game's rounds
    expansion: np.ndarray  #: (...) bool: the expansion (Y6)
    target: np.ndarray  #: (...) 50 or 100 (Y3.3, Y6.1)
    blue_due: np.ndarray  #: (...) bool: the player to move throws a blue die too (Y6.3)
    blue_choice: np.ndarray  #: (...) bool: at the blue choice (Y6.6)
    chosen: np.ndarray  #: (...) the (red) die chosen this turn, action 0–6; -1 none yet
    aside: np.ndarray  #: (..., 13) bool: die ``a`` is set aside this round (Y6.4)
    dice: np.ndarray  #: (..., 6, 6) the faces of S0 … S5, each die's ascending


def _one_hot(values: np.ndarray) -> np.ndarray:
    """The index of the 1 of each row's one-hot, -1 where the row is all 0."""
    return np.where(values.max(axis=-1) > 0.5, values.argmax(axis=-1), -1)


def _read_faces(shown: np.ndarray, target: np.ndarray) -> np.ndarray:
    """Faces back from ``f / (f + target)`` (``encode``); exact below ``EXACT_FACES``."""
    shown = np.minimum(shown, 1.0 - 2.0 ** -24)  # float32's largest value below 1
    return np.rint(target * shown / (1.0 - shown)).astype(np.int64)


def decode(obs: np.ndarray) -> ObsFields:
    """The integers an observation says (:class:`ObsFields`), from one observation
    ``(OBS_SIZE,)`` or from rows ``(..., OBS_SIZE)``. ``ValueError`` for another shape."""
    obs = layout.observation_rows(obs, OBS_SIZE, np.float64)

    def field(name: str) -> np.ndarray:
        return obs[..., SLICES[name]]

    expansion = field("expansion")[..., 0] > 0.5
    target = np.where(expansion, TARGETS["expansion"], TARGETS["base"])
    players = np.rint(field("present").sum(axis=-1)).astype(np.int64)
    first, mover = _one_hot(field("first")), _one_hot(field("mover"))
    rounds = np.rint(1.0 / np.maximum(field("rounds")[..., 0], 1e-12)).astype(np.int64)
    return ObsFields(
        scores=np.rint(field("scores") * target[..., None]).astype(np.int64),
        players=players,
        first=first,
        mover=mover,
        turn=np.where((first >= 0) & (mover >= 0), (mover - first) % np.maximum(players, 1),
                      -1),
        round=np.rint(field("round")[..., 0] * rounds).astype(np.int64),
        rounds=rounds,
        expansion=expansion,
        target=target,
        blue_due=field("blue_due")[..., 0] > 0.5,
        blue_choice=field("blue_choice")[..., 0] > 0.5,
        chosen=_one_hot(field("chosen")),
        aside=field("aside") > 0.5,
        dice=_read_faces(field("faces"), target[..., None]).reshape(
            *obs.shape[:-1], SPECIAL_DICE, FACES),
    )


def field_table() -> str:
    """The layout as a reStructuredText table, for docs (``core.fields.field_table``)."""
    return layout.field_table(FIELDS)

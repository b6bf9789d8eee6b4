"""The observation vector of one seat: what that player knows (P7.2), nothing more.

Seats are rotated so the observer is slot 0 and the next seat clockwise slot 1 (P1.1);
slots past the table's size are padding (``present`` = 0), so one vector size serves 2–6
players. The player's own dice show; everyone else's show only once revealed by a dudo.

``bids`` is the round's public bid history in OpenSpiel's information-state form: one bit
per bid action made this round. Every legal raise names a bid later in one fixed order
(``bid_order``: face 2–6 bids by quantity then face, a joker bid of q between 2q of a face
and 2q + 1, P3.3–P3.5; one face by quantity in a palifico round, P6.4), so the set of bids
gives their sequence, and the turn order from the starter (P1.1) gives who made each. With
the rest of the vector it is therefore a perfect-recall view of the round for algorithms
that need one.

``FIELDS`` is the single source of the layout; ``SLICES`` and ``OBS_SIZE`` derive from it,
and ``perudo_v1``'s docstring table is printed from it (``field_table``).

This module is the one codec of that vector: ``encode(game, seat)`` writes a seat's
observation; ``decode(obs)`` reads the integers back (:class:`ObsFields`) from one observation
or from rows, for the scripted players (``pagadores_agents.perudo``) and the exact yardstick.
"""

from __future__ import annotations

import functools
from typing import NamedTuple, cast

import numpy as np

from ..core import fields as layout
from ..core.seats import CLOCKWISE
from .engine import Game
from .rules import BIDS, DUDO, FACES, MAX_DICE, MAX_PLAYERS, MAX_QUANTITY, NUM_ACTIONS

#: (name, length, meaning). Per-seat fields are in rotated slot order (slot 0 = me). The
#: fields fixed through a round come first, up to ``revealed``; the bid fields follow.
FIELDS: tuple[tuple[str, int, str], ...] = (
    ("my_dice", FACES, "my dice showing face 1 … 6 / 5 (P2.1)"),
    ("dice", MAX_PLAYERS, "dice held / 5 (P1.2, P1.3)"),
    ("present", MAX_PLAYERS, "1 if the slot is a seat at this table (else padding)"),
    ("starter", MAX_PLAYERS, "one-hot: who started this round (P2.2)"),
    ("palifico", 1, "1 in a palifico round (P6)"),
    ("total", 1, "dice on the table / 30: the largest quantity (P3.1)"),
    ("revealed", MAX_PLAYERS * FACES,
     "dice shown at the last dudo: per slot, faces 1 … 6 / 5 (P4.1, P7.2)"),
    ("bid_quantity", 1, "quantity of the bid to beat / 30; 0 before the opening bid"),
    ("bid_face", FACES, "one-hot: face 1 … 6 of the bid to beat (P3)"),
    ("bidder", MAX_PLAYERS, "one-hot: who made the bid to beat"),
    ("last_quantity", MAX_PLAYERS, "quantity of the seat's latest bid this round / 30"),
    ("last_face", MAX_PLAYERS, "face of the seat's latest bid this round / 6; 0 for none"),
    ("bids", NUM_ACTIONS - 1, "1 for each bid made this round, at its action id - 1 (P7.2)"),
)

SLICES, OBS_SIZE = layout.field_slices(FIELDS)

_AT = {name: part.start for name, part in SLICES.items()}
_MY_DICE, _DICE, _PRESENT, _STARTER, _PALIFICO, _TOTAL, _REVEALED, _BID_Q, _BID_F, _BIDDER, \
    _LAST_Q, _LAST_F, _BIDS = (_AT[name] for name, _, _ in FIELDS)
#: Where bid action a's bit sits.
_BID_BIT = [_BIDS - 1 + a for a in range(NUM_ACTIONS)]
_DIE = 1.0 / MAX_DICE
_QUANTITY = [q / MAX_QUANTITY for q in range(MAX_QUANTITY + 1)]
#: _SLOT[n][seat][other]: the slot where ``seat`` sees ``other`` (P1.1).
_SLOT = {n: tuple(tuple(rotation.index(other) for other in range(n)) for rotation in rotations)
         for n, rotations in CLOCKWISE.items()}
#: Rounds whose fixed fields are cached (``_round_part``), about 1 kB each.
ROUND_CACHE = 1 << 12


def bid_order(action: int, palifico: bool) -> float:
    """A key that every legal raise increases (see the module docstring): sorting a round's
    bids by it gives the order they were made in."""
    q, f = cast("tuple[int, int]", BIDS[action])  # a bid, never dudo
    if palifico:
        return q
    return 2 * q + 0.7 if f == 1 else q + f / 10


@functools.lru_cache(maxsize=ROUND_CACHE)
def _round_part(n: int, seat: int, hand: tuple[int, ...], counts: tuple[int, ...],
                starter: int, palifico: bool,
                revealed: tuple[tuple[int, ...], ...] | None) -> np.ndarray:
    """The fields that stay fixed through a round (all but the bids), read-only: built
    once per seat and round, then copied at every step. Written into a list first: numpy
    item assignment costs several times more per value."""
    rotation = CLOCKWISE[n][seat]
    head = [0.0] * _BID_Q
    for face in hand:
        head[_MY_DICE + face - 1] += _DIE
    for slot, other in enumerate(rotation):
        head[_DICE + slot] = counts[other] * _DIE
        head[_PRESENT + slot] = 1.0
        if revealed is not None:
            base = _REVEALED + slot * FACES - 1
            for face in revealed[other]:
                head[base + face] += _DIE
    head[_STARTER + rotation.index(starter)] = 1.0
    head[_PALIFICO] = float(palifico)
    head[_TOTAL] = _QUANTITY[sum(counts)]
    obs = np.zeros(OBS_SIZE, dtype=np.float32)
    obs[:_BID_Q] = head  # the fixed fields come first (FIELDS)
    obs.flags.writeable = False
    return obs


def encode(game: Game, seat: int) -> np.ndarray:
    """The float32 observation of ``seat`` (any seat, at any time)."""
    n = game.num_players
    obs = _round_part(n, seat, game.hands[seat] if game.hands else (),
                      tuple(game.dice_counts), game.starter, game.palifico,
                      game.revealed).copy()
    bid = BIDS[game.bid_action]
    if bid is not None:  # the bid fields, changing at every step
        slot_of = _SLOT[n][seat]
        obs[_BID_Q] = _QUANTITY[bid[0]]
        obs[_BID_F + bid[1] - 1] = 1.0
        obs[_BIDDER + slot_of[game.bidder]] = 1.0
        for action in game.bids:
            obs[_BID_BIT[action]] = 1.0
        for other, action in enumerate(game.last_bids):
            if action:
                q, f = BIDS[action]  # type: ignore[misc]  # a bid, never dudo
                obs[_LAST_Q + slot_of[other]] = _QUANTITY[q]
                obs[_LAST_F + slot_of[other]] = f / FACES
    return obs


class ObsFields(NamedTuple):
    """What an observation says, as integers (``decode``); one leading axis per row, none for
    one observation. Slots are rotated as in the vector: slot 0 is the observer."""

    my_dice: np.ndarray  #: (..., 6) my dice showing face 1 … 6 (P2.1)
    dice: np.ndarray  #: (..., 6) dice held per slot (P1.2, P1.3)
    players: np.ndarray  #: (...) seats at the table (P1.1)
    starter: np.ndarray  #: (...) the slot that started the round (P2.2)
    palifico: np.ndarray  #: (...) bool: a palifico round (P6)
    total: np.ndarray  #: (...) dice on the table (P3.1)
    revealed: np.ndarray  #: (..., 6, 6) per slot, its dice showing face 1 … 6 at the last dudo
    bid: np.ndarray  #: (...) the bid to beat as an action id; ``DUDO`` (0) before the opening
    bidder: np.ndarray  #: (...) the slot that made the bid to beat; -1 before the opening
    last_bids: np.ndarray  #: (..., 6) per slot, its latest bid this round as an action id, 0 none
    bids: np.ndarray  #: (..., 180) bool: bid action ``a`` was made this round, at ``a - 1``


def _counts(values: np.ndarray, scale: int) -> np.ndarray:
    """Values written as ``count / scale`` back as integer counts."""
    return np.rint(values * scale).astype(np.int64)


def _bid_actions(quantity: np.ndarray, face: np.ndarray) -> np.ndarray:
    """Bid actions of ``(quantity, face)`` pairs (``rules.bid_action``); ``DUDO`` where the
    quantity is 0 (no bid)."""
    return np.where(quantity > 0, 1 + (quantity - 1) * FACES + face - 1, DUDO)


def decode(obs: np.ndarray) -> ObsFields:
    """The integers an observation says (:class:`ObsFields`), from one observation
    ``(OBS_SIZE,)`` or from rows ``(..., OBS_SIZE)``. ``ValueError`` for another shape."""
    obs = layout.observation_rows(obs, OBS_SIZE, np.float64)

    def field(name: str) -> np.ndarray:
        return obs[..., SLICES[name]]

    bidder = field("bidder")
    return ObsFields(
        my_dice=_counts(field("my_dice"), MAX_DICE),
        dice=_counts(field("dice"), MAX_DICE),
        players=_counts(field("present"), 1).sum(axis=-1),
        starter=field("starter").argmax(axis=-1),
        palifico=field("palifico")[..., 0] > 0.5,
        total=_counts(field("total")[..., 0], MAX_QUANTITY),
        revealed=_counts(field("revealed"), MAX_DICE).reshape(
            *obs.shape[:-1], MAX_PLAYERS, FACES),
        bid=_bid_actions(_counts(field("bid_quantity")[..., 0], MAX_QUANTITY),
                         field("bid_face").argmax(axis=-1) + 1),
        bidder=np.where(bidder.max(axis=-1) > 0.5, bidder.argmax(axis=-1), -1),
        last_bids=_bid_actions(_counts(field("last_quantity"), MAX_QUANTITY),
                               _counts(field("last_face"), FACES)),
        bids=field("bids") > 0.5,
    )


def field_table() -> str:
    """The layout as a reStructuredText table, for docs (``core.fields.field_table``)."""
    return layout.field_table(FIELDS)

"""Every Perudo rule fact and pure rule helper, in one place (rule ids P1–P7 of the Perudo
rules contract): the engine, the observation and the environments import them from here.

- Table sizes and dice counts (P1.1, P1.2); faces and the joker face (P5.1).
- The action encoding (binding for the environments): ``0`` = dudo, ``1 + (q - 1) * 6 +
  (f - 1)`` = bid (q, f) for q = 1 … ``MAX_QUANTITY``, f = 1 … 6, so ``NUM_ACTIONS`` = 181.
- Which bids are legal (P3, P6.3, P6.4), as sorted action ids and as cached masks, and the
  one-line reason a bid is not.
- Checking a roll (P2.1, P7.1) and counting the dice at a dudo (P4.1, P5.1, P6.3).

Seats and turn order are the shared circle of ``core.seats`` (P1.1, P2.2):
``next_with_cards`` takes any count per seat, here dice.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..core import checks

MIN_PLAYERS, MAX_PLAYERS = 2, 6  # P1.1
MAX_DICE = 5  # P1.2: the official start; 1–5 for experiments
FACES = 6  # P1.2
JOKER = 1  # P5.1: the face that is wild in a normal round
DUDO = 0
#: P3.1 with the largest table: the most dice there can ever be in play.
MAX_QUANTITY = MAX_PLAYERS * MAX_DICE
NUM_ACTIONS = 1 + MAX_QUANTITY * FACES
#: BIDS[action] = (quantity, face) of a bid action; BIDS[DUDO] is None.
BIDS: tuple[tuple[int, int] | None, ...] = (None, *(
    (q, f) for q in range(1, MAX_QUANTITY + 1) for f in range(1, FACES + 1)))


def check_table(num_players: Any, dice: Any) -> tuple[int, tuple[int, ...]]:
    """A table's size and start dice per seat (``core.checks.check_table``): ``num_players``
    2–6 (P1.1) and ``dice`` either one count 1–5 for everyone (P1.2) or one count 0–5 per
    seat with at least two seats holding dice (a chosen position)."""
    return checks.check_table(num_players, dice, "dice", MAX_DICE, (MIN_PLAYERS, MAX_PLAYERS))


def bid_action(quantity: int, face: int) -> int:
    """The action id of bid (quantity, face)."""
    if not (1 <= quantity <= MAX_QUANTITY and 1 <= face <= FACES):
        raise ValueError(f"a bid is a quantity 1–{MAX_QUANTITY} and a face 1–{FACES}, "
                         f"got ({quantity}, {face})")
    return 1 + (quantity - 1) * FACES + (face - 1)


def describe_action(action: int) -> str:
    """``"dudo"`` or ``"bid (q, f)"``, for messages."""
    bid = BIDS[action]
    return "dudo" if bid is None else f"bid {bid}"


def as_action(action: Any) -> int:
    """The one rule for what counts as a Perudo action, used by ``Game`` and both
    environments: an integer 0 … 180 — a Python int, a numpy integer or a 0-d integer array
    (what a policy's ``predict`` returns; ``core.checks.check_action``). Booleans and floats
    are refused even when whole, so a wrong dtype in a driver shows up at once. Raises
    ``ValueError`` in one line."""
    return checks.check_action(action, NUM_ACTIONS, "0 = dudo, 1 + (q-1)*6 + (f-1) = bid (q, f)")


def raises(bid: tuple[int, int] | None, new: tuple[int, int], palifico: bool) -> bool:
    """Whether bid ``new`` may follow ``bid`` (``None``: ``new`` opens the round), leaving the
    quantity cap (P3.1) to the caller."""
    q2, f2 = new
    if bid is None:
        return palifico or f2 != JOKER  # P3.2; P6.3: a palifico round opens on any face
    q, f = bid
    if palifico:
        return f2 == f and q2 > q  # P6.4
    if f != JOKER:
        if f2 == JOKER:
            return q2 >= -(-q // 2)  # P3.4: at least half, rounded up
        return q2 > q or (q2 == q and f2 > f)  # P3.3
    if f2 == JOKER:
        return q2 > q  # P3.5: more jokers
    return q2 >= 2 * q + 1  # P3.5: back to a face 2–6


@functools.cache  # at most 181 bids x 31 totals x 2: every key recurs
def legal_actions(bid: int, total: int, palifico: bool) -> tuple[int, ...]:
    """The sorted legal actions after the bid action ``bid`` (``DUDO`` for none yet) with
    ``total`` dice on the table: dudo on any bid (P4.1, not at the opening, P2.3), and every
    bid that raises it (``raises``) with a quantity up to ``total`` (P3.1)."""
    current = BIDS[bid]
    bids = tuple(a for a in range(1, 1 + total * FACES)
                 if raises(current, BIDS[a], palifico))  # type: ignore[arg-type]
    return bids if current is None else (DUDO, *bids)


@functools.cache
def legal_mask(bid: int, total: int, palifico: bool) -> np.ndarray:
    """``legal_actions`` as a read-only int8 mask of ``NUM_ACTIONS`` entries."""
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    mask[list(legal_actions(bid, total, palifico))] = 1
    mask.flags.writeable = False
    return mask


def allowed_bids(bid: int, total: int, palifico: bool) -> str:
    """What may follow the bid action ``bid`` (``DUDO``: none yet), in words with rule ids:
    the second half of an illegal-bid message."""
    cap = f"quantities 1–{total}, the dice on the table (P3.1)"
    current = BIDS[bid]
    if current is None:
        if palifico:
            return f"open on any face 1–6 (palifico round, P6.3), {cap}"
        return f"open on a face 2–6 (no joker opening, P3.2), {cap}"
    q, f = current
    if palifico:
        return f"dudo (P4.1), or more than {q} of face {f} (palifico round, P6.4), {cap}"
    if f == JOKER:
        return (f"dudo (P4.1), more than {q} jokers, or at least {2 * q + 1} of a face 2–6 "
                f"(P3.5), {cap}")
    return (f"dudo (P4.1), more than {q} of a face 2–6, {q} of a face above {f} (P3.3), or "
            f"at least {-(-q // 2)} jokers (P3.4), {cap}")


def check_roll(dice: Any, counts: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    """``dice`` as one tuple of faces per seat if it fits ``counts`` (P2.1: every seat rolls
    exactly its dice, a seat that is out rolls none; faces 1–6, P7.1). Raises ``ValueError``
    in one line naming what is wrong."""
    n = len(counts)
    if isinstance(dice, str | bytes) or not isinstance(dice, Sequence | np.ndarray) \
            or len(dice) != n:
        raise ValueError(f"a roll must be {n} sequences of faces, one per seat, got {dice!r}")
    hands = []
    for seat, (hand, count) in enumerate(zip(dice, counts, strict=True)):
        if (hand.__class__ is tuple and len(hand) == count
                and all(face.__class__ is int and 0 < face <= FACES for face in hand)):
            hands.append(hand)  # the common case (the environments' dice), checked quickly
            continue
        if isinstance(hand, str | bytes) or not isinstance(hand, Sequence | np.ndarray) \
                or len(hand) != count:
            raise ValueError(f"seat {seat} must roll exactly {count} dice (the dice it has), "
                             f"got {hand!r}")
        faces = []
        for face in hand:
            if isinstance(face, bool | np.bool_) or not isinstance(face, int | np.integer) \
                    or not 1 <= face <= FACES:
                raise ValueError(f"faces must be integers 1–{FACES}, got {face!r} for seat "
                                 f"{seat}")
            faces.append(int(face))
        hands.append(tuple(faces))
    return tuple(hands)


def counts_for(die: int, face: int, palifico: bool) -> bool:
    """Whether a die showing ``die`` counts for a bid on ``face`` (P4.1): that face, or a
    joker in a normal round (P5.1) unless the bid is on jokers; in a palifico round the face
    only (P6.3)."""
    return die == face or (die == JOKER and not palifico and face != JOKER)


def count_matches(hands: Sequence[Sequence[int]], face: int, palifico: bool) -> int:
    """The dice on the table that count for a bid on ``face`` (P4.1, ``counts_for``)."""
    return sum(counts_for(d, face, palifico) for hand in hands for d in hand)

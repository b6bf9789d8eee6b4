"""Seat arithmetic both games share: seats sit in a circle and play passes clockwise, seat
``s`` to seat ``s + 1`` (Pagadores R1.2, Perudo P1.1); players knocked out later place higher
(R1.4, R1.5; P1.3); agents are named by their seats.

Each game's rules name its own table sizes; the helpers here serve every size up to
``MAX_SEATS``.
"""

from __future__ import annotations

from collections.abc import Sequence

MAX_SEATS = 6  # the largest table of any game here (R1.1, P1.1)
#: CLOCKWISE[n][seat]: the n seats of an n-player table clockwise from ``seat``.
CLOCKWISE = {n: tuple(tuple((seat + k) % n for k in range(n)) for seat in range(n))
             for n in range(2, MAX_SEATS + 1)}


def next_with_cards(cards: Sequence[int], seat: int) -> int:
    """The first seat clockwise after ``seat`` that holds cards (or dice: any count per seat;
    R6.1, P2.2); ``seat`` itself if no other seat does."""
    return next((s for s in CLOCKWISE[len(cards)][seat][1:] if cards[s]), seat)


def placements(out: Sequence[int], eliminations: int) -> list[int]:
    """Final place per seat (1 = winner) from each seat's elimination batch ``out`` (1-based,
    0 = still in) and the batches so far: players knocked out together share a place, and the
    later a batch, the better its place; seats dealt nothing share the last."""
    batch = [eliminations + 1 if o == 0 else o for o in out]
    return [1 + sum(b > mine for b in batch) for mine in batch]


def player(seat: int) -> str:
    """The name of the agent at ``seat``, as the envs name their agents."""
    return f"player_{seat}"

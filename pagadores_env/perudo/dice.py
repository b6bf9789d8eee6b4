"""The environments' dice for Perudo: one seeded stream of faces (P7.1), the core's
``dice.FaceStream`` with Perudo's round of rolls under the cups.

Both environments roll here, so a seed rolls the same dice in each.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..core import dice


class FaceStream(dice.FaceStream):
    """Faces uniform on 1–6, independent (P7.1), drawn from ``rng`` ``block`` at a time and
    used in the generator's order, so a seed fixes the whole stream (``core.dice``)."""

    __slots__ = ()

    def roll(self, counts: Sequence[int]) -> tuple[tuple[int, ...], ...]:
        """One round's dice (P2.1): ``counts[seat]`` faces per seat, in seat order."""
        return tuple(self.faces(count) for count in counts)

"""The environments' seeded dice (``core.dice.FaceStream``), which Perudo, Pasch and Paye
throw from: the generator's faces 1–6 in its order, whatever the block size or the counts
asked."""

from __future__ import annotations

import numpy as np
import pytest

from pagadores_env.core.dice import BLOCK, FaceStream


@pytest.mark.parametrize("block", [1, 7, BLOCK])
def test_the_faces_are_the_generators_in_its_order_whatever_the_block(block):
    stream = FaceStream(np.random.default_rng(11), block=block)
    counts = [5, 0, 3, 1, 4, 2] * 20
    faces = [f for count in counts for f in stream.faces(count)]
    reference = FaceStream(np.random.default_rng(11), block=BLOCK).faces(len(faces))
    assert tuple(faces) == reference
    # the first block is the generator's own first draw of ordinary dice
    assert reference == tuple(np.random.default_rng(11).integers(1, 7, BLOCK)[:len(faces)])


def test_a_request_larger_than_a_block_is_served_whole_and_uniform():
    stream = FaceStream(np.random.default_rng(0), block=100)
    head = stream.faces(3)
    many = stream.faces(60_000)
    assert len(head) == 3 and len(many) == 60_000
    counts = np.bincount(many, minlength=7)
    assert counts[0] == 0 and np.all(np.abs(counts[1:] / 60_000 - 1 / 6) < 0.01)

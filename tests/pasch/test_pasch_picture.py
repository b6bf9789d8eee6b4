"""Pasch's pictures (``pasch.picture``), drawn with the core's pieces: the labels of the seats."""

from __future__ import annotations

import numpy as np
import pytest

from pagadores_env.pasch import picture
from pagadores_env.pasch.engine import Game


def test_names_label_the_seats_and_anything_but_one_string_per_seat_is_refused():
    game = Game(3)
    default = picture.draw(game)
    assert default.shape == (picture.HEIGHT, picture.WIDTH, 3) and default.dtype == np.uint8
    assert np.array_equal(default, picture.draw(game, ["player_0", "player_1", "player_2"]))
    assert not np.array_equal(default, picture.draw(game, ["Ann", "Bob", "Cy"]))
    for bad in (["Ann", "Bob"], "abc", ["Ann", "Bob", 3]):
        with pytest.raises(ValueError, match=r"^names must be 3 strings, one per seat, got "):
            picture.draw(game, bad)

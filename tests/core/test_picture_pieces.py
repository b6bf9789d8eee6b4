"""The pieces every game's picture is drawn with (``pagadores_env.core.picture``): the seats'
panels round the table, dice faces, labels, boxes and discs."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from pagadores_env.core.picture import (
    BAND_H,
    FELT,
    GOLD,
    HEIGHT,
    PANEL_H,
    PANEL_W,
    PAPER,
    RED,
    SEATING,
    TABLE,
    WIDTH,
    backdrop,
    background,
    box,
    centred,
    die,
    disc,
    fit,
    font,
    seat_names,
    seat_slot,
    text,
)


@pytest.mark.parametrize("num_players", range(2, 7))
def test_every_seat_has_a_panel_inside_the_frame_apart_from_the_others(num_players):
    boxes = [(x, y, x + PANEL_W, y + PANEL_H)
             for x, y in (seat_slot(num_players, seat) for seat in range(num_players))]
    assert len(set(SEATING[num_players])) == num_players
    for i, (x0, y0, x1, y1) in enumerate(boxes):
        assert 0 <= x0 < x1 <= WIDTH and 0 <= y0 < y1 <= HEIGHT
        for ox0, oy0, ox1, oy1 in boxes[i + 1:]:
            assert x1 <= ox0 or ox1 <= x0 or y1 <= oy0 or oy1 <= y0, "panels overlap"


def test_seat_0_sits_at_the_bottom_and_play_goes_round_clockwise_on_screen():
    for n in range(3, 7):
        centres = [(x + PANEL_W / 2 - WIDTH / 2, y + PANEL_H / 2 - HEIGHT / 2)
                   for x, y in (seat_slot(n, seat) for seat in range(n))]
        assert centres[0][1] == max(y for _, y in centres)
        # screen y points down: clockwise on screen is increasing atan2(x, -y) from the bottom
        angles = [np.arctan2(-x, y) % (2 * np.pi) for x, y in centres]
        assert angles == sorted(angles)


def test_the_gold_frame_marks_the_seat_to_act_and_none_with_minus_one():
    def gold_pixels(image: Image.Image) -> np.ndarray:
        pixels = np.asarray(image).astype(int)
        return (np.abs(pixels - GOLD).sum(axis=2) < 30)

    states = ("playing",) * 3
    for turn in range(3):
        gold = gold_pixels(backdrop(3, states, turn))
        x, y = seat_slot(3, turn)
        assert gold[y:y + PANEL_H, x:x + PANEL_W].sum() > 200
        assert gold.sum() == gold[y - 6:y + PANEL_H + 6, x - 6:x + PANEL_W + 6].sum()
    assert not gold_pixels(backdrop(3, states, -1)).any()


def blobs(marked: np.ndarray) -> int:
    """How many 4-connected regions of True there are."""
    seen, count = np.zeros_like(marked), 0
    for start in map(tuple, np.argwhere(marked)):
        if seen[start]:
            continue
        count += 1
        stack = [start]
        seen[start] = True
        while stack:
            y, x = stack.pop()
            for ny, nx in ((y + 1, x), (y - 1, x), (y, x + 1), (y, x - 1)):
                if (0 <= ny < marked.shape[0] and 0 <= nx < marked.shape[1]
                        and marked[ny, nx] and not seen[ny, nx]):
                    seen[ny, nx] = True
                    stack.append((ny, nx))
    return count


def test_die_faces_are_six_different_pictures_with_as_many_pips_as_their_face():
    faces = [np.asarray(die(face, 52, False)) for face in range(1, 7)]
    assert len({face.tobytes() for face in faces}) == 6
    for face, picture in enumerate(faces, start=1):
        rgb = picture[..., :3].astype(int)
        paper = np.abs(rgb - (255, 253, 246)).sum(axis=2) < 60
        inside = np.zeros_like(paper)
        inside[6:-8, 6:-8] = True  # within the face's outline
        assert blobs(inside & ~paper & (picture[..., 3] == 255)) == face
    assert np.asarray(die(0, 52, False))[..., 3].max() < 255  # an empty outline only


def test_labels_are_checked_and_long_texts_cut_to_their_width():
    assert seat_names(3, None) == ["player_0", "player_1", "player_2"]
    assert seat_names(2, ("a", "b")) == ["a", "b"]
    for bad in (["a"], "ab", ["a", 2]):
        with pytest.raises(ValueError, match=r"^names must be 2 strings, one per seat, got "):
            seat_names(2, bad)
    long = "Bernardo de la Fuente y Mendoza " * 3
    cut = fit(long, 16, 164)
    assert cut.endswith("…") and long.startswith(cut[:-1])
    assert font(16).getlength(cut) <= 164 < font(16).getlength(long)
    assert fit("player_0", 16, 164) == "player_0"


def test_text_is_drawn_where_its_anchor_puts_it():
    image = background().copy()
    before = np.asarray(image).copy()
    text(image, (WIDTH // 2, HEIGHT // 2), "dudo", 20, (255, 255, 255), "mm")
    changed = np.argwhere((np.asarray(image) != before).any(axis=2))
    assert len(changed)
    (top, left), (bottom, right) = changed.min(axis=0), changed.max(axis=0)
    assert top < HEIGHT // 2 < bottom and left < WIDTH // 2 < right
    assert right - left < 60 and bottom - top < 25


def test_the_background_without_a_table_is_felt_under_the_band():
    plain = np.asarray(background(table=False)).astype(int)
    round_table = np.asarray(background()).astype(int)
    assert plain.shape == round_table.shape == (HEIGHT, WIDTH, 3)
    assert np.array_equal(plain[:BAND_H - 1], round_table[:BAND_H - 1])  # the same band
    assert (np.abs(plain[BAND_H + 4:] - FELT).sum(axis=2) <= 3).all()  # no rim, no table
    assert (round_table[HEIGHT // 2, WIDTH // 2] == TABLE).all()


def test_a_box_is_its_size_filled_and_framed_with_round_corners():
    sprite = np.asarray(box(60, 40, PAPER, RED, 3)).astype(int)
    assert sprite.shape == (40, 60, 4)
    assert (sprite[20, 30] == (*PAPER, 255)).all()
    assert np.abs(sprite[20, 1, :3] - RED).sum() < 12 and sprite[20, 1, 3] == 255  # the frame
    assert sprite[0, 0, 3] < 20  # a round corner leaves the corner pixel (all but) clear
    empty = np.asarray(box(60, 40, None, RED, 1))
    assert empty[20, 30, 3] == 0 and empty[20, 0, 3] > 0  # no fill: a frame only


def test_a_disc_is_round_and_centred_where_it_is_placed():
    sprite = disc(9, GOLD)
    pixels = np.asarray(sprite).astype(int)
    assert pixels.shape == (18, 18, 4)
    assert (pixels[9, 9] == (*GOLD, 255)).all()
    assert pixels[0, 0, 3] < 20 < pixels[0, 9, 3]  # round: corners clear, edges not
    image = background(table=False).copy()
    before = np.asarray(image).copy()
    centred(image, sprite, 300, 200)
    changed = np.argwhere((np.asarray(image) != before).any(axis=2))
    (top, left), (bottom, right) = changed.min(axis=0), changed.max(axis=0)
    assert (top + bottom) / 2 == pytest.approx(200, abs=1)
    assert (left + right) / 2 == pytest.approx(300, abs=1)

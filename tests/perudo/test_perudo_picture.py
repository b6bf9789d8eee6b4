"""Pictures of a Perudo game (``pagadores_env.perudo.picture.draw``): the cups, the dice a
seat may see (P7.2), the bid to beat, whose turn, every die at a dudo's reveal (P4.1); size,
errors."""

from __future__ import annotations

import random

import numpy as np
import pytest

from pagadores_env.core.picture import BAND_H, HEIGHT, PANEL_H, PANEL_W, WIDTH, seat_slot
from pagadores_env.perudo.dice import FaceStream
from pagadores_env.perudo.engine import Game
from pagadores_env.perudo.picture import draw
from pagadores_env.perudo.rules import DUDO, bid_action

MIDDLE = np.s_[170:370, 210:430]  # the middle of the table, between the panels


def panel(picture: np.ndarray, num_players: int, seat: int) -> np.ndarray:
    x, y = seat_slot(num_players, seat)
    return picture[y:y + PANEL_H, x:x + PANEL_W]


def row(picture: np.ndarray, num_players: int, seat: int, which: int) -> np.ndarray:
    """A seat panel's dice row: 0 the cup (this round's dice), 1 the line under it."""
    return panel(picture, num_players, seat)[(26, 52)[which]:(52, 80)[which], 6:-6]


def rolled(num_players: int, hands, dice: int | list[int] = 2) -> Game:
    game = Game(num_players, dice)
    game.apply_roll(hands)
    return game


def test_a_picture_is_rgb_uint8_of_the_fixed_size_through_whole_random_games():
    rng = np.random.default_rng(0)
    for num_players in range(2, 7):
        game, faces = Game(num_players, int(rng.integers(1, 6))), FaceStream(rng)
        shapes, seen = set(), set()
        while not game.is_terminal():
            if game.is_chance_node():
                game.apply_roll(faces.roll(game.dice_counts))
            picture = draw(game, shown=[game.current_player])
            shapes.add((picture.shape, picture.dtype.str))
            seen.add(picture.tobytes())
            legal = game.legal_actions()
            game.apply_action(int(legal[rng.integers(len(legal))]) if len(legal) < 3
                              else int(rng.choice(legal[:3])))
        picture = draw(game)
        assert picture.flags.writeable and picture.flags.c_contiguous
        assert len(np.unique(picture.reshape(-1, 3), axis=0)) > 50  # a picture, not a blank
        shapes.add((picture.shape, picture.dtype.str))
        assert shapes == {((HEIGHT, WIDTH, 3), "|u1")}
        assert len(seen) > 3  # the picture follows the game


def test_P7_2_only_the_shown_seats_dice_are_drawn_face_up():
    mine = rolled(3, [[2, 3], [4, 4], [5, 6]])
    others_differ = rolled(3, [[2, 3], [1, 1], [6, 6]])
    mine_differ = rolled(3, [[5, 5], [4, 4], [5, 6]])
    # Shown to seat 0: the others' cups look the same whatever is under them.
    assert np.array_equal(draw(mine, shown=[0]), draw(others_differ, shown=[0]))
    assert not np.array_equal(row(draw(mine, shown=[0]), 3, 0, 0),
                              row(draw(mine_differ, shown=[0]), 3, 0, 0))
    # Shown to nobody (the public view) the three tables are one picture.
    assert np.array_equal(draw(mine), draw(others_differ))
    assert np.array_equal(draw(mine), draw(mine_differ))
    # Shown to seat 1, seat 1's dice change the picture and only in seat 1's panel.
    one, other = draw(mine, shown=[1]), draw(others_differ, shown=[1])
    changed = np.argwhere((one != other).any(axis=2))
    x, y = seat_slot(3, 1)
    assert len(changed) and ((changed[:, 0] >= y) & (changed[:, 0] < y + PANEL_H)
                             & (changed[:, 1] >= x) & (changed[:, 1] < x + PANEL_W)).all()


def test_P2_4_each_lost_die_shows_in_the_cup_row_of_its_seat():
    full = rolled(2, [[2, 3, 4], [4, 4, 5]], dice=3)
    lost = rolled(2, [[2, 3], [4, 4, 5]], dice=[2, 3])
    assert not np.array_equal(row(draw(full), 2, 0, 0), row(draw(lost), 2, 0, 0))
    assert np.array_equal(row(draw(full), 2, 1, 0), row(draw(lost), 2, 1, 0))


def test_P3_the_bid_to_beat_and_its_bidder_are_drawn():
    a, b = (rolled(2, [[2, 3], [4, 4]]) for _ in range(2))
    a.apply_action(bid_action(2, 4))
    b.apply_action(bid_action(2, 5))
    pa, pb = draw(a), draw(b)
    assert not np.array_equal(pa[MIDDLE], pb[MIDDLE])
    assert not np.array_equal(pa[:BAND_H], pb[:BAND_H])  # the band names the bid to beat
    assert not np.array_equal(row(pa, 2, 0, 1), row(pb, 2, 0, 1))  # seat 0's latest bid


def test_the_player_to_act_is_framed_in_gold():
    game = rolled(3, [[2, 3], [4, 4], [5, 6]])
    assert np.array_equal(draw(game), draw(game, highlight=0))
    game.apply_action(bid_action(1, 3))
    before, after = draw(game, highlight=0), draw(game)
    for seat, same in ((0, False), (1, False), (2, True)):
        assert np.array_equal(panel(before, 3, seat), panel(after, 3, seat)) is same


def after_dudo(hands) -> Game:
    """Seat 0 bids 2 fives on ``hands`` (two dice each), seat 1 calls dudo, the next round
    is rolled (all fours)."""
    game = rolled(3, hands)
    game.apply_action(bid_action(2, 5))
    game.apply_action(DUDO)
    game.apply_roll([[4] * count for count in game.dice_counts])
    return game


def test_P4_1_a_dudo_reveals_every_seats_dice_until_the_next_bid():
    """After a dudo the next round's dice are under the cups, and the panels show the dice of
    the round just counted: every seat's, whoever the picture is shown to."""
    a = after_dudo([[2, 3], [1, 1], [5, 6]])
    b = after_dudo([[2, 3], [1, 1], [5, 4]])  # the same count: 3 fives with the jokers
    assert a.dice_counts == b.dice_counts == [2, 1, 2]  # the caller lost a die (P4.2)
    for shown in ([], [0], [2]):
        pa, pb = draw(a, shown=shown), draw(b, shown=shown)
        assert not np.array_equal(row(pa, 3, 2, 1), row(pb, 3, 2, 1))  # seat 2's reveal
        assert np.array_equal(row(pa, 3, 1, 1), row(pb, 3, 1, 1))
    for game in (a, b):  # with the next bid the reveal gives way to the round's bids
        game.apply_action(game.legal_actions()[0])
    assert np.array_equal(draw(a), draw(b))


def test_P4_2_the_middle_says_what_the_count_was_and_who_loses():
    jokers = after_dudo([[2, 3], [1, 1], [5, 6]])  # 3 fives: the caller loses
    plain = after_dudo([[2, 3], [3, 3], [5, 6]])  # 1 five: the bidder loses
    assert (jokers.dice_counts, plain.dice_counts) == ([2, 1, 2], [1, 2, 2])
    assert not np.array_equal(draw(jokers)[MIDDLE], draw(plain)[MIDDLE])


def test_P1_3_the_end_shows_the_winner_and_the_last_reveal():
    game = rolled(2, [[5], [2]], dice=1)
    game.apply_action(bid_action(1, 5))
    running = draw(game)
    game.apply_action(DUDO)  # one five: the caller loses its last die
    assert game.winner == 0
    over = draw(game)
    assert not np.array_equal(running[MIDDLE], over[MIDDLE])
    assert not np.array_equal(panel(running, 2, 1), panel(over, 2, 1))  # out, greyed
    assert panel(over, 2, 1).mean() < panel(over, 2, 0).mean() - 30


def test_a_random_game_never_draws_outside_its_frame_or_fails():
    rng = random.Random(3)
    for _ in range(30):
        n = rng.randint(2, 6)
        game, faces = Game(n, [rng.randint(0, 5) for _ in range(n - 2)] + [1, 2]), \
            FaceStream(np.random.default_rng(rng.randrange(100)))
        while not game.is_terminal():
            if game.is_chance_node():
                game.apply_roll(faces.roll(game.dice_counts))
            game.apply_action(rng.choice(game.legal_actions()[:4]))
            assert draw(game, shown=range(n)).shape == (HEIGHT, WIDTH, 3)


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"names": ["a", "b"]}, r"^names must be 3 strings, one per seat, got \['a', 'b'\]$"),
    ({"highlight": 3}, r"^highlight must be an integer 0–2, got 3$"),
    ({"shown": [3]}, r"^shown must be seats 0–2, got \[3\]$"),
    ({"shown": 1}, r"^shown must be seats 0–2, got 1$"),
    ({"shown": [True]}, r"^shown must be seats 0–2, got \[True\]$"),
])
def test_bad_arguments_give_one_line_errors_and_change_nothing(kwargs, message):
    game = rolled(3, [[2, 3], [4, 4], [5, 6]])
    saved = game.to_dict()
    with pytest.raises(ValueError, match=message) as err:
        draw(game, **kwargs)
    assert "\n" not in str(err.value)
    assert game.to_dict() == saved

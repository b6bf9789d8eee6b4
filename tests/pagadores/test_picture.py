"""Pictures of the game (``pagadores_env.pagadores.picture.draw``): size, what changes, names,
errors, and the pixels pinned across the move of the shared pieces to ``core.picture`` (whose
own tests are ``tests/core/test_picture_pieces.py``)."""

from __future__ import annotations

import hashlib
import random

import numpy as np
import pytest

from pagadores_env.core.picture import PANEL_H, PANEL_W, SEATING, SLOTS
from pagadores_env.pagadores.engine import Game, Phase
from pagadores_env.pagadores.picture import (
    HEIGHT,
    WIDTH,
    _caption,
    _header,
    _read_round,
    draw,
)
from tests.dice import (
    F9,
    F10,
    LOW,
    PUERTA,
    SIXES,
    STOP,
    TOP,
    new_game,
    play,
    random_start,
    random_step,
)


def panel(picture: np.ndarray, num_players: int, seat: int) -> np.ndarray:
    """The pixels of one seat's panel."""
    x, y = SLOTS[SEATING[num_players][seat]]
    return picture[y:y + PANEL_H, x:x + PANEL_W]


def cards_row(picture: np.ndarray, num_players: int, seat: int) -> np.ndarray:
    """The strip of a seat's panel with its card icons and count."""
    return panel(picture, num_players, seat)[28:50, 8:-8]  # inside the gold frame


def texts(game: Game) -> tuple[str, ...]:
    """The header's three texts and the middle's two lines, with default names."""
    labels = [f"player_{s}" for s in range(game.num_players)]
    return _header(game, _read_round(game.log), labels) + _caption(game, labels)


@pytest.mark.parametrize("num_players", range(2, 7))
def test_picture_is_rgb_uint8_of_the_fixed_size(num_players):
    picture = draw(Game(num_players))
    assert (WIDTH, HEIGHT) == (640, 480)
    assert picture.shape == (HEIGHT, WIDTH, 3)
    assert picture.dtype == np.uint8
    assert picture.flags.writeable and picture.flags.c_contiguous
    assert len(np.unique(picture.reshape(-1, 3), axis=0)) > 50  # a picture, not a blank


@pytest.mark.parametrize("num_players", range(2, 7))
def test_fixed_size_through_whole_random_games(num_players):
    rng = random.Random(num_players)
    for game in (Game(num_players), random_start(rng)):
        shapes = {draw(game).shape}
        while not game.is_terminal():
            random_step(game, rng)
            shapes.add(draw(game).shape)
        assert shapes == {(HEIGHT, WIDTH, 3)}


def test_a_throw_changes_the_middle_and_a_card_loss_the_losers_cards():
    game = Game(2)
    start = draw(game)
    game.apply_throw(TOP)  # seat 0's first throw: 1-1-6, a decision follows
    thrown = draw(game)
    middle = np.s_[150:340, 220:420]
    assert not np.array_equal(start[middle], thrown[middle])
    play(game, [STOP, LOW])  # seat 1 scores lowest and loses a card (R3.5)
    assert game.cards == [10, 9]
    lost = draw(game)
    assert np.array_equal(cards_row(thrown, 2, 0), cards_row(lost, 2, 0))
    assert not np.array_equal(cards_row(thrown, 2, 1), cards_row(lost, 2, 1))


@pytest.mark.parametrize("num_players", range(3, 7))
def test_an_eliminated_seat_is_greyed(num_players):
    # Seat 1 holds one card; seat 0's Puerta takes it (R4.1) and the game goes on (R6.2).
    game = Game(num_players, [3, 1] + [3] * (num_players - 2))
    before = draw(game)
    game.apply_throw(PUERTA)
    assert game.cards[1] == 0 and game.phase == Phase.ROUND
    after = draw(game)
    assert not np.array_equal(panel(before, num_players, 1), panel(after, num_players, 1))
    brightness = [panel(after, num_players, s).mean() for s in range(num_players)]
    assert brightness[1] < min(b for s, b in enumerate(brightness) if s != 1) - 30


@pytest.mark.parametrize("num_players", range(3, 7))
def test_every_seat_shows_when_it_is_out(num_players):
    for seat in range(num_players):
        cards = [3] * num_players
        everyone = draw(Game(num_players, cards, first_insteker=1 if seat == 0 else 0))
        cards[seat] = 0
        one_out = draw(Game(num_players, cards, first_insteker=1 if seat == 0 else 0))
        assert not np.array_equal(panel(everyone, num_players, seat),
                                  panel(one_out, num_players, seat))
        brightness = [panel(one_out, num_players, s).mean() for s in range(num_players)]
        assert brightness.index(min(brightness)) == seat


def test_every_node_type_is_drawn_and_each_looks_different():
    chance = Game(3)
    decision = new_game(3, script=[LOW])
    kampen = new_game(3, script=[LOW, STOP, (2, 2, 4), SIXES])  # 8 and 8 tie (R5.1)
    over = new_game(2, cards=1, script=[PUERTA])  # R4.1 empties seat 1 (R1.5)
    assert chance.is_chance_node() and decision.is_decision_node()
    assert kampen.phase == Phase.KAMPEN and over.is_terminal()
    pictures = [draw(game) for game in (chance, decision, kampen, over)]
    for i, picture in enumerate(pictures):
        assert picture.shape == (HEIGHT, WIDTH, 3)
        assert all(not np.array_equal(picture, other) for other in pictures[i + 1:])


def test_texts_name_the_score_to_beat_by_its_throw():
    game = new_game(3)
    assert texts(game) == ("Round 1", "throw limit: insteker sets it", "to beat: nobody yet",
                           "player_0", "about to throw (1 of 3)")
    play(game, [(1, 6, 3)])
    assert texts(game)[3:] == ("player_0", "threw 1 of 3: stop or throw again?")
    play(game, [STOP, TOP])  # seat 0 scores 163, seat 1 scores 260
    assert texts(game) == ("Round 1", "throw limit 1", "to beat: 1-3-6 Flamenco 163",
                           "player_2", "about to throw (1 of 1)")


def test_R5_3_texts_follow_kampen_and_kampen_again():
    game = new_game(3, script=[LOW, STOP, (2, 2, 4), SIXES])  # 8 and 8 tie (R5.1)
    assert texts(game) == ("Round 1", "kampen: one throw each", "tied at 2-3-3 Flamenco 8",
                           "player_0", "throws once in the kampen")
    play(game, [F9, F9])  # 9 and 9 tie again: only they throw again (R5.3)
    assert game.phase == Phase.KAMPEN and game.kampen == [0, 1]
    assert texts(game)[2] == "tied at 2-3-4 Flamenco 9"
    play(game, [(2, 3, 5)])
    assert texts(game)[2] == "lowest: 2-3-5 Flamenco 10"


def test_texts_name_the_winner_when_over():
    game = new_game(2, cards=1, script=[PUERTA])
    assert texts(game) == ("Round 1", "game over", "player_0 wins",
                           "player_0 wins!", "after 1 round")


def test_names_label_the_seats_and_long_ones_stay_in_their_panel():
    game = Game(4)
    plain = draw(game)
    named = draw(game, names=["player_0", "Bernardo de la Fuente y Mendoza " * 3, "player_2",
                              "player_3"])
    changed = np.argwhere((plain != named).any(axis=2))
    assert len(changed)
    x, y = SLOTS[SEATING[4][1]]
    assert ((changed[:, 0] >= y) & (changed[:, 0] < y + PANEL_H)
            & (changed[:, 1] >= x) & (changed[:, 1] < x + PANEL_W)).all()


def test_highlight_frames_the_chosen_seat():
    game = Game(3)
    assert np.array_equal(draw(game), draw(game, highlight=0))  # default: the player to act
    framed = draw(game, highlight=2)
    for seat, same in ((0, False), (1, True), (2, False)):
        assert np.array_equal(panel(draw(game), 3, seat), panel(framed, 3, seat)) is same


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"names": ["a", "b"]}, r"^names must be 3 strings, one per seat, got \['a', 'b'\]$"),
    ({"names": "abc"}, r"^names must be 3 strings, one per seat, got 'abc'$"),
    ({"names": ["a", "b", 3]}, r"^names must be 3 strings, one per seat"),
    ({"highlight": 3}, r"^highlight must be an integer 0–2, got 3$"),
    ({"highlight": True}, r"^highlight must be an integer 0–2, got True$"),
])
def test_bad_arguments_give_one_line_errors_and_change_nothing(kwargs, message):
    game = new_game(3, script=[LOW])
    saved = game.to_dict()
    with pytest.raises(ValueError, match=message) as err:
        draw(game, **kwargs)
    assert "\n" not in str(err.value)
    assert game.to_dict() == saved


# ---------------------------------------------------------------------- pinned pixels
def _digest(frames: list[np.ndarray]) -> str:
    digest = hashlib.sha256()
    for frame in frames:
        digest.update(frame.tobytes())
    return digest.hexdigest()[:16]


def _random_game_frames(seed: int) -> list[np.ndarray]:
    """Frames of a random table (``random_start``: per-seat cards, seats dealt none) through
    a whole game of close throws, so ties, kampen, specials and knock-outs come up."""
    rng = random.Random(seed)
    game, frames = random_start(rng), []
    palette = (LOW, F9, F10, PUERTA, (1, 1, 1), (2, 2, 3), (4, 5, 6), TOP)
    steps = 0
    while not game.is_terminal():
        random_step(game, rng, palette=palette)
        steps += 1
        if steps % 2 == 0:
            frames.append(draw(game))
    return [*frames, draw(game)]


def _gym_frames() -> list[np.ndarray]:
    """The docs' pictured game (``docs/hooks.py``: Pagadores-v1 at 4 players against
    ``sensible``, seed 1, a seeded random learner in seat 0), every frame to its end."""
    import gymnasium

    env = gymnasium.make("Pagadores-v1", num_players=4, opponents=["sensible"],
                         learner_seat=0, render_mode="rgb_array")
    rng = np.random.default_rng(1)
    _, info = env.reset(seed=1)
    frames, ended = [env.render()], False
    while not ended:
        _, _, ended, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        frames.append(env.render())
    return frames


PINNED = {
    "node_types": lambda: [
        draw(Game(3)), draw(new_game(3, script=[LOW])),
        draw(new_game(3, script=[LOW, STOP, (2, 2, 4), SIXES])),
        draw(new_game(2, cards=1, script=[PUERTA]))],
    "names_and_highlight": lambda: [
        draw(new_game(4, script=[LOW, STOP, F9]),
             names=["Ana", "Bernardo de la Fuente y Mendoza " * 3, "C", "D"], highlight=3)],
    **{f"random_game_{seed}": (lambda seed=seed: _random_game_frames(seed))
       for seed in range(6)},
    "docs_game": _gym_frames,
}
#: The digests of the frames above as drawn before the drawing helpers moved to
#: ``core.picture`` (Pillow 13.0.0, whose default font draws the text): the move changed no
#: pixel. A deliberate change of the look (or a Pillow that draws its font otherwise) means
#: taking them again.
DIGESTS = {
    "node_types": "e4731cb0e3c834d5",
    "names_and_highlight": "7a5d5ccd7273bd09",
    "random_game_0": "af92be6b0297a55c",
    "random_game_1": "7a3e9b61f415bbfb",
    "random_game_2": "12f38e27d802723a",
    "random_game_3": "394c77225ca6a033",
    "random_game_4": "0e76931c1b093d49",
    "random_game_5": "ac8b84af9ffdaeca",
    "docs_game": "718922f2b9a74bfb",
}


@pytest.mark.parametrize("case", PINNED)
def test_pictures_are_pixel_for_pixel_as_pinned(case):
    assert _digest(PINNED[case]()) == DIGESTS.get(case)

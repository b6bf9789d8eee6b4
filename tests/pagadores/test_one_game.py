"""``vector.one.OneGame``, the one-game kernel the AEC and Gym envs play on, against the engine.

Its ``game`` replays the game's inputs into an ``engine.Game`` and fails if the two disagree on
cards, seat or node; these tests also compare every seat's observation with
``observation.encode`` of that game at every decision, and the final placements, over random
games of every size with the specials made common and the dice blocks small (so the stream's
refills land mid-turn).
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from pagadores_env.pagadores.dice import DiceStream
from pagadores_env.pagadores.observation import encode
from pagadores_env.pagadores.rules import MAX_PLAYERS, MIN_PLAYERS, THROWS, ordered_index
from pagadores_env.pagadores.vector.kernel import CARDS, WINNER
from pagadores_env.pagadores.vector.one import OneGame
from tests.dice import CELEBRO, HERMANA, PICARO, PUERTA

SPECIALS = np.array([ordered_index(*dice) for dice in (CELEBRO, HERMANA, PUERTA, PICARO)])


class SpecialDice(DiceStream):
    """Blocks of 7 throws, one in four of them a special (R4), so knock-outs mid-turn and
    kampen specials (R5.2) are common."""

    def __init__(self, seed: int) -> None:
        super().__init__(np.random.default_rng(seed), block=7)

    def refill(self) -> None:
        super().refill()
        special = self.rng.random(self.block) < 0.25
        self.outcomes[special] = self.rng.choice(SPECIALS, int(special.sum()))


def random_start(rng: random.Random) -> tuple[int, tuple[int, ...], int]:
    n = rng.randint(MIN_PLAYERS, MAX_PLAYERS)
    cards = [rng.choice([0, 1, 2, 3, 10]) for _ in range(n)]
    while sum(c > 0 for c in cards) < 2:
        cards[rng.randrange(n)] = rng.randint(1, 3)
    first = rng.choice([s for s in range(n) if cards[s]])
    return n, tuple(cards), first


@pytest.mark.parametrize("seed", range(4))
def test_one_game_plays_and_observes_as_the_engine_does(seed: int) -> None:
    rng = random.Random(seed)
    dice = SpecialDice(seed)
    decisions = 0
    for _ in range(400):
        n, cards, first = random_start(rng)
        table = OneGame(n, cards, dice, first)
        p_again = rng.random()
        seat = table.play()
        while seat >= 0:
            game = table.game
            assert game.is_decision_node() and game.current_player == seat
            for observer in range(n):
                assert np.array_equal(table.observe(observer), encode(game, observer))
            seat = table.play(int(rng.random() < p_again))
            decisions += 1
        game = table.game
        assert table.over and game.is_terminal()
        assert table.state[0, WINNER] == game.winner
        assert table.placements() == game.placements()
        assert table.eliminations == game.eliminations
        assert [table.out(s) for s in range(n)] == [bool(o) for o in game.out]
        assert game.history.count(0) + game.history.count(1) == table.decisions
    assert decisions > 1000


def test_a_watched_seat_stops_play_at_its_knock_out() -> None:
    dice = SpecialDice(1)
    stopped = 0
    for _ in range(200):
        table = OneGame(4, (1, 3, 3, 3), dice)
        seat = table.play(watched=0)
        while seat >= 0:
            seat = table.play(1, watched=0)
        game = table.game
        if not table.over:  # seat 0 went out first: play stopped right there
            stopped += 1
            assert table.state[0, CARDS] == 0 and game.cards[0] == 0 and game.is_chance_node()
    assert stopped > 50


def test_a_new_game_on_the_stream_closes_the_previous_games_throws() -> None:
    dice = SpecialDice(2)
    first = OneGame(3, (10, 10, 10), dice)
    first.play()
    first.play(1)
    thrown = first.thrown()
    second = OneGame(3, (10, 10, 10), dice)
    second.play()
    for _ in range(20):
        if second.decider < 0:
            break
        second.play(1)
    assert second.thrown()
    assert first.thrown() == thrown  # not the second game's throws
    throws = [item for item in first.game.history if isinstance(item, tuple)]
    assert throws == [THROWS[o].dice for o in thrown]


def test_a_game_changed_by_its_reader_is_built_afresh_at_the_next_read() -> None:
    dice = SpecialDice(3)
    table = OneGame(3, (10, 10, 10), dice)
    table.play()
    game = table.game
    history = list(game.history)
    game.apply_action(0)  # the reader plays on its copy: the kernel's game has not moved
    game.cards[1] = 4
    table.play(1)
    again = table.game
    assert again is not game and again.history[:len(history) + 1] == [*history, 1]
    kernel_cards = table.state[0, CARDS:CARDS + 3].tolist()
    assert again.cards == kernel_cards
    again.cards[0] = 1  # an edit that leaves the history as it is
    assert table.game.cards == kernel_cards


def test_a_kernel_that_disagrees_with_the_engine_fails_loudly() -> None:
    table = OneGame(2, (10, 10), SpecialDice(4))
    table.play()
    table.state[0, CARDS] -= 1  # what a bug in the kernel would do
    with pytest.raises(RuntimeError, match="the compiled kernel and engine.Game disagree"):
        _ = table.game

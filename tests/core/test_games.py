"""The table of games (``core.games``): every game registers itself once, and generic code
plays any of them through its spec alone — start, throw the dice, observe, mask, act — to the
end, reproducibly from a seed."""

from __future__ import annotations

import numpy as np
import pytest

from pagadores_env.core.games import GAME_SPECS, game_spec
from pagadores_env.core.policies import GAMES


def test_every_game_is_in_the_table_in_the_registrys_order() -> None:
    assert list(GAME_SPECS) == GAMES == ["pagadores", "perudo", "paye", "pasch"]


def _play(name: str, num_players: int, seed: int) -> list:
    spec, rng = game_spec(name), np.random.default_rng(seed)
    game = spec.start(num_players)
    steps = 0
    spec.advance(game, rng)
    while not game.is_terminal():
        seat = game.current_player
        obs, mask = spec.encode(game, seat), spec.legal_mask(game)
        assert obs.shape == (spec.obs_size,) and mask.any()
        game.apply_action(int(rng.choice(np.flatnonzero(mask))))
        spec.advance(game, rng)
        steps += 1
    assert steps > 0 and sum(game.returns()) <= 0 < max(game.returns())
    return game.to_dict()["history"]


@pytest.mark.parametrize("name", ["pagadores", "perudo", "paye", "pasch"])
@pytest.mark.parametrize("num_players", [2, 3])
def test_generic_code_plays_every_game_to_its_end_reproducibly(name, num_players) -> None:
    assert _play(name, num_players, 7) == _play(name, num_players, 7)


@pytest.mark.parametrize(("name", "given", "expected"), [
    ("pagadores", {"cards": 3}, {"cards": 3}),
    ("perudo", {}, {"dice": 5}),
    ("paye", {"faces": [[1] * 6] * 6}, {"variant": "base", "dice": [[1] * 6] * 6, "rounds": 10}),
    ("pasch", {"blocks": 0}, {"hand": [-1, 1, 2, 3, 4, 5], "blocks": 0}),
])
def test_table_options_fill_the_defaults_as_the_games_keywords(name, given, expected) -> None:
    assert game_spec(name).table_options(**given) == expected


def test_an_option_of_another_game_is_refused_in_one_line() -> None:
    with pytest.raises(ValueError, match=r"^Perudo takes no option 'cards' \(its options: "
                                         r"dice\)$"):
        game_spec("perudo").table_options(cards=3)
    with pytest.raises(ValueError, match=r"^game must be one of 'pagadores', 'perudo', 'paye', "
                                         r"'pasch', got 'chess'$"):
        game_spec("chess")

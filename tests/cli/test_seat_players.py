"""``play.seat_players``: the one seating step of both games' terminal ``play``."""

import pytest

from pagadores_cli.play import seat_players


@pytest.mark.parametrize(("game", "start"), [("pagadores", 10), ("perudo", 5)])
def test_seats_the_opponents_around_the_person(game, start) -> None:
    players, line = seat_players(["random"], 3, 1, start, seed=0, game=game)
    assert sorted(players) == [0, 2]
    assert line.startswith("  ") and line.count("random") == 2 and ": YOU" in line
    assert line.index("random") < line.index("YOU") < line.rindex("random")


@pytest.mark.parametrize("seat", [-1, 3])
def test_a_seat_off_the_table_is_refused_in_one_line(seat) -> None:
    with pytest.raises(ValueError, match=f"^seat must be 0–2, got {seat}$"):
        seat_players(["random"], 3, seat, 10, seed=0)

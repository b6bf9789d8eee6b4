"""``evaluate.entry_rows``: the one lineup rule of both games' evaluations."""

import pytest

from pagadores_train.evaluation.evaluate import entry_rows


@pytest.mark.parametrize("num_players", [2, 3, 6])
def test_one_agent_per_seat_or_one_against_a_reused_opponent(num_players) -> None:
    assert entry_rows(num_players, num_players) == list(range(num_players))
    assert entry_rows(2, num_players) == [0] + [1] * (num_players - 1)


@pytest.mark.parametrize("count", [0, 1, 3, 5])
def test_any_other_count_is_refused_in_one_line(count) -> None:
    with pytest.raises(ValueError, match=rf"^agents must be 4 entries \(one per seat\) or 2 "
                                         rf"\(the agent under test and one opponent reused\), "
                                         rf"got {count}$"):
        entry_rows(count, 4)

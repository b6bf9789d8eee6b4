"""The reward schemes (``core.rewards``): a shared first place (Paye's Y4.4, Pasch's X1.4)
pays each of its k seats 2/k - 1, so a seat's reward is 2 x its share of the win - 1."""

from __future__ import annotations

import pytest

from pagadores_env.core.rewards import final_reward, win_share


@pytest.mark.parametrize("shared", [1, 2, 3, 6])
def test_Y4_4_a_shared_first_place_pays_two_over_k_minus_one(shared: int) -> None:
    reward = final_reward("win", 1, 6, shared)
    assert reward == pytest.approx(2 / shared - 1)
    assert reward == pytest.approx(2 * win_share(1, shared) - 1)


@pytest.mark.parametrize("place", [2, 3, 6])
def test_everyone_below_first_place_gets_minus_one_and_no_share(place: int) -> None:
    assert final_reward("win", place, 6, 1) == -1.0
    assert win_share(place, 1) == 0.0


def test_an_unknown_scheme_is_refused_in_one_line() -> None:
    with pytest.raises(ValueError, match="reward") as err:
        final_reward("score", 1, 2)
    assert "\n" not in str(err.value)

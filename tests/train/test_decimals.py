"""How reports round a measure (``pagadores_train.yardstick.decimals``): a NashConv too small
for four decimals is shown, not rounded to 0; the solver's rounding noise is 0."""

from __future__ import annotations

import pytest

from pagadores_train.yardstick import NOISE, decimals


@pytest.mark.parametrize(("value", "shown"), [
    (0.0157, "0.0157"),
    (0.00426, "0.0043"),
    (2.1e-5, "2.1e-05"),
    (-3.4e-5, "-3.4e-05"),
    (0.0, "0.0000"),
    (-NOISE / 10, "0.0000"),
    (NOISE / 10, "0.0000"),
])
def test_small_measures_keep_their_digits_and_noise_is_zero(value: float, shown: str) -> None:
    assert decimals(value) == shown


def test_places_set_where_scientific_notation_starts() -> None:
    assert decimals(0.004, places=2) == "4.0e-03"
    assert decimals(0.004, places=3) == "0.004"

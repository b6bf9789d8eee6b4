"""How reports round a measure (``pagadores_train.evaluation.yardstick.decimals``) and how eval.csv
writes one (``model_eval.significant``): a NashConv too small for four decimals is shown, not
rounded to 0; the solver's rounding noise is 0."""

from __future__ import annotations

import pytest

from pagadores_train.evaluation.yardstick import NOISE, decimals


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


@pytest.mark.parametrize(("value", "written"), [
    (0.44687123, 0.44687), (0.0157234, 0.01572), (0.000391234, 0.0003912),
    (2.3706e-06, 2.371e-06), (-NOISE / 10, 0.0)])
def test_eval_csv_keeps_the_digits_of_a_small_gap(value: float, written: float) -> None:
    from pagadores_train.run.model_eval import significant

    assert significant(value) == written

"""One derivation of a layout's slices (``field_slices``) serves both games' observations."""

import pytest

from pagadores_env.core import fields
from pagadores_env.pagadores import observation
from pagadores_env.perudo import observation as perudo_observation


def test_field_slices_lays_fields_end_to_end() -> None:
    slices, size = fields.field_slices((("a", 2, ""), ("b", 1, ""), ("c", 3, "")))
    assert slices == {"a": slice(0, 2), "b": slice(2, 3), "c": slice(3, 6)}
    assert size == 6


def test_field_slices_of_no_fields_is_empty() -> None:
    assert fields.field_slices(()) == ({}, 0)


@pytest.mark.parametrize("module", [observation, perudo_observation])
def test_each_game_derives_its_layout_from_its_fields(module) -> None:
    assert list(module.SLICES) == [name for name, _, _ in module.FIELDS]
    assert sum(size for _, size, _ in module.FIELDS) == module.OBS_SIZE
    for name, size, _ in module.FIELDS:
        assert module.SLICES[name].stop - module.SLICES[name].start == size
    assert module.SLICES[module.FIELDS[-1][0]].stop == module.OBS_SIZE
    table = module.field_table()
    for name, part in module.SLICES.items():
        assert f"{part.start}–{part.stop - 1}" in table and name in table

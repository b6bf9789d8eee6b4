"""Exact results of agent specs kept on disk (``solver.results_cache``): read again instead of
computed, keyed by the code, the agents and a network's weights, kept pass by pass (an
interrupted NashConv keeps its finished passes), damaged files computed again. A network's
key is its weights: ``tests/agents/test_search.py``."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from pagadores_env.core.policies import make_policy
from pagadores_env.pagadores.solver import exact_evaluate, nash_conv, passes, results_cache
from pagadores_env.pagadores.solver.cost import SolveCost, solve_cost


@pytest.fixture
def computed(monkeypatch) -> list[tuple]:
    """The passes computed (their variants and tracked seats), in order."""
    calls: list[tuple] = []
    original = passes.run_pass

    def counted(*args, **kwargs):
        calls.append((tuple(args[4]), tuple(args[5])))
        return original(*args, **kwargs)

    monkeypatch.setattr(passes, "run_pass", counted)
    return calls


@pytest.fixture
def per_seat(monkeypatch) -> None:
    """Every one-pass plan too big: NashConv takes one pass per seat."""
    def without_room(*args, **kwargs) -> SolveCost:
        cost = solve_cost(*args, **kwargs)
        return SolveCost(cost.positions, cost.rows, 10**30)

    monkeypatch.setattr(passes, "solve_cost", without_room)


def _files() -> list[Path]:
    return sorted(results_cache.results_dir().glob("*.npz"))


def test_a_kept_nashconv_is_read_instead_of_computed(computed) -> None:
    first = nash_conv("sensible", 3, 3, cache=True)
    assert len(computed) == 1 and len(_files()) == 1
    again = nash_conv("sensible", 3, 3, cache=True)
    assert again == first and len(computed) == 1  # nothing computed the second time
    assert nash_conv("sensible", 3, 3) == first and len(computed) == 2  # cache=False computes


def test_other_agents_tables_or_evaluations_are_other_keys(computed) -> None:
    nash_conv("sensible", 3, 3, cache=True)
    nash_conv("lookahead", 3, 3, cache=True)
    nash_conv("sensible", 3, 2, cache=True)
    exact_evaluate("sensible", 3, 3, cache=True)
    assert len(computed) == 4 and len(_files()) == 4


def test_an_interrupted_nashconv_keeps_the_passes_it_finished(computed, per_seat,
                                                              monkeypatch) -> None:
    counted = passes.run_pass

    def stopped_at_the_third(*args, **kwargs):
        if len(computed) == 2:
            raise KeyboardInterrupt
        return counted(*args, **kwargs)

    monkeypatch.setattr(passes, "run_pass", stopped_at_the_third)
    with pytest.raises(KeyboardInterrupt):
        nash_conv("lookahead", 3, 3, cache=True)
    assert len(_files()) == 2  # seats 0 and 1
    monkeypatch.setattr(passes, "run_pass", counted)
    computed.clear()
    resumed = nash_conv("lookahead", 3, 3, cache=True)
    assert resumed == nash_conv("lookahead", 3, 3)  # the last computes every pass anew
    assert [tracked for _, tracked in computed] == [(2,), (0,), (1,), (2,)]


def test_a_damaged_or_foreign_file_is_computed_again_and_replaced(computed) -> None:
    first = nash_conv("sensible", 3, 2, cache=True)
    [path] = _files()
    path.write_bytes(path.read_bytes()[:100])
    assert nash_conv("sensible", 3, 2, cache=True) == first and len(computed) == 2
    assert nash_conv("sensible", 3, 2, cache=True) == first and len(computed) == 2  # replaced
    results_cache.save("0" * 64, {0: np.zeros((2, 3))})  # another key's values...
    foreign = (results_cache.results_dir() / f"{'0' * 64}.npz").read_bytes()
    path.write_bytes(foreign)  # ...under this key's name
    assert nash_conv("sensible", 3, 2, cache=True) == first and len(computed) == 3
    assert path.read_bytes() != foreign


def test_profiles_that_are_not_agent_specs_or_say_nothing_are_not_cached() -> None:
    sensible = make_policy("sensible")
    args = ((3, 3, 3), False, True, [("profile", 0)], (0, 1, 2))
    assert results_cache.pass_key(["sensible"], [sensible] * 3, *args) is not None
    assert results_cache.pass_key([sensible], [sensible] * 3, *args) is None

    class Unsaid:
        pass

    assert results_cache.pass_key(["sensible"], [sensible, sensible, Unsaid()], *args) is None

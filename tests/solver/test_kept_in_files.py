"""A solve whose kept values are big keeps them in files (``cost.KEPT_IN_MEMORY``,
``sweep.Kept.empty(folder=…)``), handing their pages back as it goes: the same solution,
saved and loaded the same, nothing left in the folder but the solution."""

from __future__ import annotations

import numpy as np

from pagadores_env.pagadores.solver import cost, equilibrium, sweep
from pagadores_env.pagadores.solver.equilibrium import Solution, cache_path, solve


def test_a_solve_keeping_its_values_in_files_gives_the_same_solution(monkeypatch,
                                                                    tmp_path) -> None:
    in_memory = solve(3, 3, cache=False)
    monkeypatch.setenv("PAGADORES_CACHE", str(tmp_path))
    monkeypatch.setattr(cost, "KEPT_IN_MEMORY", 0)  # every solve's kept values in files
    monkeypatch.setattr(sweep, "TRIM_EVERY", 4)
    monkeypatch.setattr(equilibrium, "SAVE_CHUNK", 4096)  # the solution saved in slices
    released = []
    release = sweep.Kept.release
    monkeypatch.setattr(sweep.Kept, "release", lambda self: (released.append(1),
                                                             release(self)))
    in_files = solve(3, 3)
    assert all(isinstance(a, np.memmap) for a in in_files.positions.arrays.values())
    slices = 0  # the save reads each values array 4096 bytes at a time, then lets go
    for values in in_memory.positions.arrays.values():
        row = values[0, :, 0].nbytes
        slices += -(-len(values) // max(1, 4096 // row)) if values[:, :, 0].nbytes > 4096 else 0
    assert slices > 3
    assert len(released) == len(sweep.positions((3, 3, 3))) // 4 + slices  # pages handed back
    assert in_files.positions.rows == in_memory.positions.rows
    for m, values in in_memory.positions.arrays.items():
        assert np.array_equal(in_files.positions.arrays[m], values)
    assert [p.name for p in tmp_path.iterdir()] == [cache_path(3, (3, 3, 3)).name]
    loaded = Solution.load(cache_path(3, (3, 3, 3)))
    assert loaded.win_probabilities() == in_memory.win_probabilities()
    assert all(np.array_equal(loaded.positions.arrays[m], values)
               for m, values in in_memory.positions.arrays.items())

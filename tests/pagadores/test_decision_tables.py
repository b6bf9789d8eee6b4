"""Players the kernel plays from decision tables (``pagadores_env.pagadores.vector.tables``)
make the decisions their ``act_batch`` makes, on the games of real play at every table size."""

from __future__ import annotations

import numpy as np
import pytest

from pagadores_env.core.policies import make_policy
from pagadores_env.pagadores.rules import MAX_PLAYERS, MIN_PLAYERS
from pagadores_env.pagadores.vector import VectorGame, kernel
from pagadores_env.pagadores.vector.tables import decision_table, seat_tables

TABLED = ["sensible", "threshold", "threshold:min_points=250", "threshold:min_strength=5",
          "stop-first", "always-throw"]


def _games(n: int, seed: int, batch: int) -> VectorGame:
    return VectorGame(batch, n, 10, seed=seed, first_insteker=np.arange(batch) % n,
                      auto_reset=False)


@pytest.mark.parametrize("n", [*range(MIN_PLAYERS, 4),
                               *(pytest.param(n, marks=pytest.mark.slow)
                                 for n in range(4, MAX_PLAYERS + 1))])
def test_tables_decide_as_act_batch_in_real_games(n: int) -> None:
    """The same games played twice from the same dice, game after game: once with every seat
    decided inside the kernel by its table, once with every decision asked of ``act_batch``.
    One differing decision would change the dice every later throw gets."""
    specs = [TABLED[(n + k) % len(TABLED)] for k in range(n)]
    policies = [make_policy(spec) for spec in specs]
    batch = 300
    tabled = _games(n, seed=n, batch=batch)
    tables, row = seat_tables(policies)
    tabled.play_by_tables(tables, np.tile(row, (batch, 1)), np.full(batch, -1, np.int64))
    tabled.advance()
    assert tabled.done.all()

    asked = _games(n, seed=n, batch=batch)
    decisions, throws = 0, 0
    for g in range(batch):  # in the kernel's order: each game to its end, then the next
        while asked.decision[g]:
            seat = int(asked.seat[g])
            action = policies[seat].act_batch(asked.observations(np.array([g])),
                                              np.ones((1, 2), bool))
            asked.step(action, np.array([g]))
            decisions += 1
            throws += int(action[0])
    assert (asked.state == tabled.state).all()
    assert decisions > 20 * batch and 0 < throws < decisions


def test_only_players_that_declare_table_facts_get_a_table() -> None:
    assert decision_table(make_policy("random")) is None
    assert decision_table(make_policy("lookahead")) is None
    table = decision_table(make_policy("sensible"))
    assert table is not None and table.shape == (kernel.TABLE_SIZE,) and 0 < table.mean() < 1
    tables, row = seat_tables([make_policy("random"), make_policy("sensible"),
                               make_policy("stop-first")])
    assert row.tolist() == [-1, 0, 1] and tables.shape == (2, kernel.TABLE_SIZE)
    assert (tables[0] == table).all() and not tables[1].any()


def test_a_declared_table_answering_other_than_0_or_1_is_refused() -> None:
    class Broken:
        table_facts = True

        def act(self, obs: np.ndarray, mask: np.ndarray) -> int:
            return 2

    with pytest.raises(ValueError, match="declares table_facts but answered"):
        decision_table(Broken())


@pytest.mark.parametrize(("tables", "table_of", "watched", "what"), [
    (np.full((1, kernel.TABLE_SIZE), 2, np.uint8), None, None, "tables must be"),
    (np.zeros((1, 5), np.uint8), None, None, "tables must be"),
    (None, np.full((4, 3), 1, np.int64), None, "table_of must be"),
    (None, np.full((4, 2), 0, np.int64), None, "table_of must be"),
    (None, np.full((4, 3), 0, np.int32), None, "table_of must be"),
    (None, None, np.full(4, 3, np.int64), "watched must be"),
])
def test_play_by_tables_refuses_bad_arrays(tables: np.ndarray | None,
                                           table_of: np.ndarray | None,
                                           watched: np.ndarray | None, what: str) -> None:
    game = VectorGame(4, 3, 10, seed=0)
    before = game.state.copy()
    with pytest.raises(ValueError, match=what):
        game.play_by_tables(
            np.zeros((1, kernel.TABLE_SIZE), np.uint8) if tables is None else tables,
            np.zeros((4, 3), np.int64) if table_of is None else table_of,
            np.full(4, -1, np.int64) if watched is None else watched)
    game.advance()
    assert (game.state == before).all()  # still stopping at every decision

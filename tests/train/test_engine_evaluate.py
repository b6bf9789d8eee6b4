"""The engine-driven evaluator (``pagadores_train.evaluation.engine``): one evaluator for every
game without a compiled kernel, driven by the table of games; shared first places count 1/k of
a win, seats rotate, and a seed fixes the result."""

from __future__ import annotations

import pytest

from pagadores_train.evaluation.engine import evaluate_game, tournament_game

AGENTS = {"perudo": ["probabilistic", "random"], "paye": ["lookahead", "random"],
          "pasch": ["greedy", "random"]}


@pytest.mark.parametrize("game", sorted(AGENTS))
def test_the_win_shares_of_every_game_sum_to_the_games_played(game) -> None:
    result = evaluate_game(game, AGENTS[game], 3, 30, seed=1)
    assert result.num_games == 30
    assert sum(row.wins for row in result.rows) == pytest.approx(30)
    assert [row.seat_counts for row in result.rows] == [(10, 10, 10), (20, 20, 20)]
    assert result.rows[0].win_rate > result.rows[1].win_rate  # a heuristic beats random


def test_a_first_place_shared_by_two_counts_half_a_win_each() -> None:
    # one round of Paye with dice that always throw 0: every seat ends at 0 and shares first
    result = evaluate_game("paye", ["random", "sensible"], 2, 4,
                           options={"faces": [[0] * 6] * 6, "rounds": 1})
    for row in result.rows:
        assert row.wins == pytest.approx(2) and row.win_rate == pytest.approx(0.5)
        assert row.mean_placement == 1.0


def test_a_seed_fixes_the_result_and_another_seed_changes_it() -> None:
    tables = [evaluate_game("pasch", ["greedy", "random"], 2, 20, seed).table()
              for seed in (3, 3, 4)]
    assert tables[0] == tables[1] != tables[2]


def test_the_table_names_the_game_its_options_and_its_own_column() -> None:
    text = evaluate_game("paye", ["lookahead", "sensible"], 2, 3, 0, {"rounds": 2}).table()
    assert text.startswith("Paye's dobbelspel: 4 games, 2 players, variant base, faces "
                           "default, rounds 2, seed 0;")
    assert "mean score" in text and "rounded up" in text


@pytest.mark.parametrize(("call", "message"), [
    (lambda: evaluate_game("chess", ["random"]), r"^game must be one of"),
    (lambda: evaluate_game("paye", ["random"], 7), r"^players must be an integer 2–6, got 7"),
    (lambda: evaluate_game("pasch", ["random"], options={"cards": 3}),
     r"^Pasch takes no option 'cards' \(its options: hand, blocks\)$"),
    (lambda: evaluate_game("pasch", ["random"], options={"blocks": 11}), r"blocks"),
    (lambda: evaluate_game("paye", ["sensible", "nobody"]), r"nobody"),
    (lambda: tournament_game("perudo", ["random", "nobody"], 10), r"nobody"),
])
def test_bad_arguments_are_refused_in_one_line_before_any_game(call, message) -> None:
    with pytest.raises(ValueError, match=message) as raised:
        call()
    assert "\n" not in str(raised.value)


def test_a_tournament_rates_every_pair_of_a_game() -> None:
    result = tournament_game("pasch", ["random", "greedy"], 20, seed=0)
    assert "Pasch round-robin, 20 two-player games per pair" in result.table()
    assert result.table().index("greedy") < result.table().index("random")

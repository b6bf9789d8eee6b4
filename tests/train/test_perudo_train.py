"""Perudo in the trainer and the evaluator (issue 13, item 5): a tiny run from config to model
to evaluation rows, the config's refusals, the seat-rotated evaluator (the engine-driven one
every game without a kernel shares: ``evaluation.engine``) and its intervals.
``pagadores play --game perudo`` is tested in ``tests/cli/test_perudo_play.py``."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from pagadores_env.core.policies import make_policy
from pagadores_env.perudo.rules import DUDO, bid_action
from pagadores_train.evaluation.engine import evaluate_game, rounds_out
from pagadores_train.evaluation.evaluate import wilson_interval
from pagadores_train.evaluation.perudo import EXACT_NOTE, DiceShaping
from pagadores_train.learners.sb3 import train
from pagadores_train.run.config import config_from_dict, load_config
from pagadores_train.run.reports import read_rows
from pagadores_train.settings import ConfigError

CONFIGS = Path(__file__).resolve().parents[2] / "configs"
TINY = {"env": {"game": "perudo", "dice": 2, "shaping": 0.1},
        "algo": {"hyperparams": {"n_steps": 16, "batch_size": 32, "n_epochs": 1}},
        "vec_env": {"n_envs": 2}, "total_timesteps": 64, "checkpoint_every": 1000,
        "eval": {"every": 0, "games": 6, "final_games": 10,
                 "opponents": ["random", "probabilistic"], "compare": ["bluffer"]},
        "progress_bar": False}


# ------------------------------------------------------------------ training end to end
def test_a_tiny_perudo_run_goes_from_config_to_model_to_evaluation_rows(tmp_path: Path) -> None:
    config = config_from_dict(TINY | {"output_dir": str(tmp_path)}, name="tiny")
    result = train(config)
    assert result.timesteps >= 64
    run = tmp_path / "tiny"
    final = read_rows(run / "final_eval.csv")
    assert [r["opponent"] for r in final] == ["random", "probabilistic"]
    assert all(int(r["games"]) == 10 and r["exact_win"] == "" for r in final)
    for row in final:  # the rows' intervals are Wilson's for their counts
        low, high = wilson_interval(int(row["wins"]), int(row["games"]))
        assert (float(row["ci_low"]), float(row["ci_high"])) == (round(low, 4), round(high, 4))
    assert [r["timesteps"] for r in read_rows(run / "eval.csv")] == ["0", "0"]  # baseline
    assert [r["agent"] for r in read_rows(run / "compare.csv")] == ["bluffer", "bluffer"]
    table = result.table()
    assert "random" in table and EXACT_NOTE in table
    model = make_policy(f"model:path={run / 'model.zip'}", game="perudo")
    assert model.act(np.zeros(267, np.float32), np.eye(181, dtype=np.int8)[5]) == 5
    assert load_config(run / "config.yaml").env.game == "perudo"
    with pytest.raises(ValueError, match="but Pagadores gives observations Box"):
        make_policy(f"model:path={run / 'model.zip'}")  # a Perudo model is no Pagadores player


def test_the_shipped_perudo_configs_validate_and_build_perudo_envs() -> None:
    for name, players in (("perudo_2p", 2), ("perudo_4p", 4)):
        config = load_config(CONFIGS / f"{name}.yaml")
        assert (config.env.game, config.env.num_players, config.algo.name) == (
            "perudo", players, "MaskablePPO")
        env = config.env.make()
        assert env.unwrapped.spec.id == "Perudo-v1" and env.action_space.n == 181


def test_a_perudo_config_naming_no_players_gets_perudo_ones() -> None:
    config = config_from_dict({"env": {"game": "perudo"}}, name="x")
    assert config.env.opponents == ["probabilistic"]
    assert config.eval.opponents == ["random", "probabilistic", "bluffer"]
    assert config_from_dict({}, name="x").env.opponents == ["sensible"]  # Pagadores' as before


@pytest.mark.parametrize(("data", "message"), [
    ({"env": {"game": "perudo"}, "vec_env": {"kind": "batch"}},
     "vec_env.kind 'batch' is Dados de Pagadores' batch engine; for env.game 'perudo' choose "
     "'dummy' or 'subproc'"),
    ({"env": {"game": "perudo", "cards": 3}},
     "env.cards is Dados de Pagadores' (env.game 'pagadores'); Perudo takes env.dice, got "
     "env.cards 3"),
    ({"env": {"game": "perudo", "num_players": [2, 3]}},
     "env.num_players must be one size 2–6 for env.game 'perudo', got [2, 3]"),
    ({"env": {"game": "perudo", "opponents": ["sensible"]}},
     "env.opponents[0]: unknown policy of perudo 'sensible'; known: bluffer, model, "
     "probabilistic, random"),
    ({"env": {"game": "perudo"}, "eval": {"opponents": ["probabilistic:bogus=1"]}},
     "eval.opponents[0]: policy 'probabilistic' has no parameter 'bogus'"),
    ({"env": {"game": "perudo", "dice": 6}},
     "env.dice must be 1–5 (5 is the official game), got 6"),
    ({"env": {"game": "perudo", "shaping": -1}}, "env.shaping must be a number ≥ 0, got -1"),
    ({"env": {"game": "liars_dice"}},
     "env.game must be one of 'pagadores', 'perudo', 'paye', 'pasch', got 'liars_dice'"),
    ({"env": {"dice": 3}},
     "env.dice is Perudo's (env.game 'perudo'); Dados de Pagadores takes env.cards, got "
     "env.dice 3"),
    ({"env": {"shaping": 0.5}},
     "env.shaping is Perudo's or Pasch's (env.game 'perudo' or 'pasch'), got 0.5"),
    ({"env": {"game": "perudo", "last_round_starts": 0.5}},
     "env.last_round_starts is Pasch's (env.game 'pasch'), got 0.5"),
    ({"env": {"game": "pasch", "last_round_starts": 1.5}},
     "env.last_round_starts must be a number in [0, 1], got 1.5"),
    ({"env": {"opponents": ["probabilistic"]}}, "env.opponents[0]: unknown policy "
     "'probabilistic'"),
])
def test_configs_that_mix_the_games_are_refused_in_one_line(data: dict, message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        config_from_dict(data, name="x")
    assert str(caught.value).startswith(message) and "\n" not in str(caught.value)


def test_dice_shaping_pays_each_die_as_it_is_lost() -> None:
    config = config_from_dict({"env": {"game": "perudo", "dice": 2, "shaping": 0.25,
                                       "opponents": ["random"]}}, name="x")
    env = config.env.make()
    assert isinstance(env, DiceShaping)
    plain = config_from_dict({"env": {"game": "perudo", "dice": 2, "opponents": ["random"]}},
                             name="x").env.make()
    for seed in range(5):
        (_, info), _ = env.reset(seed=seed), plain.reset(seed=seed)
        done, extra = False, []
        while not done:  # the same actions in both: the same games
            action = int(np.flatnonzero(info["action_mask"])[-1])
            _, shaped, done, _, info = env.step(action)
            _, reward, _, _, _ = plain.step(action)
            extra.append(shaped - reward)
        game, seat = env.unwrapped.game, env.unwrapped.seat
        lost_mine, lost_theirs = 2 - game.dice_counts[seat], 2 - game.dice_counts[1 - seat]
        assert sum(extra) == pytest.approx(0.25 * (lost_theirs - lost_mine))
        assert all(x in (-0.25, 0.0, 0.25) for x in np.round(extra, 9))


# ------------------------------------------------------------------ the evaluator
def test_the_evaluator_rotates_seats_and_reports_wilson_intervals() -> None:
    result = evaluate_game("perudo", ["probabilistic", "bluffer"], num_players=3, num_games=7,
                           seed=2, options={"dice": 2})
    assert result.num_games == 9  # rounded up to a multiple of the table size
    first, reused = result.rows
    assert (first.copies, first.trials, first.seat_counts) == (1, 9, (3, 3, 3))
    assert (reused.copies, reused.trials, reused.seat_counts) == (2, 18, (6, 6, 6))
    for row in result.rows:
        assert (row.ci_low, row.ci_high) == wilson_interval(row.wins, row.trials)
    assert first.wins + reused.wins == 9  # one winner a game
    assert "Perudo: 9 games, 3 players, dice 2" in result.table()


def test_the_evaluator_is_seeded_and_measures_what_it_says() -> None:
    a = evaluate_game("perudo", ["probabilistic", "random"], num_games=300, seed=5)
    assert a == evaluate_game("perudo", ["probabilistic", "random"], num_games=300, seed=5)
    assert a != evaluate_game("perudo", ["probabilistic", "random"], num_games=300, seed=6)
    strong, weak = a.rows
    assert strong.ci_low > 0.5 > weak.ci_high  # the bidder beats random clearly
    # Two players: both are in every round and each round costs one die (P2.4, P4.2).
    assert strong.cards_lost_per_round + weak.cards_lost_per_round == pytest.approx(1.0)
    assert 5 <= a.mean_game_length <= 9  # five dice lost by the loser, at most four by the winner


def test_the_seat_a_game_starts_from_rotates_with_the_entries() -> None:
    """Seat 0 starts the first round (P2.2): rotation gives each entry both seats, so both
    start equally often."""
    result = evaluate_game("perudo", ["probabilistic", "probabilistic"], num_games=200, seed=1)
    assert result.rows[0].seat_counts == (100, 100) == result.rows[1].seat_counts
    assert result.rows[0].wins + result.rows[1].wins == 200


def test_rounds_out_counts_the_rounds_a_seat_had_dice() -> None:
    result = evaluate_game("perudo", ["random", "random"], num_players=3, num_games=3, seed=0,
                           options={"dice": 1})
    assert result.mean_game_length == 2.0  # one die each: two rounds knock two players out
    from pagadores_env.perudo.engine import Game

    game = Game(3, 1)
    game.apply_roll(((2,), (3,), (4,)))
    game.apply_action(bid_action(3, 2))
    game.apply_action(DUDO)  # seat 1 calls, only one 2 (P4.2): seat 0 loses its die
    assert rounds_out(game) == [1, 2, 2]  # round 2 has begun for the two left
    game.apply_roll(((), (5,), (5,)))
    game.apply_action(bid_action(1, 5))
    game.apply_action(DUDO)  # two 5s: the caller, seat 2, is out
    assert game.winner == 1 and rounds_out(game) == [1, 2, 2]


def test_the_evaluator_refuses_bad_input_in_one_line() -> None:
    for kwargs, message in [({"options": {"dice": 6}},
                             r"dice must be 1–5 \(5 is the official game\), got 6"),
                            ({"num_players": 7}, "players must be an integer 2–6, got 7"),
                            ({"agents": ["random"] * 3},
                             r"agents must be 2 \(the agent under test and its opponent\), "
                             "got 3")]:
        args = {"agents": ["random", "probabilistic"]} | kwargs
        with pytest.raises(ValueError, match=message):
            evaluate_game("perudo", **args)
    with pytest.raises(ValueError, match="unknown policy of perudo 'sensible'"):
        evaluate_game("perudo", ["random", "sensible"])

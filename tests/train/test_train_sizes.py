"""Training one policy for several table sizes (``env.num_players`` a list): the config's
checks, and a run that trains on every size and is evaluated at each, exactly where the
solver covers the size."""

from __future__ import annotations

import csv

import pytest

pytest.importorskip("stable_baselines3")


from pagadores_env.core.policies import make_policy
from pagadores_train.evaluation.yardstick import learner_exact
from pagadores_train.learners import sb3
from pagadores_train.run.config import config_from_dict, table_sizes
from pagadores_train.settings import ConfigError


@pytest.mark.parametrize("env, message", [
    ({"num_players": []}, "env.num_players must be 2–6 or a non-empty list"),
    ({"num_players": [2, 7]}, "env.num_players[1] must be 2–6, got 7"),
    ({"num_players": [2, 3], "cards": [3, 3]}, "env.cards must be one count"),
    ({"num_players": [2, 3], "opponents": ["random", "sensible"]},
     "env.opponents must be one spec"),
    ({"num_players": [3, 4], "learner_seat": 3}, "a seat 0–2, got 3 (the smallest of"),
])
def test_bad_size_lists_are_refused_in_one_line(env, message):
    with pytest.raises(ConfigError) as caught:
        config_from_dict({"env": env})
    assert message in str(caught.value) and "\n" not in str(caught.value)


def test_sizes_are_the_listed_ones_once_each():
    config = config_from_dict({"env": {"num_players": [4, 2, 2, 6]}})
    assert table_sizes(config.env) == [2, 4, 6] and config.env.num_players == [4, 2, 2, 6]
    assert table_sizes(config_from_dict({"env": {"num_players": 5}}).env) == [5]


@pytest.mark.slow
def test_a_run_at_two_sizes_trains_on_both_and_is_evaluated_at_each(tmp_path, monkeypatch):
    monkeypatch.setenv("PAGADORES_CACHE", str(tmp_path / "cache"))
    config = config_from_dict({
        "seed": 3, "total_timesteps": 1024, "checkpoint_every": 100_000,
        "algo": {"hyperparams": {"n_steps": 64, "batch_size": 128}},
        "env": {"num_players": [2, 3], "cards": 2, "opponents": ["sensible"],
                "selfplay": {"every": 512, "sample": "latest", "scripted_share": 0.5}},
        "vec_env": {"n_envs": 8, "kind": "batch"},
        "eval": {"every": 0, "games": 40, "final_games": 60, "opponents": ["sensible"],
                 "compare": ["sensible"]},
        "output_dir": str(tmp_path), "progress_bar": False}, name="mixed")
    seen: set[int] = set()
    real = sb3.make_vec_env

    def spy(config, *opponents):  # the sizes the training games were played at
        env = real(config, *opponents)
        step = env.venv.step_wait

        def step_wait():
            out = step()
            seen.update(i["num_players"] for i in out[3] if "num_players" in i)
            return out
        env.venv.step_wait = step_wait
        return env

    monkeypatch.setattr(sb3, "make_vec_env", spy)
    result = sb3.train(config)
    assert seen == {2, 3}
    assert [(r.players, r.opponent) for r in result.final] == [(2, "sensible"), (3, "sensible")]
    two, three = result.final
    assert two.exact is not None and 0 < two.exact.win_probability < 1  # the 2-player yardstick
    model = make_policy(f"model:path={result.run_dir / 'model.zip'}")
    measured = learner_exact(model, ["sensible"], 3, 2, 3)
    assert three.exact_win == pytest.approx(measured.win_probability["sensible"], abs=1e-12)
    assert three.nash_conv == pytest.approx(measured.nash_conv, abs=1e-12)
    with open(result.run_dir / "final_eval.csv", newline="") as f:
        assert [r["opponent"] for r in csv.DictReader(f)] == ["sensible (2p)", "sensible (3p)"]
    with open(result.run_dir / "compare.csv", newline="") as f:
        assert [r["opponent"] for r in csv.DictReader(f)] == ["sensible (2p)", "sensible (3p)"]
    table = result.table().splitlines()
    assert [line.split()[0] for line in table[2:6]] == ["trained", "sensible"] * 2
    assert "sensible (3p)" in table[4] and table[0].rstrip().endswith("NashConv")
    assert (result.run_dir / "learning_curve.png").stat().st_size > 0

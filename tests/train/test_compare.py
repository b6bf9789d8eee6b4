"""The final table's comparison rows (``eval.compare``, ``pagadores_train.evaluation.compare``):
agents measured on the trained policy's measures, their exact numbers cached on disk and read back,
a damaged cache set aside (never deleted), models never cached.

Every test caches in its own folder (``PAGADORES_CACHE``); the table is 3 players with 2
cards, so each exact pass takes well under a second."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("stable_baselines3")


from pagadores_env.core.policies import make_policy
from pagadores_train.evaluation import compare
from pagadores_train.evaluation.yardstick import learner_exact
from pagadores_train.run import model_eval
from pagadores_train.run.config import config_from_dict
from pagadores_train.run.reports import RunResult
from pagadores_train.settings import ConfigError

TABLE = {"num_players": 3, "cards": 2}


@pytest.fixture
def folder(tmp_path, monkeypatch):
    path = tmp_path / "cache"
    monkeypatch.setenv("PAGADORES_CACHE", str(path))
    return path


@pytest.fixture
def solves(monkeypatch):
    """The learner_exact calls compare_agents makes (agent specs' names, in order)."""
    calls: list[object] = []

    def spy(player, *args, **kwargs):
        calls.append(player)
        return learner_exact(player, *args, **kwargs)

    monkeypatch.setattr(model_eval, "learner_exact", spy)
    return calls


def config(tmp_path, compared=("sensible", "random")):
    return config_from_dict({
        "env": TABLE | {"opponents": ["sensible"]},
        "eval": {"games": 30, "final_games": 60, "opponents": ["sensible", "stop-first"],
                 "compare": list(compared)},
        "output_dir": str(tmp_path / "runs")}, name="t")


@pytest.mark.slow
def test_compared_agents_get_the_trained_policys_measures_exactly(folder, solves, tmp_path):
    cfg = config(tmp_path)
    compared = model_eval.compare_agents(cfg)
    assert list(compared) == ["sensible", "random"]
    for spec, results in compared.items():
        assert [r.opponent for r in results] == ["sensible", "stop-first"]
        measured = learner_exact(make_policy(spec), ["sensible", "stop-first"], 3, 2)
        for r in results:
            assert r.stats.trials == 60
            assert r.exact_win == pytest.approx(measured.win_probability[r.opponent], abs=1e-12)
            assert r.nash_conv == pytest.approx(measured.nash_conv, abs=1e-12)
    # sensible in a table of sensible players: the fair share, exactly (R1.3 seats rotated)
    assert compared["sensible"][0].exact_win == pytest.approx(1 / 3, abs=1e-12)
    assert len(solves) == 2


@pytest.mark.slow
def test_a_second_run_reads_the_cache_instead_of_solving(folder, solves, tmp_path):
    cfg = config(tmp_path)
    first = model_eval.compare_agents(cfg)
    assert len(solves) == 2 and compare.cache_path().exists()
    second = model_eval.compare_agents(cfg)
    assert len(solves) == 2  # nothing solved again
    assert [[(r.exact_win, r.nash_conv) for r in rs] for rs in second.values()] == \
        [[(r.exact_win, r.nash_conv) for r in rs] for rs in first.values()]


def test_a_damaged_cache_is_set_aside_and_rebuilt(folder, solves, tmp_path, capsys):
    folder.mkdir()
    compare.cache_path().write_text('{"entries": [1, 2')
    model_eval.compare_agents(config(tmp_path, ["sensible"]))
    aside = folder / (compare.CACHE_NAME + ".damaged")
    assert aside.read_text() == '{"entries": [1, 2'  # kept, not deleted
    assert "did not read" in capsys.readouterr().err
    assert len(json.loads(compare.cache_path().read_text())["entries"]) == 1
    assert len(solves) == 1


def test_only_seed_independent_named_agents_are_cached():
    assert compare.cache_key("lookahead", ["sensible"], 3, 10, 0) is not None
    assert compare.cache_key("model:path=m.zip", ["sensible"], 3, 10, 0) is None
    assert compare.cache_key("sensible", ["model:path=m.zip"], 3, 10, 0) is None
    assert compare.cache_key("sensible", ["sensible"], 3, 10, 0) != \
        compare.cache_key("sensible", ["sensible"], 3, 9, 0)


@pytest.mark.slow
def test_the_final_table_puts_every_agent_under_each_opponent(folder, tmp_path):
    cfg = config(tmp_path)
    final = model_eval.evaluate_player(make_policy("threshold"), cfg, 60, True,
                                  lambda at: learner_exact(make_policy("threshold"),
                                                           ["sensible", "stop-first"], 3, 2))
    table = RunResult(tmp_path, 0, 0.0, final, model_eval.compare_agents(cfg)).table()
    lines = table.splitlines()
    assert lines[0].split()[:2] == ["agent", "opponent"] and lines[0].endswith("NashConv")
    body = [line.split() for line in lines[2:8]]
    opponents = [row[2] if row[0] == "trained" else row[1] for row in body]  # 2-word name
    assert opponents == ["sensible"] * 3 + ["stop-first"] * 3
    assert [row[0] for row in body] == ["trained", "sensible", "random"] * 2


@pytest.mark.parametrize("value, message", [
    ("sensible", "eval.compare must be a non-empty list"),
    (["nobody"], "eval.compare[0]: unknown policy 'nobody'"),
])
def test_bad_compare_lists_are_refused(value, message, tmp_path):
    with pytest.raises(ConfigError, match=message.replace("[", r"\[").replace("]", r"\]")):
        config_from_dict({"eval": {"compare": value}})


def test_a_cache_hit_is_one_status_line_and_a_miss_reports_its_solver_pass(folder, capsys):
    """A run's log tells where its exact numbers came from: the miss's solver pass reports
    its positions (``learner_exact(..., progress=)``), the hit that replaces it says so."""
    from pagadores_train.progress import LINES

    key = compare.cache_key("sensible", ["random"], 3, 2, 0)

    def compute():
        return learner_exact(make_policy("sensible"), ["random"], 3, 2,
                             progress=LINES, label="sensible: exact")

    first = compare.cached_exact(key, compute, progress=LINES, label="sensible: exact")
    missed = capsys.readouterr().err.splitlines()
    assert missed[0].startswith("sensible: exact: ") and missed[0].endswith(" positions")
    assert missed[-1].startswith("sensible: exact: done [")
    assert compare.cached_exact(key, compute, progress=LINES, label="sensible: exact") == first
    assert capsys.readouterr().err == f"sensible: exact: from the cache {compare.cache_path()}\n"

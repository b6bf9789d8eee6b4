"""The search trainer (``pagadores_train.learners.search.trainer``): what a run writes and when,
that a resumed run ends bit for bit where an uninterrupted one does, Ctrl-C, ``--fresh``, the lock,
damaged checkpoints, that training lowers the exact NashConv, and its config's one-line errors.

The runs are tiny (``tests/train/runs.py``: 3 players with 2 cards, 8 games an iteration)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("stable_baselines3")
pytest.importorskip("matplotlib")

from pagadores_agents.search.value_net import ValueNet
from pagadores_env.core.policies import make_policy
from pagadores_env.pagadores.solver import nash_conv
from pagadores_train.learners.search.config import (
    SearchConfig,
    load_search_config,
    search_config_from_dict,
)
from pagadores_train.learners.search.learn import ValueLearner
from pagadores_train.learners.search.trainer import CHECKPOINT_LEARNER, LAYOUT, resume_step, train
from pagadores_train.learners.trainers import trainer_for
from pagadores_train.run.folder import Interrupted, RunError, numbered
from pagadores_train.run.lock import FolderInUse, hold_run_folder
from pagadores_train.settings import ConfigError
from tests.train.runs import SEARCH_TINY, interrupt_when, rows, tiny_search, truncate

#: The columns of an evaluation that do not depend on when it ran.
MEASURES = ("timesteps", "opponent", "games", "wins", "win_rate", "mean_placement")
#: An evaluation every run, as few games as will do.
QUICK = {"eval": SEARCH_TINY["eval"] | {"every": 0, "games": 4}}


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A finished tiny run, trained once per module (per worker) that asks."""
    config = tiny_search(tmp_path_factory.mktemp("search"))
    return {"config": config, "result": train(config), "run": config.run_dir}


def copy_of(finished: dict[str, Any], tmp_path: Path, **changes: Any) -> SearchConfig:
    """A copy of the finished run in ``tmp_path``, and its config there (``changes`` to keys
    that may change when a run resumes)."""
    shutil.copytree(finished["run"], tmp_path / "search")
    return tiny_search(tmp_path, **changes)


def net(path: Path) -> list[np.ndarray]:
    return [a for layer in ValueNet.load(path).layers for a in layer]


def same_net(a: Path, b: Path) -> bool:
    return all(np.array_equal(x, y) for x, y in zip(net(a), net(b), strict=True))


def steps(run: Path) -> list[int]:
    return sorted(numbered(run / "checkpoints", CHECKPOINT_LEARNER))


def measures(path: Path) -> list[dict[str, str]]:
    return [{k: r[k] for k in MEASURES} for r in rows(path)]


def fallbacks(capsys: pytest.CaptureFixture[str]) -> list[str]:
    """The lines a run said on stderr about the checkpoint it fell back to (its status lines
    go there too)."""
    return [line for line in capsys.readouterr().err.splitlines() if "resuming from " in line
            and "the newest learner state" in line]


def listing(run: Path) -> list[str]:
    return sorted(str(p.relative_to(run)) for p in run.rglob("*"))


# --------------------------------------------------------------------------- a run
def test_a_run_writes_what_its_layout_says(finished: dict[str, Any]) -> None:
    run, result = finished["run"], finished["result"]
    saved = steps(run)
    assert result.timesteps == saved[-1] >= 160 and len(saved) == 2
    checkpoints = {f"checkpoints/{kind}_{s}_steps.npz" for s in saved
                   for kind in ("learner", "value")}
    files = {p for p in listing(run) if (run / p).is_file()}
    events = {p for p in files if p.startswith("tensorboard/events.out.tfevents.")}
    assert len(events) == 1
    assert files == {"config.yaml", "value.npz", "eval.csv", "final_eval.csv",
                     "learning_curve.png", "checkpoints/latest.json"} | checkpoints | events
    assert files == {str(p.relative_to(run)) for p in LAYOUT.entries(run) if p.is_file()}
    latest = json.loads((run / "checkpoints" / "latest.json").read_text())
    assert latest["learner"] == f"learner_{saved[-1]}_steps.npz"
    assert resume_step(run) == saved[-1]
    assert same_net(run / "value.npz", run / "checkpoints" / f"value_{saved[-1]}_steps.npz")
    assert load_search_config(run / "config.yaml") == finished["config"]
    assert make_policy(f"search:path={run}").net.num_players == 3
    assert ValueNet.load(run / "value.npz").cards == (2, 2, 2)  # the table it learned at


def test_evaluations_and_checkpoints_are_at_the_trained_steps(finished: dict[str, Any]
                                                              ) -> None:
    """Both come after the iteration that reaches each 80 decisions, labelled with the
    decisions played by then: the learner saved at step N has played N."""
    run = finished["run"]
    saved = steps(run)
    assert [s // 80 for s in saved] == [1, 2]
    for s in saved:
        learner = ValueLearner.load(run / "checkpoints" / f"learner_{s}_steps.npz",
                                    finished["config"].search.learn_settings())
        assert learner.decisions == s
        assert all(np.array_equal(a, b) for a, b in zip(
            [a for layer in learner.net.layers for a in layer],
            net(run / "checkpoints" / f"value_{s}_steps.npz"), strict=True))
    evaluated = [int(r["timesteps"]) for r in rows(run / "eval.csv")]
    assert evaluated == [0, *saved]
    [final] = rows(run / "final_eval.csv")
    assert int(final["timesteps"]) == saved[-1] and int(final["games"]) >= 20


def test_training_halves_the_exact_nash_conv(finished: dict[str, Any], tmp_path: Path
                                             ) -> None:
    """The finished run re-evaluated with ``eval.exact`` (a complete run is not trained
    again) against the untrained net its seed starts from."""
    config = copy_of(finished, tmp_path, eval=SEARCH_TINY["eval"] | {"exact": True})
    result = train(config)
    assert result.timesteps == finished["result"].timesteps
    trained = result.final[0].nash_conv
    assert trained is not None and float(rows(config.run_dir / "final_eval.csv")[0][
        "nash_conv"]) == pytest.approx(trained, abs=1e-5)
    untrained = ValueLearner.new(3, config.cards, config.search.learn_settings(), config.seed)
    before = nash_conv([untrained.player()] * 3, 3, 2).total
    assert trained < before / 2
    assert "NashConv of the trained policy in every seat" in result.table()


def test_a_resumed_run_ends_bit_for_bit_where_an_uninterrupted_one_does(
        finished: dict[str, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A Ctrl-C during the second iteration lets it finish and checkpoints there; the resumed
    run does the evaluation the Ctrl-C left out, then ends with the same net, and measures
    the same at every step, as the run never interrupted."""
    config = tiny_search(tmp_path)
    interrupt_when(monkeypatch, ValueLearner, "iterate", 2)
    with pytest.raises(Interrupted) as stop:
        train(config)
    monkeypatch.undo()
    [saved] = steps(config.run_dir)
    assert (stop.value.timesteps, stop.value.saved_now) == (saved, True)
    assert "Ctrl-C: finishing the iteration from step " in capsys.readouterr().err
    result = train(config)
    assert "resuming from step" in capsys.readouterr().err
    assert result.timesteps == finished["result"].timesteps
    assert same_net(config.run_dir / "value.npz", finished["run"] / "value.npz")
    for name in ("eval.csv", "final_eval.csv"):
        assert measures(config.run_dir / name) == measures(finished["run"] / name)


def test_a_second_ctrl_c_stops_at_once_and_keeps_the_last_checkpoint(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = tiny_search(tmp_path, checkpoint_every=1, **QUICK)
    interrupt_when(monkeypatch, ValueLearner, "back_up", 2, times=2)  # inside the second iteration
    with pytest.raises(Interrupted) as stop:
        train(config)
    [saved] = steps(config.run_dir)
    assert (stop.value.timesteps, stop.value.saved_now) == (saved, False)
    assert json.loads((config.run_dir / "checkpoints" / "latest.json").read_text())[
        "timesteps"] == saved


# --------------------------------------------------------------------------- the folder
def test_fresh_removes_only_what_the_run_wrote(
        finished: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = copy_of(finished, tmp_path)
    run = config.run_dir
    mine = ["notes.txt", "checkpoints/mine.npz", "tensorboard/README"]
    for name in mine:
        (run / name).write_text("mine")
    again = tiny_search(tmp_path, total_timesteps=40, **QUICK)
    result = train(again, fresh=True)
    assert f"starting a new run in {run} (removed the previous run's files)" in (
        capsys.readouterr().err)
    assert all((run / name).read_text() == "mine" for name in mine)
    assert steps(run) == [result.timesteps] and result.timesteps < 80
    assert [int(r["timesteps"]) for r in rows(run / "eval.csv")] == [0]
    assert len(list((run / "tensorboard").glob("events.out.tfevents.*"))) == 1


def test_a_second_run_on_a_held_folder_is_refused(tmp_path: Path) -> None:
    config = tiny_search(tmp_path)
    with hold_run_folder(config.run_dir), pytest.raises(FolderInUse) as refused:
        train(config)
    assert f"{config.run_dir} is in use by process" in str(refused.value)
    assert "\n" not in str(refused.value)
    assert not config.run_dir.exists()


def test_a_folder_of_another_kind_of_run_is_left_alone(tmp_path: Path) -> None:
    config = tiny_search(tmp_path)
    (config.run_dir / "checkpoints").mkdir(parents=True)
    (config.run_dir / "checkpoints" / "latest.json").write_text("{}")
    (config.run_dir / "config.yaml").write_text("algo: {name: PPO}\nenv: {}\n")
    with pytest.raises(RunError, match=r"config.yaml is no config of a search run \(no search: "
                                       r"section\), so .* is not a run folder of ours and is "
                                       "left alone"):
        train(config, fresh=True)


def test_a_damaged_latest_record_or_learner_state_falls_back_in_one_line(
        finished: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Without latest.json's record the newest learner state is the resume point; a newest
    one that does not load leaves the one before, and the run trains on from there to the
    uninterrupted run's net."""
    config = copy_of(finished, tmp_path)
    first, last = steps(config.run_dir)
    (config.run_dir / "checkpoints" / "latest.json").write_text("{")
    assert resume_step(config.run_dir) == last
    train(config)
    assert fallbacks(capsys) == [
        f"{config.run_dir / 'checkpoints'}: latest.json is damaged (empty or not a checkpoint "
        f"record): resuming from learner_{last}_steps.npz, the newest learner state that loads"]
    (config.run_dir / "checkpoints" / "latest.json").unlink()
    truncate(config.run_dir / "checkpoints" / f"learner_{last}_steps.npz")
    train(config)
    [line] = fallbacks(capsys)
    assert f"learner_{last}_steps.npz' is damaged" in line
    assert line.endswith(f"resuming from learner_{first}_steps.npz, the newest learner state "
                         "that loads")
    assert steps(config.run_dir) == [first, last]
    assert same_net(config.run_dir / "value.npz", finished["run"] / "value.npz")


def test_with_no_learner_state_that_loads_the_error_is_one_line(
        finished: dict[str, Any], tmp_path: Path) -> None:
    config = copy_of(finished, tmp_path)
    for path in (config.run_dir / "checkpoints").glob("learner_*_steps.npz"):
        truncate(path)
    before = listing(config.run_dir)
    with pytest.raises(RunError) as refused:
        train(config)
    message = str(refused.value)
    assert message.startswith(f"{config.run_dir} has no usable checkpoint (learner state ")
    assert "is damaged" in message and message.endswith(
        "; pass --fresh to start over or pick another --name")
    assert "\n" not in message
    assert listing(config.run_dir) == before



@pytest.mark.parametrize("damage", ["header not UTF-8", "cut mid-line"])
def test_a_damaged_eval_csv_is_named_its_rows_set_aside_and_the_run_resumes(
        damage: str, finished: dict[str, Any], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A rerun failed with "'utf-8' codec can't decode byte 0xcd in position 2" or "could
    not convert string to float: ''", naming no file (issue 45, item 6). A cut header is
    read as the columns every eval.csv has; a cut last row is the evaluation at the resume
    point, measured again."""
    config = copy_of(finished, tmp_path)
    path = config.run_dir / "eval.csv"
    data = path.read_bytes()
    lines = data.splitlines(keepends=True)
    if damage == "header not UTF-8":
        path.write_bytes(data[:2] + b"\xcd" + data[3:])
        set_aside = lines[0][:2] + b"\xcd" + lines[0][3:]
    else:
        path.write_bytes(data[:-12])
        set_aside = lines[0] + lines[-1][:-12]
    assert train(config).timesteps == finished["result"].timesteps
    out, err = capsys.readouterr()
    [line] = [line for line in err.splitlines() if "eval.csv" in line]
    assert line.startswith(f"{path} is damaged: 1 line that cannot be read")
    assert out == ""  # standard output is for results: train() prints none
    assert (config.run_dir / "eval.csv.damaged").read_bytes() == set_aside
    assert measures(path) == measures(finished["run"] / "eval.csv")


def test_a_changed_search_setting_is_refused_and_a_bigger_total_resumes(
        finished: dict[str, Any], tmp_path: Path) -> None:
    config = copy_of(finished, tmp_path)
    with pytest.raises(ConfigError, match=r"holds a run with a different config "
                                          r"\(search.games changed\)"):
        train(tiny_search(tmp_path, search=SEARCH_TINY["search"] | {"games": 9}))
    with pytest.raises(ConfigError, match="cannot go back"):
        train(tiny_search(tmp_path, total_timesteps=80))
    assert train(config).timesteps == finished["result"].timesteps  # complete: re-evaluated


# --------------------------------------------------------------------------- the config
def test_a_search_config_goes_to_the_search_trainer(tmp_path: Path) -> None:
    both = tmp_path / "both.yaml"
    both.write_text("search: {games: 5}\nrllib: {}\n")
    assert trainer_for(both).train is train  # the search section decides
    path = tmp_path / "s.yaml"
    path.write_text("search: {games: 5}\n")
    config = trainer_for(path).load(str(path))
    assert isinstance(config, SearchConfig) and config.name == "s"
    assert config.search.games == 5


@pytest.mark.parametrize(("change", "message"), [
    ({"search": {"lr": 0}}, "search.lr must be a number > 0, got 0"),
    ({"search": {"explore": 1.5}}, r"search.explore must be a number in \[0, 1\], got 1.5"),
    ({"search": {"games": 0}}, "search.games must be an integer ≥ 1, got 0"),
    ({"search": {"hidden": []}}, "search.hidden must be a non-empty list of layer sizes"),
    ({"search": {"depth": 4}}, "search.depth must be 1–3, got 4"),
    ({"search": {"epochs": 2}}, "unknown key 'search.epochs' \\(allowed: games, explore, "),
    ({"env": {"num_players": 7}}, "env.num_players must be 2–6, got 7"),
    ({"env": {"num_players": 3, "cards": [2, 2]}}, "env.cards must list one count per seat"),
    ({"env": {"reward": "win"}}, "unknown key 'env.reward'"),
    ({"eval": {"opponents": ["nobody"]}}, "eval.opponents\\[0\\]: unknown policy 'nobody'"),
    ({"eval": {"every": -1}}, "eval.every must be an integer ≥ 0, got -1"),
    ({"keep_checkpoints": "all"}, "keep_checkpoints must be an integer ≥ 0, got 'all'"),
    ({"total_timesteps": 0}, "total_timesteps must be an integer ≥ 1, got 0"),
])
def test_bad_config_values_are_named_in_one_line(change: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError, match=message) as caught:
        search_config_from_dict({"search": {}} | change)
    assert "\n" not in str(caught.value)


def test_the_search_section_defaults_are_the_learners() -> None:
    from pagadores_train.learners.search.learn import LearnSettings

    assert search_config_from_dict({}).search.learn_settings() == LearnSettings()


def test_the_curve_draws_the_final_evaluation_after_the_last_evaluation(tmp_path) -> None:
    # a run evaluating before training and at the end only drew one point (its eval.csv)
    from pagadores_train.run.reports import curve_rows
    header = "timesteps,opponent,win_rate\n"
    (tmp_path / "eval.csv").write_text(header + "0,sensible,0.1\n500,sensible,0.2\n")
    (tmp_path / "final_eval.csv").write_text(header + "500,sensible,0.2\n900,sensible,0.3\n")
    rows = curve_rows(tmp_path / "eval.csv", tmp_path / "final_eval.csv")
    assert [r["timesteps"] for r in rows] == ["0", "500", "900"]
    assert [r["timesteps"] for r in curve_rows(tmp_path / "eval.csv")] == ["0", "500"]

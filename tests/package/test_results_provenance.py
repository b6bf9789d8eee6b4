"""Every published results file (``docs/results/**.md``) is held to what made it (issue 45,
item 14): a training run's file to its config (``configs/<name>.yaml``: the learner, the
table, the steps, the opponents and games of its final evaluation), and every file to the
code: the commit it names is in this repository's history, and either the code that computes
results (``pagadores_env``, ``agents``, ``train``, and ``cli`` for a command's file, the run's
config for a run's) is the same now as at that commit, or ``EARLIER_CODE`` below marks the
file with the commit it came from, as the file itself says it. A published file whose code
moved on thus fails here until it is made again (``make results CONFIG=...``, ``make
measurements``, ``make benchmark-results``, ``pagadores bench --section solver --out ...``) or
marked; a mark the file no longer needs fails as well.

A ``-dirty`` commit (uncommitted changes beside it) cannot be checked out again: such a file
is always marked."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "docs" / "results"
#: What computes a result; a command's results file also depends on the command line's code.
CODE = ("pagadores_env", "agents", "train")
COMMAND_CODE = (*CODE, "cli")
#: The results files the current code has not made again, with the commit each came from
#: (its ``- commit:`` line). Remove a file's entry when it is made again.
EARLIER_CODE = {
    "benchmark/summary.md": "7b19df23f5d5-dirty",
    "default.md": "abe181081e4c",
    "measured/approx3p_lookahead_exact.md": "7b19df23f5d5-dirty",
    "measured/approx3p_sensible_exact.md": "a530af438be2-dirty",
    "measured/approx4p_lookahead.md": "47da58809871",
    "measured/approx4p_search.md": "47da58809871",
    "measured/approx6p_lookahead.md": "1023ff6f7661",
    "measured/approx6p_search.md": "8688a41296b5-dirty",
    "measured/eval4p_lookahead.md": "47da58809871",
    "measured/eval6p_lookahead.md": "591feb59ca4a",
    "measured/nashconv_3p_search.md": "8dc86224aadc-dirty",
    "measured/nashconv_4p10c_selfplay.md": "a61d45088473-dirty",
    "measured/nashconv_4p10c_sensible.md": "e172f779d4fb-dirty",
    "measured/nashconv_4p5c_lookahead.md": "47da58809871",
    "measured/nashconv_4p5c_search.md": "47da58809871",
    "measured/nashconv_4p5c_selfplay.md": "47da58809871",
    "measured/nashconv_4p5c_sensible.md": "47da58809871",
    "measured/nashconv_5p5c_sensible.md": "3a189db495cc",
    "measured/paye_approx6p_lookahead.md": "76ed90832d4d-dirty",
    "measured/paye_approx6p_paye_6p.md": "4d5af41cb49f-dirty",
    "pasch_2p.md": "0a0e9c82500f",
    "pasch_4p.md": "db97061ab91e",
    "paye_2p.md": "4f23263e782e",
    "paye_4p.md": "6060a9b49e53-dirty",
    "paye_6p.md": "6060a9b49e53-dirty",
    "search_2p.md": "d2bd4716f9dc",
    "search_3p.md": "8dc86224aadc-dirty",
    "search_4p.md": "35ceaaeb9e01",
    "search_6p.md": "74f2f9734e37",
    "selfplay_3p.md": "fdb7279fd45c",
    "selfplay_4p.md": "c9b5b6bfc490",
    "selfplay_6p.md": "1023ff6f7661",
    "solver_scaling_3p.md": "63d7a7bc0cfb",
    "solver_scaling_4p_1to5.md": "2d133819ab38-dirty",
    "solver_scaling_4p_6to7.md": "2d133819ab38-dirty",
    "solver_scaling_4p_8.md": "35b11749a2c4",
    "solver_scaling_4p_9to10.md": "abe181081e4c",
    "solver_scaling_5p_1to3.md": "05721864c731-dirty",
    "solver_scaling_5p_4.md": "1e361a2f4cad",
    "solver_scaling_5p_5.md": "2d133819ab38-dirty",
    "solver_scaling_6p_1to2.md": "2d133819ab38",
    "solver_scaling_6p_3.md": "2d133819ab38-dirty",
}
COMMIT = re.compile(r"^- commit: (?P<commit>\S+)$", re.M)
#: A training run's headline: ``MaskablePPO on 2 players, 802816 timesteps, 68 s → runs/x``
#: or ``search self-play (depth 1) on 2 players, 41609 decisions, 200 s → runs/x``.
HEADLINE = re.compile(r"^(?P<learner>.+) on (?P<players>\d+) players, (?P<steps>\d+) "
                      r"(?:timesteps|decisions), [\d.]+ s → (?P<run>\S+)$", re.M)
#: A row of a final evaluation: the opponent, its games, then a win rate and its interval.
ROW = re.compile(r"(?P<opponent>\S+)\s+(?P<games>\d+)\s+\d\.\d{3}\s+\[")


def published() -> list[str]:
    return sorted(p.relative_to(RESULTS).as_posix() for p in RESULTS.rglob("*.md"))


def git(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True,
                          timeout=60)


def is_run(name: str) -> bool:
    """A training run's results file (``make results`` writes it), not a command's."""
    return (RESULTS / name).read_text(encoding="utf-8").startswith(
        f"# {Path(name).stem}: final evaluation")


def code_of(name: str) -> tuple[str, ...]:
    """The paths whose code computes the results in ``name``."""
    if is_run(name):
        return (*CODE, f"configs/{Path(name).stem}.yaml")
    if name.startswith("benchmark/"):
        return (*COMMAND_CODE, "configs/benchmark")
    return COMMAND_CODE


def test_this_is_a_git_checkout_with_the_history_the_marks_name() -> None:
    # a tarball or a shallow clone cannot tell where a results file came from
    assert git("rev-parse", "--is-inside-work-tree").stdout.strip() == "true"
    assert git("rev-parse", "--is-shallow-repository").stdout.strip() == "false"


@pytest.mark.parametrize("name", published())
def test_a_results_file_comes_from_the_current_code_or_is_marked_with_its_commit(
        name: str) -> None:
    found = COMMIT.search((RESULTS / name).read_text(encoding="utf-8"))
    assert found, f"docs/results/{name} names no commit"
    commit = found["commit"]
    base = commit.removesuffix("-dirty")
    assert re.fullmatch(r"[0-9a-f]{7,40}", base), f"docs/results/{name}: commit {commit!r}"
    assert git("merge-base", "--is-ancestor", base, "HEAD").returncode == 0, (
        f"docs/results/{name} came from {commit}, which is not in this branch's history")
    moved = commit != base or git("diff", "--quiet", base, "HEAD", "--",
                                  *code_of(name)).returncode != 0
    if moved:
        assert EARLIER_CODE.get(name) == commit, (
            f"docs/results/{name} came from {commit} and the code that computes it "
            f"({', '.join(code_of(name))}) has changed since: make it again, or mark it in "
            f"EARLIER_CODE as {name!r}: {commit!r}")
    else:
        assert name not in EARLIER_CODE, (
            f"docs/results/{name} comes from the current code: remove its EARLIER_CODE mark")


def test_every_mark_names_a_published_file() -> None:
    assert not sorted(set(EARLIER_CODE) - set(published()))


def config_of(name: str) -> dict[str, Any]:
    path = ROOT / "configs" / f"{Path(name).stem}.yaml"
    assert path.is_file(), f"docs/results/{name} is a run's results file with no {path.name}"
    data: dict[str, Any] = yaml.safe_load(path.read_text(encoding="utf-8"))
    return data


@pytest.mark.parametrize("name", [name for name in published() if is_run(name)])
def test_a_runs_results_file_agrees_with_its_config(name: str) -> None:
    text, config = (RESULTS / name).read_text(encoding="utf-8"), config_of(name)
    headline = HEADLINE.search(text)
    assert headline, f"docs/results/{name} has no headline of a run"
    players = int(config["env"]["num_players"])
    search = config.get("search")
    learner = (f"search self-play (depth {search.get('depth', 1)})" if search is not None
               else config["algo"]["name"])
    assert (headline["learner"], int(headline["players"])) == (learner, players)
    assert int(headline["steps"]) >= int(config["total_timesteps"])
    run = Path(config.get("output_dir", "runs")) / config.get("name", Path(name).stem)
    assert headline["run"] == run.as_posix()
    evaluation = config["eval"]
    games = int(evaluation.get("games" if search is not None else "final_games", 2000))
    rows = [(row["opponent"], int(row["games"])) for row in ROW.finditer(text)]
    assert {opponent for opponent, _ in rows} == set(evaluation["opponents"])
    # seat-rotated games are rounded up to a whole number of rotations
    assert all(games <= played < games + players for _, played in rows), rows

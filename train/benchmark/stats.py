"""The benchmark's aggregate, with ``rliable`` (Agarwal et al., 2021, "Deep RL at the edge of
the statistical precipice"): from the trial records under ``DIR/trials/``
(``pagadores_train.benchmark.suite``), per algorithm the IQM and the mean of the normalised scores
over all its runs and tasks, each with a stratified-bootstrap 95 % CI; performance profiles
(fraction of runs scoring above τ); and the probability of improvement P(X > Y) of every pair
of algorithms. Written as ``DIR/summary.md`` (Markdown tables) and three PNGs beside it.

An algorithm is aggregated when it has a record for every task and the same seeds on each
(rliable's score matrices are runs × tasks); the summary lists the others as incomplete.
The bootstrap is seeded (``SEED``), so the same records give the same summary.
"""

from __future__ import annotations

import json
import warnings
from collections import Counter
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path
from typing import Any

import numpy as np

from pagadores_env.core.atomic import write_atomic

from ..evaluation.evaluate import figure, save_figure
from ..run.reports import provenance
from .suite import TRIALS

SUMMARY = "summary.md"
PLOTS = {"aggregates": "aggregates.png", "profile": "performance_profile.png",
         "improvement": "probability_of_improvement.png"}
#: Bootstrap resamples (rliable's default for interval estimates is 50,000; 2,000 already
#: pins a 95 % CI's ends to about ±0.01 of the score range here, in a second).
REPS = 2000
SEED = 0


@dataclass(frozen=True)
class Aggregate:
    """Per algorithm its runs × tasks score matrix, and what rliable made of them."""

    tasks: list[str]
    scores: dict[str, np.ndarray]
    incomplete: dict[str, int]  # algorithm → trials found, for those not aggregated
    point: dict[str, np.ndarray]  # algorithm → [IQM, mean]
    interval: dict[str, np.ndarray]  # algorithm → [[IQM low, mean low], [IQM high, mean high]]
    improvement: dict[str, tuple[float, np.ndarray]]  # "X,Y" → (P(X > Y), [low, high])
    wall_time_s: float
    per_task: dict[str, np.ndarray]  # algorithm → tasks × [IQM, low, high] over its seeds


def read_trials(out: str | Path) -> list[dict[str, Any]]:
    """The trial records under ``out/trials/`` (sorted by file name)."""
    return [json.loads(p.read_text()) for p in sorted((Path(out) / TRIALS).glob("*.json"))]


def score_matrices(records: list[dict[str, Any]]
                   ) -> tuple[list[str], dict[str, np.ndarray], dict[str, int]]:
    """The tasks (sorted), each complete algorithm's runs × tasks scores (rows by seed), and
    the trial counts of the incomplete ones."""
    tasks = sorted({r["task"] for r in records})
    by_algo: dict[str, dict[tuple[str, int], float]] = {}
    for r in records:
        by_algo.setdefault(r["algo"], {})[(r["task"], r["seed"])] = float(r["score"])
    scores, incomplete = {}, {}
    for algo, found in by_algo.items():
        seeds = sorted({seed for _, seed in found})
        if all((t, s) in found for t in tasks for s in seeds):
            scores[algo] = np.array([[found[(t, s)] for t in tasks] for s in seeds])
        else:
            incomplete[algo] = len(found)
    return tasks, scores, incomplete


def _iqm_and_mean(scores: np.ndarray) -> np.ndarray:
    from rliable import metrics

    return np.array([metrics.aggregate_iqm(scores), metrics.aggregate_mean(scores)])


def _iqm(scores: np.ndarray) -> np.ndarray:
    from rliable import metrics

    return np.array([metrics.aggregate_iqm(scores)])


def aggregate(records: list[dict[str, Any]], reps: int = REPS) -> Aggregate:
    """IQM, mean and probabilities of improvement with stratified-bootstrap 95 %
    CIs (rliable) over the complete algorithms' score matrices, and each task's IQM over
    the seeds with its bootstrap CI (the baseline table's cells)."""
    from rliable import library, metrics

    tasks, scores, incomplete = score_matrices(records)
    point: dict[str, np.ndarray] = {}
    interval: dict[str, np.ndarray] = {}
    improvement: dict[str, tuple[float, np.ndarray]] = {}
    per_task: dict[str, np.ndarray] = {}
    if scores:
        # rliable hands arch a RandomState, which arch deprecates: not ours to act on.
        warnings.filterwarnings("ignore", "random_state is deprecated", FutureWarning)
        point, interval = library.get_interval_estimates(
            scores, _iqm_and_mean, reps=reps, random_state=np.random.RandomState(SEED))
        pairs = {f"{x},{y}": [scores[x], scores[y]] for x, y in combinations(scores, 2)
                 if scores[x].shape == scores[y].shape}
        if pairs:
            probs, cis = library.get_interval_estimates(
                pairs, metrics.probability_of_improvement, reps=reps,
                random_state=np.random.RandomState(SEED))
            improvement = {k: (float(probs[k]), cis[k].ravel()) for k in probs}
        for algo, matrix in scores.items():
            cells = {t: matrix[:, [k]] for k, t in enumerate(tasks)}
            iqm, cis = library.get_interval_estimates(
                cells, _iqm, reps=reps, random_state=np.random.RandomState(SEED))
            per_task[algo] = np.array([[iqm[t][0], *cis[t][:, 0]] for t in tasks])
    wall = sum(float(r.get("wall_time_s", 0.0)) for r in records)
    return Aggregate(tasks, scores, incomplete, point, interval, improvement, wall, per_task)


def _ci(value: float, low: float, high: float) -> str:
    return f"{value:.3f} [{low:.3f}, {high:.3f}]"


def trial_commits(records: list[dict[str, Any]]) -> str:
    """The commits the trials ran at, with their counts (a suite resumed on a later commit
    mixes them; records written before trials named their commit count as "not recorded")."""
    counts = Counter(str(r.get("commit", "not recorded")) for r in records)
    return ", ".join(f"{commit} ({count} trials)" for commit, count in sorted(counts.items()))


def summary_markdown(agg: Aggregate, records: list[dict[str, Any]]) -> str:
    """The summary's Markdown: the aggregate table, IQM per task with its CI, P(X > Y)."""
    lines = ["# Benchmark summary", "",
             f"{len(records)} trials, {agg.wall_time_s / 3600:.2f} h of trial wall time. "
             "Scores are normalised per task (0 = the uniform-random policy; what 1 means is "
             "in each task file). IQM and mean over all runs and tasks, with stratified-"
             f"bootstrap 95 % CIs ({REPS} resamples, rliable).", "",
             *[f"- {key}: {value}" for key, value in provenance().items()],
             f"- trials run at: {trial_commits(records)}", "",
             "| algorithm | runs × tasks | IQM [95 % CI] | mean [95 % CI] |",
             "|---|---|---|---|"]
    for algo, (iqm, mean) in agg.point.items():
        low, high = agg.interval[algo]
        runs, tasks = agg.scores[algo].shape
        lines.append(f"| {algo} | {runs} × {tasks} | {_ci(iqm, low[0], high[0])} | "
                     f"{_ci(mean, low[1], high[1])} |")
    for algo, count in agg.incomplete.items():
        lines.append(f"| {algo} | incomplete ({count} trials) | | |")
    lines += ["", "## IQM per task [95 % CI] over the seeds", "",
              "| algorithm | " + " | ".join(agg.tasks) + " |",
              "|---|" + "---|" * len(agg.tasks)]
    for algo, cells in agg.per_task.items():
        lines.append(f"| {algo} | " + " | ".join(_ci(*cell) for cell in cells) + " |")
    if agg.improvement:
        lines += ["", "## Probability of improvement", "",
                  "| X | Y | P(X > Y) [95 % CI] |", "|---|---|---|"]
        for pair, (p, (low, high)) in agg.improvement.items():
            x, y = pair.split(",")
            lines.append(f"| {x} | {y} | {_ci(p, low, high)} |")
    drawn = [name for name in PLOTS if name != "improvement" or agg.improvement]
    if agg.scores:
        lines += ["", "## Plots", ""] + [f"![{name}]({PLOTS[name]})" for name in drawn]
    return "\n".join(lines) + "\n"


def plot_aggregates(agg: Aggregate, path: Path) -> None:
    """IQM and mean per algorithm with their CIs, side by side."""
    fig = figure((8.0, 0.6 * len(agg.point) + 1.5))
    axes = fig.subplots(1, 2, sharey=True)
    algos = list(agg.point)
    for k, (ax, name) in enumerate(zip(axes, ("IQM", "mean"), strict=True)):
        values = np.array([agg.point[a][k] for a in algos])
        low = np.array([agg.interval[a][0][k] for a in algos])
        high = np.array([agg.interval[a][1][k] for a in algos])
        ax.errorbar(values, range(len(algos)), xerr=[values - low, high - values], fmt="o",
                    capsize=4)
        ax.set_yticks(range(len(algos)), algos)
        ax.set_xlabel(f"{name} of normalised score")
        ax.grid(axis="x", alpha=0.3)
    save_figure(fig, path)


def plot_profile(agg: Aggregate, path: Path, reps: int = REPS) -> None:
    """Score-distribution performance profiles with their bootstrap bands (rliable)."""
    from rliable import library, plot_utils

    everything = np.concatenate([s.ravel() for s in agg.scores.values()])
    taus = np.linspace(min(0.0, everything.min()), max(1.0, everything.max()), 101)
    profiles, cis = library.create_performance_profile(agg.scores, taus, reps=reps)
    fig = figure()
    ax = fig.subplots()
    plot_utils.plot_performance_profiles(profiles, taus, performance_profile_cis=cis, ax=ax,
                                         xlabel="normalised score τ",
                                         ylabel="fraction of runs with score > τ")
    ax.legend(loc="lower left")
    save_figure(fig, path)


def plot_improvement(agg: Aggregate, path: Path) -> None:
    """P(X > Y) bars with their CIs, one row per pair (rliable)."""
    from rliable import plot_utils

    probs = {k: p for k, (p, _) in agg.improvement.items()}
    cis = {k: ci.reshape(2, 1) for k, (_, ci) in agg.improvement.items()}
    fig = figure((7.0, 0.6 * len(probs) + 2.0))
    # rliable writes its column titles beside and above the axes, outside the layout
    fig.get_layout_engine().set(rect=(0.08, 0.0, 0.84, 0.85))
    plot_utils.plot_probability_of_improvement(probs, cis, ax=fig.subplots())
    save_figure(fig, path)


def write_summary(out: str | Path, reps: int = REPS) -> Aggregate:
    """Aggregate the records under ``out/trials/`` and write ``summary.md`` and the PNGs
    (those with something to draw) into ``out``, each atomically."""
    try:
        import rliable  # noqa: F401  (the benchmark extra; the trials run without it)
    except ImportError:
        raise ValueError("the summary needs rliable: pip install 'pagadores-env[benchmark]'; "
                         "the trial records are kept, rerun the command after installing it"
                         ) from None
    out = Path(out)
    records = read_trials(out)
    agg = aggregate(records, reps)
    write_atomic(out / SUMMARY, summary_markdown(agg, records))
    if agg.scores:
        plot_aggregates(agg, out / PLOTS["aggregates"])
        plot_profile(agg, out / PLOTS["profile"], reps)
    if agg.improvement:
        plot_improvement(agg, out / PLOTS["improvement"])
    return agg

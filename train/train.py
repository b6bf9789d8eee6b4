"""Train a stable-baselines3 agent on Pagadores-v0 from a YAML config.

Read top to bottom, ``train(config)`` does: make the run folder → make the vectorised env →
build the model, or resume it from the folder's last checkpoint → learn with callbacks that
checkpoint and evaluate on a schedule → save the final model → evaluate it against every
evaluation opponent → draw the learning curve.

A run folder ``OUTPUT_DIR/NAME/`` holds:

====================  ===========================================================
config.yaml           the validated config, defaults filled in
model.zip             the final model (load with ``ALGO.load`` or ``model:path=…``)
checkpoints/          ``model_<timesteps>_steps.zip``, ``latest.json`` (resume point),
                      ``replay_buffer.pkl`` for off-policy algorithms
tensorboard/          SB3's tensorboard logs (plus ``eval/win_rate/<opponent>``,
                      ``eval/exact_win/<opponent>`` and ``eval/exploitability``)
eval.csv              the model against each evaluation opponent during training: games,
                      win rate with 95 % CI, timesteps, wall time; with two players also
                      the solver's exact win probability, % of the best response's and
                      the policy's exploitability (``train.exact_report``)
final_eval.csv        the same columns for the final evaluation (``eval.final_games``)
learning_curve.png    eval.csv drawn: win rates over timesteps (+ exploitability)
====================  ===========================================================

Running the same config again continues the run: the model, its timestep count, the eval CSV
and the tensorboard log carry on from the last checkpoint. Seeded runs repeat exactly (a
resumed run is reproducible from its checkpoint, not identical to an uninterrupted run).

Command line: ``python -m train.train CONFIG [--timesteps N] [--fresh] [--no-progress]``.
"""

from __future__ import annotations

import argparse
import csv
import json
import shutil
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import torch
from stable_baselines3.common.base_class import BaseAlgorithm
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.env_util import make_vec_env as sb3_make_vec_env
from stable_baselines3.common.utils import LinearSchedule
from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecEnv, VecMonitor

from pagadores_env.policies import make_policy

from .config import (
    ACTIVATIONS,
    LINEAR,
    Config,
    ConfigError,
    algorithm_class,
    config_from_dict,
    describe,
    load_config,
    save_config,
)
from .evaluate import AgentStats, evaluate
from .exact_report import DRAWN, ExactMetrics, opponent_yardstick, yardstick
from .vec_env import PagadoresVecEnv

EVAL_FIELDS = ("timesteps", "wall_time_s", "opponent", "games", "wins", "win_rate",
               "ci_low", "ci_high", "mean_placement", "exact_win", "percent_of_best_response",
               "exploitability", "exact_vs_drawn_table")
LATEST = "latest.json"
#: Config keys that may differ when a run is continued.
RESUMABLE_CHANGES = frozenset({"total_timesteps", "progress_bar", "name", "output_dir"})


# --------------------------------------------------------------------------- the pipeline
def train(config: Config, fresh: bool = False) -> RunResult:
    """Train (or continue training) ``config`` and evaluate the result; see the module doc."""
    torch.set_num_threads(config.torch_threads)
    run_dir = prepare_run_dir(config, fresh)
    env = make_vec_env(config)
    model, resumed = build_or_resume(config, env, run_dir)
    clock = Clock(resumed.get("wall_time_s", 0.0))
    callbacks = [
        CheckpointEvery(config.checkpoint_every, run_dir / "checkpoints", clock),
        EvaluateEvery(config, run_dir / "eval.csv", clock),
    ]
    remaining = max(0, config.total_timesteps - model.num_timesteps)
    if remaining:
        model.learn(remaining, callback=callbacks, reset_num_timesteps=False,
                    progress_bar=config.progress_bar, tb_log_name=config.algo.name)
        callbacks[0].save(model)  # so a rerun resumes from exactly here
    env.close()
    model.save(run_dir / "model.zip")
    final = final_evaluation(model, config)
    write_rows(run_dir / "final_eval.csv", final, model.num_timesteps, clock())
    plot_learning_curve(run_dir / "eval.csv", run_dir / "learning_curve.png",
                        config.env.num_players)
    return RunResult(run_dir, model.num_timesteps, clock(), final)


def prepare_run_dir(config: Config, fresh: bool) -> Path:
    """Create the run folder and write its config. An existing run may only be continued
    with the same config; ``total_timesteps`` and ``progress_bar`` may change, and ``name``
    and ``output_dir`` only say where the folder is (so a copied run resumes too)."""
    run_dir = config.run_dir
    if fresh and run_dir.exists():
        shutil.rmtree(run_dir)
    saved = run_dir / "config.yaml"
    if saved.exists():
        before, now = _flat(load_config(saved).to_dict()), _flat(config.to_dict())
        changed = [k for k in sorted(before.keys() | now.keys())
                   if k not in RESUMABLE_CHANGES and before.get(k) != now.get(k)]
        if changed:
            raise ConfigError(
                f"{run_dir} holds a run with a different config ({', '.join(changed)} "
                "changed); pick another name or pass --fresh to start over")
    run_dir.mkdir(parents=True, exist_ok=True)
    save_config(config, saved)
    return run_dir


def _flat(data: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """Nested dicts as ``{"algo.hyperparams.gamma": 1.0, ...}``, to name what changed."""
    flat: dict[str, Any] = {}
    for key, value in data.items():
        if isinstance(value, dict) and value:
            flat |= _flat(value, f"{prefix}{key}.")
        else:
            flat[f"{prefix}{key}"] = value
    return flat


def make_vec_env(config: Config) -> VecEnv:
    """``n_envs`` monitored copies of the env, seeded ``seed + i``. Workers of a
    SubprocVecEnv unpickle ``config.env.make``, which imports only the light config module."""
    if config.vec_env.kind == "batch":
        env = config.env
        return VecMonitor(PagadoresVecEnv(
            config.vec_env.n_envs, num_players=env.num_players, cards=env.cards,
            opponents=env.opponents, learner_seat=env.learner_seat, reward=env.reward,
            seed=config.seed))
    vec_cls = {"dummy": DummyVecEnv, "subproc": SubprocVecEnv}[config.vec_env.kind]
    return sb3_make_vec_env(config.env.make, n_envs=config.vec_env.n_envs, seed=config.seed,
                            vec_env_cls=vec_cls)


def build_or_resume(config: Config, env: VecEnv,
                    run_dir: Path) -> tuple[BaseAlgorithm, dict[str, Any]]:
    """A new model, or the one in the run's last checkpoint. Returns it with the checkpoint's
    record (empty for a new model)."""
    algo = algorithm_class(config.algo.name)
    latest = run_dir / "checkpoints" / LATEST
    if not latest.exists():
        model = algo(config.algo.policy, env, seed=config.seed, verbose=0, device="cpu",
                     tensorboard_log=str(run_dir / "tensorboard"),
                     **hyperparams(config))
        return model, {}
    record = json.loads(latest.read_text())
    model = algo.load(latest.parent / record["model"], env=env, device="cpu")
    # Re-seed from the checkpoint so a resumed run repeats; the env seeds move on too.
    model.set_random_seed(config.seed + model.num_timesteps)
    buffer = latest.parent / "replay_buffer.pkl"
    if hasattr(model, "replay_buffer") and buffer.exists():
        model.load_replay_buffer(buffer)
    truncate_rows(run_dir / "eval.csv", model.num_timesteps)
    return model, record


def hyperparams(config: Config) -> dict[str, Any]:
    """The config's hyper-parameters for SB3: ``"lin_<start>"`` becomes a linear schedule
    (SB3 passes it the fraction of the run still to go, 1 → 0) and activation names torch
    classes."""
    params = {name: LinearSchedule(float(value[len(LINEAR):]), 0.0, 1.0)
              if isinstance(value, str) and value.startswith(LINEAR) else value
              for name, value in config.algo.hyperparams.items()}
    policy_kwargs = dict(params.get("policy_kwargs") or {})
    if "activation_fn" in policy_kwargs:
        policy_kwargs["activation_fn"] = getattr(
            torch.nn, ACTIVATIONS[policy_kwargs["activation_fn"]])
    if policy_kwargs:
        params["policy_kwargs"] = policy_kwargs
    return params


# --------------------------------------------------------------------------- playing a model
@dataclass(frozen=True)
class Evaluation:
    """The model against one opponent: Monte-Carlo games (``stats``, the model's row) and, at
    two-player tables, the solver's exact numbers (``train.exact_report``). ``drawn`` marks
    exact numbers against a stochastic opponent: they hold for the one deterministic table
    its calls drew, not for the opponent itself."""

    opponent: str
    stats: AgentStats
    exact: ExactMetrics | None = None
    drawn: bool = False

    def row(self) -> dict[str, Any]:
        """The CSV columns after timesteps and wall time (exact ones empty when absent)."""
        s, x = self.stats, self.exact
        return {"opponent": self.opponent, "games": s.trials, "wins": s.wins,
                "win_rate": round(s.win_rate, 4), "ci_low": round(s.ci_low, 4),
                "ci_high": round(s.ci_high, 4), "mean_placement": round(s.mean_placement, 3),
                "exact_win": "" if x is None else round(x.win_probability, 5),
                "percent_of_best_response":
                    "" if x is None else round(x.percent_of_best_response, 3),
                "exploitability": "" if x is None else round(x.exploitability, 5),
                "exact_vs_drawn_table": "" if x is None else self.drawn}


def evaluate_model(model: BaseAlgorithm, config: Config, games: int) -> list[Evaluation]:
    """The model against every evaluation opponent, on the same seeded games each time so
    points on the learning curve are comparable. The model plays through the
    ``model:path=…`` player (agents.sb3_adapter), from a temporary copy. Exact numbers cost
    one tabulation of the model; opponents' tabulations are cached across evaluations."""
    env = config.env
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "model.zip"
        model.save(path)
        player = make_policy(f"model:path={path}")
        results = [
            Evaluation(opponent, evaluate([player, opponent], num_players=env.num_players,
                                          num_games=games, seed=config.seed, cards=env.cards,
                                          exact=False).rows[0])
            for opponent in config.eval.opponents
        ]
        if env.num_players != 2 or not config.eval.exact:
            return results
        mine = yardstick(player, env.cards)
    return [replace(r, exact=mine.against(theirs), drawn=not theirs.exact)
            for r in results for theirs in [opponent_yardstick(r.opponent, env.cards)]]


def final_evaluation(model: BaseAlgorithm, config: Config) -> list[Evaluation]:
    return evaluate_model(model, config, config.eval.final_games)


# --------------------------------------------------------------------------- callbacks
class Clock:
    """Wall time of the run in seconds, carried over from the checkpoint when resuming."""

    def __init__(self, offset: float = 0.0) -> None:
        self.start = time.perf_counter() - offset

    def __call__(self) -> float:
        return round(time.perf_counter() - self.start, 2)


class _Every:
    """True once each time the timestep count reaches a new multiple of ``every``."""

    def __init__(self, every: int) -> None:
        self.every = every
        self.done = 0

    def start_at(self, timesteps: int) -> None:
        self.done = timesteps // self.every if self.every > 0 else 0

    def due(self, timesteps: int) -> bool:
        if self.every <= 0 or timesteps // self.every <= self.done:
            return False
        self.done = timesteps // self.every
        return True


class CheckpointEvery(BaseCallback):
    """Saves ``model_<t>_steps.zip`` (and the replay buffer of off-policy algorithms) every
    ``every`` timesteps, and points ``latest.json`` at it: the resume point."""

    def __init__(self, every: int, folder: Path, clock: Clock) -> None:
        super().__init__()
        self.schedule = _Every(every)
        self.folder = folder
        self.clock = clock

    def _on_training_start(self) -> None:
        self.schedule.start_at(self.num_timesteps)

    def _on_step(self) -> bool:
        if self.schedule.due(self.num_timesteps):
            self.save(self.model)
        return True

    def save(self, model: BaseAlgorithm) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        name = f"model_{model.num_timesteps}_steps.zip"
        model.save(self.folder / name)
        if hasattr(model, "replay_buffer"):
            model.save_replay_buffer(self.folder / "replay_buffer.pkl")
        record = {"model": name, "timesteps": model.num_timesteps, "wall_time_s": self.clock()}
        (self.folder / LATEST).write_text(json.dumps(record, indent=2))


class EvaluateEvery(BaseCallback):
    """Evaluates the model every ``eval.every`` timesteps (and before a new run's first
    step, for the untrained baseline), appending to the eval CSV and tensorboard."""

    def __init__(self, config: Config, path: Path, clock: Clock) -> None:
        super().__init__()
        self.config = config
        self.schedule = _Every(config.eval.every)
        self.path = path
        self.clock = clock

    def _on_training_start(self) -> None:
        if self.num_timesteps == 0:
            self.run()
        self.schedule.start_at(self.num_timesteps)

    def _on_step(self) -> bool:
        if self.schedule.due(self.num_timesteps):
            self.run()
        return True

    def run(self) -> None:
        results = evaluate_model(self.model, self.config, self.config.eval.games)
        write_rows(self.path, results, self.num_timesteps, self.clock())
        for result in results:
            self.logger.record(f"eval/win_rate/{result.opponent}", result.stats.win_rate)
            if result.exact is not None:
                self.logger.record(f"eval/exact_win/{result.opponent}",
                                   result.exact.win_probability)
        if results and results[0].exact is not None:
            self.logger.record("eval/exploitability", results[0].exact.exploitability)


# --------------------------------------------------------------------------- files
def write_rows(path: Path, results: list[Evaluation], timesteps: int,
               wall_time: float) -> None:
    """Append one CSV row per opponent (header written with the first row)."""
    new = not path.exists()
    with path.open("a", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=EVAL_FIELDS)
        if new:
            writer.writeheader()
        for result in results:
            writer.writerow({"timesteps": timesteps, "wall_time_s": wall_time} | result.row())


def read_rows(path: Path) -> list[dict[str, str]]:
    if not path.exists():
        return []
    with path.open(newline="") as f:
        return list(csv.DictReader(f))


def truncate_rows(path: Path, timesteps: int) -> None:
    """Drop evaluations after ``timesteps``: a resumed run redoes them."""
    rows = [r for r in read_rows(path) if int(r["timesteps"]) <= timesteps]
    path.unlink(missing_ok=True)
    if rows:
        with path.open("w", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=EVAL_FIELDS)
            writer.writeheader()
            writer.writerows(rows)


def plot_learning_curve(csv_path: Path, png_path: Path, num_players: int) -> None:
    """Win rate against each opponent over timesteps: Monte-Carlo points with their 95 % CI
    as a band, and the exact win probability as a dashed line when the solver gave one; then
    a second panel with the policy's exact exploitability (log scale)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = read_rows(csv_path)
    exact = bool(rows) and all(r["exact_win"] for r in rows)
    fig, axes = plt.subplots(1, 2 if exact else 1, figsize=(12 if exact else 8, 5),
                             squeeze=False, gridspec_kw={"width_ratios": [2, 1][:1 + exact]})
    ax = axes[0][0]
    for opponent in dict.fromkeys(r["opponent"] for r in rows):
        mine = [r for r in rows if r["opponent"] == opponent]
        x = [int(r["timesteps"]) for r in mine]
        line, = ax.plot(x, [float(r["win_rate"]) for r in mine], marker="o", label=opponent)
        ax.fill_between(x, [float(r["ci_low"]) for r in mine],
                        [float(r["ci_high"]) for r in mine], alpha=0.2, color=line.get_color())
        if exact:
            ax.plot(x, [float(r["exact_win"]) for r in mine], linestyle="--",
                    color=line.get_color())
    ax.axhline(1 / num_players, color="grey", linestyle=":", label="fair share")
    ax.set(xlabel="timesteps", ylabel="win rate", ylim=(0, 1),
           title=f"{png_path.parent.name}: win rate (points: games, 95% CI"
                 + ("; dashed: exact)" if exact else ")"))
    ax.legend(loc="lower right", fontsize="small")
    if exact:
        by_step = {int(r["timesteps"]): float(r["exploitability"]) for r in rows}
        right = axes[0][1]
        right.plot(list(by_step), [max(v, 1e-6) for v in by_step.values()], marker="o")
        right.set(xlabel="timesteps", ylabel="exploitability (exact)", yscale="log",
                  title="exploitability (0 = optimal)")
    fig.tight_layout()
    fig.savefig(png_path, dpi=100)
    plt.close(fig)


# --------------------------------------------------------------------------- result
@dataclass
class RunResult:
    run_dir: Path
    timesteps: int
    wall_time_s: float
    final: list[Evaluation]

    def table(self) -> str:
        """The final evaluation, one line per opponent, with the exact columns (two players)
        and the notes they need."""
        exact = all(r.exact is not None for r in self.final)
        head = f"{'opponent':<24} {'games':>6} {'win rate':>9}  {'95% CI':<14}"
        if exact:
            head += f"  {'exact win':>10}  {'% of best response':>18}"
        lines = [head, "-" * len(head)]
        for r in self.final:
            s = r.stats
            line = (f"{r.opponent:<24} {s.trials:>6} {s.win_rate:>9.3f}  "
                    f"[{s.ci_low:.3f}, {s.ci_high:.3f}]")
            if r.exact is not None:
                win = f"{r.exact.win_probability:.4f}{DRAWN if r.drawn else ' '}"
                line += f"  {win:>10}  {r.exact.percent_of_best_response:>17.1f}%"
            lines.append(line)
        if exact:
            lines += [
                f"exploitability of the trained policy: {self.final[0].exact.exploitability:.4f}"
                " (exact; 0 = optimal play)",
                "exact win: the solver's win probability, averaged over who insteeks first",
                "% of best response: exact win / what the best reply to that opponent wins",
            ]
            if any(r.drawn for r in self.final):
                lines.append(f"{DRAWN} stochastic opponent: exact numbers are against the one "
                             "deterministic table its calls drew")
        return "\n".join(lines)


# --------------------------------------------------------------------------- command line
def build_parser(parser: argparse.ArgumentParser | None = None) -> argparse.ArgumentParser:
    parser = parser or argparse.ArgumentParser(prog="python -m train.train")
    parser.description = "Train an SB3 agent on Pagadores-v0 from a YAML config, then evaluate it."
    parser.epilog = "config keys (YAML, nested by the dots):\n" + describe()
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.add_argument("config", help="YAML config file, e.g. configs/default.yaml")
    parser.add_argument("--timesteps", type=int, metavar="N",
                        help="override total_timesteps (smoke tests)")
    parser.add_argument("--name", help="override the run name (the run folder)")
    parser.add_argument("--output-dir", help="override output_dir")
    parser.add_argument("--fresh", action="store_true",
                        help="delete an existing run folder of this name instead of resuming")
    parser.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    return parser


def run(args: argparse.Namespace) -> int:
    """Run the parsed command line; prints the evaluation table. Exit code 2 on a bad config."""
    try:
        config = load_config(args.config)
        overrides = {"total_timesteps": args.timesteps, "name": args.name,
                     "output_dir": args.output_dir}
        data = config.to_dict() | {k: v for k, v in overrides.items() if v is not None}
        if args.no_progress:
            data["progress_bar"] = False
        config = config_from_dict(data)
        result = train(config, fresh=args.fresh)
    except ConfigError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    print(f"\n{config.algo.name} on {config.env.num_players} players, "
          f"{result.timesteps} timesteps, {result.wall_time_s:.0f} s → {result.run_dir}")
    print(result.table())
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    return run(build_parser().parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())

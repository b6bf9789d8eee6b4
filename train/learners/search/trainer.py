"""Search self-play training at one Pagadores table: ``pagadores train`` with a config that has
a ``search:`` section (``configs/search_3p.yaml``, ``configs/search_2p.yaml``).

What it trains: the value net of the search player (``pagadores_agents.search.player``: the round at
hand searched exactly over the dice, the net's values where it ends), by the learner of
``pagadores_train.learners.search.learn`` (``ValueLearner``): an **iteration** plays
``search.games`` self-play games of the player in every seat, backs up the round starts they
reached, fewest cards first, and fits the net after each slice of them. Everything is numpy; the
trained player is ``search:path=OUTPUT_DIR/NAME`` (``depth=`` as ``search.depth``), playable
wherever a player spec goes.

What a step is: ``total_timesteps``, ``checkpoint_every`` and ``eval.every`` count
**decisions** (stop / throw again) of every seat in the self-play games, as an RLlib self-play
run counts its env steps. Iterations are the unit of work: a run stops after the iteration
that reaches ``total_timesteps`` (a game is never cut), and checkpoints and evaluations happen
after the iteration that reaches each multiple of theirs, labelled with the decisions played
by then: step N is the net trained on the games of N decisions.

Run it::

    pagadores train configs/search_3p.yaml [--timesteps N] [--name NAME] [--output-dir DIR]
                    [--fresh] [--eval-games N] [--no-exact] [--no-progress]

The run folder ``OUTPUT_DIR/NAME/`` holds:

====================  ===========================================================
config.yaml           the validated config, defaults filled in
value.npz             the final value net (``search:path=`` plays it)
checkpoints/          ``value_<N>_steps.npz`` (the net) and ``learner_<N>_steps.npz`` (the
                      learner's whole state: net, Adam, buffer, generator, decisions) of
                      the newest ``keep_checkpoints`` checkpoints, and ``latest.json``, the
                      resume point
tensorboard/          tensorboard events (``torch.utils.tensorboard``, as SB3 writes
                      its runs'; none without it): per iteration ``search/loss``,
                      ``search/buffered_positions``, ``search/new_positions``,
                      ``search/iteration_s``; per evaluation the SB3 run's ``eval/…``
eval.csv              the player against each evaluation opponent at step 0 and every
                      ``eval.every`` decisions: an SB3 run's columns
                      (``pagadores_train.run.reports``), exact where the solver covers the table
eval.csv.damaged      only after ``eval.csv`` was found damaged: its lines that could not
                      be read, as they were (``pagadores_train.run.reports``)
final_eval.csv        the same columns for the final evaluation
learning_curve.png    eval.csv drawn (``reports.plot_learning_curve``)
results.md            the final table as printed, with what printed it
run.lock              while a run holds the folder (``pagadores_train.run.lock``)
====================  ===========================================================

Every file is written atomically (``pagadores_env.core.atomic``; tensorboard's events
excepted), the checkpoint's files before ``latest.json``, so a kill at any moment leaves the
previous resume point whole. A folder holding such files but no search run's ``config.yaml``
is refused (``pagadores_train.run.folder``); ``--fresh`` removes exactly the files above but
``eval.csv.damaged`` (kept for you to read) and nothing else.

Resume: running the same config again continues from ``latest.json``'s learner state, and
continues **bit for bit**: the learner's state is all there is (no other generator draws),
so a run stopped and resumed at any checkpoint ends with the net an uninterrupted run ends
with (``tests/train/test_search_train.py``). Only ``RESUMABLE`` keys may differ
(``total_timesteps``, ``progress_bar``, ``name``, ``output_dir``, ``keep_checkpoints``,
``eval.games``, ``eval.exact``). A missing or damaged ``latest.json``, or a learner state
that does not load, falls back to the newest learner state that loads (said in one line);
with none it stops with a one-line error. Evaluations and checkpoints past the resume point
are dropped (redone), and an evaluation due at the resume point but missing is done first. A
complete run is not trained again: its final evaluation is redone.

Ctrl-C during an iteration lets the iteration finish (a second at 2 cards; at 3 players with
10 cards 50 games took 40–80 s on a busy 2-core machine), saves a checkpoint there and stops;
a second Ctrl-C stops at once and keeps the previous checkpoint; during an evaluation it stops
at once and saves the checkpoint of the step evaluated. ``train`` then raises
``run_folder.Interrupted``. SIGTERM does what Ctrl-C does (``pagadores_train.signals``).

Evaluation: the player (``ValueLearner.player(search.depth)``) against each
``eval.opponents`` on the same seeded games each time (``model_eval.evaluate_player``), with
the solver's exact numbers where it covers the table: at 2 players the exact win and the
player's exploitability, at 3 or more its NashConv in every seat and its exact win against each
opponent, from one solver pass (``yardstick.learner_exact``), at every evaluation whose pass
asks no more than ``model_eval.FINAL_ROWS`` policy rows (3 players with 10 cards and two
opponents ask 1.5e8: the search answers all rows of one position with one search; such a pass
took 13 minutes on a busy 2-core machine, so ``eval.every`` decides much of a run's time). The
final evaluation plays ``search:path=RUN_DIR`` from the folder, as RLlib's does
(``model_eval.evaluate_run``), reusing the exact numbers of an evaluation of the same net.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from pagadores_agents.run_folders import CHECKPOINT_NET, CHECKPOINTS, FINAL_NET, LATEST
from pagadores_agents.search.value_net import ValueNet
from pagadores_env.core.atomic import write_atomic

from ...progress import BARS, LINES, Phase, Reporter
from ...run.callbacks import Every, evaluation_missing
from ...run.config import evaluation_config
from ...run.folder import (
    CONFIG,
    Clock,
    Interrupted,
    Layout,
    check_not_backwards,
    load_newest,
    newest_first,
    numbered,
    saved_config,
    saved_step,
    say,
    warn,
    with_section,
    write_config,
)
from ...run.lock import hold_run_folder
from ...run.memory import check_memory
from ...run.model_eval import Evaluation, evaluate_player, evaluate_run, exact_pass
from ...run.reports import (
    RESULTS,
    RunResult,
    eval_rows,
    eval_scalars,
    plot_learning_curve,
    read_rows,
    truncate_rows,
    wall_time_at,
    write_csv,
)
from ...signals import stopping
from .config import RESUMABLE, SECTION, SearchConfig, SearchSettings, load_search_config
from .learn import IterationReport, LearnSettings, ValueLearner

#: The learner's whole state at a checkpoint (``ValueLearner.save``).
CHECKPOINT_LEARNER = re.compile(r"learner_(\d+)_steps\.npz")
EVAL, FINAL_EVAL, CURVE, TENSORBOARD = ("eval.csv", "final_eval.csv", "learning_curve.png",
                                        "tensorboard")
#: What a search run writes (``--fresh`` removes exactly these): the module docstring's table
#: but ``eval.csv.damaged``.
LAYOUT = Layout("a search run", (CONFIG, FINAL_NET, EVAL, FINAL_EVAL, CURVE, RESULTS),
                {CHECKPOINTS: (CHECKPOINT_NET.pattern, CHECKPOINT_LEARNER.pattern,
                               re.escape(LATEST)),
                 TENSORBOARD: (r"events\.out\.tfevents\..+",)},
                with_section(SECTION))


# --------------------------------------------------------------------------- checkpoints
def save_checkpoint(learner: ValueLearner, run_dir: Path, wall_time_s: float,
                    keep: int) -> int:
    """Write the learner's state and its net as the checkpoint at its step, then point
    ``latest.json`` at it, then drop all but the newest ``keep`` checkpoints (0: none); the
    step saved."""
    folder, steps = run_dir / CHECKPOINTS, learner.decisions
    folder.mkdir(parents=True, exist_ok=True)
    name = f"learner_{steps}_steps.npz"
    learner.save(folder / name)
    learner.net.save(folder / f"value_{steps}_steps.npz")
    record = {"learner": name, "timesteps": steps, "wall_time_s": wall_time_s,
              "step_means": "trained"}
    write_atomic(folder / LATEST, json.dumps(record, indent=2))
    if keep:
        for pattern in (CHECKPOINT_LEARNER, CHECKPOINT_NET):
            for old in newest_first(folder, pattern)[keep:]:
                old.unlink()
    return steps


@dataclass(frozen=True)
class ResumePoint:
    """A run's learner as a checkpoint saved it, and the run's wall time then."""

    learner: ValueLearner
    wall_time_s: float


def has_progress(run_dir: Path) -> bool:
    """Whether the folder holds a trained run: a checkpoint record, a learner state or a
    final net."""
    folder = run_dir / CHECKPOINTS
    return ((folder / LATEST).exists() or (run_dir / FINAL_NET).exists()
            or bool(newest_first(folder, CHECKPOINT_LEARNER)))


def resume_point(run_dir: Path, settings: LearnSettings) -> ResumePoint:
    """The learner of ``latest.json``'s checkpoint, else (said on stderr, in one line) of the
    newest learner state that loads; ``RunError`` in one line if none does
    (``run_folder.load_newest``)."""
    learner, record = load_newest(run_dir, "learner", CHECKPOINT_LEARNER,
                                  lambda path: ValueLearner.load(path, settings),
                                  "learner state that loads")
    wall_time_s = (record["wall_time_s"] if record is not None
                   else wall_time_at(run_dir / EVAL, learner.decisions))
    return ResumePoint(learner, wall_time_s)


def resume_step(run_dir: Path) -> int | None:
    """The step a rerun of the search run in ``run_dir`` resumes from: ``latest.json``'s,
    else the newest learner state's (None: there is none). Reads no state."""
    return saved_step(run_dir, "learner", CHECKPOINT_LEARNER)


def drop_after(run_dir: Path, steps: int, training: bool) -> None:
    """Forget what a run did after its resume point ``steps``: the evaluations and the
    checkpoints past it (an uninterrupted run redoes them), and the final net if the run
    trains on (``search:path=`` then plays the newest checkpoint's)."""
    truncate_rows(run_dir / EVAL, steps, say=warn)
    for pattern in (CHECKPOINT_LEARNER, CHECKPOINT_NET):
        for step, path in numbered(run_dir / CHECKPOINTS, pattern).items():
            if step > steps:
                path.unlink()
    if training:
        (run_dir / FINAL_NET).unlink(missing_ok=True)


# --------------------------------------------------------------------------- reporting
class Board:
    """The run's tensorboard log (``tensorboard/``), written through
    ``torch.utils.tensorboard`` as SB3's runs are; nothing where it is not installed (said
    once). A resumed run hides the events its first log left past the resume point."""

    def __init__(self, folder: Path, resumed_at: int | None) -> None:
        try:
            from torch.utils.tensorboard import SummaryWriter
        except ImportError as err:
            warn(f"no tensorboard log: {err}")
            self.writer = None
            return
        purge = None if resumed_at is None else resumed_at + 1
        self.writer = SummaryWriter(str(folder), purge_step=purge)

    def scalars(self, values: dict[str, float], step: int) -> None:
        """Add ``values`` at ``step``."""
        if self.writer is not None:
            for key, value in values.items():
                self.writer.add_scalar(key, value, step)
            self.writer.flush()

    def iteration(self, report: IterationReport, step: int) -> None:
        """What an iteration did, at the step it reached."""
        self.scalars({"search/loss": report.loss, "search/buffered_positions": report.buffered,
                      "search/new_positions": report.new_positions,
                      "search/iteration_s": report.seconds}, step)

    def close(self) -> None:
        """Write what is left and close the log."""
        if self.writer is not None:
            self.writer.close()


def net_key(net: ValueNet, settings: SearchSettings) -> bytes:
    """What decides the player's play, as bytes (for ``model_eval.exact_pass``)."""
    return (b"".join(a.tobytes() for layer in net.layers for a in layer)
            + f"{settings.depth},{settings.specials}".encode())


def player_spec(config: SearchConfig) -> str:
    """``search:path=RUN_DIR`` with the config's ``depth`` and ``specials`` where they are not
    the player's defaults."""
    options = {"depth": config.search.depth if config.search.depth != 1 else None,
               "specials": config.search.specials}
    return f"search:path={config.run_dir}" + "".join(
        f",{key}={value}" for key, value in options.items() if value is not None)


def final_evaluation(config: SearchConfig, steps: int, wall_time_s: float,
                     progress: Reporter) -> list[Evaluation]:
    """The run's player (``search:path=RUN_DIR``) against every evaluation opponent, with the
    exact numbers where the solver covers the table; written to ``final_eval.csv``."""
    net = ValueNet.load(config.run_dir / FINAL_NET)
    final = evaluate_run(player_spec(config), evaluation_config(config), progress,
                         net_key(net, config.search),
                         "exact pass of the player")
    write_csv(config.run_dir / FINAL_EVAL, eval_rows(final, steps, wall_time_s))
    return final


# --------------------------------------------------------------------------- the pipeline
def saved_run(config: SearchConfig, fresh: bool) -> SearchConfig | None:
    """The saved config of the run to continue, or None to start anew (``fresh``, or nothing
    trained yet). Reads only: ``RunError`` for a folder that is not a search run of ours,
    ``ConfigError`` for a run of another config."""
    run_dir = config.run_dir
    LAYOUT.check_ours(run_dir)
    if fresh or not has_progress(run_dir):
        return None
    return saved_config(run_dir, config, load_search_config, RESUMABLE)


def train(config: SearchConfig, fresh: bool = False, force: bool = False,
          progress: Reporter | None = None) -> RunResult:
    """Train (or continue) ``config`` and evaluate the result; see the module doc. Raises
    ``ConfigError``/``RunError`` before changing anything in the run folder (``FolderInUse``
    for a folder another run holds: ``pagadores_train.run.lock``, ``force`` as there),
    ``Interrupted`` on Ctrl-C or SIGTERM once the run has started. ``progress`` reports the
    long phases (default: bars, or status lines with ``progress_bar: false``)."""
    with stopping():  # SIGTERM as Ctrl-C, for the whole run
        check_memory()  # a limit too small for any run, before the folder is touched
        saved_run(config, fresh)  # refuses a folder that is not ours before locking it
        with hold_run_folder(config.run_dir, force, say=warn):
            return train_locked(config, fresh,
                                progress or (BARS if config.progress_bar else LINES))


def train_locked(config: SearchConfig, fresh: bool, progress: Reporter) -> RunResult:
    """``train`` once this process holds the run folder: the learner built anew or loaded
    (before anything in the folder changes), the folder set up, ``Run.learn``, the final net
    and evaluation, the learning curve."""
    run_dir, settings = config.run_dir, config.search.learn_settings()
    saved = saved_run(config, fresh)
    if saved is None:
        learner = ValueLearner.new(config.env.num_players, config.cards, settings, config.seed)
        clock, saved_at = Clock(), None
        start = f"starting a new run in {run_dir}" + (
            " (removed the previous run's files)" if LAYOUT.entries(run_dir) else "")
        LAYOUT.remove(run_dir)
    else:
        point = resume_point(run_dir, settings)
        learner, clock, saved_at = point.learner, Clock(point.wall_time_s), point.learner.decisions
        check_not_backwards(config, saved, saved_at)
        training = saved_at < config.total_timesteps
        drop_after(run_dir, saved_at, training)
        start = (f"resuming from step {saved_at:,} in {run_dir}" if training else
                 f"run {run_dir} is already complete at {saved_at:,} steps: re-evaluating")
    write_config(run_dir, config.to_dict())
    say(start)
    run = Run(config, learner, clock, progress, Board(run_dir / TENSORBOARD, saved_at), saved_at)
    try:
        run.learn()
    finally:
        run.board.close()
    try:  # the last checkpoint is at the learner's step
        learner.net.save(run_dir / FINAL_NET)
        final = final_evaluation(config, learner.decisions, clock(), progress)
        plot_learning_curve(run_dir / EVAL, run_dir / CURVE, [config.env.num_players],
                            run_dir / FINAL_EVAL)
    except KeyboardInterrupt:
        raise Interrupted(learner.decisions, saved_now=False) from None
    return RunResult(run_dir, learner.decisions, clock(), final)


@dataclass
class Run:
    """A search run while it trains: its learner and what it reports to; ``saved_at`` is the
    step of its newest checkpoint (None: none yet)."""

    config: SearchConfig
    learner: ValueLearner
    clock: Clock
    progress: Reporter
    board: Board
    saved_at: int | None
    iterating: bool = False  # an iteration is running: the learner's state is changing
    stop: bool = False  # a Ctrl-C is held until the iteration ends
    since: int = 0  # the step the running iteration started from

    def learn(self) -> None:
        """The evaluation missing at the start (a new run's untrained one, or one a Ctrl-C
        cut), then iterations up to ``total_timesteps`` (``iterations``). ``Interrupted`` on
        Ctrl-C (module docstring)."""
        config, start = self.config, self.learner.decisions
        try:
            with stopping(self.defer):
                last = max((int(r["timesteps"]) for r in read_rows(config.run_dir / EVAL)),
                           default=-1)
                if evaluation_missing(start, last, config.eval.every):
                    self.evaluate()
                if start < config.total_timesteps:
                    with self.progress.phase("training", config.total_timesteps - start,
                                             "decision") as phase:
                        self.iterations(phase)
        except KeyboardInterrupt:
            if self.iterating:  # a second Ctrl-C in an iteration: its state is half-changed
                raise Interrupted(self.saved_at, saved_now=False) from None
            raise Interrupted(self.save_on_interrupt()) from None

    def iterations(self, phase: Phase) -> None:
        """Iterate until ``total_timesteps`` decisions, evaluating and then checkpointing
        after the iterations that reach their multiples (the evaluation first: a checkpoint
        never passes a missing one), and checkpointing at the end; ``phase`` hears the
        decisions and, beside them, what the iteration is doing."""
        learner, config, start = self.learner, self.config, self.learner.decisions
        evaluations, checkpoints = Every(config.eval.every), Every(config.checkpoint_every)
        evaluations.start_at(start)
        checkpoints.start_at(start)

        def note(done: int, total: int, what: str) -> None:
            phase.note(f"{what} {done:,}/{total:,}")

        while learner.decisions < config.total_timesteps:
            self.iterating, self.since = True, learner.decisions
            report = learner.iterate(note)
            self.iterating = False
            steps = learner.decisions
            phase.total = max(phase.total, steps - start)  # the last games may run over
            phase.advance_to(steps - start, f"{report.buffered:,} positions, "
                                            f"loss {report.loss:.4f}")
            self.board.iteration(report, steps)
            if self.stop:
                raise KeyboardInterrupt
            if evaluations.due(steps):
                self.evaluate()
            if checkpoints.due(steps) or steps >= config.total_timesteps:
                self.checkpoint()

    def defer(self, name: str) -> bool:
        """Hold a first Ctrl-C or SIGTERM (``name``) during an iteration, said in one line
        (``pagadores_train.signals.stopping``)."""
        if not self.iterating or self.stop:
            return False
        self.stop = True
        warn(f"{name}: finishing the iteration from step {self.since:,}, then saving a "
             f"checkpoint ({name} again to stop at once and keep the previous checkpoint)")
        return True

    def evaluate(self) -> list[Evaluation]:
        """The player over the learner's net against every evaluation opponent, added to
        ``eval.csv`` and the tensorboard log at the learner's step (exact numbers at every
        evaluation the solver covers within ``model_eval.FINAL_ROWS``)."""
        config, steps = self.config, self.learner.decisions
        player = self.learner.player(config.search.depth)
        exact = exact_pass(player, self.progress, "exact pass of the player",
                           net_key(self.learner.net, config.search))
        results = evaluate_player(player, evaluation_config(config), config.eval.games, True,
                                  exact, self.progress, f"evaluation at step {steps:,}")
        path = config.run_dir / EVAL
        write_csv(path, read_rows(path) + eval_rows(results, steps, self.clock()))
        self.board.scalars(eval_scalars(results), steps)
        return results

    def checkpoint(self) -> None:
        """Save the checkpoint at the learner's step (``save_checkpoint``)."""
        self.saved_at = save_checkpoint(self.learner, self.config.run_dir, self.clock(),
                                        self.config.keep_checkpoints)

    def save_on_interrupt(self) -> int | None:
        """Checkpoint the learner after a Ctrl-C between iterations; the step saved, or None
        if a second Ctrl-C stopped the save (the previous checkpoint then stands)."""
        try:
            self.checkpoint()
        except KeyboardInterrupt:
            return None
        return self.saved_at


def headline(config: SearchConfig, result: RunResult) -> str:
    """The line above a search run's final table."""
    return (f"search self-play (depth {config.search.depth}) on {config.env.num_players} "
            f"players, {result.timesteps} decisions, {result.wall_time_s:.0f} s → "
            f"{result.run_dir}")

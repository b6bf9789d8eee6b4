"""``pagadores train``: train from a YAML config, then print (and write to the run's
``results.md``) the final evaluation table. The trainer is SB3's (``pagadores_train.learners.sb3``),
for a config with an ``rllib:`` section RLlib's (``pagadores_train.learners.rllib``), for one with a
``search:`` section the search trainer (``pagadores_train.learners.search.trainer``);
``pagadores_train.learners.trainers`` picks it.

Exit status: 0 done; 2 a bad config or an unusable run folder (one another run holds among
them), in one line; 1 a file that cannot be written (a full disk), in one line naming the file
and the step a rerun resumes from; 130 Ctrl-C (143 SIGTERM, which ``timeout``, SLURM and
``docker stop`` send: the run saves and stops alike), after one line saying where the run
stands and the command that goes on. Counts may be written as YAML does (``--timesteps 3e5``).
"""

from __future__ import annotations

import argparse
import shlex
import sys
from collections.abc import Sequence
from typing import Any

from pagadores_env.core.atomic import failed_write
from pagadores_env.core.games import GAME_SPECS
from pagadores_train.learners.rllib_config import RLlibConfig
from pagadores_train.learners.search.config import SearchConfig
from pagadores_train.learners.trainers import trainer_for
from pagadores_train.run.config import Config
from pagadores_train.run.folder import Interrupted, RunError
from pagadores_train.run.lock import CannotCreate, FolderInUse
from pagadores_train.run.memory import check_memory
from pagadores_train.settings import ConfigError, count_argument, describe
from pagadores_train.signals import ended_by, exit_status

PROG = "pagadores train"


def build_parser() -> argparse.ArgumentParser:
    """The ``pagadores train`` argument parser (its help lists every config key)."""
    parser = argparse.ArgumentParser(
        prog=PROG, formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Train an agent from a YAML config, then evaluate it: an SB3 agent on "
                    "any game's Gymnasium env (env.game: "
                    + ", ".join(GAME_SPECS) + "; against scripted players, or by self-play "
                    "with env.selfplay); with an rllib: section RLlib PPO self-play (extra "
                    "ray); with a search: section the search player's value net by self-play "
                    "(keys of both below). Running it again resumes the run from its last "
                    "checkpoint. Status lines and errors go to stderr, the final table to "
                    "stdout.",
        epilog="config keys (YAML, nested by the dots):\n" + describe(Config)
               + "\n\nRLlib config keys (configs/rllib_selfplay_3p.yaml):\n"
               + describe(RLlibConfig)
               + "\n\nsearch config keys (configs/search_3p.yaml):\n"
               + describe(SearchConfig))
    parser.add_argument("config", help="YAML config file, e.g. configs/default.yaml")
    parser.add_argument("--timesteps", type=count_argument, metavar="N",
                        help="override total_timesteps (smoke tests)")
    parser.add_argument("--name", help="override the run name (the run folder), a plain name")
    parser.add_argument("--output-dir", help="override output_dir")
    parser.add_argument("--fresh", action="store_true",
                        help="start over instead of resuming: removes the files an earlier run "
                             "of this name wrote (and nothing else)")
    parser.add_argument("--force", action="store_true",
                        help="take over a run folder whose lock another host left (a run "
                             "there that is gone); a lock of this host's is taken over "
                             "without it once its process is gone")
    parser.add_argument("--eval-games", type=count_argument, metavar="N",
                        help="games per opponent in every evaluation, the final one included "
                             "(eval.games and eval.final_games; smoke runs)")
    parser.add_argument("--no-exact", action="store_true",
                        help="leave out the solver's exact numbers (eval.exact: false)")
    parser.add_argument("--no-progress", action="store_true",
                        help="status lines (one per step of each long phase) instead of "
                             "progress bars")
    return parser


def run(args: argparse.Namespace) -> int:
    """Run the parsed command line (see the module docstring); the exit status. The memory a
    run needs is checked first (``pagadores_train.run.memory``: torch's import aborts the
    process under too small a limit), then the config is read and validated (a missing or
    bad one is refused at once), and only then are the trainer's libraries imported."""
    trainer = trainer_for(args.config)
    config = None
    try:
        check_memory()
        config = trainer.from_dict(overridden(trainer.load(args.config).to_dict(), args))
        result = trainer.train(config, fresh=args.fresh, force=args.force)
        headline = trainer.headline(config, result)
        from pagadores_train.run.reports import write_results  # imports torch: only here

        write_results(result, headline)
    except (ConfigError, RunError, FolderInUse, CannotCreate) as err:
        print(f"{PROG}: error: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as stop:
        print(interrupted(stop, args), file=sys.stderr)
        return exit_status()
    except OSError as err:
        line = failed_write(err)
        if line is None or config is None:
            raise
        print(f"{PROG}: error: {line}; "
              f"{rerun_from(trainer.resume_step(config.run_dir), args)}", file=sys.stderr)
        return 1
    print(f"\n{headline}")
    print(result.table())
    return 0


def overridden(data: dict[str, Any], args: argparse.Namespace) -> dict[str, Any]:
    """A config's plain data with the command line's overrides."""
    overrides = {"total_timesteps": args.timesteps, "name": args.name,
                 "output_dir": args.output_dir}
    data = data | {k: v for k, v in overrides.items() if v is not None}
    if args.no_progress:
        data["progress_bar"] = False
    evaluation = dict(data.get("eval") or {})
    if args.eval_games is not None:
        evaluation |= {k: args.eval_games for k in ("games", "final_games") if k in evaluation}
    if args.no_exact:
        evaluation["exact"] = False
    return data | {"eval": evaluation}


def rerun_from(step: int | None, args: argparse.Namespace) -> str:
    """What a rerun of ``args`` does, for the line after a failed write."""
    if step is None:
        return f"no checkpoint was saved yet: a rerun starts over ({command(args)})"
    return f"after freeing space, a rerun resumes from step {step:,} ({command(args, False)})"


def interrupted(stop: KeyboardInterrupt, args: argparse.Namespace) -> str:
    """The one line after Ctrl-C or SIGTERM: where the run stands and the command that goes
    on."""
    how = ended_by()  # "interrupted", "terminated by SIGTERM"
    if not isinstance(stop, Interrupted):  # before the run folder was touched
        return f"{how} before the run started; start it again with: {command(args)}"
    if stop.timesteps is None and not stop.saved_now:
        return (f"{how} before the first checkpoint; start it again with: "
                f"{command(args, fresh=False)}")
    if stop.timesteps is None:  # a second signal stopped the save
        where = "the last checkpoint stands"
    elif stop.saved_now:
        where = f"checkpoint saved at step {stop.timesteps:,}"
    else:
        where = f"the checkpoint at step {stop.timesteps:,} stands"
    return f"{how}: {where}; resume with: {command(args, fresh=False)}"


def command(args: argparse.Namespace, fresh: bool | None = None) -> str:
    """The command line that runs ``args`` again (``fresh`` overrides ``--fresh``; ``--force``
    is never repeated: the run's own lock is gone when it ends)."""
    words = [*PROG.split(), args.config]
    for flag, value in (("--timesteps", args.timesteps), ("--name", args.name),
                        ("--output-dir", args.output_dir)):
        if value is not None:
            words += [flag, str(value)]
    if args.fresh if fresh is None else fresh:
        words.append("--fresh")
    if args.eval_games is not None:
        words += ["--eval-games", str(args.eval_games)]
    for flag, on in (("--no-exact", args.no_exact), ("--no-progress", args.no_progress)):
        if on:
            words.append(flag)
    return shlex.join(words)


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``pagadores train`` with ``argv`` (default: the command line); the exit status."""
    return run(build_parser().parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())

"""``pagadores benchmark``: run a benchmark suite (algorithms × tasks × seeds) on this
machine's cores or on Ray, then aggregate it with rliable (``pagadores_train.benchmark.suite`` and
``pagadores_train.benchmark.stats``)."""

from __future__ import annotations

import argparse
import shlex
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from pagadores_env.core.atomic import failed_write
from pagadores_train.benchmark.stats import SUMMARY, write_summary
from pagadores_train.benchmark.suite import BACKENDS, check_out_dir, load_suite, run_suite
from pagadores_train.progress import BARS, LINES
from pagadores_train.run.folder import warn
from pagadores_train.run.lock import hold_run_folder
from pagadores_train.signals import ended_by, exit_status

from .main import fail

PROG = "pagadores benchmark"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Run every trial (algorithm × task × seed) of a suite file not yet "
                    "finished in --out, writing one JSON record per trial as it finishes "
                    "(a rerun resumes), then write --out/summary.md and PNG plots: IQM and "
                    "mean of the normalised scores with bootstrap 95% CIs, performance "
                    "profiles and probabilities of improvement (rliable).")
    parser.add_argument("suite", help="suite YAML, e.g. configs/benchmark/smoke.yaml")
    parser.add_argument("--out", required=True, help="folder for the trials and the summary")
    parser.add_argument("--backend", default="local", choices=BACKENDS,
                        help="local: a process pool on this machine (default); ray: one Ray "
                             "task a trial")
    parser.add_argument("--address", default=None,
                        help="with --backend ray: a running Ray cluster's address (default: "
                             "start a local Ray)")
    parser.add_argument("--workers", type=int, default=2,
                        help="trials at once (local processes, or the local Ray's CPUs; "
                             "default 2)")
    parser.add_argument("--force", action="store_true",
                        help="take over --out when its lock was left by another host (a suite "
                             "there that is gone)")
    parser.add_argument("--no-progress", action="store_true",
                        help="a status line per finished trial instead of a progress bar")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the suite and print where the summary is. Bad suites, tasks or options end in
    one line and exit status 2 before any trial; Ctrl-C keeps the finished trials (130)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    began = time.perf_counter()
    try:
        suite = load_suite(args.suite)
        check_out_dir(Path(args.out))  # refuses a folder that is not ours before locking it
        with hold_run_folder(Path(args.out), args.force, "benchmark folder", say=warn,
                             option="--out"):
            run_suite(suite, args.out, args.backend, args.workers, args.address,
                      progress=LINES if args.no_progress else BARS)
            write_summary(args.out)
    except ValueError as err:  # SuiteError, FolderInUse, and the config checks' ConfigError
        fail(parser, err)
    except OSError as err:
        line = failed_write(err)
        if line is None:
            raise
        print(f"{PROG}: error: {line}; the finished trials are kept and a rerun "
              "resumes with the others", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        again = shlex.join([*PROG.split(), *(sys.argv[2:] if argv is None else argv)])
        print(f"\n{PROG}: {ended_by()}: finished trials are kept; resume with: {again}",
              file=sys.stderr)
        return exit_status()
    print(f"benchmark done in {time.perf_counter() - began:.0f} s → {args.out}/{SUMMARY}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

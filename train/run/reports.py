"""What a run reports: its CSV rows, its learning curve, its final table and ``results.md``.

``eval.csv``, ``final_eval.csv`` and ``compare.csv`` hold one row per opponent (``EVAL_FIELDS``:
the trained steps and wall time, the Monte-Carlo games and win rate with its 95 % CI, and the
exact columns where the solver measured them); every file is written whole and atomically
(``write_csv``). ``plot_learning_curve`` draws ``eval.csv`` over trained steps.

**A damaged eval.csv** (cut off mid-line by a crash outside this program's atomic writes, or
holding bytes that are not UTF-8) is read line by line (``read_lines``): a line that cannot
be read is left out, and when a run resumes (``truncate_rows``) it is set aside, byte for
byte, in ``eval.csv.damaged`` beside it, with the other rows of the evaluation it cut into,
said in one line naming the file; the evaluations after the resume point are measured again.
``RunResult.table`` is the final table a run prints, and ``write_results`` writes it to the
run's ``results.md`` with what printed it (``provenance``: the commit, platform and library
versions), the file ``make results`` publishes under ``docs/results/`` for the documentation
to quote (``docs/hooks.py``; ``RESULTS_TABLE`` is the form of its table). The commands'
``--out`` write the same form (``results_document``: ``evaluate.md``, ``nashconv.md``).
"""

from __future__ import annotations

import csv
import io
import platform
import re
import subprocess
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pagadores_env.core.atomic import write_atomic

from ..evaluation.yardstick import DRAWN, decimals
from ..progress import plural
from .model_eval import Evaluation

EVAL_FIELDS = ("timesteps", "wall_time_s", "opponent", "games", "wins", "win_rate",
               "ci_low", "ci_high", "mean_placement", "exact_win", "percent_of_best_response",
               "exploitability", "exact_vs_drawn_table", "nash_conv")


#: What a run writes into its folder: files, and in its sub-folders the entries matching
#: these patterns. ``--fresh`` removes exactly these (and leftover temporary files).
#: ``eval.compare``'s agents measured like the model (``compare_agents``), and its columns.
COMPARE = "compare.csv"


COMPARE_FIELDS = ("agent", *EVAL_FIELDS[2:])


#: The final table as printed, with what printed it (``write_results``).
RESULTS = "results.md"


#: The trained policy's name in a final table with ``eval.compare`` rows.
TRAINED = "trained policy"


def eval_rows(results: list[Evaluation], timesteps: int,
              wall_time: float) -> list[dict[str, Any]]:
    """One CSV row per opponent."""
    return [{"timesteps": timesteps, "wall_time_s": wall_time} | r.row() for r in results]


def eval_scalars(results: list[Evaluation]) -> dict[str, float]:
    """An evaluation's tensorboard scalars: ``eval/win_rate/<opponent>``, and where the solver
    measured them ``eval/exact_win/<opponent>``, ``eval/exploitability`` and
    ``eval/nash_conv``."""
    scalars = {}
    for result in results:
        scalars[f"eval/win_rate/{result.opponent}"] = result.stats.win_rate
        if result.exact_win_probability is not None:
            scalars[f"eval/exact_win/{result.opponent}"] = result.exact_win_probability
    if results and results[0].exact_exploitability is not None:
        scalars["eval/exploitability"] = results[0].exact_exploitability
    if results and results[0].exact_nash_conv is not None:
        scalars["eval/nash_conv"] = results[0].exact_nash_conv
    return scalars


def write_csv(path: Path, rows: list[dict[str, Any]],
              columns: Sequence[str] = EVAL_FIELDS) -> None:
    """Write ``rows`` (``columns``) as the whole CSV, atomically."""
    text = io.StringIO(newline="")
    writer = csv.DictWriter(text, fieldnames=columns)
    writer.writeheader()
    writer.writerows(rows)
    write_atomic(path, text.getvalue())


def saved_bytes(save: Callable[[io.BytesIO], object]) -> bytes:
    """What ``save`` (``model.save``, ``fig.savefig``, …) writes to a file object, so that
    ``write_atomic`` can put it in place in one step."""
    buffer = io.BytesIO()
    save(buffer)
    return buffer.getvalue()


#: Where ``truncate_rows`` sets aside, beside an ``eval.csv``, the lines it cannot read (as
#: they were, byte for byte). Not a run file of ``Layout``'s: ``--fresh`` leaves it.
DAMAGED = ".damaged"
#: The columns a row must fill, and those that hold numbers where filled (the learning curve
#: and the resume read them as such).
_FILLED = ("timesteps", "wall_time_s", "opponent", "games", "wins", "win_rate", "ci_low",
           "ci_high")
_NUMBERS = frozenset(EVAL_FIELDS) - {"timesteps", "opponent", "exact_vs_drawn_table"}


@dataclass
class CsvLines:
    """A run's CSV read line by line (``read_lines``): its ``header`` line as it was and its
    ``columns`` (None and ``EVAL_FIELDS`` if the first line is no header of ours: it is then
    one of ``lines``), and each further line as it was with its row, or None where it cannot
    be read: cut off, not UTF-8, not one field per column, a number that is none."""

    header: bytes | None
    columns: list[str]
    lines: list[tuple[bytes, dict[str, str] | None]]

    @property
    def damaged(self) -> int:
        """How many lines cannot be read."""
        return sum(row is None for _, row in self.lines)

    def rows(self) -> list[dict[str, str]]:
        """The rows that can be read."""
        return [row for _, row in self.lines if row is not None]


def read_lines(path: Path) -> CsvLines:
    """The CSV at ``path`` line by line (``CsvLines``); no lines if there is no such file."""
    raw = path.read_bytes().splitlines(keepends=True) if path.exists() else []
    names = _fields(raw[0]) if raw else None
    if names and set(names) <= {*EVAL_FIELDS, *COMPARE_FIELDS} and len(set(names)) == len(names):
        return CsvLines(raw[0], names, [(line, _row(line, names)) for line in raw[1:]])
    return CsvLines(None, list(EVAL_FIELDS), [(line, _row(line, EVAL_FIELDS)) for line in raw])


def _fields(line: bytes) -> list[str] | None:
    """The fields of one CSV line; None if it is cut off (``write_csv`` ends every line with
    a line break) or not UTF-8 text."""
    if not line.endswith((b"\n", b"\r")):
        return None
    try:
        return next(csv.reader([line.decode()]), [])
    except (UnicodeDecodeError, csv.Error):
        return None


def _row(line: bytes, columns: Sequence[str]) -> dict[str, str] | None:
    """The row one line holds under ``columns``; None if it cannot be read (``CsvLines``)."""
    fields = _fields(line)
    if fields is None or len(fields) != len(columns):
        return None
    row = dict(zip(columns, fields, strict=True))
    if not row.get("timesteps", "0").isdigit() or not all(row.get(key, "-") for key in _FILLED):
        return None
    try:
        for key in _NUMBERS & row.keys():
            float(row[key] or 0)
    except ValueError:
        return None
    return row


def read_rows(path: Path) -> list[dict[str, str]]:
    """The rows of the CSV at ``path`` that can be read (``read_lines``); none if there is no
    such file yet."""
    return read_lines(path).rows()


def wall_time_at(csv_path: Path, timesteps: int) -> float:
    """The run's wall time at ``timesteps`` as far as its eval.csv tells (for a checkpoint
    found without its latest.json record)."""
    return max((float(r["wall_time_s"]) for r in read_rows(csv_path)
                if int(r["timesteps"]) <= timesteps), default=0.0)


def truncate_rows(path: Path, timesteps: int, say: Callable[[str], None] = print) -> None:
    """Drop evaluations after ``timesteps``: a resumed run redoes them. Lines that cannot be
    read (a file cut off, bytes that are not UTF-8) and the other rows of the evaluations
    they cut into are set aside first (``set_aside``), said by ``say`` in one line."""
    read = read_lines(path)
    cut = set_aside(path, read) if read.damaged else set()
    rows = read.rows()
    kept = [r for r in rows if int(r["timesteps"]) <= timesteps and r["timesteps"] not in cut]
    if kept != rows or read.damaged:
        write_csv(path, kept)
    if read.damaged:
        others = sum(r["timesteps"] in cut for r in rows)
        say(f"{path} is damaged: {read.damaged} {plural('line', read.damaged)} that cannot "
            "be read (cut off, or not UTF-8 text)"
            + (f" and the {others} other {plural('row', others)} of the evaluation they cut "
               "into" if others else "")
            + f" set aside in {path.name}{DAMAGED}; evaluations after the resume point "
            f"(step {timesteps:,}) are measured again")


def set_aside(path: Path, read: CsvLines) -> set[str]:
    """Append to the file ``path`` + ``DAMAGED`` beside ``path`` (a new one starts with
    ``read``'s header) the lines of ``read`` that cannot be read and the rows of the
    evaluations they cut into (the step a damaged line starts with, else the step of the row
    before it), each as it was; the steps of those evaluations."""
    steps: set[str] = set()
    step = None
    for line, row in read.lines:
        if row is not None:
            step = row["timesteps"]
        elif (found := re.match(rb"(\d+),", line)) or step is not None:
            steps.add(found[1].decode() if found else str(step))
    lines = [line for line, row in read.lines if row is None or row["timesteps"] in steps]
    side = path.with_name(path.name + DAMAGED)
    before = side.read_bytes() if side.exists() else read.header or b""
    write_atomic(side, before + b"".join(lines))
    return steps


def curve_rows(csv_path: Path, final: Path | None = None) -> list[dict[str, str]]:
    """The evaluations a learning curve draws: ``csv_path``'s rows, then ``final``'s after its
    last step (``plot_learning_curve``)."""
    rows = read_rows(csv_path)
    last = max((int(r["timesteps"]) for r in rows), default=-1)
    return rows + [r for r in (read_rows(final) if final else []) if int(r["timesteps"]) > last]


def plot_learning_curve(csv_path: Path, png_path: Path, sizes: Sequence[int],
                        final: Path | None = None) -> None:
    """Win rate against each opponent (and table size, in runs at several) over timesteps:
    Monte-Carlo points with their 95 % CI as a band, and the exact win probability as a dashed
    line where the solver gave one; then a second panel with the policy's exact
    exploitability (two players) or NashConv (three or more, or per size in runs at several;
    log scale) at the evaluations that have it. ``final`` (a run's final evaluation, same
    columns) adds its rows after the last step of ``csv_path``'s: a run that evaluates only
    before training and at the end would otherwise draw one point."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = curve_rows(csv_path, final)
    exact = any(r["exact_win"] or r["exploitability"] or r["nash_conv"] for r in rows)
    fig, axes = plt.subplots(1, 2 if exact else 1, figsize=(12 if exact else 8, 5),
                             squeeze=False, gridspec_kw={"width_ratios": [2, 1][:1 + exact]})
    ax = axes[0][0]
    for opponent in dict.fromkeys(r["opponent"] for r in rows):
        mine = [r for r in rows if r["opponent"] == opponent]
        x = [int(r["timesteps"]) for r in mine]
        line, = ax.plot(x, [float(r["win_rate"]) for r in mine], marker="o", label=opponent)
        ax.fill_between(x, [float(r["ci_low"]) for r in mine],
                        [float(r["ci_high"]) for r in mine], alpha=0.2, color=line.get_color())
        solved = [r for r in mine if r["exact_win"]]
        if solved:
            ax.plot([int(r["timesteps"]) for r in solved],
                    [float(r["exact_win"]) for r in solved], linestyle="--",
                    color=line.get_color())
    if len(sizes) == 1:  # at several sizes each opponent's label names its size
        ax.axhline(1 / sizes[0], color="grey", linestyle=":", label="fair share")
    dashed = any(r["exact_win"] for r in rows)
    ax.set(xlabel="trained steps", ylabel="win rate", ylim=(0, 1),
           title=f"{png_path.parent.name}: win rate (points: games, 95% CI"
                 + ("; dashed: exact)" if dashed else ")"))
    ax.legend(loc="lower right", fontsize="small")
    if exact:
        # eval.csv files written before the nash_conv column have exploitability (2 players)
        two = list(sizes) == [2] and any(r["exploitability"] for r in rows)
        measure, name = ("exploitability", "exploitability") if two else ("nash_conv", "NashConv")
        right = axes[0][1]
        def size_of(row: dict[str, str]) -> str:  # its label's "Np)" at several sizes
            return row["opponent"].rpartition(" (")[2] if len(sizes) > 1 else ""

        for size in sorted({size_of(r) for r in rows if r[measure]}):
            by_step = {int(r["timesteps"]): float(r[measure]) for r in rows
                       if r[measure] and size_of(r) == size}
            right.plot(list(by_step), [max(v, 1e-6) for v in by_step.values()], marker="o",
                       label=size.rstrip(")") if len(sizes) > 1 else None)
        if len(sizes) > 1:
            right.legend(fontsize="small")
        right.set(xlabel="trained steps", ylabel=f"{name} (exact)", yscale="log",
                  title=f"{name} (0 = {'optimal play' if two else 'an equilibrium'})")
    fig.tight_layout()
    write_atomic(png_path, saved_bytes(lambda f: fig.savefig(f, format="png", dpi=100)))
    plt.close(fig)


@dataclass
class RunResult:
    """What a finished run reports: its folder, timesteps, wall time, final evaluation and the
    ``eval.compare`` agents measured the same way (by spec)."""

    run_dir: Path
    timesteps: int
    wall_time_s: float
    final: list[Evaluation]
    compared: dict[str, list[Evaluation]] = field(default_factory=dict)

    def table(self) -> str:
        """The final evaluation, one line per opponent (and table size, in runs at several),
        with the exact columns and the notes they need (or the lines saying why there are
        none). With ``compared`` agents, one block per opponent: the trained policy's line,
        then each agent's. Lines end with the agent's own exploitability (2 players) or
        NashConv when there are compared agents or several sizes."""
        rows = [(TRAINED, r) for r in self.final] + [
            (spec, r) for spec, results in self.compared.items() for r in results]
        two = all(r.exact is not None for _, r in rows)  # every row has the 2-player yardstick
        wins = any(r.exact_win_probability is not None for _, r in rows)
        several = any(r.players is not None for _, r in rows)
        # a per-agent measure at line end (Pasch's last-round NashConv comes without wins)
        own = (bool(self.compared) or several) and (
            wins or any(r.exact_nash_conv is not None for _, r in rows))
        agent = max(map(len, self.compared), default=0)
        agent = max(agent, len(TRAINED)) + 1 if agent else 0
        width = max(24, *(len(r.label) + 1 for _, r in rows))
        head = f"{'agent':<{agent}}" if agent else ""
        head += f"{'opponent':<{width}} {'games':>6} {'win rate':>9}  {'95% CI':<14}"
        if wins:
            head += f"  {'exact win':>10}"
        if two:
            head += f"  {'% of best response':>18}"
        if own:
            head += f"  {'exploitability' if two else 'NashConv':>14}"
        lines = [head, "-" * len(head)]
        order = {r.label: i for i, r in enumerate(self.final)}
        for name, r in sorted(rows, key=lambda row: order[row[1].label]):
            s, win = r.stats, r.exact_win_probability
            line = f"{name:<{agent}}" if agent else ""
            line += (f"{r.label:<{width}} {s.trials:>6} {s.win_rate:>9.3f}  "
                     f"[{s.ci_low:.3f}, {s.ci_high:.3f}]")
            if wins:
                shown = "" if win is None else f"{win:.4f}" + (
                    (DRAWN if r.drawn else " ") if two else "")
                line += f"  {shown:>10}"
            if two and r.exact is not None:
                line += f"  {r.exact.percent_of_best_response:>17.1f}%"
            if own:
                value = r.exact.exploitability if two and r.exact else r.exact_nash_conv
                line += f"  {'' if value is None else decimals(value):>14}"
            lines.append(line.rstrip())
        mine = self.final[0]
        if mine.legend:  # a game without a kernel says what its exact numbers mean
            lines += list(dict.fromkeys(line for r in self.final for line in r.legend))
        elif wins and not two and not several:
            lines += [
                f"NashConv of the trained policy in every seat: {decimals(mine.nash_conv)}"
                " (exact; 0 = an equilibrium)",
                "exact win: the solver's win probability with the opponent in every other "
                "seat, averaged over the seat rotation the games play",
            ]
        if several and wins:
            lines.append("exact win: the solver's, where it covers the table size; NashConv at "
                         "2 players is twice the exploitability")
        lines += sorted({r.note for _, r in rows if r.note})
        if two and mine.exact is not None:
            lines += [
                f"exploitability of the trained policy: {decimals(mine.exact.exploitability)}"
                " (exact; 0 = optimal play)",
                "exact win: the solver's win probability, averaged over who insteeks first",
                "% of best response: exact win / what the best reply to that opponent wins",
            ]
            if any(r.drawn for _, r in rows):
                lines.append(f"{DRAWN} stochastic opponent: exact numbers are against the one "
                             "deterministic table its calls drew")
        return "\n".join(lines)


#: The final table in a run's ``results.md`` (and so in the published ``docs/results`` files):
#: the ```text block ``write_results`` writes, which ``docs/hooks.py`` and the tests read.
RESULTS_TABLE = re.compile(r"```text\n(?P<table>.*?)```", re.S)


def write_results(result: RunResult, headline: str) -> Path:
    """Write the run's final table, as printed, to ``results.md`` in its folder, with what
    it was printed with (``provenance``): the file ``make results`` publishes under
    ``docs/results/`` for the documentation to quote."""
    return write_atomic(result.run_dir / RESULTS, results_document(
        f"{result.run_dir.name}: final evaluation", headline, result.table()))


def results_document(title: str, headline: str, table: str) -> str:
    """A results file: ``title``, ``headline`` (what was run), ``provenance``, and ``table``
    as printed, in the text block the documentation quotes (``RESULTS_TABLE``)."""
    lines = [f"# {title}", "", headline, "",
             *[f"- {key}: {value}" for key, value in provenance().items()], "",
             "```text", table, "```", ""]
    return "\n".join(lines)


def is_results_document(text: str) -> bool:
    """Whether ``text`` is a file ``results_document`` wrote (its title, then its provenance
    before its table): the test before a command replaces a file at its ``--out``."""
    lines = text.splitlines()
    head = lines[:lines.index("```text")] if "```text" in lines else []
    return bool(head) and head[0].startswith("# ") and any(
        line.startswith("- commit: ") for line in head)


def provenance() -> dict[str, str]:
    """What a result was computed with: the commit of this checkout (``-dirty`` with
    uncommitted changes; "not a git checkout" for an installed package), the platform, and
    the versions of Python and the libraries that decide the numbers."""
    from importlib.metadata import PackageNotFoundError, version

    root = Path(__file__).resolve().parent.parent
    try:
        commit = subprocess.run(["git", "-C", str(root), "describe", "--always", "--dirty",
                                 "--abbrev=12"], capture_output=True, text=True, timeout=30,
                                check=True).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        commit = "not a git checkout"
    versions = []
    for package in ("torch", "stable-baselines3", "sb3-contrib", "numpy", "numba"):
        try:
            versions.append(f"{package} {version(package)}")
        except PackageNotFoundError:
            continue
    return {"commit": commit, "platform": f"{platform.platform()}, {platform.machine()}",
            "python": platform.python_version(), "libraries": ", ".join(versions)}

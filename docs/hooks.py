"""MkDocs hooks: fill the pages' generated parts from the code at build time, so each fact (a
config key's default, a command's options, an observation field's place, a published result)
has one home, the code or the committed file it comes from, and no page holds a copy of it.

A marker is an HTML comment alone on its line (indentation allowed), outside code blocks; the
hook replaces it with what it names:

``<!-- generated: config-reference -->``
    one table per section of every training config (SB3, RLlib, search), from the dataclasses'
    ``setting(default, check, doc)`` fields, and the benchmark suite's declared keys
``<!-- generated: cli -->``
    ``pagadores --help`` and every subcommand's ``--help``, each under its own heading
``<!-- generated: observation GAME -->``
    the observation layout of GAME (a name in ``pagadores_env.core.games``' table:
    ``pagadores``, ``perudo``, ``paye``, ``pasch``) from its codec's ``FIELDS``
``<!-- generated: picture GAME -->``
    a game of GAME in progress: a PNG of its ``rgb_array`` frame, or its ``ansi`` text where
    the env draws no pictures
``<!-- generated: changelog -->``
    the repository's ``CHANGELOG.md``
``<!-- generated: results-table PATH -->``
    the ``text`` table of a committed results file (PATH relative to the docs folder, e.g.
    ``results/search_3p.md``)
``<!-- generated: results-line PATH TEXT -->``
    the one line of that table that contains TEXT (the rest of the marker, spaces included)
``<!-- generated: results-md-table PATH [TEXT] -->``
    the first Markdown table of a committed results file (a benchmark summary's) that holds
    TEXT: whole if its header does, else its header and the rows that hold TEXT
``<!-- generated: results-headline PATH -->``
    what the results file says was run (its line under the title: the run and its time,
    or the command), as an inline quote

A marker the hook does not know, wrong arguments or a missing file stop the build with one
line naming the page, the marker and what is allowed (``PluginError``).

``RestDocstrings``, a griffe extension (``mkdocs.yml``: the python handler's ``extensions``),
lets the API reference show the code's reST-ish docstrings as their authors meant them, the
docstrings unchanged: simple tables become Markdown tables, ``::`` before a literal block a
colon, and roles such as ``:class:`Game``` code.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import importlib
import inspect
import io
import json
import os
import posixpath
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

import griffe
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

from pagadores_train.run.reports import RESULTS_TABLE  # the table form a run's results.md holds

ROOT = Path(__file__).resolve().parent.parent
MARKER = re.compile(r"<!--\s*generated:\s*(?P<body>.*?)\s*-->")
#: A code fence's opening or closing line (backticks or tildes, any indentation).
FENCE = re.compile(r"\s*(?P<fence>`{3,}|~{3,})")
#: Where the generated pictures go, relative to the docs folder (and so to the site).
PICTURES = "assets/generated"
#: The terminal width ``--help`` is rendered at (argparse wraps to the terminal's).
HELP_COLUMNS = 100
#: The pictured game: its seed, the learner's decisions before the picture, the table size.
PICTURE_SEED, PICTURE_DECISIONS, PICTURE_PLAYERS = 1, 5, 4


class MarkerError(ValueError):
    """A marker that cannot be filled; the message says why, in one line."""


class GameDocs(NamedTuple):
    """Where a game's documented facts live: its Gymnasium env, its observation codec, and a
    scripted opponent to seat at the pictured table."""

    gym_id: str
    codec: str
    opponent: str


def _games() -> dict[str, GameDocs]:
    """Every game of the package's table of games (``pagadores_env.core.games``, where each
    game registers itself), so a new game needs no entry here: its Gymnasium env, the module
    of its observation codec (its ``encode``'s) and its default scripted opponent."""
    import pagadores_env  # noqa: F401  (registers every game)
    from pagadores_env.core.games import GAME_SPECS

    return {name: GameDocs(spec.gym_id, spec.encode.__module__, spec.opponent)
            for name, spec in GAME_SPECS.items()}


GAMES = _games()


# --------------------------------------------------------------------------- markdown helpers
def _inline(text: str) -> str:
    """A docstring's reST-ish text as one line of Markdown: ``code`` in single backticks."""
    return re.sub(r"``(.+?)``", r"`\1`", " ".join(text.split()))


def _cell(text: str) -> str:
    """``text`` as a Markdown table cell: outside code, what Markdown would read as markup
    (``<start>``, ``*``, ``OUTPUT_DIR``) or as a cell's end (``|``) escaped, so the code's
    words show as written (a code span keeps its ``|``: tables do not split there)."""
    parts = re.split(r"(`[^`]*`)", _inline(text))
    return "".join(part if part.startswith("`") else re.sub(r"([\\*_<\[|])", r"\\\1", part)
                   for part in parts)


def _table(header: tuple[str, ...], rows: list[tuple[str, ...]]) -> str:
    """A Markdown table."""
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def _text_block(text: str) -> str:
    """``text`` in a fenced ``text`` block, its fence longer than any run of backticks in it."""
    fence = "`" * max([3, *(len(run) + 1 for run in re.findall("`+", text))])
    return f"{fence}text\n{text.rstrip()}\n{fence}"


def _no_arguments(args: str, what: str) -> None:
    if args:
        raise MarkerError(f"{what} takes no arguments, got {args!r}")


# --------------------------------------------------------------------------- config reference
class _Probe:
    """A value no check accepts: its error message says what the check allows."""

    def __repr__(self) -> str:
        return "<probe>"


def _allowed(check: Callable[[Any, str], Any]) -> str:
    """What a setting's check allows, in its own words (``2–6``, ``one of 'win', 'placement'``),
    read from the error it raises for a value it cannot accept; ``—`` for a check that defers
    to the checks of the whole config (the meaning then says what goes)."""
    from pagadores_train.settings import ConfigError

    key = "KEY"
    try:
        check(_Probe(), key)
    except ConfigError as err:
        said = re.fullmatch(rf"{key} must be (.*), got <probe>", str(err))
        allowed = said[1] if said else str(err)
    else:
        return "—"
    with contextlib.suppress(ConfigError):
        check(None, key)
        allowed += ", or null"
    return allowed


def _type(field: dataclasses.Field) -> str:
    return field.type if isinstance(field.type, str) else inspect.formatannotation(field.type)


def _sections(cls: type, path: str = "") -> Iterator[tuple[str, type, list[dataclasses.Field]]]:
    """``cls``'s section (its key path, class and own keys), then its nested sections'."""
    from pagadores_train.settings import config_keys

    fields = config_keys(cls)
    nested = [f for f in fields if dataclasses.is_dataclass(f.default_factory)]
    yield path, cls, [f for f in fields if f not in nested]
    for f in nested:
        yield from _sections(f.default_factory, f"{path}{f.name}.")


def _default(field: dataclasses.Field) -> str:
    """A field's default as YAML (JSON is YAML) writes it."""
    default = field.default if field.default is not dataclasses.MISSING \
        else field.default_factory()
    return f"`{json.dumps(default, ensure_ascii=False)}`"


def _settings_tables(cls: type) -> str:
    """One table per section of the config dataclass ``cls`` (key, type, default, allowed,
    meaning), the top-level keys first."""
    parts = []
    for path, section, fields in _sections(cls):
        title = f"`{path.rstrip('.')}`" if path else "Top-level keys"
        intro = "" if not path else _inline(inspect.cleandoc(section.__doc__ or "")) + "\n\n"
        rows = [(f"`{f.name}`", f"`{_type(f)}`", _default(f), _cell(_allowed(f.metadata["check"])),
                 _cell(f.metadata["doc"])) for f in fields]
        parts.append(f"### {title}\n\n{intro}"
                     + _table(("key", "type", "default", "allowed", "meaning"), rows))
    return "\n\n".join(parts)


def config_reference(args: str, page: Page, config: MkDocsConfig) -> str:
    """Every key of the training configs, from their dataclasses, and the benchmark suite's
    keys, as far as ``pagadores_train.benchmark.suite`` declares them."""
    _no_arguments(args, "config-reference")
    from pagadores_env.core.games import GAME_SPECS
    from pagadores_train.benchmark import suite as benchmark
    from pagadores_train.learners import rllib_config
    from pagadores_train.learners.search import config as search_config
    from pagadores_train.run import algorithms
    from pagadores_train.run import config as sb3_config

    games = "\n".join(
        f"| `{name}` | `{spec.gym_id}` | "
        + (", ".join(f"`env.{o.name}` (default `{json.dumps(o.default)}`): {_cell(o.help)}"
                     for o in spec.options) or "none")
        + f" | `{spec.opponent}` | {', '.join(f'`{o}`' for o in spec.eval_opponents)} |"
        for name, spec in GAME_SPECS.items())
    hyperparams = [(f"`{name}`", _cell(_allowed(check)))
                   for name, check in {**algorithms.HYPERPARAMS,
                                       **algorithms.LSTM_KWARGS}.items()]
    names = ", ".join(f"`{name}`" for name in [*algorithms.ALGORITHMS, benchmark.SEARCH])
    return "\n\n".join([
        f"## SB3 runs\n\nA config with neither an `{rllib_config.SECTION}:` nor a "
        f"`{search_config.SECTION}:` section (`pagadores_train.run.config.Config`). "
        "`env.game` picks the game; its table options are keys of `env` too (YAML values: a "
        "list where the command line's flag takes comma-separated numbers or JSON), checked "
        "by the game (`pagadores_train.run.games`), and where a config names no players, "
        "`env.opponents` and `eval.opponents` are the game's:\n\n"
        "| `env.game` | env | table options | `env.opponents` | `eval.opponents` |\n"
        "|---|---|---|---|---|\n" + games,
        _settings_tables(sb3_config.Config),
        "### `algo.hyperparams` checked before a run\n\nAny keyword argument of the algorithm's "
        "constructor may go under `algo.hyperparams`; these are checked against their ranges "
        "(`policy_kwargs`' LSTM settings for `RecurrentPPO` included), the others by the type "
        "of their default.",
        _table(("hyper-parameter", "allowed"), hyperparams),
        f"## RLlib runs\n\nA config with an `{rllib_config.SECTION}:` section "
        "(`pagadores_train.learners.rllib_config.RLlibConfig`).",
        _settings_tables(rllib_config.RLlibConfig),
        f"## Search runs\n\nA config with a `{search_config.SECTION}:` section "
        "(`pagadores_train.learners.search.config.SearchConfig`).",
        _settings_tables(search_config.SearchConfig),
        "## Benchmark suites\n\nThe keys a suite and its tasks take (what each means: "
        "[`pagadores_train.benchmark.suite`][pagadores_train.benchmark.suite]).\n\n"
        f"- suite file: {_keys(benchmark.SUITE_KEYS)}\n"
        f"- `algorithms.NAME` (NAME one of {names}): {_keys(benchmark.ALGO_KEYS)}; "
        f"for `{benchmark.SEARCH}`: {_keys(benchmark.SEARCH_KEYS)}\n"
        f"- task file (`{benchmark.TASKS_FOLDER}/NAME.yaml`): {_keys(benchmark.TASK_KEYS)}; "
        f"`score` one of {_keys(benchmark.SCORES, sort=False)}",
    ])


def _keys(keys: Any, sort: bool = True) -> str:
    return ", ".join(f"`{key}`" for key in (sorted(keys) if sort else keys))


# --------------------------------------------------------------------------- command line
def _help(argv: list[str]) -> str:
    """What ``pagadores ARGV --help`` prints, at ``HELP_COLUMNS`` columns."""
    from pagadores_cli.main import main

    out, columns = io.StringIO(), os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = str(HELP_COLUMNS)
    try:
        with contextlib.redirect_stdout(out):
            main([*argv, "--help"])
    except SystemExit as exit_:
        if exit_.code not in (0, None):
            raise MarkerError(f"pagadores {' '.join(argv)} --help exited with {exit_.code}") \
                from None
    finally:
        if columns is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = columns
    if not out.getvalue().strip():
        raise MarkerError(f"pagadores {' '.join(argv)} --help printed nothing")
    return out.getvalue()


def cli_reference(args: str, page: Page, config: MkDocsConfig) -> str:
    """The ``--help`` of ``pagadores`` and of each subcommand, as the terminal shows it."""
    _no_arguments(args, "cli")
    from pagadores_cli.main import build_parser

    # argparse keeps the subcommands only in its (private) list of actions
    commands = next((action.choices for action in build_parser()._actions
                     if isinstance(action.choices, dict)), None)
    if not commands:
        raise MarkerError("pagadores_cli.main.build_parser() has no subcommands")
    return "\n\n".join(f"## `pagadores{' ' if argv else ''}{' '.join(argv)}`\n\n"
                       + _text_block(_help(argv))
                       for argv in [[], *([command] for command in commands)])


# --------------------------------------------------------------------------- games
def _game(args: str, what: str) -> GameDocs:
    if args not in GAMES:
        raise MarkerError(f"{what} takes a game, one of {', '.join(GAMES)}; got {args!r}")
    return GAMES[args]


def _indices(part: slice) -> str:
    return str(part.start) if part.stop - part.start == 1 else f"{part.start}–{part.stop - 1}"


def observation_table(args: str, page: Page, config: MkDocsConfig) -> str:
    """The observation layout of a game, from its codec's ``FIELDS``."""
    from pagadores_env.core.fields import field_slices

    codec = importlib.import_module(_game(args, "observation").codec)
    slices, size = field_slices(codec.FIELDS)
    rows = [(f"`{name}`", _indices(slices[name]), str(length), _cell(meaning))
            for name, length, meaning in codec.FIELDS]
    return (f"{size} values, in this order (`{codec.__name__}.FIELDS`):\n\n"
            + _table(("field", "indices", "size", "values and meaning"), rows))


class Frame(NamedTuple):
    """A game in progress as its env renders it: a PNG, or text where it draws no pictures."""

    png: bytes | None
    text: str
    modes: tuple[str, ...]


@functools.cache
def frame(game: str) -> Frame:
    """``game``'s table at a decision of its learner, in progress: the last decision before
    the episode's end or the ``PICTURE_DECISIONS``-th, whichever comes first, of a learner
    that picks legal actions at random (seeded); rendered once per build."""
    import gymnasium
    import numpy as np
    from gymnasium.envs.registration import load_env_creator
    from PIL import Image

    import pagadores_env  # noqa: F401  (registers the envs)

    docs = GAMES[game]
    modes = tuple(load_env_creator(gymnasium.spec(docs.gym_id).entry_point)
                  .metadata["render_modes"])
    mode = "rgb_array" if "rgb_array" in modes else "ansi"
    env = gymnasium.make(docs.gym_id, num_players=PICTURE_PLAYERS, opponents=[docs.opponent],
                         learner_seat=0, render_mode=mode)
    rng = np.random.default_rng(PICTURE_SEED)
    _, info = env.reset(seed=PICTURE_SEED)
    for _ in range(PICTURE_DECISIONS):
        shown = env.render()
        _, _, ended, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        if ended:
            break
    else:
        shown = env.render()
    env.close()
    if mode == "ansi":
        return Frame(None, shown, modes)
    png = io.BytesIO()
    Image.fromarray(shown).save(png, format="PNG")
    return Frame(png.getvalue(), "", modes)


def picture(args: str, page: Page, config: MkDocsConfig) -> str:
    """A game in progress: a link to its picture (added to the site by ``on_files``), or its
    text where the env draws no pictures."""
    docs = _game(args, "picture")
    shown = frame(args)
    if shown.png is None:
        return (f"`{docs.gym_id}` draws no pictures (render modes: "
                f"{', '.join(shown.modes)}); this is its `render_mode=\"ansi\"` text of a "
                f"game in progress:\n\n" + _text_block(shown.text))
    target = posixpath.relpath(f"{PICTURES}/{args}.png",
                               posixpath.dirname(page.file.src_uri) or ".")
    return f"![A {docs.gym_id} game in progress, as render_mode=\"rgb_array\" draws it]({target})"


# --------------------------------------------------------------------------- committed files
LIST_ITEM = re.compile(r"\s*([-*+]|\d+\.)\s")


def _lists_apart(markdown: str) -> str:
    """``markdown`` with a blank line before each list that follows a paragraph line: GitHub
    starts a list there, Python-Markdown (MkDocs) needs the blank line."""
    lines, in_list = [], False
    for line in markdown.splitlines():
        if LIST_ITEM.match(line):
            if not in_list and lines and lines[-1].strip():
                lines.append("")
            in_list = True
        elif line.strip() and not line[0].isspace():
            in_list = False
        lines.append(line)
    return "\n".join(lines) + "\n"


def changelog(args: str, page: Page, config: MkDocsConfig) -> str:
    """The repository's changelog, which stays the one copy (written for GitHub's Markdown)."""
    _no_arguments(args, "changelog")
    return _lists_apart((ROOT / "CHANGELOG.md").read_text(encoding="utf-8"))


def _results(path: str, config: MkDocsConfig) -> str:
    """The table of the results file at ``path`` (relative to the docs folder)."""
    file = Path(config.docs_dir) / path
    if not path or not file.is_file():
        raise MarkerError(f"no results file {path!r} in the docs folder")
    table = RESULTS_TABLE.search(file.read_text(encoding="utf-8"))
    if table is None:
        raise MarkerError(f"{path} holds no ```text table")
    return table["table"]


def results_table(args: str, page: Page, config: MkDocsConfig) -> str:
    """A committed results file's table, quoted whole."""
    if len(args.split()) != 1:
        raise MarkerError(f"results-table takes one PATH, got {args!r}")
    return _text_block(_results(args, config))


def results_line(args: str, page: Page, config: MkDocsConfig) -> str:
    """The one line of a committed results file's table that holds a text."""
    path, _, text = args.partition(" ")
    text = text.strip()
    if not text:
        raise MarkerError(f"results-line takes PATH and a TEXT to find, got {args!r}")
    lines = [line for line in _results(path, config).splitlines() if text in line]
    if len(lines) != 1:
        raise MarkerError(f"{len(lines)} lines of the table in {path} hold {text!r}, not 1")
    return _text_block(lines[0])


def results_md_table(args: str, page: Page, config: MkDocsConfig) -> str:
    """A committed results file's first Markdown table that holds a text (any table without
    one): whole where its header holds the text, else its header and the rows that do."""
    path, _, text = args.partition(" ")
    text = text.strip()
    file = Path(config.docs_dir) / path
    if not path or not file.is_file():
        raise MarkerError(f"no results file {path!r} in the docs folder")
    tables: list[list[str]] = [[]]  # runs of consecutive table lines
    for line in file.read_text(encoding="utf-8").splitlines():
        if line.startswith("|"):
            tables[-1].append(line)
        elif tables[-1]:
            tables.append([])
    found = next((t for t in tables if t and text in "\n".join(t)), None)
    if found is None:
        raise MarkerError(f"no Markdown table in {path} holds {text!r}")
    header, rows = found[:2], found[2:]
    if text not in header[0]:
        rows = [row for row in rows if text in row]
    return "\n".join(["", *header, *rows, ""]) + "\n"


def results_headline(args: str, page: Page, config: MkDocsConfig) -> str:
    """What a committed results file says was run: the first line under its title."""
    if len(args.split()) != 1:
        raise MarkerError(f"results-headline takes one PATH, got {args!r}")
    file = Path(config.docs_dir) / args
    if not file.is_file():
        raise MarkerError(f"no results file {args!r} in the docs folder")
    lines = [line for line in file.read_text(encoding="utf-8").splitlines()[1:] if line]
    if not lines:
        raise MarkerError(f"{args} says nothing under its title")
    return f"> {lines[0]}\n"


# --------------------------------------------------------------------------- docstrings
#: A reST simple table's border: runs of ``=`` separated by spaces, one per column.
BORDER = re.compile(r" *=+( +=+)+ *")
ROLE = re.compile(r":[a-z]+(?::[a-z]+)?:`~?([^`]+)`")
LITERAL = re.compile(r"(?<=\S)::$", re.M)


def _row_cells(line: str, starts: list[int]) -> list[str]:
    """A table line cut at the columns' starts (the last column may run past its border)."""
    ends = [*starts[1:], None]
    return [line[start:end].strip() for start, end in zip(starts, ends, strict=True)]


def _rest_rows(lines: list[str], starts: list[int]) -> list[list[str]]:
    """A simple table's rows: a line with a blank first column continues the row above."""
    rows: list[list[str]] = []
    for line in filter(str.strip, lines):
        cells = _row_cells(line, starts)
        if cells[0] or not rows:
            rows.append(cells)
        else:
            rows[-1] = [f"{old} {new}".strip() for old, new in zip(rows[-1], cells, strict=True)]
    return rows


def _rest_table(lines: list[str]) -> list[str]:
    """A reST simple table (its lines, borders included: two, or three with a header) as
    Markdown table lines."""
    borders = [i for i, line in enumerate(lines) if BORDER.fullmatch(line)]
    indent = lines[0][:len(lines[0]) - len(lines[0].lstrip())]
    starts = [m.start() for m in re.finditer("=+", lines[0])]
    header = [" ".join(cells) for cells in zip(*_rest_rows(lines[1:borders[1]], starts),
                                               strict=True)] if len(borders) == 3 else []
    rows = _rest_rows(lines[borders[-2] + 1:borders[-1]], starts)
    return [indent + "| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |"
            for row in [header or [""] * len(starts), ["---"] * len(starts), *rows]]


def rest_to_markdown(text: str) -> str:
    """A docstring's reST simple tables, literal-block colons and roles in Markdown."""
    text = LITERAL.sub(":", ROLE.sub(r"``\1``", text))
    lines, out, i = text.split("\n"), [], 0
    while i < len(lines):
        end = i + 1
        if BORDER.fullmatch(lines[i]):  # the table ends at a border before a blank line
            while end < len(lines) and not (BORDER.fullmatch(lines[end]) and (
                    end + 1 == len(lines) or not lines[end + 1].strip())):
                end += 1
            if end < len(lines):
                out += ["", *_rest_table(lines[i:end + 1]), ""]
                i = end + 1
                continue
        out.append(lines[i])
        i += 1
    return "\n".join(out)


class RestDocstrings(griffe.Extension):
    """Griffe extension: every docstring through ``rest_to_markdown`` as it is loaded."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        """Rewrite ``obj``'s docstring, if it has one."""
        if obj.docstring is not None:
            obj.docstring.value = rest_to_markdown(obj.docstring.value)


# --------------------------------------------------------------------------- the hooks
Generator = Callable[[str, Page, MkDocsConfig], str]
#: Marker name → (its form, for errors; what fills it).
MARKERS: dict[str, tuple[str, Generator]] = {
    "config-reference": ("config-reference", config_reference),
    "cli": ("cli", cli_reference),
    "observation": ("observation GAME", observation_table),
    "picture": ("picture GAME", picture),
    "changelog": ("changelog", changelog),
    "results-table": ("results-table PATH", results_table),
    "results-line": ("results-line PATH TEXT", results_line),
    "results-md-table": ("results-md-table PATH [TEXT]", results_md_table),
    "results-headline": ("results-headline PATH", results_headline),
}


def _fill(body: str, page: Page, config: MkDocsConfig) -> str:
    """What the marker ``<!-- generated: BODY -->`` stands for on ``page``."""
    name, _, args = body.partition(" ")
    try:
        if name not in MARKERS:
            raise MarkerError("unknown marker")
        return MARKERS[name][1](args.strip(), page, config)
    except (MarkerError, OSError) as err:
        allowed = ", ".join(form for form, _ in MARKERS.values())
        raise PluginError(f"{page.file.src_uri}: <!-- generated: {body} -->: {err} "
                          f"(markers: {allowed})") from None


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    """Replace every marker line outside code blocks with what it names."""
    lines, fence = [], ""
    for line in markdown.splitlines(keepends=True):
        opening = FENCE.match(line)
        if fence:  # inside a code block until a fence of its kind, at least as long
            if opening and opening["fence"][0] == fence[0] and \
                    len(opening["fence"]) >= len(fence) and not line[opening.end():].strip():
                fence = ""
        elif opening:
            fence = opening["fence"]
        elif marker := MARKER.fullmatch(line.strip()):
            indent = line[:len(line) - len(line.lstrip())]
            filled = _fill(marker["body"], page, config)
            line = "".join(indent + part if part.strip() else part
                           for part in filled.splitlines(keepends=True)) + "\n"
        lines.append(line)
    return "".join(lines)


def on_files(files: Files, config: MkDocsConfig) -> Files:
    """Add the pictures of the games whose envs draw them, for ``picture`` markers to show."""
    for game in GAMES:
        png = frame(game).png
        if png is not None:
            files.append(File.generated(config, f"{PICTURES}/{game}.png", content=png))
    return files

"""The machinery of validated settings: every config (an SB3 run's ``pagadores_train.run.config``,
an RLlib run's ``pagadores_train.learners.rllib``, a benchmark suite's
``pagadores_train.benchmark.suite``) is a tree of dataclasses whose fields are declared with
``setting(default, check, doc)`` and built from plain data (YAML) by ``build_section``, which names
the offending key path and what is allowed: ``env.num_players must be 2–6, got 7``, ``unknown key
'algo.lr' (allowed: name, policy, hyperparams)``. A check takes ``(value, key path)`` and returns
the value, possibly normalised. Wherever an integer goes, a whole number in scientific notation does
too (``total_timesteps: 1e6``, ``1.5e3``; not ``1.5e-3``), as ``count_argument`` takes it on the
command line. ``describe`` lists every key with its default and meaning for ``--help``.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import re
from collections.abc import Callable
from dataclasses import field
from decimal import Decimal
from pathlib import Path
from typing import Any

import yaml


class ConfigError(ValueError):
    """A configuration that cannot be used; the message names the key path."""

Check = Callable[[Any, str], Any]

# Each check takes (value, key path) and returns the value (possibly normalised) or raises.
#: A number as a config or a command line may write it: digits, a decimal point, an exponent.
_NUMERAL = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")

#: The largest exponent a whole number may be written with: a float's (1e308). Larger ones
#: are refused rather than expanded, so a typo cannot build a number of a million digits.
_MAX_EXPONENT = 308

def whole_number(value: Any) -> int | None:
    """``value`` as an int if it is a whole number: an int (not a bool), a float with no
    fraction (``1.5e+3``), or a string of one in plain or scientific notation (``"1e6"``,
    ``"1.5e3"``: YAML 1.1 reads ``1e6`` as a string, its floats needing a dot and a signed
    exponent), read exactly; else None (``1.5e-3``, ``"abc"``, NaN, infinity)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return int(value) if value.is_integer() else None
    if not isinstance(value, str) or not _NUMERAL.fullmatch(value.strip()):
        return None
    exact = Decimal(value.strip())
    if exact.adjusted() > _MAX_EXPONENT or exact != exact.to_integral_value():
        return None
    return int(exact)

def integer(lo: int | None = None, hi: int | None = None) -> Check:
    """An int in ``lo..hi`` (a missing bound is open): any whole number ``whole_number``
    reads, so ``1e6`` is 1000000 and ``1.5e3`` 1500; bools are not ints. Returns an int."""
    if lo is not None and hi is not None:
        allowed = f"{lo}–{hi}"
    else:
        allowed = "an integer" + (f" ≥ {lo}" if lo is not None else "")

    def check(value: Any, key: str) -> int:
        whole = whole_number(value)
        if whole is None or (lo is not None and whole < lo) or (hi is not None and whole > hi):
            raise ConfigError(f"{key} must be {allowed}, got {value!r}")
        return whole
    return check

def count_argument(text: str) -> int:
    """An ``argparse`` ``type=`` for a command-line count such as ``--timesteps``: a whole
    number written as a config may write it (``300000``, ``3e5``, ``1.5e3``), so the flag
    and the key it overrides take the same numbers; the config's check of that key then says
    whether it is in range."""
    whole = whole_number(text)
    if whole is None:
        raise argparse.ArgumentTypeError(
            f"must be a whole number such as 300000 or 3e5, got {text!r}")
    return whole

def number(lo: float = -math.inf, hi: float = math.inf, above: bool = False) -> Check:
    """A number (int or float, not bool, not NaN) from ``lo`` (excluded if ``above``) to
    ``hi``; numeric strings count, as YAML reads ``3e-4`` (no dot) as a string. Returns a
    float."""
    if hi < math.inf:
        allowed = f"a number in {'(' if above else '['}{lo:g}, {hi:g}]"
    elif lo > -math.inf:
        allowed = f"a number {'>' if above else '≥'} {lo:g}"
    else:
        allowed = "a number"

    def check(value: Any, key: str) -> float:
        try:
            x = float(value) if not isinstance(value, bool) else None
        except (TypeError, ValueError):
            x = None
        if x is None or math.isnan(x) or (x <= lo if above else x < lo) or x > hi:
            raise ConfigError(f"{key} must be {allowed}, got {value!r}")
        return x
    return check

def choice(*options: Any) -> Check:
    """One of ``options``."""

    def check(value: Any, key: str) -> Any:
        if value not in options:
            raise ConfigError(
                f"{key} must be one of {', '.join(map(repr, options))}, got {value!r}")
        return value
    return check

def text(value: Any, key: str) -> str:
    """A string that is not blank."""
    if not isinstance(value, str) or not value.strip():
        raise ConfigError(f"{key} must be a non-empty string, got {value!r}")
    return value

def boolean(value: Any, key: str) -> bool:
    """``true`` or ``false`` (not 0 or 1, not ``"yes"``)."""
    if not isinstance(value, bool):
        raise ConfigError(f"{key} must be true or false, got {value!r}")
    return value

def run_name(value: Any, key: str) -> str:
    """A plain folder name: the run folder must be a child of ``output_dir`` (``--fresh``
    clears it, so ``.``, ``..`` or a path must never reach it)."""
    text(value, key)
    if value in (".", "..") or any(sep in value for sep in ("/", "\\", "\0")):
        raise ConfigError(
            f"{key} must be a plain folder name (no '/' or '\\', not '.' or '..'), "
            f"got {value!r}")
    return value

def optional(inner: Check) -> Check:
    """``None``, or a value that passes ``inner``."""

    def check(value: Any, key: str) -> Any:
        return None if value is None else inner(value, key)
    return check

def checked_later(value: Any, key: str) -> Any:
    """Return ``value`` as it is: it is checked with the other fields it depends on, in
    ``_check_env``."""
    return value

def mapping(value: Any, key: str) -> dict[str, Any]:
    """A mapping (returned as a new ``dict``)."""
    if not isinstance(value, dict):
        raise ConfigError(f"{key} must be a mapping, got {value!r}")
    return dict(value)

def setting(default: Any, check: Check, doc: str) -> Any:
    """A dataclass field with its check and a one-line meaning (listed by ``describe``)."""
    if isinstance(default, (list, dict)):
        return field(default_factory=lambda: type(default)(default),
                     metadata={"check": check, "doc": doc})
    return field(default=default, metadata={"check": check, "doc": doc})

def build_section(cls: type, data: Any, path: str) -> Any:
    """Instantiate dataclass ``cls`` from a mapping, checking keys and every value."""
    where = path.rstrip(".") or "the config"
    if not isinstance(data, dict):
        raise ConfigError(f"{where} must be a mapping of keys to values, got {data!r}")
    names = [f.name for f in config_keys(cls)]
    for key in data:
        if key not in names:
            raise ConfigError(
                f"unknown key '{path}{key}' (allowed: {', '.join(names)})")
    values = {}
    for f in config_keys(cls):
        if f.name not in data:
            continue
        key = f"{path}{f.name}"
        if dataclasses.is_dataclass(f.default_factory):  # a nested section
            values[f.name] = build_section(f.default_factory, data[f.name], f"{key}.")
        else:
            values[f.name] = f.metadata["check"](data[f.name], key)
    return cls(**values)

def config_keys(cls: type) -> list[dataclasses.Field[Any]]:
    """The fields of the config dataclass ``cls`` that are keys of its section: all but those
    marked ``internal`` (filled from other keys, as ``env.options`` is from a game's option
    keys)."""
    return [f for f in dataclasses.fields(cls) if not f.metadata.get("internal")]

def like_default(default: Any) -> Check:
    """A check of a hyper-parameter by the type of its default (for those without an entry
    in ``HYPERPARAMS``). YAML reads ``3e-4`` as a string (YAML 1.1 floats need a dot), so
    numeric strings are accepted for floats."""
    if isinstance(default, bool):
        return boolean
    if isinstance(default, int):
        return integer()
    if isinstance(default, float):
        return number()
    return lambda value, key: value

def read_yaml(path: Path, what: str = "config") -> Any:
    """The YAML document in ``path`` (a ``what``); ``ConfigError`` in one line if it cannot be
    read or parsed (the parser's own message spans several lines, with a caret under the
    column)."""
    try:
        return yaml.safe_load(path.read_text())
    except OSError as err:
        raise ConfigError(f"cannot read {what} {path}: {err.strerror}") from None
    except UnicodeDecodeError as err:
        raise ConfigError(f"cannot read {what} {path}: not UTF-8 text ({err.reason})") from None
    except yaml.YAMLError as err:
        raise ConfigError(f"{path} is not valid YAML: {yaml_problem(err)}") from None

def yaml_problem(err: yaml.YAMLError) -> str:
    """Where and why the YAML parser stopped, in one line (``line 2, column 1: expected ',' or
    '}', but got '<scalar>'``)."""
    mark, problem = getattr(err, "problem_mark", None), getattr(err, "problem", None)
    where = "" if mark is None else f"line {mark.line + 1}, column {mark.column + 1}: "
    return where + (problem or " ".join(str(err).split()))

def has_section(path: str | Path, section: str) -> bool:
    """Whether the YAML file at ``path`` is a mapping with a ``section`` key (what tells one
    trainer's config from another's). False for anything unreadable: the config's loader
    then says what is wrong."""
    try:
        data = yaml.safe_load(Path(path).read_text())
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return False
    return isinstance(data, dict) and section in data

def describe(cls: type, path: str = "") -> str:
    """Every config key with its default and meaning, one per line (for ``--help``)."""
    lines = []
    for f in config_keys(cls):
        if dataclasses.is_dataclass(f.default_factory):
            lines.append(describe(f.default_factory, f"{path}{f.name}."))
            continue
        default = f.default if f.default is not dataclasses.MISSING else f.default_factory()
        lines.append(f"  {path}{f.name} = {default!r}: {f.metadata['doc']}")
    return "\n".join(lines)

"""A search run's configuration (``pagadores train`` with a config that has a ``search:``
section, e.g. ``configs/search_3p.yaml``): the dataclasses, validated like every other run's
(``pagadores_train.settings``), and which of their keys may change when a run resumes. The
trainer is ``pagadores_train.learners.search.trainer``; the learner whose settings the ``search:``
section holds is ``pagadores_train.learners.search.learn`` (its defaults are ``LearnSettings``').
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from pagadores_env.pagadores.rules import MAX_PLAYERS, MIN_PLAYERS

from ...run.config import check_table_run, spec_list
from ...run.folder import RESUMABLE_CHANGES, RunConfig
from ...run.games import cards_spec
from ...settings import (
    ConfigError,
    boolean,
    build_section,
    choice,
    has_section,
    integer,
    number,
    optional,
    read_yaml,
    run_name,
    setting,
    text,
)
from ..rllib_config import layers
from .learn import LearnSettings

#: The section that makes a YAML config a search one (``is_search_config``).
SECTION = "search"
#: Keys that may differ when a search run is continued: any run's, and how many checkpoints
#: it keeps.
RESUMABLE = RESUMABLE_CHANGES | {"keep_checkpoints"}
#: The learner's defaults (``search_learn.LearnSettings``), the ``search:`` section's.
LEARN = LearnSettings()


@dataclass
class SearchTable:
    """``env``: the table whose every seat the search player plays in its self-play games."""

    num_players: int = setting(3, integer(MIN_PLAYERS, MAX_PLAYERS),
                              "players at the table (R1.1), every seat played by the learner")
    cards: int | list[int] = setting(
        10, cards_spec, "starting cards per player, or a list of one count per seat (R1.1)")


@dataclass
class SearchSettings:
    """``search``: how the learner plays, backs up and fits (``search_learn.LearnSettings``),
    and how deep the player searches at evaluation."""

    games: int = setting(LEARN.games, integer(1), "self-play games per iteration")
    explore: float = setting(LEARN.explore, number(0, 1), "probability that a decision of "
                            "those games is taken at random (so what a deviation reaches is "
                            "seen too)")
    buffer: int = setting(LEARN.buffer, integer(1), "round-start positions kept to back up "
                         "and fit (the oldest leave first)")
    slices: int = setting(LEARN.slices, integer(1), "slices of card totals backed up one "
                         "after another, fewest cards first, the net fitted after each")
    random_starts: float = setting(LEARN.random_starts, number(0, 1), "share of the games "
                                  "started from a random position (at most the table's "
                                  "cards per seat), so the late game is met as often as "
                                  "the start")
    backups: int | None = setting(LEARN.backups, optional(integer(0)), "positions backed "
                                  "up again per iteration, the longest untouched first, "
                                  "besides the new ones (absent: the whole buffer every "
                                  "iteration)")
    fit_steps: int = setting(LEARN.fit_steps, integer(1),
                            "minibatches fitted after each slice")
    batch: int = setting(LEARN.batch, integer(1), "positions per minibatch")
    lr: float = setting(LEARN.lr, number(0, above=True), "Adam's learning rate")
    hidden: list[int] = setting(list(LEARN.hidden), layers,
                               "the value net's hidden layer sizes (tanh)")
    specials: int | str | None = setting(
        LEARN.specials, optional(choice(0, 1, 2, 3, "all")), "specials in a row the round's "
        "search follows exactly, in self-play and at evaluation (0–3 or all; absent: all at "
        "2–3 players, none from 4 on, pagadores_agents.search.player.default_specials)")
    depth: int = setting(1, integer(1, 3), "rounds the player searches at evaluation, the "
                        "round at hand first (each more costs about ten times as much); "
                        "self-play searches one")

    def learn_settings(self) -> LearnSettings:
        """The learner's settings: these, all but ``depth``."""
        settings = {f.name: getattr(self, f.name) for f in fields(LearnSettings)}
        return LearnSettings(**settings | {"hidden": tuple(self.hidden)})


@dataclass
class SearchEvalConfig:
    """``eval``: the evaluations during training and the final one (the same reports as an SB3
    run's)."""

    every: int = setting(20_000, integer(0), "evaluate after the iteration that reaches each "
                        "multiple of N decisions (0: only before training and at the end)")
    games: int = setting(2000, integer(1), "games per opponent at every evaluation, the final "
                        "one included")
    opponents: list[str] = setting(["sensible", "lookahead"], spec_list,
                                  "opponents to evaluate against")
    exact: bool = setting(True, boolean, "add the solver's exact numbers where it covers the "
                         "table (2 players: exact win and exploitability; 3 or more: NashConv "
                         "of the player in every seat and exact win)")


@dataclass
class SearchConfig(RunConfig):
    """A whole search run: the top-level keys and the sections above."""

    name: str | None = setting(None, optional(run_name),
                              "run folder name, a plain name (default: YAML file stem)")
    seed: int = setting(0, integer(0), "seeds the net's first weights, the self-play games, "
                       "the fits and the evaluations")
    total_timesteps: int = setting(60_000, integer(1), "decisions to train on: every seat's "
                                  "decisions in the self-play games (a run stops after the "
                                  "iteration that reaches it)")
    env: SearchTable = field(default_factory=SearchTable)
    search: SearchSettings = field(default_factory=SearchSettings)
    eval: SearchEvalConfig = field(default_factory=SearchEvalConfig)
    checkpoint_every: int = setting(20_000, integer(1), "save a checkpoint after the "
                                   "iteration that reaches each multiple of N decisions")
    keep_checkpoints: int = setting(5, integer(0), "checkpoints kept on disk, the newest "
                                   "(0: all); the resume point is always kept")
    output_dir: str = setting("runs", text, "runs are written to OUTPUT_DIR/NAME/")
    progress_bar: bool = setting(True, boolean, "progress as tqdm bars; false: a status "
                                "line per step of each long phase (pagadores_train.progress)")

    @property
    def cards(self) -> tuple[int, ...]:
        """Every seat's starting cards."""
        cards = self.env.cards
        return tuple(cards) if isinstance(cards, list) else (cards,) * self.env.num_players


def is_search_config(path: str | Path) -> bool:
    """Whether the YAML file at ``path`` is a search config (a mapping with a ``search``
    section). False for anything unreadable: ``load_config`` then says what is wrong."""
    return has_section(path, SECTION)


def search_config_from_dict(data: Any, name: str | None = None) -> SearchConfig:
    """Validate plain data into a ``SearchConfig``; ``name`` fills a missing ``name``.
    ``ConfigError`` names the first bad key."""
    config = build_section(SearchConfig, data, "")
    check_table_run(config, name)
    return config


def load_search_config(path: str | Path) -> SearchConfig:
    """Read and validate a search YAML config; the run name defaults to the file's stem."""
    path = Path(path)
    data = read_yaml(path)
    if data is None:
        raise ConfigError(f"{path} is empty: a config is a mapping of keys to values")
    return search_config_from_dict(data, name=path.stem)

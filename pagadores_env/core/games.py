"""The games the package has, each described once by its own package (``register``), so that
whatever drives any game — the command line, configs, the engine-driven evaluator, OpenSpiel,
the web page — reads one table instead of branching per game. The core names no game: a game
registers itself when ``import pagadores_env`` imports it.

A ``GameSpec`` holds what generic code needs of a game: its table sizes and its table options
beyond the number of players (``Option``: Pagadores' ``cards``, Perudo's ``dice``, …, each
with its command-line flag and config key), how to start a ``Game`` from them, the observation
codec and the action count, the registered env ids, the default scripted players, how its
dice are thrown between decisions (``advance``: by default a draw from ``chance_outcomes()``),
its text: the table, the log's sentences, an action's words and the rules in short (for
terminal play, logs and the web page), and its part of the web page's view (``view``: the
public table and the private facts of the seats asked, as JSON data; ``core.views`` wraps it
in the view every game shares).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .policies import register_game
from .protocol import Event


@dataclass(frozen=True)
class Option:
    """A table option: ``name`` is its config key and, as ``--name``, its command-line flag;
    ``keyword`` the argument of ``Game`` and the envs that takes it (``name`` unless they
    differ); ``parse`` turns the flag's text into a value, which ``Game`` checks."""

    name: str
    default: Any
    help: str
    parse: Callable[[str], Any] = int
    keyword: str = ""

    @property
    def argument(self) -> str:
        """The keyword ``Game`` and the envs take it by."""
        return self.keyword or self.name


def sample_chance(game: Any, rng: np.random.Generator) -> None:
    """Apply one outcome of the chance node ``game`` is at, drawn by its probability from
    ``chance_outcomes()`` (``protocol.SupportsChanceOutcomes``)."""
    outcomes = game.chance_outcomes()
    pick = rng.choice(len(outcomes), p=np.array([p for _, p in outcomes]))
    game.apply_chance(outcomes[pick][0])


def advance_by_outcomes(game: Any, rng: np.random.Generator) -> None:
    """Throw ``game``'s dice until a decision or its end (``sample_chance`` at every chance
    node)."""
    while game.is_chance_node():
        sample_chance(game, rng)


@dataclass(frozen=True)
class GameSpec:
    """One game as generic code sees it (module docstring)."""

    name: str  #: the registry's name, also ``--game`` and a config's ``env.game``
    title: str  #: its name in prose
    min_players: int
    max_players: int
    options: tuple[Option, ...]
    new_game: Callable[..., Any]  #: ``(num_players, **options)`` → a ``protocol.GameState``
    encode: Callable[[Any, int], np.ndarray]  #: ``(game, seat)`` → that seat's observation
    obs_size: int
    num_actions: Callable[[Any], int]  #: ``(game)`` → its action count (Pasch's follows the hand)
    gym_id: str
    aec_id: str
    opponent: str  #: the scripted opponent a learner meets by default
    eval_opponents: tuple[str, ...]  #: who a trained agent is measured against by default
    render_table: Callable[[Any], str]  #: ``(game)`` → the table as public text
    describe_events: Callable[[Sequence[Event]], list[str]]  #: the log's events as sentences
    describe_action: Callable[[Any, int], str]  #: ``(game, action)`` → the action in words
    summary: str  #: the rules in short, with their ids, for a player at the table
    hidden: bool = False  #: whether seats hide information from each other (dice in cups)
    #: throws the dice between decisions: ``(game, rng)`` → ``game`` at a decision or over
    advance: Callable[[Any, np.random.Generator], None] = advance_by_outcomes
    #: the game's part of the web page's view: ``(game, seats)`` → ``{"table": public facts,
    #: "private": {seat: its hidden facts} for the ``seats`` asked}`` as JSON data
    #: (``core.views``); None: the page cannot show this game
    view: Callable[[Any, Sequence[int]], dict[str, Any]] | None = None

    def table_options(self, **given: Any) -> dict[str, Any]:
        """``given`` options by name, the others at their defaults, as ``Game``'s keywords;
        ``ValueError`` in one line for an option this game does not take."""
        known = {option.name: option for option in self.options}
        unknown = sorted(set(given) - set(known))
        if unknown:
            allowed = ", ".join(known) or "none"
            raise ValueError(f"{self.title} takes no option {unknown[0]!r} (its options: "
                             f"{allowed})")
        return {option.argument: given.get(option.name, option.default)
                for option in self.options}

    def start(self, num_players: int, **given: Any) -> Any:
        """A new ``Game`` at a table of ``num_players`` with the ``given`` options."""
        return self.new_game(num_players, **self.table_options(**given))

    def legal_mask(self, game: Any) -> np.ndarray:
        """The int8 mask of the legal actions of the player to act (all zeros elsewhere)."""
        mask = np.zeros(self.num_actions(game), dtype=np.int8)
        mask[list(game.legal_actions())] = 1
        return mask


#: Every registered game by name, in the order ``import pagadores_env`` registers them.
GAME_SPECS: dict[str, GameSpec] = {}


def register(spec: GameSpec) -> GameSpec:
    """Add ``spec`` to the table (and open its players' namespace in the policy registry)."""
    register_game(spec.name)
    GAME_SPECS[spec.name] = spec
    return spec


def game_spec(name: str) -> GameSpec:
    """The registered game ``name``; ``ValueError`` in one line naming the games there are."""
    if name not in GAME_SPECS:
        raise ValueError(f"game must be one of {', '.join(map(repr, GAME_SPECS))}, got {name!r}")
    return GAME_SPECS[name]


def int_sequence(text: str) -> list[int]:
    """A flag's text as a comma-separated list of whole numbers (``-1,1,2``; ``3`` is a list
    of one)."""
    try:
        return [int(part.strip()) for part in text.split(",")]
    except ValueError:
        raise ValueError(f"expected a comma-separated list of whole numbers, got "
                         f"{text!r}") from None


def int_list(text: str) -> int | list[int]:
    """A flag's text as one whole number (one count for every seat) or a comma-separated
    list of them (one per seat): ``3`` or ``3,2,4``."""
    values = int_sequence(text)
    return values[0] if len(values) == 1 else values

"""What an SB3 run does differently per game: its options as config keys, and the few things
one game has of its own (``RUN_GAMES``), every other game of the table of games
(``pagadores_env.core.games``) run alike.

A run's table options are keys of ``env`` named as the game's options (``Option.name``:
Pagadores' ``env.cards``, Perudo's ``env.dice``, Paye's ``env.variant``, ``env.faces``,
``env.rounds``, Pasch's ``env.hand``, ``env.blocks``), checked by the game itself (its
``Game`` refuses a bad value in one line, which the config error repeats under the key) and,
where a run needs more, by the game's entry here. ``split_options`` takes them out of the
``env`` mapping before the section is built; ``check_options`` checks them against the chosen
game. An option of another game is refused naming its game, except at that option's default:
the configs that runs saved before 0.3.0 hold every game's options, and still load.

A ``RunGame`` holds what one game's runs have of their own: config checks of its options
beyond the game's (Pagadores': a card count per seat 1–10, one per seat of the table, one
count with several sizes), whether ``env.num_players`` may list several sizes
(``Pagadores-v1``'s tables) and whether ``vec_env.kind: batch`` runs it (Pagadores' compiled
batch engine), ``env.shaping``'s reward wrapper (Perudo's ``DiceShaping``) and
``env.last_round_starts``' wrapper (Pasch's ``LastRoundStarts``). A game
without an entry is run through its Gymnasium env (``GameSpec.gym_id``) on ``dummy`` or
``subproc`` envs and evaluated by the engine-driven evaluator.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import gymnasium

from pagadores_env.core.games import GAME_SPECS, GameSpec, game_spec
from pagadores_env.pagadores.rules import MAX_CARDS

from ..settings import Check, ConfigError, integer

#: ``(options, table sizes)``: a game's checks of its options at the run's table sizes.
TableCheck = Callable[[Mapping[str, Any], list[int]], None]


@dataclass(frozen=True)
class RunGame:
    """One game's own part in a run (module docstring)."""

    #: option name → its config check, before the game's own (which follows in any case)
    option_checks: Mapping[str, Check] = field(default_factory=dict)
    #: a check of the options at the run's table sizes (after each option is checked)
    table_check: TableCheck | None = None
    sizes: bool = False  #: ``env.num_players`` may be a list of sizes
    batch: bool = False  #: ``vec_env.kind: batch`` (a compiled batch engine) runs it
    #: ``(env, weight)`` → the env with ``env.shaping``'s dense reward
    shaping: Callable[[gymnasium.Env, float], gymnasium.Env] | None = None
    #: ``(env, share)`` → the env whose learner joins ``share`` of its games at the last round
    last_round_starts: Callable[[gymnasium.Env, float], gymnasium.Env] | None = None


# --------------------------------------------------------------------------- Pagadores
def cards_spec(value: Any, key: str) -> int | list[int]:
    """One starting count for every seat, or a list of one count per seat (its length is
    checked against the table size in ``_cards_at``)."""
    if isinstance(value, list):
        if not value:
            raise ConfigError(f"{key} must be 1–{MAX_CARDS} or a list of one count 1–{MAX_CARDS} "
                              "per seat, got []")
        return [integer(1, MAX_CARDS)(v, f"{key}[{i}]") for i, v in enumerate(value)]
    if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= MAX_CARDS:
        return value
    raise ConfigError(f"{key} must be 1–{MAX_CARDS} or a list of one count 1–{MAX_CARDS} per "
                      f"seat, got {value!r}")


def _cards_at(options: Mapping[str, Any], sizes: list[int]) -> None:
    """A list of counts is one per seat, so it needs one table size of that many seats."""
    cards = options["cards"]
    if not isinstance(cards, list):
        return
    if len(sizes) > 1:
        raise ConfigError(f"env.cards must be one count when env.num_players lists several "
                          f"sizes ({sizes}), got {cards}")
    if len(cards) != sizes[0]:
        raise ConfigError(f"env.cards must list one count per seat ({sizes[0]} for {sizes[0]} "
                          f"players), got {len(cards)}")


# --------------------------------------------------------------------------- Perudo
def _dice_shaping(env: gymnasium.Env, weight: float) -> gymnasium.Env:
    """``Perudo-v1`` with the dice lost priced in (``evaluation.perudo.DiceShaping``)."""
    from ..evaluation.perudo import DiceShaping

    return DiceShaping(env, weight)


# --------------------------------------------------------------------------- Pasch
def _points_shaping(env: gymnasium.Env, weight: float) -> gymnasium.Env:
    """``Pasch-v1`` with the points shared out priced in (``evaluation.pasch.PointsShaping``)."""
    from ..evaluation.pasch import PointsShaping

    return PointsShaping(env, weight)


def _last_round_starts(env: gymnasium.Env, share: float) -> gymnasium.Env:
    """``Pasch-v1`` started at a last round in ``share`` of its games
    (``evaluation.pasch.LastRoundStarts``)."""
    from ..evaluation.pasch import LastRoundStarts

    return LastRoundStarts(env, share)


#: The games whose runs have something of their own (module docstring).
RUN_GAMES: dict[str, RunGame] = {
    "pagadores": RunGame(option_checks={"cards": cards_spec}, table_check=_cards_at,
                         sizes=True, batch=True),
    "perudo": RunGame(shaping=_dice_shaping),
    "pasch": RunGame(shaping=_points_shaping, last_round_starts=_last_round_starts),
}


def run_game(game: str) -> RunGame:
    """``game``'s entry, or the entry of a game run alike with the others."""
    return RUN_GAMES.get(game, RunGame())


def with_feature(feature: str) -> list[GameSpec]:
    """The games whose entry has ``feature`` (``sizes``, ``batch``, ``shaping``,
    ``last_round_starts``)."""
    return [GAME_SPECS[g] for g, run in RUN_GAMES.items() if getattr(run, feature)]


def possessive(spec: GameSpec) -> str:
    """``Perudo's``, ``Dados de Pagadores'``."""
    return spec.title + ("'" if spec.title.endswith("s") else "'s")


def option_owners() -> dict[str, list[GameSpec]]:
    """Every option name of every game, with the games that take it."""
    owners: dict[str, list[GameSpec]] = {}
    for spec in GAME_SPECS.values():
        for option in spec.options:
            owners.setdefault(option.name, []).append(spec)
    return owners


# --------------------------------------------------------------------------- the options
def split_options(data: Any) -> tuple[Any, dict[str, Any]]:
    """``data`` (a whole config's mapping) without the table options under ``env``, and those
    options by name (any game's: ``check_options`` sorts them out)."""
    env = data.get("env") if isinstance(data, dict) else None
    if not isinstance(env, dict):  # else the section's own check names what is wrong
        return data, {}
    names = option_owners()
    options = {key: value for key, value in env.items() if key in names}
    rest = {key: value for key, value in env.items() if key not in names}
    return {**data, "env": rest}, options


def check_options(game: str, given: Mapping[str, Any], sizes: list[int]) -> dict[str, Any]:
    """The options of ``game`` by name, checked (see the module docstring), the game's
    defaults filled in; ``ConfigError`` in one line naming the key."""
    spec, run = game_spec(game), run_game(game)
    mine = {option.name: option for option in spec.options}
    for name, value in given.items():
        if name not in mine:
            _refuse_other(spec, name, value)
    options = {}
    for name, option in mine.items():
        value = given.get(name, option.default)
        if name in given and name in run.option_checks:
            value = run.option_checks[name](value, f"env.{name}")
        options[name] = value
    if run.table_check is not None:
        run.table_check(options, sizes)
    for name, option in mine.items():  # each alone first, so the error names its key
        if name in given:
            game_checks(spec, sizes, {name: options[name]}, option.argument, f"env.{name}")
    game_checks(spec, sizes, options, "", "env")
    return options


def _refuse_other(spec: GameSpec, name: str, value: Any) -> None:
    owners = option_owners()[name]
    if any(value == option.default for owner in owners for option in owner.options
           if option.name == name):
        return  # a saved config of a run from before 0.3.0 holds every game's options
    mine = ", ".join(f"env.{option.name}" for option in spec.options) or "no table option"
    whose = " or ".join(f"{possessive(o)} (env.game {o.name!r})" for o in owners)
    raise ConfigError(f"env.{name} is {whose}; {spec.title} takes {mine}, got env.{name} "
                      f"{value!r}")


def game_checks(spec: GameSpec, sizes: list[int], options: dict[str, Any], argument: str,
                 key: str) -> None:
    """Start the game at each table size with ``options``: the game's own check, its
    one-line ``ValueError`` a ``ConfigError`` under ``key`` (its first word, the option's
    argument, replaced by the key)."""
    for n in sizes:
        try:
            spec.start(n, **options)
        except ValueError as err:
            text = str(err)
            if argument and text.startswith(f"{argument} "):
                raise ConfigError(f"{key}{text[len(argument):]}") from None
            raise ConfigError(f"{key}: {text}") from None

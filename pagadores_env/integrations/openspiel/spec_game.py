"""One OpenSpiel game for any game of the table of games (``core.games.GameSpec``) whose
chance nodes list their outcomes (``core.protocol.SupportsChanceOutcomes``): Paye's
dobbelspel (``.paye``) and Pasch (``.pasch``) are this adapter with a ``SpielSpec`` each.

- **Parameters**: ``players`` (the spec's range) and the spec's table options by name; an
  option whose value is not text in the engine (Paye's ``faces``, Pasch's ``hand``) is a
  string parameter read by the option's own ``parse`` (``"-1,1,2"``, JSON). A ``SpielSpec``
  may add parameters of its own (``extra``). Every value is checked where the engine checks
  it, so a bad one fails ``pyspiel.load_game`` with the engine's one-line ``ValueError``.
- **Perfect information, explicit chance.** Chance action ``i`` is the ``i``-th outcome of
  the engine's ``chance_outcomes()`` at that node, with its probability. Decision actions are
  the engine's action ids, ``num_distinct_actions`` its action count
  (``GameSpec.num_actions``). A chance action beyond the outcomes, an illegal action or any
  action after the end raises ``ValueError`` in one line naming what is allowed, and the
  state stays as it was.
- **Returns** are the engine's: 2/k − 1 for each of k seats sharing the win, −1 for the
  others (``core.rewards``' "win"), so they sum to 2 − players: zero-sum at 2 players,
  constant-sum above.
- **Observations.** The observation tensor is the envs' observation vector of the player
  asked for (``GameSpec.encode``); the observation string the table as text; the information
  state string the game's log as sentences (everything is public, and the log fixes the
  history: perfect recall).
- **Length.** ``max_game_length`` is the spec's bound on a game's inputs (chance included).
  Where a game has no bound in principle (Paye's start throws repeat on ties) the bound holds
  but with probability ``CAP_RISK``; a game reaching it ends there shared by every seat still
  in, so the returns keep their sum.

OpenSpiel clones a Python state by deep-copying it; the engine sits in a ``common.Box`` so
that copy is the engine's exact ``clone``, and every new state clones one engine built and
checked when the game is loaded.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np
import pyspiel

from ...core.checks import check_int
from ...core.games import GameSpec, Option
from ...core.rewards import final_reward
from .common import Box, check_chance, game_type


def no_extra(params: Mapping[str, Any]) -> dict[str, Any]:
    """No keywords for ``Game`` beyond the spec's options."""
    return {}


@dataclass(frozen=True)
class SpielSpec:
    """How one game of the table of games is an OpenSpiel game (module docstring)."""

    spec: GameSpec
    short_name: str
    long_name: str
    #: every OpenSpiel parameter with its default: ``players``, the spec's options by name
    #: (text where the engine's value is not, see ``option_value``), then any ``extra`` ones
    parameters: Mapping[str, int | str]
    max_chance_outcomes: int
    #: ``(a new engine)`` → a bound on a game's inputs, chance included (module docstring)
    max_game_length: Callable[[Any], int]
    describe_action: Callable[[Any, int], str]  #: ``(engine, action)`` → the action in words
    describe_outcome: Callable[[Any, Any], str]  #: ``(engine at chance, outcome)`` → words
    observation_string: Callable[[Any], str]  #: ``(engine)`` → the table as text
    history_string: Callable[[Any], str]  #: ``(engine)`` → everything so far, in words
    #: ``(parameters)`` → ``Game``'s keywords beyond the spec's options
    extra: Callable[[Mapping[str, Any]], dict[str, Any]] = field(default=no_extra)

    def game_type(self, utility: Any = pyspiel.GameType.Utility.CONSTANT_SUM
                  ) -> pyspiel.GameType:
        """The game's ``GameType``: registered constant-sum, an instance at 2 players
        zero-sum."""
        return game_type(self.short_name, self.long_name,
                         pyspiel.GameType.Information.PERFECT_INFORMATION, utility,
                         self.spec.max_players, dict(self.parameters))


def option_value(option: Option, value: Any) -> Any:
    """The engine's value of ``option`` from its OpenSpiel parameter: text parsed by the
    option's ``parse`` where the engine's value is not text; ``ValueError`` in one line for
    text that does not parse."""
    if not isinstance(value, str) or isinstance(option.default, str):
        return value
    try:
        return option.parse(value)
    except ValueError as err:
        raise ValueError(f"{option.name} must be {option.help}, got {value!r} ({err})"
                         ) from None


class SpecGame(pyspiel.Game):
    """An OpenSpiel game over ``SPIEL`` (module docstring); a subclass names its
    ``SpielSpec``."""

    SPIEL: ClassVar[SpielSpec]

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        spiel, spec = self.SPIEL, self.SPIEL.spec
        given = {**spiel.parameters, **(params or {})}
        unknown = sorted(set(given) - set(spiel.parameters))
        if unknown:
            raise ValueError(f"{spiel.short_name} takes no parameter {unknown[0]!r} (its "
                             f"parameters: {', '.join(spiel.parameters)})")
        players = check_int("players", given["players"], spec.min_players, spec.max_players)
        options = {option.name: option_value(option, given[option.name])
                   for option in spec.options}
        #: the start of every game: checked here, cloned by ``new_initial_state``
        self.start = spec.new_game(players, **spec.table_options(**options),
                                   **spiel.extra(given))
        utility = (pyspiel.GameType.Utility.ZERO_SUM if players == 2
                   else pyspiel.GameType.Utility.CONSTANT_SUM)
        info = pyspiel.GameInfo(
            num_distinct_actions=spec.num_actions(self.start),
            max_chance_outcomes=spiel.max_chance_outcomes,
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=float(2 - players),
            max_game_length=spiel.max_game_length(self.start))
        super().__init__(spiel.game_type(utility), info, given)

    def __reduce__(self) -> tuple[type[SpecGame], tuple[dict[str, Any]]]:
        # pickled by its parameters: its game string does not parse back where a text
        # parameter holds commas (``faces``, ``hand``)
        return type(self), (self.get_parameters(),)

    def new_initial_state(self) -> SpecState:
        """A new game at its start."""
        return SpecState(self, self.start.clone())

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: Mapping[str, Any] | None = None) -> SpecObserver:
        """The observer of information states (the log) or observations (the vector)."""
        return SpecObserver(self.SPIEL, iig_obs_type or pyspiel.IIGObservationType(
            perfect_recall=False), params)


class SpecState(pyspiel.State):
    """A state: the engine's game, and whether the length cap ended it (module docstring)."""

    def __init__(self, game: SpecGame, engine: Any) -> None:
        super().__init__(game)
        self._kind = type(game)  # its ``SPIEL``; a class, so the state pickles
        self._box = Box(engine)
        self._cap = game.max_game_length()
        self.capped = False  # ended at the length cap, shared by the seats still in

    @property
    def engine(self) -> Any:
        """The engine's game at this state."""
        return self._box.game

    def current_player(self) -> int:
        """The seat to act, or OpenSpiel's chance or terminal id."""
        if self.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        if self.engine.is_chance_node():
            return pyspiel.PlayerId.CHANCE
        return int(self.engine.current_player)

    def _legal_actions(self, player: int) -> list[int]:
        return [int(a) for a in self.engine.legal_actions()]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The engine's outcomes of this chance node as actions 0, 1, … with their
        probabilities."""
        return [(i, float(p)) for i, (_, p) in enumerate(self.engine.chance_outcomes())]

    def _apply_action(self, action: int) -> None:
        if self.capped:
            raise ValueError(f"the game ended at its length cap of {self._cap} actions: no "
                             "more actions")
        engine = self.engine
        if engine.is_chance_node():
            outcomes = engine.chance_outcomes()
            engine.apply_chance(outcomes[check_chance(action, len(outcomes))][0])
        else:
            engine.apply_action(action)
        self.capped = not engine.is_terminal() and len(engine.history) >= self._cap

    def _action_to_string(self, player: int, action: int) -> str:
        engine = self.engine
        if player != pyspiel.PlayerId.CHANCE:
            return self._kind.SPIEL.describe_action(engine, action)
        outcomes = engine.chance_outcomes() if engine.is_chance_node() else ()
        if 0 <= action < len(outcomes):
            return self._kind.SPIEL.describe_outcome(engine, outcomes[action][0])
        return f"chance outcome {action}"

    def is_terminal(self) -> bool:
        """True once the engine's game is over, or at the length cap."""
        return bool(self.engine.is_terminal()) or self.capped

    def returns(self) -> list[float]:
        """The engine's returns; at the cap, a win shared by the ``k`` seats still in
        (2/k − 1 each, −1 for the others); zeros before the end."""
        engine = self.engine
        if not self.capped:
            return [float(r) for r in engine.returns()]
        alive, n = engine.alive(), engine.num_players
        return [final_reward("win", 1 if s in alive else 2, n, len(alive)) for s in range(n)]

    def __str__(self) -> str:
        return self._kind.SPIEL.observation_string(self.engine)


class SpecObserver:
    """OpenSpiel's observer protocol: with perfect recall the log in words and no tensor,
    else the observation vector and the table of the player (module docstring)."""

    def __init__(self, spiel: SpielSpec, iig_obs_type: Any,
                 params: Mapping[str, Any] | None) -> None:
        if params:
            raise ValueError(f"the {spiel.spec.title} observer takes no parameters, got "
                             f"{dict(params)}")
        self.spiel = spiel
        self.perfect_recall = iig_obs_type.perfect_recall
        size = 0 if self.perfect_recall else spiel.spec.obs_size
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor} if size else {}

    def set_from(self, state: SpecState, player: int) -> None:
        """The observation vector of ``player`` (nothing for perfect recall)."""
        if not self.perfect_recall:
            self.tensor[:] = self.spiel.spec.encode(state.engine, player)

    def string_from(self, state: SpecState, player: int) -> str:
        """The log in words (perfect recall), or the table as text."""
        if self.perfect_recall:
            return self.spiel.history_string(state.engine)
        return self.spiel.observation_string(state.engine)


def register(game: type[SpecGame]) -> type[SpecGame]:
    """Register ``game`` with ``pyspiel.register_game`` under its ``SpielSpec``'s name."""
    pyspiel.register_game(game.SPIEL.game_type(), game)
    return game


__all__ = ["SpecGame", "SpecObserver", "SpecState", "SpielSpec", "option_value", "register"]

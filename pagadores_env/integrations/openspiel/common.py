"""What the OpenSpiel games share: their ``GameType``, the box through which OpenSpiel's clone
of a Python state is the engine's own ``clone``, the risk a length cap may take, and the check
of a chance action (``check_chance``)."""

from __future__ import annotations

from typing import Any, Generic, Protocol, TypeVar

import numpy as np
import pyspiel

from ...core.errors import IllegalMoveError

#: A bound on the probability that a game without a bound on its length in principle
#: (Pagadores' kampen replays, Paye's start throws) reaches its ``max_game_length``.
CAP_RISK = 1e-12


class Cloneable(Protocol):
    """An engine's game: it copies itself exactly."""

    def clone(self) -> Any:
        """An independent copy."""


E = TypeVar("E", bound=Cloneable)


def game_type(short_name: str, long_name: str, information: Any, utility: Any,
              max_players: int, parameters: dict[str, Any]) -> pyspiel.GameType:
    """A sequential game with explicit chance and terminal rewards, offering information
    state strings and observation strings and tensors."""
    return pyspiel.GameType(
        short_name=short_name,
        long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=information,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max_players,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameters,
    )


class Box(Generic[E]):
    """Holds an engine's game. OpenSpiel clones a Python state by deep-copying its
    attributes; through this box that copy is the engine's own exact ``clone``, many times
    cheaper than a generic deep copy."""

    __slots__ = ("game",)

    def __init__(self, game: E) -> None:
        self.game = game

    def __deepcopy__(self, memo: dict[int, Any]) -> Box[E]:
        return Box(self.game.clone())


def check_chance(action: Any, outcomes: int) -> int:
    """``action`` if it is one of a chance node's ``outcomes`` actions, 0 to ``outcomes`` - 1
    (``chance_outcomes()``); else ``IllegalMoveError`` in one line naming that range, before
    the state changes (a chance action past the end was an ``IndexError`` in Pagadores and an
    impossible face in Perudo)."""
    if (isinstance(action, bool) or not isinstance(action, int | np.integer)
            or not 0 <= action < outcomes):
        raise IllegalMoveError(f"chance action must be one of 0–{outcomes - 1} "
                               f"(chance_outcomes()), got {action!r}")
    return int(action)

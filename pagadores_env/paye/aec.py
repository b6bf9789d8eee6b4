"""The PettingZoo AEC environment behind ``paye_v1`` (whose docstring is the user guide).

The env drives a Paye :class:`~pagadores_env.paye.engine.Game`: it throws every die from its
own seeded stream (``dice.ThrowStream``: the start throws, Y2.1, and each turn's throws, Y3.2)
and the engine makes every forced choice (Y7.3), so an agent is selected only to choose a die
and every agent step is one choice. Rewards go to every agent once, when the game ends (Y4);
then every agent leaves through PettingZoo's dead-step protocol.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..core.aec import StrictOrderEnforcing, WholeGameEnv
from ..core.options import RENDER_FPS, RENDER_MODES
from .dice import ThrowStream, throw_to_decision
from .engine import Game
from .observation import OBS_SIZE, encode
from .render import describe_events, render_table
from .rules import DEFAULT_PLAYERS, NUM_ACTIONS, ROUNDS

__all__ = ["RENDER_MODES", "check_table", "env", "observation_space", "raw_env"]


def check_table(num_players: Any, variant: Any, dice: Any, rounds: Any) -> Game:
    """A new game of the table both envs take (``Game``'s own one-line errors name what is
    wrong): 2–6 players, ``"base"`` or ``"expansion"``, the special dice, the rounds."""
    return Game(num_players, variant, dice, rounds)


def observation_space() -> spaces.Box:
    """The observation vector's space (``observation``: every entry in [0, 1])."""
    return spaces.Box(0.0, 1.0, (OBS_SIZE,), np.float32)


class raw_env(WholeGameEnv):  # lower case: PettingZoo's conventional name for the unwrapped env
    """Paye's dobbelspel as a PettingZoo AEC environment; see ``paye_v1`` for the guide.
    Everything is public (Y5.1), so every agent sees the whole table from its own seat."""

    metadata = {"render_modes": ["human", "ansi", "rgb_array"], "name": "paye_v1",
                "is_parallelizable": False, "render_fps": RENDER_FPS}
    _describe_events = staticmethod(describe_events)
    _render_table = staticmethod(render_table)
    _encode = staticmethod(encode)
    _dice_stream = ThrowStream

    def __init__(self, num_players: int = DEFAULT_PLAYERS, variant: str = "base",
                 dice: Sequence[Sequence[int]] | None = None, rounds: int = ROUNDS,
                 render_mode: str | None = None, reward: str = "win",
                 illegal_action: str = "raise") -> None:
        super().__init__()
        table = check_table(num_players, variant, dice, rounds)
        self.num_players, self.variant = table.num_players, table.variant
        self.dice, self.rounds = table.dice, table.rounds
        self._take_options(render_mode, reward, illegal_action)
        self._seat_agents(NUM_ACTIONS, observation_space)

    def _new_game(self) -> Game:
        return Game(self.num_players, self.variant, self.dice, self.rounds)

    def _throw(self) -> None:
        """The start throws (Y2.1) or a turn's throws (Y3.2): the first turn is always a
        choice (Y3.1, Y6.5), and the engine makes every forced one (Y7.3)."""
        throw_to_decision(self.game, self._dice)


def env(**kwargs: Any) -> AECEnv:
    """The environment as users should take it: ``raw_env(**kwargs)`` with order enforcing
    (``core.aec.StrictOrderEnforcing``: stepping a finished game raises)."""
    return StrictOrderEnforcing(raw_env(**kwargs))

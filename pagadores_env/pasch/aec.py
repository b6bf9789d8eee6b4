"""The PettingZoo AEC environment behind ``pasch_v1`` (whose docstring is the user guide).

The env drives a Pasch :class:`~pagadores_env.pasch.engine.Game`: it throws every chance
node's dice from its own seeded stream (X8.2) and applies the decisions that leave one
choice (X8.3, in the engine), so every agent step is one real decision. Rewards go to every
agent once, when the game ends (X1.4); then every agent leaves through PettingZoo's
dead-step protocol.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..core.aec import StrictOrderEnforcing, WholeGameEnv
from ..core.options import RENDER_FPS, RENDER_MODES
from .dice import FaceStream, throw_to_decision
from .engine import Game
from .observation import OBS_SIZE, encode
from .render import describe_events, render_table
from .rules import DEFAULT_BLOCKS, DEFAULT_HAND

__all__ = ["RENDER_MODES", "check_start", "env", "observation_space", "raw_env"]


def check_start(num_players: Any, hand: Any, blocks: Any) -> Game:
    """A new game of these options (2–6 players, X1.1; ``hand`` and ``blocks`` as X1.3
    allows): the engine's own errors name what is wrong."""
    return Game(num_players, hand, blocks)


def observation_space() -> spaces.Box:
    """The observation vector's space: its values lie in [-1, 1] (``pasch.observation``)."""
    return spaces.Box(-1.0, 1.0, (OBS_SIZE,), np.float32)


class raw_env(WholeGameEnv):  # lower case: PettingZoo's conventional name for the unwrapped env
    """Pasch as a PettingZoo AEC environment; see ``pasch_v1`` for the guide. Everything but
    the dice to come is public (X8.2), so every agent sees the table from its own seat; its
    ``Discrete(C + 49)`` actions follow the hand (X8.1; 55 with the default hand)."""

    metadata = {"render_modes": ["human", "ansi", "rgb_array"], "name": "pasch_v1",
                "is_parallelizable": False, "render_fps": RENDER_FPS}
    _describe_events = staticmethod(describe_events)
    _render_table = staticmethod(render_table)
    _encode = staticmethod(encode)
    _dice_stream = FaceStream

    def __init__(self, num_players: int = 2, hand: Sequence[int] = DEFAULT_HAND,
                 blocks: int | Sequence[int] = DEFAULT_BLOCKS, render_mode: str | None = None,
                 reward: str = "win", illegal_action: str = "raise") -> None:
        super().__init__()
        start = check_start(num_players, hand, blocks)
        self.num_players, self.hand, self.blocks = start.num_players, start.hand, blocks
        self._take_options(render_mode, reward, illegal_action)
        self._seat_agents(start.actions.size, observation_space)

    def _new_game(self) -> Game:
        return Game(self.num_players, self.hand, self.blocks)

    def _throw(self) -> None:
        """Every chance node's dice (X8.2) up to a decision that leaves a choice (the engine
        applies those that leave one, X8.3)."""
        throw_to_decision(self.game, self._dice)


def env(**kwargs: Any) -> AECEnv:
    """The environment as users should take it: ``raw_env(**kwargs)`` with order enforcing
    (``core.aec.StrictOrderEnforcing``: stepping a finished game raises)."""
    return StrictOrderEnforcing(raw_env(**kwargs))

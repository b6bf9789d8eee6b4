"""The PettingZoo AEC environment behind ``pasch_v1`` (whose docstring is the user guide).

The env drives a Pasch :class:`~pagadores_env.pasch.engine.Game`: it throws every chance
node's dice from its own seeded stream (X8.2) and applies the decisions that leave one
choice (X8.3, in the engine), so every agent step is one real decision. Rewards go to every
agent once, when the game ends (X1.4); then every agent leaves through PettingZoo's
dead-step protocol.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..core.aec import StrictOrderEnforcing, TableEnv
from ..core.checks import check_choice, check_seed
from ..core.errors import IllegalMoveError
from ..core.options import ILLEGAL_ACTIONS, RENDER_FPS
from ..core.rewards import REWARD_SCHEMES, REWARDS
from ..core.seats import player
from .dice import FaceStream, throw_to_decision
from .engine import Game
from .observation import OBS_SIZE, encode
from .render import describe_events, render_table
from .rules import DEFAULT_BLOCKS, DEFAULT_HAND

#: The render modes of both Pasch environments.
RENDER_MODES = (None, "ansi", "human", "rgb_array")


def check_start(num_players: Any, hand: Any, blocks: Any) -> Game:
    """A new game of these options (2–6 players, X1.1; ``hand`` and ``blocks`` as X1.3
    allows): the engine's own errors name what is wrong."""
    return Game(num_players, hand, blocks)


def observation_space(size: int) -> spaces.Box:
    """The observation vector's space: its values lie in [-1, 1] (``pasch.observation``)."""
    return spaces.Box(-1.0, 1.0, (size,), np.float32)


def picture_drawer() -> Callable[[Game], np.ndarray]:
    """``picture.draw``, imported only for ``render_mode="rgb_array"``: importing the package
    does not load Pillow's drawing code."""
    from .picture import draw

    return draw


class raw_env(TableEnv):  # lower case: PettingZoo's conventional name for the unwrapped env
    """Pasch as a PettingZoo AEC environment; see ``pasch_v1`` for the guide."""

    metadata = {"render_modes": ["human", "ansi", "rgb_array"], "name": "pasch_v1",
                "is_parallelizable": False, "render_fps": RENDER_FPS}
    _describe_events = staticmethod(describe_events)
    _render_table = staticmethod(render_table)

    def __init__(self, num_players: int = 2, hand: Sequence[int] = DEFAULT_HAND,
                 blocks: int | Sequence[int] = DEFAULT_BLOCKS, render_mode: str | None = None,
                 reward: str = "win", illegal_action: str = "raise") -> None:
        super().__init__()
        start = check_start(num_players, hand, blocks)
        self.num_players, self.hand, self.blocks = start.num_players, start.hand, blocks
        self.render_mode = check_choice("render_mode", render_mode, RENDER_MODES)
        self.reward_scheme = check_choice("reward", reward, REWARD_SCHEMES)
        self.illegal_action = check_choice("illegal_action", illegal_action, ILLEGAL_ACTIONS)
        self._draw = picture_drawer() if render_mode == "rgb_array" else None
        size = start.actions.size
        self.possible_agents = [player(seat) for seat in range(self.num_players)]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        # One space object per agent, so seeding one agent's space leaves the others alone.
        self.action_spaces: dict[str, spaces.Space] = {
            agent: spaces.Discrete(size) for agent in self.possible_agents}
        self.observation_spaces = {
            agent: spaces.Dict({"observation": observation_space(OBS_SIZE),
                                "action_mask": spaces.Box(0, 1, (size,), np.int8)})
            for agent in self.possible_agents}
        self._wait = np.zeros(size, dtype=np.int8)  # the mask of every agent not to act
        self.np_random: np.random.Generator | None = None
        self.agents: list[str] = []  # no game until reset()
        self.agent_selection: str | None = None
        self._faces: FaceStream  # made with the generator in reset()
        self._printed = 0

    # ------------------------------------------------------------------ PettingZoo API
    def observation_space(self, agent: str) -> spaces.Space:
        """``agent``'s space: its observation row and its action mask."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        """``agent``'s actions: ``Discrete(C + 49)`` (X8.1; 55 with the default hand)."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game and throw on to its first decision. ``seed`` reseeds the dice;
        without it the stream goes on (a fresh unseeded generator on the very first reset). A
        seed other than None or an integer ≥ 0 raises ``ValueError`` and leaves the env as it
        was."""
        seed = check_seed(seed)
        if seed is not None or self.np_random is None:
            self.np_random = np.random.default_rng(seed)
            self._faces = FaceStream(self.np_random)
        self.game = game = Game(self.num_players, self.hand, self.blocks)
        throw_to_decision(game, self._faces)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {"illegal_action": False}
                                                 for a in self.agents}
        self.agent_selection = self.possible_agents[game.current_player]
        self._skip_agent_selection = None
        self._printed = 0
        if self.render_mode == "human":
            self._print_news()

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """AECEnv.last, with a one-line error once every agent has left."""
        agent = self.agent_selection
        if agent is None or agent not in getattr(self, "_cumulative_rewards", ()):  # all left
            raise IllegalMoveError(f"last(): {self._no_agent_reason()}")
        return (self.observe(agent) if observe else None, self._cumulative_rewards[agent],
                self.terminations[agent], self.truncations[agent], self.infos[agent])

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The agent's view from its own seat (X8.2: everything but the dice to come); its
        mask marks the legal actions when it is to act and is all zeros otherwise."""
        try:
            seat = self._seat[agent]
            game = self.game
        except KeyError:
            raise ValueError(f"observe({agent!r}): no such agent; the agents are "
                             f"{', '.join(self.possible_agents)}") from None
        except AttributeError:  # no game yet
            raise IllegalMoveError(f"observe(): {self._no_agent_reason()}") from None
        to_act = seat == game.current_player and agent == self.agent_selection \
            and not self.terminations[agent]
        return {"observation": encode(game, seat),
                "action_mask": game.legal_mask() if to_act else self._wait.copy()}

    def step(self, action: Any) -> None:
        """Apply the selected agent's action (or its dead step), then throw on to the next
        decision; at the end of the game every agent is rewarded and terminated."""
        agent = self.agent_selection
        if not self.agents or agent is None:
            raise IllegalMoveError(f"step(): {self._no_agent_reason()}")
        if self.terminations[agent]:
            if action is not None:
                raise IllegalMoveError(
                    f"{agent} is terminated (the game is over): the only valid action is None, "
                    f"which removes it from the game (PettingZoo dead step); got {action!r}")
            self._was_dead_step(None)
            return
        game = self.game
        for info in self.infos.values():
            info["illegal_action"] = False
        try:
            game.apply_action(action)
        except IllegalMoveError as err:
            if self.illegal_action == "raise":
                raise IllegalMoveError(f"{agent} played an illegal action: {err}") from None
            self.infos[agent]["illegal_action"] = True
            if self.illegal_action == "penalty":
                self._forfeit(agent, action)
                return
            game.apply_action(game.legal_actions()[0])
        throw_to_decision(game, self._faces)
        if game.is_terminal():
            self._end_game()
        else:
            self.agent_selection = self.possible_agents[game.current_player]
        if self.render_mode == "human":
            self._print_news()

    def render(self) -> str | np.ndarray | None:
        """``"ansi"``: return the table as text; ``"human"``: print it; ``"rgb_array"``:
        return a picture of it (``picture.draw``)."""
        if self.render_mode is None:
            gymnasium.logger.warn(
                "render() was called without a render_mode; pass render_mode='ansi', 'human' "
                "or 'rgb_array' to pasch_v1.env()")
            return None
        if not hasattr(self, "game"):
            raise IllegalMoveError(f"render(): {self._no_agent_reason()}")
        if self._draw is not None:
            return self._draw(self.game)
        return self._render_text()

    def close(self) -> None:
        """Nothing to release: pictures are drawn in memory, text is printed."""

    # ------------------------------------------------------------------ internals
    def _end_game(self) -> None:
        """Reward every agent for its final place (``core.rewards``; seats with equal points
        share a place, X1.4) and terminate them all; they then leave by dead step."""
        places = self.game.placements()
        for agent, seat in self._seat.items():
            reward = REWARDS[self.reward_scheme](places[seat], places.count(places[seat]),
                                                 self.num_players)
            self.rewards[agent] = reward
            self._cumulative_rewards[agent] = reward
            self.terminations[agent] = True
        self._deads_step_first()

    def _forfeit(self, agent: str, action: Any) -> None:
        """``illegal_action="penalty"``: the offender gets -1, everyone else 0, and every
        agent is terminated (PettingZoo's TerminateIllegalWrapper)."""
        self.rewards[agent] = self._cumulative_rewards[agent] = -1.0
        self.terminations = dict.fromkeys(self.agents, True)
        self._deads_step_first()
        if self.render_mode == "human":
            print(f"{agent} played the illegal action {action!r} and forfeits: game over")


def env(**kwargs: Any) -> AECEnv:
    """The environment as users should take it: ``raw_env(**kwargs)`` with order enforcing
    (``core.aec.StrictOrderEnforcing``: stepping a finished game raises)."""
    return StrictOrderEnforcing(raw_env(**kwargs))

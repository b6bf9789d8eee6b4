"""The PettingZoo AEC environment behind ``paye_v1`` (whose docstring is the user guide).

The env drives a Paye :class:`~pagadores_env.paye.engine.Game`: it throws every die from its
own seeded stream (``dice.ThrowStream``: the start throws, Y2.1, and each turn's throws, Y3.2)
and the engine makes every forced choice (Y7.3), so an agent is selected only to choose a die
and every agent step is one choice. Rewards go to every agent once, when the game ends (Y4);
then every agent leaves through PettingZoo's dead-step protocol.
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
from .dice import ThrowStream, throw_to_decision
from .engine import Game
from .observation import OBS_SIZE, encode
from .render import describe_events, render_table
from .rules import DEFAULT_PLAYERS, NUM_ACTIONS, ROUNDS, as_action

#: The render modes of both Paye environments.
RENDER_MODES = (None, "ansi", "human", "rgb_array")
_WAIT = np.zeros(NUM_ACTIONS, dtype=np.int8)  # the mask of every agent not to act
_WAIT.flags.writeable = False


def check_table(num_players: Any, variant: Any, dice: Any, rounds: Any) -> Game:
    """A new game of the table both envs take (``Game``'s own one-line errors name what is
    wrong): 2–6 players, ``"base"`` or ``"expansion"``, the special dice, the rounds."""
    return Game(num_players, variant, dice, rounds)


def picture_drawer() -> Callable[..., np.ndarray]:
    """``picture.draw``, imported only for ``render_mode="rgb_array"``: importing the package
    does not load Pillow."""
    from .picture import draw

    return draw


def observation_space() -> spaces.Box:
    """The observation vector's space (``observation``: every entry in [0, 1])."""
    return spaces.Box(0.0, 1.0, (OBS_SIZE,), np.float32)


class raw_env(TableEnv):  # lower case: PettingZoo's conventional name for the unwrapped env
    """Paye's dobbelspel as a PettingZoo AEC environment; see ``paye_v1`` for the guide."""

    metadata = {"render_modes": ["human", "ansi", "rgb_array"], "name": "paye_v1",
                "is_parallelizable": False, "render_fps": RENDER_FPS}
    _describe_events = staticmethod(describe_events)
    _render_table = staticmethod(render_table)

    def __init__(self, num_players: int = DEFAULT_PLAYERS, variant: str = "base",
                 dice: Sequence[Sequence[int]] | None = None, rounds: int = ROUNDS,
                 render_mode: str | None = None, reward: str = "win",
                 illegal_action: str = "raise") -> None:
        super().__init__()
        table = check_table(num_players, variant, dice, rounds)
        self.num_players, self.variant = table.num_players, table.variant
        self.dice, self.rounds = table.dice, table.rounds
        self.render_mode = check_choice("render_mode", render_mode, RENDER_MODES)
        self.reward_scheme = check_choice("reward", reward, REWARD_SCHEMES)
        self.illegal_action = check_choice("illegal_action", illegal_action, ILLEGAL_ACTIONS)
        self._draw_picture = picture_drawer() if render_mode == "rgb_array" else None
        self.possible_agents = [player(seat) for seat in range(self.num_players)]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        # One space object per agent, so seeding one agent's space leaves the others alone.
        self.action_spaces: dict[str, spaces.Space] = {
            agent: spaces.Discrete(NUM_ACTIONS) for agent in self.possible_agents}
        self.observation_spaces = {
            agent: spaces.Dict({
                "observation": observation_space(),
                "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
            })
            for agent in self.possible_agents
        }
        self.np_random: np.random.Generator | None = None
        self.agents: list[str] = []  # no game until reset()
        self.agent_selection: str | None = None
        self._dice: ThrowStream  # made with the generator in reset()
        self._printed = 0

    # ------------------------------------------------------------------ PettingZoo API
    def observation_space(self, agent: str) -> spaces.Space:
        """``agent``'s space: its observation row and its action mask."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        """``agent``'s actions: ``Discrete(13)`` (Y7)."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game and throw its start throws (Y2.1). ``seed`` reseeds the dice;
        without it the stream goes on (a fresh unseeded generator on the very first reset).
        A seed other than None or an integer ≥ 0 raises ``ValueError`` and leaves the env as
        it was."""
        seed = check_seed(seed)
        if seed is not None or self.np_random is None:
            self.np_random = np.random.default_rng(seed)
            self._dice = ThrowStream(self.np_random)
        self.game = game = Game(self.num_players, self.variant, self.dice, self.rounds)
        throw_to_decision(game, self._dice)  # the first turn is always a choice (Y3.1, Y6.5)
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
        """The agent's view from its own seat (everything is public, Y5.1); its mask marks
        the legal actions when it is to choose and is all zeros otherwise."""
        try:
            seat = self._seat[agent]
            game = self.game
        except KeyError:
            raise ValueError(f"observe({agent!r}): no such agent; the agents are "
                             f"{', '.join(self.possible_agents)}") from None
        except AttributeError:  # no game yet
            raise IllegalMoveError(f"observe(): {self._no_agent_reason()}") from None
        to_act = (seat == game.current_player and agent == self.agent_selection
                  and not self.terminations[agent])
        return {"observation": encode(game, seat),
                "action_mask": game.legal_mask() if to_act else _WAIT.copy()}

    def step(self, action: Any) -> None:
        """Apply the selected agent's choice (or its dead step), then throw the dice until the
        next choice or the end."""
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
        for other in self.infos:
            self.infos[other] = {"illegal_action": False}
        if not self._legal(action):
            if self.illegal_action == "raise":
                try:
                    game.apply_action(action)
                except IllegalMoveError as err:
                    raise IllegalMoveError(f"{agent} played an illegal action: {err}") from None
            self.infos[agent] = {"illegal_action": True}
            if self.illegal_action == "penalty":
                self._penalise(agent, action)
                return
            action = game.legal_actions()[0]
        game.apply_action(action)
        throw_to_decision(game, self._dice)
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
                "render() was called without a render_mode; pass render_mode='ansi', "
                "'human' or 'rgb_array' to paye_v1.env()")
            return None
        if not hasattr(self, "game"):
            raise IllegalMoveError(f"render(): {self._no_agent_reason()}")
        if self._draw_picture is not None:
            return self._draw_picture(self.game, self.possible_agents)
        return self._render_text()

    def close(self) -> None:
        """Nothing to release: pictures are drawn in memory, text is printed."""

    # ------------------------------------------------------------------ internals
    def _legal(self, action: Any) -> bool:
        try:
            return as_action(action) in self.game.legal_actions()
        except ValueError:
            return False

    def _end_game(self) -> None:
        """Reward every agent for its final place (``core.rewards``; a shared first place pays
        2/k - 1, Y4.4) and terminate them all; they then leave by dead step, in seat order."""
        places = self.game.placements()
        for agent, seat in self._seat.items():
            reward = REWARDS[self.reward_scheme](places[seat], places.count(places[seat]),
                                                 self.num_players)
            self.rewards[agent] = reward
            self._cumulative_rewards[agent] = reward
            self.terminations[agent] = True
        self._deads_step_first()

    def _penalise(self, agent: str, action: Any) -> None:
        """TerminateIllegalWrapper's semantics: the offender gets -1, everyone else 0, and
        the game ends with every agent terminated."""
        self.terminations = dict.fromkeys(self.agents, True)
        self.rewards[agent] = -1.0
        self._cumulative_rewards[agent] = -1.0
        self._deads_step_first()
        if self.render_mode == "human":
            print(f"{agent} played the illegal action {action!r} and forfeits: game over")


def env(**kwargs: Any) -> AECEnv:
    """The environment as users should take it: ``raw_env(**kwargs)`` with order enforcing
    (``core.aec.StrictOrderEnforcing``: stepping a finished game raises)."""
    return StrictOrderEnforcing(raw_env(**kwargs))

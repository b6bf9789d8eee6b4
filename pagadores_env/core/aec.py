"""What every game's PettingZoo AEC env shares: ``TableEnv``, the base with the agents and
their spaces, seeding, ``last``, ``render``, final rewards and the forfeit of an illegal
action; ``WholeGameEnv``, the whole env of a game whose agents all play to its end (Paye,
Pasch); and ``StrictOrderEnforcing``, the order-enforcing wrapper each game's ``env()``
returns."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils.env_logger import EnvLogger
from pettingzoo.utils.wrappers import OrderEnforcingWrapper
from pettingzoo.utils.wrappers.order_enforcing import (
    AECOrderEnforcingIterable,
    AECOrderEnforcingIterator,
)

from .checks import check_choice, check_seed
from .errors import IllegalMoveError
from .options import ILLEGAL_ACTIONS, RENDER_MODES, picture_drawer
from .rewards import REWARD_SCHEMES, REWARDS
from .seats import player


class TableEnv(AECEnv):
    """What every game's AEC env shares. A game's env sets ``num_players``, calls
    ``_take_options`` and ``_seat_agents`` once, sets ``game`` once reset, names its
    ``describe_events``, ``render_table``, observation codec (``encode``) and dice stream
    (``_dice_stream``), and builds on the helpers below: ``_reseed`` and ``_start_agents`` in
    ``reset``, ``_agent_seat`` in ``observe``, ``_selected`` and ``_dead_step`` in ``step``,
    ``_final_reward`` and ``_penalise`` where rewards are paid. Pagadores' env, on its compiled
    kernel, overrides much of this with faster code of its own."""

    game: Any
    num_players: int
    render_mode: str | None
    reward_scheme: str
    np_random: np.random.Generator | None
    _printed: int
    #: the game's ``render.describe_events`` and ``render.render_table``
    _describe_events: Callable[[Sequence[Any]], Sequence[str]]
    _render_table: Callable[[Any], str]
    #: the game's observation codec: ``encode(game, seat)``
    _encode: Callable[[Any, int], np.ndarray]
    #: ``picture.draw`` for ``render_mode="rgb_array"`` (``options.picture_drawer``), else None
    _draw_picture: Callable[..., np.ndarray] | None
    #: makes the game's dice stream from a generator (``_reseed``), e.g. ``dice.FaceStream``
    _dice_stream: Callable[[np.random.Generator], Any]
    _dice: Any  # the game's dice stream, made in reset()
    _num_actions: int  # the size of the action space (``_seat_agents``)
    illegal_action: str

    def _take_options(self, render_mode: Any, reward: Any, illegal_action: Any) -> None:
        """Check and keep the options every game's AEC env takes alike, in the order a wrong
        one is reported (``ValueError`` in one line): the render mode (with the picture drawer
        of the env's own game package for ``"rgb_array"``), the reward scheme and the
        illegal-action mode."""
        self.render_mode = check_choice("render_mode", render_mode, RENDER_MODES)
        self.reward_scheme = check_choice("reward", reward, REWARD_SCHEMES)
        self.illegal_action = check_choice("illegal_action", illegal_action, ILLEGAL_ACTIONS)
        self._draw_picture = picture_drawer(render_mode, type(self).__module__.rpartition(".")[0])

    # ------------------------------------------------------------------ agents and spaces
    def _seat_agents(self, num_actions: int, observation: Callable[[], spaces.Space]) -> None:
        """An agent per seat (``possible_agents``; ``_seat``: agent to seat), each with its own
        ``Discrete(num_actions)`` and a ``Dict`` of its ``observation()`` and its action mask:
        one space object per agent, so seeding one agent's space leaves the others alone. No
        game until ``reset()``."""
        self._num_actions = num_actions
        self.possible_agents = [player(seat) for seat in range(self.num_players)]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self.action_spaces: dict[str, spaces.Space] = {
            agent: spaces.Discrete(num_actions) for agent in self.possible_agents}
        self.observation_spaces = {
            agent: spaces.Dict({"observation": observation(),
                                "action_mask": spaces.Box(0, 1, (num_actions,), np.int8)})
            for agent in self.possible_agents}
        self.np_random = None
        self.agents: list[str] = []
        self.agent_selection: str | None = None
        self._printed = 0

    def observation_space(self, agent: str) -> spaces.Space:
        """``agent``'s space: its observation row and its action mask."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        """``agent``'s actions: ``Discrete`` over the game's action encoding (its env page)."""
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ reset
    def _reseed(self, seed: Any) -> None:
        """Check ``seed`` (``checks.check_seed``: a bad one raises before anything changes) and
        make a new generator and dice stream from it; without a seed the stream goes on (a
        fresh unseeded generator on the very first reset)."""
        seed = check_seed(seed)
        if seed is not None or self.np_random is None:
            self.np_random = np.random.default_rng(seed)
            self._dice = self._dice_stream(self.np_random)

    def _start_agents(self) -> None:
        """Every agent in play, with no reward, termination or truncation yet, and none of
        the new game's log printed."""
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self._skip_agent_selection = None
        self._printed = 0

    # ------------------------------------------------------------------ agent steps
    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """AECEnv.last, with a one-line error once every agent has left."""
        agent = self.agent_selection
        if agent is None or agent not in getattr(self, "_cumulative_rewards", ()):  # all left
            raise IllegalMoveError(f"last(): {self._no_agent_reason()}")
        return (self.observe(agent) if observe else None, self._cumulative_rewards[agent],
                self.terminations[agent], self.truncations[agent], self.infos[agent])

    def _agent_seat(self, agent: str) -> int:
        """``agent``'s seat, for ``observe``: ``ValueError`` naming the agents for one that is
        not, ``IllegalMoveError`` before the first reset."""
        try:
            seat = self._seat[agent]
        except KeyError:
            raise ValueError(f"observe({agent!r}): no such agent; the agents are "
                             f"{', '.join(self.possible_agents)}") from None
        if not hasattr(self, "game"):
            raise IllegalMoveError(f"observe(): {self._no_agent_reason()}")
        return seat

    def _selected(self) -> str:
        """The agent ``step`` acts for; ``IllegalMoveError`` once none is left."""
        agent = self.agent_selection
        if not self.agents or agent is None:
            raise IllegalMoveError(f"step(): {self._no_agent_reason()}")
        return agent

    def _dead_step(self, agent: str, action: Any, why: str) -> None:
        """The step of a terminated ``agent`` (``why`` says why it is): ``None`` removes it
        (PettingZoo's dead step), anything else raises ``IllegalMoveError``."""
        if action is not None:
            raise IllegalMoveError(
                f"{agent} is terminated ({why}): the only valid action is None, which removes "
                f"it from the game (PettingZoo dead step); got {action!r}")
        self._was_dead_step(None)

    # ------------------------------------------------------------------ rewards
    def _final_reward(self, places: Sequence[int], seat: int) -> float:
        """``seat``'s reward for its final place among ``places`` (``core.rewards``; a place
        shared by k seats, as Paye's or Pasch's first, pays each what the scheme says)."""
        place = places[seat]
        return REWARDS[self.reward_scheme](place, places.count(place), self.num_players)

    def _penalise(self, agent: str, action: Any) -> None:
        """TerminateIllegalWrapper's semantics: the offender gets -1, everyone else 0, and
        the game ends with every agent terminated."""
        self.terminations = dict.fromkeys(self.agents, True)
        self.rewards[agent] = -1.0
        self._cumulative_rewards[agent] = -1.0
        self._deads_step_first()
        if self.render_mode == "human":
            print(f"{agent} played the illegal action {action!r} and forfeits: game over")

    # ------------------------------------------------------------------ rendering
    def render(self) -> str | np.ndarray | None:
        """``"ansi"``: return the table as text; ``"human"``: print it; ``"rgb_array"``:
        return a picture of it (``_picture``)."""
        if self.render_mode is None:
            gymnasium.logger.warn(
                "render() was called without a render_mode; pass render_mode='ansi', "
                f"'human' or 'rgb_array' to {self.metadata['name']}.env()")
            return None
        if not hasattr(self, "game"):
            raise IllegalMoveError(f"render(): {self._no_agent_reason()}")
        if self._draw_picture is not None:
            return self._picture()
        return self._render_text()

    def _picture(self) -> np.ndarray:
        """The game's picture (``picture.draw``), every seat labelled by its agent."""
        assert self._draw_picture is not None  # render_mode="rgb_array"
        return self._draw_picture(self.game, self.possible_agents)

    def close(self) -> None:
        """Nothing to release: pictures are drawn in memory, text is printed."""

    def _render_text(self) -> str | None:
        """``"ansi"``: the table as text; ``"human"``: print it and return None."""
        text = self._render_table(self.game)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def _no_agent_reason(self) -> str:
        if not hasattr(self, "game"):
            return "reset() was never called; call reset() to start a game"
        return "the game is over and every agent has left; call reset() to start a new game"

    def _print_news(self) -> None:
        """Human mode: print what happened since the last print, then the table."""
        log = self.game.log
        for line in self._describe_events(log[self._printed:]):
            print(line)
        self._printed = len(log)
        print(self._render_table(self.game), end="\n\n")


class WholeGameEnv(TableEnv):
    """The AEC env of a game whose agents all play to its end and are rewarded then (Paye,
    Pasch): the env throws every chance node's dice from its own seeded stream (``_throw``),
    so every agent step is one decision; when the game ends every agent gets its final
    reward (``_final_reward``) and is terminated, and then leaves through PettingZoo's
    dead-step protocol. A game's env adds ``_new_game`` and ``_throw``; its game offers
    ``legal_mask()`` besides the game protocol."""

    def _new_game(self) -> Any:
        """A new game at this env's table."""
        raise NotImplementedError

    def _throw(self) -> None:
        """Throw the dice of the game (from ``_dice``) until a decision or its end."""
        raise NotImplementedError

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game and throw on to its first decision. ``seed`` reseeds the dice;
        without it the stream goes on (a fresh unseeded generator on the very first reset). A
        seed other than None or an integer ≥ 0 raises ``ValueError`` and leaves the env as it
        was."""
        self._reseed(seed)
        self.game = self._new_game()
        self._throw()
        self._start_agents()
        self.infos = {agent: {"illegal_action": False} for agent in self.agents}
        self.agent_selection = self.possible_agents[self.game.current_player]
        if self.render_mode == "human":
            self._print_news()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The agent's view from its own seat; its mask marks the legal actions when it is to
        act and is all zeros otherwise."""
        seat = self._agent_seat(agent)
        game = self.game
        if (seat == game.current_player and agent == self.agent_selection
                and not self.terminations[agent]):
            mask = game.legal_mask()
        else:
            mask = np.zeros(self._num_actions, dtype=np.int8)
        return {"observation": self._encode(game, seat), "action_mask": mask}

    def step(self, action: Any) -> None:
        """Apply the selected agent's action (an illegal one as ``illegal_action`` says) or
        its dead step, then throw on to the next decision; at the end of the game every agent
        is rewarded and terminated."""
        agent = self._selected()
        if self.terminations[agent]:
            self._dead_step(agent, action, "the game is over")
            return
        game = self.game
        for other in self.infos:
            self.infos[other] = {"illegal_action": False}
        try:
            game.apply_action(action)
        except IllegalMoveError as err:
            if self.illegal_action == "raise":
                raise IllegalMoveError(f"{agent} played an illegal action: {err}") from None
            self.infos[agent]["illegal_action"] = True
            if self.illegal_action == "penalty":
                self._penalise(agent, action)
                return
            game.apply_action(game.legal_actions()[0])
        self._throw()
        if game.is_terminal():
            self._end_game()
        else:
            self.agent_selection = self.possible_agents[game.current_player]
        if self.render_mode == "human":
            self._print_news()

    def _end_game(self) -> None:
        """Reward every agent for its final place (``_final_reward``) and terminate them all;
        they then leave by dead step, in seat order."""
        places = self.game.placements()
        for agent, seat in self._seat.items():
            reward = self._final_reward(places, seat)
            self.rewards[agent] = reward
            self._cumulative_rewards[agent] = reward
            self.terminations[agent] = True
        self._deads_step_first()


class _OrderEnforcingIterable(AECOrderEnforcingIterable):
    def __iter__(self) -> AECOrderEnforcingIterator:
        return _OrderEnforcingIterator(self.env, self.max_iter)


class _OrderEnforcingIterator(AECOrderEnforcingIterator):
    """The stock iterator's checks in one call, reading the unwrapped env directly (the
    wrapper's ``agents`` and ``agent_selection`` are the env's once it has been reset)."""

    def __next__(self) -> str:
        wrapper = self.env
        env = wrapper.env
        if not env.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        assert wrapper._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        wrapper._has_updated = False
        return env.agent_selection


class StrictOrderEnforcing(OrderEnforcingWrapper):
    """PettingZoo's OrderEnforcingWrapper with two changes. Stepping a finished game raises
    (the stock wrapper only warns and does nothing, which hides driver bugs). And the
    attributes and calls of every agent step (``agents``, ``agent_selection``, ``last``,
    ``step``, the ``agent_iter`` iterator) go straight to the env instead of through
    ``__getattr__`` forwarding chains: the same results, at a fraction of the per-step cost."""

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Reset the env, checking ``seed`` before the wrapper marks itself reset."""
        # the stock wrapper marks itself reset before the env checks the seed: check it first
        super().reset(seed=check_seed(seed), options=options)

    def agent_iter(self, max_iter: int = 2**63) -> AECOrderEnforcingIterable:
        """The agents in turn, checked as the stock iterator checks them."""
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return _OrderEnforcingIterable(self, max_iter)

    @property
    def agents(self) -> list[str]:
        """The env's agents once reset."""
        if not self._has_reset:
            return self.__getattr__("agents")  # raises "cannot be accessed before reset"
        return self.env.agents

    @property
    def agent_selection(self) -> str:
        """The env's selected agent once reset."""
        if not self._has_reset:
            return self.__getattr__("agent_selection")
        return self.env.agent_selection

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """The env's ``last()`` once reset."""
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        return self.env.last(observe)

    def step(self, action: Any) -> None:
        """Step the env; a finished game raises ``IllegalMoveError``."""
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        env = self.env
        if not env.agents:
            raise IllegalMoveError(f"step(): {env._no_agent_reason()}")
        self._has_updated = True
        env.step(action)

    def __str__(self) -> str:
        return str(self.env)  # the env's name, as the stock wrapper prints itself

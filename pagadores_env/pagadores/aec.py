"""The PettingZoo AEC environment behind ``pagadores_v1`` (whose docstring is the user guide).

The env plays its game on the compiled rules kernel (``vector.one.OneGame``): it resolves every
chance node with its own seeded dice and selects an agent only at a decision node (R3.6), so
one agent step is one stop / throw-again decision. ``env.game`` is the same game as an
``engine.Game`` (event log, history, saved form), rebuilt from the game's inputs when read.

Rewards go to an agent exactly once, when it is terminated: by default (``eliminated="stay"``)
every agent at the end of the game, knocked-out ones included, which stay in ``agents``
unselected until then; with ``eliminated="leave"`` a knocked-out agent at once. A terminated
agent then leaves through PettingZoo's dead-step protocol.

The per-step path is kept lean (the benchmark ``pagadores bench --section aec``
watches it): one compiled call plays on to the next decision and one writes an observation,
live agents never hold rewards (see ``step``), so there is nothing to clear or accumulate
between decisions, and infos are only built when read (see ``infos``). The kernel compiles
at the first ``reset()`` of a process that has no disk cache yet (a few seconds, once).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, cast

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..core.aec import StrictOrderEnforcing, TableEnv
from ..core.checks import check_choice, check_flag, check_int, check_seed
from ..core.errors import IllegalMoveError
from ..core.options import ELIMINATED, ILLEGAL_ACTIONS, RENDER_FPS
from ..core.rewards import REWARD_SCHEMES, REWARDS
from ..core.seats import player
from .dice import DiceStream
from .engine import Action, Game, as_action
from .observation import OBS_SIZE
from .render import describe_events, render_table
from .rules import MAX_PLAYERS, MIN_PLAYERS, check_table

if TYPE_CHECKING:
    from .vector.one import OneGame

#: The mask at a decision: both actions are legal (R3.6). Both envs' masks are these two.
DECIDE_MASK = np.ones(2, dtype=np.int8)
WAIT_MASK = np.zeros(2, dtype=np.int8)  #: everyone else's mask, and the mask once over
for _mask in (DECIDE_MASK, WAIT_MASK):
    _mask.flags.writeable = False  # shared by every info dict, so nobody may edit them

#: The render modes of both environments (this one and the Gymnasium ``Pagadores-v1``).
RENDER_MODES = (None, "ansi", "human", "rgb_array")


def check_cards(num_players: int, cards: Any) -> int | tuple[int, ...]:
    """``cards`` as ``Game`` takes it: one count for every seat (1–10) or one per seat; the
    engine's own error names what is wrong."""
    start = Game(num_players, cards).start_cards
    return start if isinstance(cards, Sequence) and not isinstance(cards, str) else start[0]


def picture_drawer() -> Callable[..., np.ndarray]:
    """``picture.draw``, imported only for ``render_mode="rgb_array"``: importing the package
    does not load Pillow."""
    from .picture import draw

    return draw


def new_one_game(num_players: int, start_cards: tuple[int, ...], dice: DiceStream,
                 watched: int = -1) -> OneGame:
    """A ``vector.one.OneGame`` taken to its first decision or its end (``OneGame.play``,
    ``watched`` as there), imported only when a game starts: importing the package does not
    load numba."""
    from .vector.one import OneGame

    game = OneGame(num_players, start_cards, dice)
    game.play(watched=watched)
    return game


class raw_env(TableEnv):  # lower case: PettingZoo's conventional name for the unwrapped env
    """Dados de Pagadores as a PettingZoo AEC environment; see ``pagadores_v1`` for the guide."""

    metadata = {"render_modes": ["human", "ansi", "rgb_array"], "name": "pagadores_v1",
                "is_parallelizable": False, "render_fps": RENDER_FPS}
    _describe_events = staticmethod(describe_events)
    _render_table = staticmethod(render_table)

    def __init__(self, num_players: int = 2, cards: int | Sequence[int] = 10,
                 render_mode: str | None = None, reward: str = "win",
                 illegal_action: str = "raise", eliminated: str = "stay",
                 info_events: bool = False, info_mask: bool = False) -> None:
        super().__init__()
        self.num_players = check_int("num_players", num_players, MIN_PLAYERS, MAX_PLAYERS)
        self.cards = check_cards(self.num_players, cards)
        self._start_cards = check_table(self.num_players, cards)[1]
        self.render_mode = check_choice("render_mode", render_mode, RENDER_MODES)
        self.reward_scheme = check_choice("reward", reward, REWARD_SCHEMES)
        self.illegal_action = check_choice("illegal_action", illegal_action, ILLEGAL_ACTIONS)
        self.eliminated = check_choice("eliminated", eliminated, ELIMINATED)
        self.info_events = check_flag("info_events", info_events)
        self.info_mask = check_flag("info_mask", info_mask)
        self._leave = eliminated == "leave"
        self._draw_picture = picture_drawer() if render_mode == "rgb_array" else None
        self._reward_of = REWARDS[reward]  # (place, seats sharing it, players) → reward
        self.possible_agents = [player(seat) for seat in range(self.num_players)]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        # One space object per agent, so seeding one agent's space leaves the others alone.
        self.action_spaces: dict[str, spaces.Space] = {
            agent: spaces.Discrete(2) for agent in self.possible_agents}
        self.observation_spaces = {
            agent: spaces.Dict({
                "observation": spaces.Box(-1.0, 1.0, (OBS_SIZE,), np.float32),
                "action_mask": spaces.Box(0, 1, (2,), np.int8),
            })
            for agent in self.possible_agents
        }
        self.np_random: np.random.Generator | None = None
        self._infos: dict[str, dict[str, Any]] | None = None  # None: stale (see ``infos``)
        self._built: dict[str, dict[str, Any]] = {}  # agent → its info, built since stale
        self.agents: list[str] = []  # no game until reset()
        self.agent_selection: str | None = None
        self._deciding: str | None = None
        self._dice: DiceStream  # made with the generator in reset()
        self._table: OneGame | None = None  # the game in play, made in reset()

    # ------------------------------------------------------------------ PettingZoo API
    def observation_space(self, agent: str) -> spaces.Space:
        """``agent``'s space: the observation row and its ``[stop, throw again]`` mask."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        """``agent``'s actions: ``Discrete(2)``, 0 stop and 1 throw again (R3.6)."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game. ``seed`` reseeds the dice; without it the dice stream goes on
        (a fresh unseeded generator on the very first reset). A seed other than None or an
        integer ≥ 0 raises ``ValueError`` and leaves the env as it was (``core.checks.check_seed``).

        A game that is over before anyone has a decision (possible with 1 card) is no
        episode: the env deals again from the same dice stream, so the selected agent always
        has a decision after ``reset()``. Nobody is terminated by ``reset()`` (PettingZoo's
        API: every agent is live after a reset): with ``eliminated="leave"`` a seat out
        before the first decision (knocked out by the first throws, or dealt no cards) is
        terminated at the end of the first step, with whoever that step knocks out."""
        seed = check_seed(seed)
        if seed is not None or self.np_random is None:
            self.np_random = np.random.default_rng(seed)
            self._dice = DiceStream(self.np_random)
        table = new_one_game(self.num_players, self._start_cards, self._dice)
        # Ends quickly: the first throw of a game is a decision unless it is a special, and
        # specials are rare (R4).
        while table.decider < 0:
            table = new_one_game(self.num_players, self._start_cards, self._dice)
        self._table = table
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.agent_selection = self.possible_agents[0]
        self._skip_agent_selection = None
        self._seen = dict.fromkeys(self.agents, 0)  # log length when each agent last acted
        self._replaced: dict[str, int] = {}  # agent → _seen at its last illegal action
        self._eliminations = 0
        self._forfeit: str | None = None
        self._printed = 0
        self._advance(settle=False)

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """AECEnv.last, building only the selected agent's info when infos are stale."""
        # cast, not a check: None (never reset) is no key, so it raises KeyError below
        agent = cast(str, self.agent_selection)
        try:
            reward = self._cumulative_rewards[agent]
        except (KeyError, AttributeError):  # every agent has left, or reset() never ran
            raise IllegalMoveError(f"last(): {self._no_agent_reason()}") from None
        infos = self._infos
        return (
            self.observe(agent) if observe else None,
            reward,
            self.terminations[agent],
            self.truncations[agent],
            self._info(agent) if infos is None else infos[agent],
        )

    @property
    def infos(self) -> dict[str, dict[str, Any]]:
        """Each agent's info: whether its latest action was illegal; with ``info_mask=True``
        the mask it will act with when next selected (``[1, 1]`` for the pending decider, even
        while terminated agents step out first), and with ``info_events=True`` the events
        since it last acted.

        They change at every step but drivers mostly read only the selected agent's, through
        ``last()``, so they are built on demand: ``_advance`` only marks them stale, ``last()``
        builds the one it returns, and reading ``infos`` builds the rest around it (the same
        dict objects, so ``last()``'s info *is* ``infos[agent]``, as in PettingZoo's envs)."""
        infos = self._infos
        if infos is None:
            if self._table is None:  # never reset: no infos, as before reset in any env
                raise AttributeError(f"'{type(self).__name__}' object has no attribute 'infos'")
            info = self._info
            infos = self._infos = {agent: info(agent) for agent in self.agents}
        return infos

    @infos.setter
    def infos(self, value: dict[str, dict[str, Any]]) -> None:
        self._infos = value

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The agent's view (R7.1: all public), encoded from its own seat; its mask is
        ``[1, 1]`` when it is selected to decide and ``[0, 0]`` otherwise. Any agent can be
        observed at any time after ``reset()``, also once the game is over."""
        try:
            seat = self._seat[agent]
        except KeyError:
            raise ValueError(
                f"observe({agent!r}): no such agent; the agents are "
                f"{', '.join(self.possible_agents)}") from None
        table = self._table
        if table is None:
            raise IllegalMoveError(f"observe(): {self._no_agent_reason()}")
        to_act = agent == self._deciding and agent == self.agent_selection
        return {
            "observation": table.observe(seat),
            "action_mask": (DECIDE_MASK if to_act else WAIT_MASK).copy(),
        }

    def step(self, action: Any) -> None:
        """Apply the selected agent's decision, then play on to the next decision."""
        agent = self.agent_selection
        if agent != self._deciding or agent is None:  # None: never reset
            self._step_leaving(agent, action)
            return
        if action.__class__ is not int or not 0 <= action <= 1:  # plain 0 and 1 go fast
            action = self._checked_action(agent, action)
            if action is None:
                return
        # Rewards only ever go to agents as they are terminated, and every terminated agent
        # is dead-stepped (which clears ``core.rewards``) before anyone decides again: a live
        # agent's reward and cumulative reward are always 0 here, so there is nothing to
        # clear or accumulate.
        self._seen[agent] = self._mark()
        cast("OneGame", self._table).play(int(action))  # a plain int: the kernel's fast call
        self._advance()

    def render(self) -> str | np.ndarray | None:
        """``"ansi"``: return the table as text; ``"human"``: print it; ``"rgb_array"``:
        return a picture of it (``picture.draw``)."""
        if self.render_mode is None:
            gymnasium.logger.warn(
                "render() was called without a render_mode; pass render_mode='ansi', "
                "'human' or 'rgb_array' to pagadores_v1.env()")
            return None
        if self._table is None:
            raise IllegalMoveError(f"render(): {self._no_agent_reason()}")
        if self._draw_picture is not None:
            return self._draw_picture(self.game, self.possible_agents)
        return self._render_text()

    def close(self) -> None:
        """Nothing to release: pictures are drawn in memory, text is printed."""

    @property
    def game(self) -> Game:
        """The game in play as an ``engine.Game``: its event log, history and saved form
        (``to_dict``), rebuilt from the game's inputs when read. Read it for those; changing it
        does not change the env's game."""
        if self._table is None:
            raise AttributeError("there is no game yet: call reset() first")
        return self._table.game

    # ------------------------------------------------------------------ internals
    def _mark(self) -> int:
        """Where the game is now, as the agents' ``_seen`` marks count it: the length of the
        event log with ``info_events`` (an info's events start there), else the decisions so
        far (cheaper: the log is only built when read)."""
        table = cast("OneGame", self._table)
        return len(table.game.log) if self.info_events else table.decisions

    def _advance(self, settle: bool = True) -> None:
        """Settle the agents that are terminated now (the game has just reached a decision or
        its end); select the next agent. ``settle=False`` (from ``reset``, which leaves the
        game at a decision) terminates nobody: those out by then are settled by the first
        step."""
        table = cast("OneGame", self._table)
        seat = table.decider
        # Agents are terminated when the game ends, or ("leave") as they are knocked out.
        settle = settle and ((seat < 0 and table.over) or (
            self._leave and table.eliminations != self._eliminations))
        if settle:
            self._settle_places()
        if seat >= 0:
            self._deciding = self.agent_selection = self.possible_agents[seat]
        else:
            self._deciding = None
        self._infos = None  # the infos changed: build them when read (see ``infos``)
        self._built = {}
        if settle:
            self._deads_step_first()  # the terminated agents step (None) before the decider
        if self.render_mode == "human":
            self._print_news()

    def _settle_places(self) -> None:
        """Terminate and reward every agent whose place is settled and who is not yet
        terminated: everyone once the game is over, and with "leave" each knocked-out agent.
        A place is final at the moment a player is out."""
        table = cast("OneGame", self._table)
        self._eliminations = table.eliminations
        over = table.over
        places = table.placements()
        for agent in self.agents:
            seat = self._seat[agent]
            if (over or table.out(seat)) and not self.terminations[agent]:
                place = places[seat]
                reward = self._reward_of(place, places.count(place), self.num_players)
                self.rewards[agent] = reward
                self._cumulative_rewards[agent] += reward
                self.terminations[agent] = True

    def _info(self, agent: str) -> dict[str, Any]:
        """``agent``'s info for the current state, built once (see ``infos``)."""
        info = self._built.get(agent)
        if info is None:
            seen = self._seen[agent]
            info = self._built[agent] = {"illegal_action": self._replaced.get(agent) == seen}
            if self.info_mask:
                info["action_mask"] = DECIDE_MASK if agent == self._deciding else WAIT_MASK
            if self.info_events:
                info["events"] = self.game.log[seen:]
        return info

    def _checked_action(self, agent: str, action: Any) -> Action | None:
        """The action as the engine's ``Action`` if it is one (``engine.as_action``, the rule
        every layer uses); otherwise raise, play the first legal action instead ("replace"),
        or end the game with the offender's forfeit and return None ("penalty")."""
        try:
            return as_action(action)
        except IllegalMoveError as err:
            if self.illegal_action == "raise":
                raise IllegalMoveError(f"{agent} played an illegal action: {err}") from None
        self._replaced[agent] = self._mark()  # step() sets _seen[agent] to this too
        if self.illegal_action == "penalty":
            self._penalise(agent, action)
            return None
        return self.game.legal_actions()[0]

    def _penalise(self, agent: str, action: Any) -> None:
        """TerminateIllegalWrapper's semantics: the offender gets -1, everyone else 0, and
        the game ends with every agent terminated."""
        self._forfeit = agent
        self._deciding = None
        self._seen[agent] = self._mark()
        self.terminations = dict.fromkeys(self.agents, True)
        self.rewards[agent] = -1.0
        self._cumulative_rewards[agent] = -1.0
        self._infos = None
        self._built = {}
        self._deads_step_first()
        if self.render_mode == "human":
            print(f"{agent} played the illegal action {action!r} and forfeits: game over")

    def _step_leaving(self, agent: str | None, action: Any) -> None:
        """A step for an agent that is not deciding: a terminated agent leaves (dead step);
        anything else is an error."""
        if not self.agents:
            raise IllegalMoveError(f"step(): {self._no_agent_reason()}")
        if action is not None:
            over = cast("OneGame", self._table).over or self._forfeit is not None
            why = "the game is over" if over else "it has no cards left"
            raise IllegalMoveError(
                f"{agent} is terminated ({why}): the only valid action is None, which removes "
                f"it from the game (PettingZoo dead step); got {action!r}"
            )
        self._was_dead_step(None)


def env(**kwargs: Any) -> AECEnv:
    """The environment as users should take it: ``raw_env(**kwargs)`` with order enforcing.

    PettingZoo's classic envs also stack ``TerminateIllegalWrapper`` and
    ``AssertOutOfBoundsWrapper``; here both jobs are done by ``raw_env`` itself (see the
    ``pagadores_v1`` guide, "Illegal actions"), because the only illegal actions are
    out-of-range ones, which those wrappers answer with a bare assertion or an index error.
    """
    return StrictOrderEnforcing(raw_env(**kwargs))

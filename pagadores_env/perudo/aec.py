"""The PettingZoo AEC environment behind ``perudo_v1`` (whose docstring is the user guide).

The env drives a Perudo :class:`~pagadores_env.perudo.engine.Game`: it rolls every round's
dice from its own seeded stream (P7.1), so every agent step is one bid or dudo. It takes the
options of ``pagadores_v1`` with the same meanings. Rewards go to an agent exactly once, when
it is terminated: by default (``eliminated="stay"``) every agent when the game ends (P1.3),
players who are out staying in ``agents``, never selected, until then; with
``eliminated="leave"`` a player as it loses its last die. A terminated agent then leaves
through PettingZoo's dead-step protocol.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..core.aec import StrictOrderEnforcing, TableEnv
from ..core.checks import check_choice, check_flag
from ..core.errors import IllegalMoveError
from ..core.options import ELIMINATED, RENDER_FPS, RENDER_MODES
from .dice import FaceStream
from .engine import Game
from .observation import OBS_SIZE, encode
from .render import describe_events, render_table
from .rules import MAX_DICE, NUM_ACTIONS, legal_mask

__all__ = ["RENDER_MODES", "check_start", "env", "observation_space", "raw_env",
           "roll_to_decision"]

_WAIT = np.zeros(NUM_ACTIONS, dtype=np.int8)  # the mask of every agent not to act
_WAIT.flags.writeable = False


def check_start(num_players: Any, dice: Any) -> tuple[int, int | tuple[int, ...]]:
    """``num_players`` (2–6, P1.1) and ``dice`` as ``Game`` takes them: one start count for
    every seat (1–5, P1.2) or one per seat; the engine's own error names what is wrong."""
    start = Game(num_players, dice).start_dice
    per_seat = isinstance(dice, Sequence) and not isinstance(dice, str)
    return len(start), start if per_seat else start[0]


def observation_space() -> spaces.Box:
    """The observation vector's space (``observation``: every entry in [0, 1])."""
    return spaces.Box(0.0, 1.0, (OBS_SIZE,), np.float32)


def roll_to_decision(game: Game, faces: FaceStream) -> None:
    """Roll the round's dice if the game is at a chance node (P2.1)."""
    if game.is_chance_node():
        game.apply_roll(faces.roll(game.dice_counts))


class raw_env(TableEnv):  # lower case: PettingZoo's conventional name for the unwrapped env
    """Perudo as a PettingZoo AEC environment; see ``perudo_v1`` for the guide."""

    metadata = {"render_modes": ["human", "ansi", "rgb_array"], "name": "perudo_v1",
                "is_parallelizable": False, "render_fps": RENDER_FPS}
    _describe_events = staticmethod(describe_events)
    _render_table = staticmethod(render_table)
    _encode = staticmethod(encode)
    _dice_stream = FaceStream

    def __init__(self, num_players: int = 2, dice: int | Sequence[int] = MAX_DICE,
                 render_mode: str | None = None, reward: str = "win",
                 illegal_action: str = "raise", eliminated: str = "stay",
                 info_events: bool = False, info_mask: bool = False) -> None:
        super().__init__()
        self.num_players, self.dice = check_start(num_players, dice)
        self._take_options(render_mode, reward, illegal_action)
        self.eliminated = check_choice("eliminated", eliminated, ELIMINATED)
        self.info_events = check_flag("info_events", info_events)
        self.info_mask = check_flag("info_mask", info_mask)
        self._leave = eliminated == "leave"
        # ``Discrete(181)``: 0 dudo, 1 + (q-1)*6 + (f-1) the bid (q, f)
        self._seat_agents(NUM_ACTIONS, observation_space)
        self._deciding: str | None = None  # the agent to bid or call dudo; None once over

    # ------------------------------------------------------------------ PettingZoo API
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game and roll its first dice. ``seed`` reseeds the dice; without it the
        stream goes on (a fresh unseeded generator on the very first reset). A seed other than
        None or an integer ≥ 0 raises ``ValueError`` and leaves the env as it was. Nobody is
        terminated by ``reset()`` (PettingZoo's API): with ``eliminated="leave"`` a seat dealt
        no dice is terminated at the end of the first step."""
        self._reseed(seed)
        self.game = game = Game(self.num_players, self.dice)
        roll_to_decision(game, self._dice)
        self._start_agents()
        self._seen = dict.fromkeys(self.agents, 0)  # log length when each agent last acted
        self._replaced: dict[str, int] = {}  # agent → _seen at its last illegal action
        self._eliminations = 0  # those of the game settled so far ("leave")
        self._forfeit: str | None = None
        self._advance(settle=False)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The agent's own view (P7.2: its dice, the public rest), from its own seat; its
        mask marks the legal actions when it is selected to act and is all zeros otherwise."""
        seat = self._agent_seat(agent)
        to_act = agent == self._deciding and agent == self.agent_selection
        return {"observation": encode(self.game, seat), "action_mask": self._mask(agent, to_act)}

    def step(self, action: Any) -> None:
        """Apply the selected agent's bid or dudo (an illegal one as ``illegal_action``
        says), or its dead step; then roll the next round's dice if a dudo ended one."""
        agent = self._selected()
        if self.terminations[agent]:
            over = self.game.winner is not None or self._forfeit is not None
            self._dead_step(agent, action, "the game is over" if over else "it has no dice left")
            return
        game = self.game
        mark = len(game.log)
        try:
            game.apply_action(action)
        except IllegalMoveError as err:
            if self.illegal_action == "raise":
                raise IllegalMoveError(f"{agent} played an illegal action: {err}") from None
            self._replaced[agent] = mark
            if self.illegal_action == "penalty":
                self._seen[agent] = mark
                self._penalise(agent, action)
                return
            game.apply_action(game.legal_actions()[0])
        self._seen[agent] = mark
        roll_to_decision(game, self._dice)
        self._advance()

    # ------------------------------------------------------------------ internals
    def _picture(self) -> np.ndarray:
        """The public table (``picture.draw``) with the dice of the seat to act face up
        (every die at a dudo's reveal)."""
        assert self._draw_picture is not None  # render_mode="rgb_array"
        to_act = self.game.current_player
        return self._draw_picture(self.game, self.possible_agents,
                                  shown=() if to_act < 0 else (to_act,))

    def _mask(self, agent: str, to_act: bool) -> np.ndarray:
        """The agent's legal actions if ``to_act`` (a copy), else all zeros."""
        if not to_act:
            return _WAIT.copy()
        game = self.game
        return legal_mask(game.bid_action, game.total_dice, game.palifico).copy()

    def _advance(self, settle: bool = True) -> None:
        """Settle the agents whose place is final now (everyone at the end; with "leave"
        whoever lost their last die), select the agent to act, rebuild the infos.
        ``settle=False`` (from ``reset``) terminates nobody: the first step settles those
        out by then."""
        game = self.game
        over = game.winner is not None
        if settle and (over or (self._leave and game.eliminations != self._eliminations)):
            self._settle_places()
        self._deciding = None if over else self.possible_agents[game.current]
        if self._deciding is not None:
            self.agent_selection = self._deciding
        self._build_infos()
        self._deads_step_first()  # the terminated agents step (None) before the decider
        if self.render_mode == "human":
            self._print_news()

    def _settle_places(self) -> None:
        """Terminate and pay every agent whose place is final (``core.rewards``) and who is
        not yet terminated: everyone once the game is over, else (with "leave") the players
        who are out."""
        game = self.game
        self._eliminations = game.eliminations
        places = game.placements()
        for agent in self.agents:
            seat = self._seat[agent]
            if (game.winner is not None or not game.dice_counts[seat]) \
                    and not self.terminations[agent]:
                reward = self._final_reward(places, seat)
                self.rewards[agent] = reward
                self._cumulative_rewards[agent] += reward
                self.terminations[agent] = True

    def _build_infos(self) -> None:
        """Every agent's info: whether its latest action was illegal; with ``info_mask`` the
        mask it will act with when next selected, with ``info_events`` the events since it
        last acted."""
        log = self.game.log
        infos: dict[str, dict[str, Any]] = {}
        for agent in self.agents:
            seen = self._seen[agent]
            info: dict[str, Any] = {"illegal_action": self._replaced.get(agent) == seen}
            if self.info_mask:
                info["action_mask"] = self._mask(agent, agent == self._deciding)
            if self.info_events:
                info["events"] = log[seen:]
            infos[agent] = info
        self.infos = infos

    def _penalise(self, agent: str, action: Any) -> None:
        """TerminateIllegalWrapper's semantics (``core.aec.TableEnv._penalise``), the forfeit
        noted and nobody left to decide."""
        self._forfeit = agent
        self._deciding = None
        self._build_infos()
        super()._penalise(agent, action)


def env(**kwargs: Any) -> AECEnv:
    """The environment as users should take it: ``raw_env(**kwargs)`` with order enforcing
    (``core.aec.StrictOrderEnforcing``: stepping a finished game raises)."""
    return StrictOrderEnforcing(raw_env(**kwargs))

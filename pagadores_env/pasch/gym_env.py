"""``Pasch-v1``: Pasch as a single-agent Gymnasium environment (rule ids X1–X9).

One seat is the learner; the other seats are played by fixed policies and the dice are thrown
by the environment (X8.2), so ``step`` returns at the learner's next decision. The env drives
``pasch.engine.Game`` directly and seats and seeds its opponents with the shared core
(``pagadores_env.core.opponents``)::

    env = gymnasium.make("Pasch-v1", num_players=2, hand=(-1, 1, 2, 3, 4, 5), blocks=3,
                         opponents=["greedy"], learner_seat="random", reward="win",
                         illegal_action="replace", render_mode=None)

Spaces
    observation: ``Box(-1, 1, (164,), float32)``, the vector the PettingZoo env ``pasch_v1``
    gives the same seat (``pasch.observation``). action: ``Discrete(C + 49)`` (X8.1; C the
    hand's distinct card values, 55 actions with the default hand). The legal actions are
    ``action_masks()`` (for sb3-contrib's MaskablePPO; on ``env.unwrapped`` of a
    ``gym.make`` env, whose wrappers do not forward it) and ``info["action_mask"]``.

Options
    ``num_players`` 2–6; ``hand`` 1–10 cards of -1 … 10 and ``blocks`` 0–10 (X1.3, as ``Game``
    takes them); ``opponents``: specs of Pasch's players (``"random"``, and with
    ``pagadores_agents`` ``"greedy"``, ``"turn_optimal"``, ``"round_player"``: the registry's
    ``pasch`` namespace) or policy objects, one per other seat in seat order skipping the
    learner, or a single one shared by every other seat (``core.opponents.seat_opponents``);
    ``learner_seat``: a seat or ``"random"`` (drawn per game); ``reward``: ``"win"`` or
    ``"placement"`` (``pagadores_env.core.rewards``, as ``pasch_v1`` pays); ``render_mode``:
    None, ``"ansi"``, ``"human"`` or ``"rgb_array"``. A wrong value raises ``ValueError`` in
    one line.

Episode
    ``reset(seed)`` seeds the dice (Gymnasium's ``np_random``), the learner seat draw and the
    opponents' own generators (``core.opponents.reseed_opponents``), so a seeded run repeats
    exactly. It returns the learner's first decision (every turn has one: stop or throw
    again after the first throw). The episode ends (``terminated=True``) with the game; the
    reward is paid then, once, and is 0 on every other step. Nothing truncates.

Illegal actions (a value that is no action, or an action the mask forbids)
    ``"replace"`` (default): the first legal action is played instead and
    ``info["illegal_action"]`` is True. ``"raise"``: ``IllegalMoveError`` in one line naming
    the learner's seat and what is allowed; nothing changes. ``"penalty"``: reward -1, the
    episode ends and the learner counts as last.

Info (the same keys and shapes at every step)
    ``action_mask``; ``learner_seat``; ``illegal_action``; ``placement``: the learner's final
    place (1 = most points, shared by equal points) once the episode has ended, 0 before.
"""

from __future__ import annotations

from collections.abc import Sequence

import gymnasium as gym

from ..core.opponents import Opponents
from ..core.options import RENDER_FPS
from ..core.single_agent import MAX_SILENT_GAMES, SingleAgentEnv
from .aec import check_start, observation_space
from .dice import FaceStream, throw_to_decision
from .engine import Game
from .observation import encode
from .policies import GAME
from .render import render_table
from .rules import DEFAULT_BLOCKS, DEFAULT_HAND


class PaschGymEnv(SingleAgentEnv):
    """Single-agent Pasch; see the module docstring for the full contract."""

    metadata = {"render_modes": ["human", "ansi", "rgb_array"], "render_fps": RENDER_FPS}
    _encode = staticmethod(encode)
    _render_table = staticmethod(render_table)
    _render_hint = "render_mode='ansi', 'human' or 'rgb_array' to gymnasium.make('Pasch-v1', ...)"
    _dice_stream = FaceStream

    def __init__(self, num_players: int = 2, hand: Sequence[int] = DEFAULT_HAND,
                 blocks: int | Sequence[int] = DEFAULT_BLOCKS,
                 opponents: Opponents = ("random",), learner_seat: int | str = "random",
                 reward: str = "win", illegal_action: str = "replace",
                 render_mode: str | None = None) -> None:
        start = check_start(num_players, hand, blocks)
        self.num_players, self.hand, self.blocks = start.num_players, start.hand, blocks
        # a policy's table check hears the hand as Pasch's table (``core.policies.Table``)
        self._take_options(opponents, learner_seat, self.hand, GAME, reward, illegal_action,
                           render_mode)
        self.observation_space = observation_space()
        self.action_space = gym.spaces.Discrete(start.actions.size)

    # ------------------------------------------------------------------ hooks
    def _make_game(self) -> None:
        self.game = Game(self.num_players, self.hand, self.blocks)

    def _throw(self) -> None:
        """The dice of every chance node up to a decision with a choice (X8.2, X8.3)."""
        assert self.game is not None and self._dice is not None  # reset() made both
        throw_to_decision(self.game, self._dice)

    def _silent_message(self) -> str:
        return (f"the learner got no decision in {MAX_SILENT_GAMES} games in a row "
                f"(num_players={self.num_players}, hand={list(self.hand)})")

"""``Paye-v1``: Paye's dobbelspel as a single-agent Gymnasium environment (rule ids Y1–Y8).

One seat is the learner; the other seats are played by fixed policies, the dice are thrown
by the environment (Y5.1) and forced choices are made by the engine (Y7.3), so ``step``
returns at the learner's next choice of a die. The env drives ``paye.engine.Game`` directly,
and seats and seeds its opponents with the shared core (``pagadores_env.core.opponents``)::

    env = gymnasium.make("Paye-v1", num_players=6, variant="base", dice=None, rounds=10,
                         opponents=["random"], learner_seat="random", reward="win",
                         illegal_action="replace", render_mode=None)

Spaces
    observation: ``Box(0, 1, (85,), float32)``, the vector the PettingZoo env ``paye_v1``
    gives the same seat (``paye.observation``; everything is public, Y5.1: scores, round,
    turn, the dice's faces, in the expansion the dice aside). action: ``Discrete(13)`` (Y7):
    0–5 the special dice S0 … S5 (red in the expansion), 6 the traditional red die, 7–12 the
    blue S0 … S5; the base game masks 6–12. The legal actions are ``action_masks()`` (for
    sb3-contrib's MaskablePPO; on ``env.unwrapped`` of a ``gym.make`` env, whose wrappers do
    not forward it) and ``info["action_mask"]``.

Options
    ``num_players`` 2–6 (default 6, Y1.1); ``variant`` ``"base"`` (to 50) or ``"expansion"``
    (to 100, Y6); ``dice``: the six special dice, six lists of six whole numbers ≥ 0
    (default Y1.3); ``rounds`` ≥ 1 (default 10, Y2.2); ``opponents``: specs of Paye's
    players (the registry's ``paye`` namespace) or policy objects, one per other seat in seat
    order skipping the learner, or a single one shared by every other seat
    (``core.opponents.seat_opponents``); ``learner_seat``: a seat or ``"random"`` (drawn per
    game); ``reward``: ``"win"`` or ``"placement"`` (``core.rewards``, as ``paye_v1`` pays);
    ``render_mode``: None, ``"ansi"``, ``"human"`` or ``"rgb_array"`` (``paye.render``,
    ``paye.picture``). A wrong value raises ``ValueError`` in one line.

Episode
    ``reset(seed)`` seeds the dice (Gymnasium's ``np_random``), the learner seat draw and the
    opponents' own generators (``core.opponents.reseed_opponents``), so a seeded run repeats
    exactly. It returns the learner's first choice; a game that ends before the learner
    chooses (another player hits the target first) is no episode, and another game starts.
    The episode ends (``terminated=True``) with the game; the reward is paid then, once, and
    is 0 on every other step. Nothing truncates: a game has at most ``rounds`` rounds.

Illegal actions (a value that is no action, or a die that is not legal now)
    ``"replace"`` (default): the lowest legal action is played instead and
    ``info["illegal_action"]`` is True. ``"raise"``: ``IllegalMoveError`` in one line naming
    the learner's seat and what is allowed; nothing changes. ``"penalty"``: reward -1, the
    episode ends and the learner counts as last.

Info (the same keys and shapes at every step)
    ``action_mask``; ``learner_seat``; ``illegal_action``; ``placement``: the learner's final
    place (1 = winner, shared by tied seats, Y4.4) once the episode has ended, 0 before.
"""

from __future__ import annotations

from collections.abc import Sequence

import gymnasium as gym

from ..core.opponents import Opponents
from ..core.options import RENDER_FPS
from ..core.single_agent import MAX_SILENT_GAMES, SingleAgentEnv
from .aec import check_table, observation_space
from .dice import ThrowStream
from .engine import Game
from .observation import encode
from .policies import GAME
from .render import render_table
from .rules import DEFAULT_PLAYERS, NUM_ACTIONS, ROUNDS


class PayeGymEnv(SingleAgentEnv):
    """Single-agent Paye's dobbelspel; see the module docstring for the full contract."""

    metadata = {"render_modes": ["human", "ansi", "rgb_array"], "render_fps": RENDER_FPS}
    _encode = staticmethod(encode)
    _render_table = staticmethod(render_table)
    _render_hint = "render_mode='ansi', 'human' or 'rgb_array' to gymnasium.make('Paye-v1', ...)"
    _dice_stream = ThrowStream

    def __init__(self, num_players: int = DEFAULT_PLAYERS, variant: str = "base",
                 dice: Sequence[Sequence[int]] | None = None, rounds: int = ROUNDS,
                 opponents: Opponents = ("random",), learner_seat: int | str = "random",
                 reward: str = "win", illegal_action: str = "replace",
                 render_mode: str | None = None) -> None:
        table = check_table(num_players, variant, dice, rounds)
        self.num_players, self.variant = table.num_players, table.variant
        self.dice, self.rounds = table.dice, table.rounds
        # a policy's table check hears the rounds as Paye's table (``core.policies.Table``)
        self._take_options(opponents, learner_seat, self.rounds, GAME, reward, illegal_action,
                           render_mode)
        self.observation_space = observation_space()
        self.action_space = gym.spaces.Discrete(NUM_ACTIONS)

    # ------------------------------------------------------------------ hooks
    def _make_game(self) -> None:
        self.game = Game(self.num_players, self.variant, self.dice, self.rounds)

    def _throw(self) -> None:
        """One throw: a start throw (Y2.1) or a turn's (Y3.2); forced choices are the
        engine's (Y7.3)."""
        assert self.game is not None and self._dice is not None  # reset() made both
        self.game.apply_chance(self._dice.throw(self.game.faces_to_throw()))

    def _silent_message(self) -> str:
        return (f"the learner got no choice in {MAX_SILENT_GAMES} games in a row "
                f"(num_players={self.num_players}, rounds={self.rounds})")

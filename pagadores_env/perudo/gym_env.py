"""``Perudo-v1``: Perudo as a single-agent Gymnasium environment (rule ids P1–P7).

One seat is the learner; the other seats are played by fixed policies and the dice are rolled
by the environment (P7.1), so ``step`` returns at the learner's next bid or dudo. The env
drives ``perudo.engine.Game`` directly, and seats and seeds its opponents with the shared core
(``pagadores_env.core.opponents``)::

    env = gymnasium.make("Perudo-v1", num_players=2, dice=5, opponents=["random"],
                         learner_seat="random", reward="win", illegal_action="replace",
                         render_mode=None)

Spaces
    observation: ``Box(0, 1, (267,), float32)``, the vector the PettingZoo env ``perudo_v1``
    gives the same seat (``perudo.observation``: the learner's own dice and the public rest,
    P7.2). action: ``Discrete(181)``, 0 = dudo, ``1 + (q-1)*6 + (f-1)`` = bid (q, f). The legal
    actions are ``action_masks()`` (for sb3-contrib's MaskablePPO; on ``env.unwrapped`` of a
    ``gym.make`` env, whose wrappers do not forward it) and ``info["action_mask"]``.

Options
    ``num_players`` 2–6; ``dice`` 1–5 each (or one count per seat, as ``Game`` takes);
    ``core.opponents``: specs of Perudo's players (``"random"``: the registry's ``perudo``
    namespace, ``perudo.policies``) or policy objects, one per other seat in seat order
    skipping the learner, or a single one shared by every other seat
    (``core.opponents.seat_opponents``); ``learner_seat``: a seat or ``"random"`` (drawn per
    game); ``reward``: ``"win"`` or ``"placement"`` (``pagadores_env.core.rewards``, as
    ``perudo_v1`` pays); ``illegal_action`` and ``render_mode`` as below. A wrong value
    raises ``ValueError`` in one line.

    In subprocess workers (SB3's ``SubprocVecEnv`` with the default forkserver/spawn start,
    ``make_vec_env(..., vec_env_cls=SubprocVecEnv)``) make it as
    ``gymnasium.make("pagadores_env:Perudo-v1", ...)``: the ``module:`` prefix imports the
    package, which registers the id, in each worker.

Episode
    ``reset(seed)`` seeds the dice (Gymnasium's ``np_random``), the learner seat draw and the
    opponents' own generators (``core.opponents.reseed_opponents``), so a seeded run repeats
    exactly. It returns the learner's first decision; if a whole game passes without one
    (possible with few dice: the others may knock each other out before the learner's first
    turn), it starts another game, and gives up with an error after ``MAX_SILENT_GAMES``.
    The episode ends (``terminated=True``) when the learner is out or the game is over; the
    reward is paid then, once, and is 0 on every other step. Nothing truncates.

Illegal actions (a value that is no action, or a bid that is not legal now)
    ``"replace"`` (default): the first legal action (dudo when there is a bid, else the
    lowest opening bid) is played instead and ``info["illegal_action"]`` is True for that
    step. ``"raise"``: ``IllegalMoveError`` in one line naming the learner's seat and what is
    allowed; nothing changes. ``"penalty"``: reward -1, the episode ends and the learner
    counts as last.

    Why ``"replace"`` is the default: Gymnasium's contract is that every element of
    ``action_space`` is a valid argument of ``step()``, and most of the 181 actions are
    illegal at any moment (bids that do not raise, quantities above the dice in play).
    Gymnasium's and SB3's ``check_env``, and any learner without masks, step unmasked samples
    of the space; ``"replace"`` honours the contract without ending episodes, and says so in
    ``info["illegal_action"]``. A mask-aware learner (sb3-contrib's MaskablePPO, with
    ``action_masks()``) never plays an illegal action, so never meets it. ``"raise"`` is there
    for whoever wants misuse to fail loudly. (``Pagadores-v1`` keeps ``"raise"``: at its
    decisions both of its two actions are legal, so every element of its space is one.)

Info (the same keys and shapes at every step)
    ``action_mask``; ``learner_seat``; ``illegal_action``; ``placement``: the learner's final
    place (1 = winner) once the episode has ended, 0 before.

Rendering (``render_mode``)
    ``"ansi"``: ``render()`` returns the public table as text (``perudo.render``: nobody's
    hidden dice); ``"human"``: the table is printed after ``reset()`` and every step;
    ``"rgb_array"``: ``render()`` returns a picture of the table as the learner sees it
    (``perudo.picture.draw``: its own dice face up, the others' cups closed, every die at a
    dudo's reveal; the learner's seat named "(learner)"), an RGB uint8 array of
    ``picture.HEIGHT × picture.WIDTH × 3``, so Gymnasium's ``RecordVideo`` (with moviepy
    installed) can record episodes and SB3's ``make_vec_env``, which asks for it, builds the
    env (``metadata["render_fps"]`` is 2). Without a ``render_mode``, ``render()`` warns in
    one line and returns None.
"""

from __future__ import annotations

from collections.abc import Sequence

import gymnasium as gym
import numpy as np

from ..core.opponents import Opponents
from ..core.options import RENDER_FPS
from ..core.single_agent import MAX_SILENT_GAMES, SingleAgentEnv
from .aec import check_start, observation_space, roll_to_decision
from .dice import FaceStream
from .engine import Game
from .observation import encode
from .policies import GAME
from .render import render_table
from .rules import MAX_DICE, NUM_ACTIONS, legal_mask


class PerudoGymEnv(SingleAgentEnv):
    """Single-agent Perudo; see the module docstring for the full contract."""

    metadata = {"render_modes": ["human", "ansi", "rgb_array"], "render_fps": RENDER_FPS}
    _encode = staticmethod(encode)
    _render_table = staticmethod(render_table)
    _render_hint = ("render_mode='ansi', 'human' or 'rgb_array' to "
                    "gymnasium.make('Perudo-v1', ...)")
    _dice_stream = FaceStream

    def __init__(self, num_players: int = 2, dice: int | Sequence[int] = MAX_DICE,
                 opponents: Opponents = ("random",), learner_seat: int | str = "random",
                 reward: str = "win", illegal_action: str = "replace",
                 render_mode: str | None = None) -> None:
        self.num_players, self.dice = check_start(num_players, dice)
        self._take_options(opponents, learner_seat, self.dice, GAME, reward, illegal_action,
                           render_mode)
        self.observation_space = observation_space()
        self.action_space = gym.spaces.Discrete(NUM_ACTIONS)

    # ------------------------------------------------------------------ hooks
    def _picture(self) -> np.ndarray:
        """The table by ``picture.draw`` as the learner sees it: its own dice face up (every
        die at a dudo's reveal), its seat named "(learner)"."""
        assert self._draw_picture is not None  # made in __init__ for "rgb_array"
        return self._draw_picture(self.game, self._seat_labels(), shown=(self.seat,))

    def _make_game(self) -> None:
        self.game = Game(self.num_players, self.dice)

    def _throw(self) -> None:
        """The round's dice, every seat's under its cup (P2.1)."""
        assert self.game is not None and self._dice is not None  # reset() made both
        roll_to_decision(self.game, self._dice)

    def _learner_done(self) -> bool:
        """The learner's episode ends with the game or when it loses its last die (P1.3)."""
        game = self.game
        assert game is not None  # reset() made it
        return game.winner is not None or not game.dice_counts[self.seat]

    def _legal_mask(self) -> np.ndarray:
        """The legal bids and dudo of the player to act (``rules.legal_mask``), a copy."""
        game = self.game
        assert game is not None  # reset() made it
        return legal_mask(game.bid_action, game.total_dice, game.palifico).copy()

    def _silent_message(self) -> str:
        return (f"the learner got no decision in {MAX_SILENT_GAMES} games in a row "
                f"(num_players={self.num_players}, dice={self.dice}): give more dice")

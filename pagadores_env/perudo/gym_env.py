"""``Perudo-v0``: Perudo as a single-agent Gymnasium environment (rule ids P1–P7).

One seat is the learner; the other seats are played by fixed policies and the dice are rolled
by the environment (P7.1), so ``step`` returns at the learner's next bid or dudo. The env
drives ``perudo.engine.Game`` directly, and seats and seeds its opponents with the Pagadores
machinery (``pagadores_env.opponents``)::

    env = gymnasium.make("Perudo-v0", num_players=2, dice=5, opponents=["random"],
                         learner_seat="random", reward="win", illegal_action="raise",
                         render_mode=None)

Spaces
    observation: ``Box(0, 1, (267,), float32)``, the vector the PettingZoo env ``perudo_v0``
    gives the same seat (``perudo.observation``: the learner's own dice and the public rest,
    P7.2). action: ``Discrete(181)``, 0 = dudo, ``1 + (q-1)*6 + (f-1)`` = bid (q, f). The legal
    actions are ``action_masks()`` (for sb3-contrib's MaskablePPO) and ``info["action_mask"]``.

Options
    ``num_players`` 2–6; ``dice`` 1–5 each (or one count per seat, as ``Game`` takes);
    ``opponents``: specs of Perudo's players (``"random"``: the registry's ``perudo``
    namespace, ``perudo.policies``) or policy objects, one per other seat in seat order
    skipping the learner, or a single one shared by every other seat
    (``opponents.seat_opponents``); ``learner_seat``: a seat or ``"random"`` (drawn per
    game); ``reward``: ``"win"`` or ``"placement"`` (``pagadores_env.rewards``, as
    ``perudo_v0`` pays); ``render_mode``: None, ``"ansi"`` or ``"human"`` (the public table,
    ``perudo.render``). A wrong value raises ``ValueError`` in one line.

Episode
    ``reset(seed)`` seeds the dice (Gymnasium's ``np_random``), the learner seat draw and the
    opponents' own generators (``opponents.reseed_opponents``), so a seeded run repeats
    exactly. It returns the learner's first decision; if a whole game passes without one
    (possible with few dice: the others may knock each other out before the learner's first
    turn), it starts another game, and gives up with an error after ``MAX_SILENT_GAMES``.
    The episode ends (``terminated=True``) when the learner is out or the game is over; the
    reward is paid then, once, and is 0 on every other step. Nothing truncates.

Illegal actions (a value that is no action, or a bid that is not legal now)
    ``"raise"`` (default): ``IllegalMoveError`` in one line naming the learner's seat and what
    is allowed; nothing changes. ``"replace"``: the first legal action (dudo when there is a
    bid, else the lowest opening bid) is played instead and ``info["illegal_action"]`` is
    True. ``"penalty"``: reward -1, the episode ends and the learner counts as last. The
    environment checkers step random actions, most of them illegal bids: they pass with
    ``"replace"`` or ``"penalty"``.

Info (the same keys and shapes at every step)
    ``action_mask``; ``learner_seat``; ``illegal_action``; ``placement``: the learner's final
    place (1 = winner) once the episode has ended, 0 before.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np

from ..aec import ILLEGAL_ACTIONS, RENDER_FPS
from ..checks import check_choice
from ..engine import IllegalMoveError
from ..gym_env import MAX_SILENT_GAMES
from ..opponents import (
    Opponents,
    check_learner_seat,
    end_games,
    game_action,
    reseed_opponents,
    seat_opponents,
    start_games,
)
from ..rewards import check_scheme, final_reward
from .aec import RENDER_MODES, check_start, roll_to_decision
from .dice import FaceStream
from .engine import Game
from .observation import OBS_SIZE, encode
from .policies import GAME
from .render import render_table
from .rules import MAX_DICE, NUM_ACTIONS, legal_mask

_GAME = 0  # this env's one game, as the per-game opponent hooks count games (``opponents``)


class PerudoGymEnv(gym.Env):
    """Single-agent Perudo; see the module docstring for the full contract."""

    metadata = {"render_modes": ["human", "ansi"], "render_fps": RENDER_FPS}

    def __init__(self, num_players: int = 2, dice: int | Sequence[int] = MAX_DICE,
                 opponents: Opponents = ("random",), learner_seat: int | str = "random",
                 reward: str = "win", illegal_action: str = "raise",
                 render_mode: str | None = None) -> None:
        self.num_players, self.dice = check_start(num_players, dice)
        self.learner_seat = check_learner_seat(learner_seat, self.num_players)
        self.opponents = seat_opponents(opponents, self.num_players, self.dice, game=GAME)
        self.reward_scheme = check_scheme(reward)
        self.illegal_action = check_choice("illegal_action", illegal_action, ILLEGAL_ACTIONS)
        self.render_mode = check_choice("render_mode", render_mode, RENDER_MODES)
        self.observation_space = gym.spaces.Box(0.0, 1.0, (OBS_SIZE,), np.float32)
        self.action_space = gym.spaces.Discrete(NUM_ACTIONS)
        self.game: Game | None = None
        self.seat = 0
        self._faces: FaceStream | None = None  # made with the generator in reset()
        self._done = True

    # ------------------------------------------------------------------ gym API
    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        """Start an episode at the learner's first decision: ``seed`` reseeds the dice and the
        opponents, without it both run on; ``options`` is ignored."""
        super().reset(seed=seed)
        if seed is not None or self._faces is None:  # a new seed drops the old seed's dice
            self._faces = FaceStream(self.np_random)
        reseed_opponents(self.opponents, seed)
        for _ in range(MAX_SILENT_GAMES):
            self._new_game()
            if not self._done:
                if self.render_mode == "human":
                    self.render()
                return self._observe(), self._info()
        raise RuntimeError(
            f"the learner got no decision in {MAX_SILENT_GAMES} games in a row "
            f"(num_players={self.num_players}, dice={self.dice}): give more dice")

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Play the learner's ``action`` (an illegal one as ``illegal_action`` says) and the
        game on to the learner's next decision or the end of its episode."""
        if self._done:
            raise RuntimeError("the episode is over (or never started): call reset() first")
        game = self.game
        assert game is not None  # an episode is running, so reset() made it
        replaced = False
        try:
            game.apply_action(action)
        except IllegalMoveError as err:
            if self.illegal_action == "raise":
                raise IllegalMoveError(
                    f"the learner (seat {self.seat}) played an illegal action: {err}") from None
            if self.illegal_action == "penalty":
                self._done = True
                end_games(self.opponents, np.array([_GAME]), np.array([self.num_players]))
                return (self._observe(), -1.0, True, False,
                        self._info(illegal_action=True, placement=self.num_players))
            game.apply_action(game.legal_actions()[0])
            replaced = True
        self._play_until_learner()
        reward = 0.0
        if self._done:
            places = game.placements()
            place = places[self.seat]
            reward = final_reward(self.reward_scheme, place, self.num_players,
                                  places.count(place))
            end_games(self.opponents, np.array([_GAME]), np.array([place]))
        if self.render_mode == "human":
            self.render()
        return self._observe(), reward, self._done, False, self._info(illegal_action=replaced)

    def render(self) -> str | None:
        """``"ansi"``: the public table as text; ``"human"``: print it."""
        if self.render_mode is None:
            gym.logger.warn(
                "render() was called without a render_mode; pass render_mode='ansi' or "
                "'human' to gymnasium.make('Perudo-v0', ...)")
            return None
        if self.game is None:
            raise RuntimeError("render(): there is no game yet; call reset() first")
        text = render_table(self.game)
        if self.render_mode == "human":
            print(text, end="\n\n")
            return None
        return text

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions (int8, 181 entries) for MaskablePPO; zeros once the
        episode has ended."""
        game = self.game
        if self._done or game is None:
            return np.zeros(NUM_ACTIONS, dtype=np.int8)
        return legal_mask(game.bid_action, game.total_dice, game.palifico).copy()

    # ------------------------------------------------------------------ internals
    def _new_game(self) -> None:
        if self.learner_seat == "random":
            self.seat = int(self.np_random.integers(self.num_players))
        else:
            self.seat = int(self.learner_seat)
        others = [s for s in range(self.num_players) if s != self.seat]
        self._policy_of = dict(zip(others, self.opponents, strict=True))
        self.game = Game(self.num_players, self.dice)
        start_games(self.opponents, np.array([_GAME]))
        self._done = False
        self._play_until_learner()

    def _play_until_learner(self) -> None:
        """Roll dice and let opponents act until the learner acts or its episode ends."""
        game, seat, faces = self.game, self.seat, self._faces
        assert game is not None and faces is not None  # reset() made both
        while game.winner is None and game.dice_counts[seat]:
            if not game.rolled:
                roll_to_decision(game, faces)
            elif game.current == seat:
                return
            else:
                who = game.current
                mask = legal_mask(game.bid_action, game.total_dice, game.palifico)
                game.apply_action(game_action(self._policy_of[who], _GAME, who,
                                              encode(game, who), mask))
        self._done = True

    def _observe(self) -> np.ndarray:
        assert self.game is not None  # only from reset() and step(), after reset() made it
        return encode(self.game, self.seat)

    def _info(self, illegal_action: bool = False, placement: int | None = None) -> dict[str, Any]:
        """The info of the current step: always the same keys and shapes; ``placement``
        overrides the game's final place (a forfeit is last)."""
        assert self.game is not None  # only from reset() and step(), after reset() made it
        if placement is None:
            placement = self.game.placements()[self.seat] if self._done else 0
        return {"action_mask": self.action_masks(), "learner_seat": self.seat,
                "illegal_action": illegal_action, "placement": placement}

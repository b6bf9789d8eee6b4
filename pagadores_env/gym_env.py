"""``Pagadores-v0``: Dados de Pagadores as a single-agent Gymnasium environment.

One seat is the learner; the other seats are played by fixed policies and all dice are rolled
by the environment, so ``step`` returns at the learner's next decision. The env drives
``engine.Game`` directly (not the PettingZoo env) for speed::

    env = gymnasium.make("Pagadores-v0", num_players=2, cards=10, opponents=["random"],
                         learner_seat="random", reward="win", illegal_action="raise",
                         render_mode=None, info_events=False)

In subprocess workers (``SubprocVecEnv`` with the default forkserver/spawn start) make it as
``gymnasium.make("pagadores_env:Pagadores-v0", ...)``: the ``module:`` prefix imports the
package, which registers the id, in each worker.

Spaces
    observation: ``Box(-1, 1, (49,), float32)``, the same vector the PettingZoo env gives the
    acting seat (``observation.encode``; layout in ``observation.FIELDS``, seats rotated so
    the learner is slot 0). action: ``Discrete(2)``: 0 = stop, 1 = throw again (R3.6).
    The legal actions are ``action_masks()`` (for sb3-contrib's MaskablePPO) and
    ``info["action_mask"]`` (int8 ``[stop, throw again]``). At every decision both are legal.

Options
    ``num_players`` 2–6; ``cards`` 1–10 each (or one count per seat, as ``Game`` takes);
    ``opponents``: policy specs (``"threshold:min_points=100"``) or policy objects, one per
    other seat in seat order skipping the learner, or a single one: ONE policy object shared
    by every other seat (``opponents.seat_opponents``, as the VecEnv seats them; before 0.2 a
    single spec built one object per seat); ``learner_seat``: a seat number or
    ``"random"`` (drawn per game); ``reward``: ``"win"`` or ``"placement"``
    (``rewards.py``, the same mapping the PettingZoo env pays); ``illegal_action``,
    ``info_events`` and ``render_mode`` as below. The PettingZoo env takes the same
    ``cards``, ``reward``, ``illegal_action``, ``info_events`` and ``render_mode`` values.

Episode
    ``reset(seed)`` seeds the dice (blocks of ordered outcomes 0…215 drawn from Gymnasium's
    ``np_random``, i.e. ``np.random.default_rng(seed)``, mapped through ``rules.THROWS``), the
    learner seat draw and the opponents' own generators (``opponents.reseed_opponents``: the
    same seeds the VecEnv gives them), so a seeded run repeats exactly. It
    returns the learner's first decision; if a whole game passes without one (possible with
    few cards), it starts another game, and gives up with an error after ``MAX_SILENT_GAMES``
    such games. The episode ends (``terminated=True``) when the learner is knocked out or the
    game is over; the reward is then paid once and is 0 on every other step. Nothing
    truncates.

Illegal actions (anything ``engine.as_action`` refuses: an action is the integer 0 or 1 — a
Python or numpy integer, or a 0-d integer array; booleans and floats are refused, as by
``Game`` and the PettingZoo env; at a decision both 0 and 1 are legal)
    ``"raise"`` (default): ``IllegalMoveError`` with the engine's message, naming the
    learner's seat, state unchanged. ``"replace"``: the first legal action (0, stop) is
    played instead and ``info["illegal_action"]`` is True. ``"penalty"``: reward -1, the
    episode ends, and the learner counts as last (``info["placement"]``).

Info (the same keys and shapes at every step, as replay buffers need)
    ``action_mask``; ``learner_seat``; ``illegal_action``; ``placement``: the learner's final
    place (1 = winner) once the episode has ended, 0 before. With ``info_events=True`` also
    ``events``: the ``engine.Event`` records since the learner's previous decision (opponents'
    moves, all throws, losses), a tuple whose length varies; the whole game is ``env.game.log``.

Rendering (``render_mode``)
    ``"ansi"``: ``render()`` returns the table as text (``render.render_table``);
    ``"human"``: the table is printed after ``reset()`` and every step; ``"rgb_array"``:
    ``render()`` returns a picture of the table (``picture.draw``, the learner's seat named
    "(learner)"), so Gymnasium's ``RecordVideo`` can record episodes
    (``metadata["render_fps"]`` is 2). Without a ``render_mode``, ``render()`` warns in one
    line and returns None.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np

from .aec import (
    ILLEGAL_ACTIONS,
    RENDER_FPS,
    RENDER_MODES,
    check_cards,
    check_flag,
    picture_drawer,
)
from .checks import check_choice
from .dice import DiceStream
from .engine import Game, IllegalMoveError, as_action
from .observation import OBS_SIZE, encode
from .opponents import (
    Opponents,
    check_learner_seat,
    end_games,
    game_action,
    reseed_opponents,
    seat_opponents,
    start_games,
)
from .render import player, render_table
from .rewards import check_scheme, final_reward

MAX_SILENT_GAMES = 1000
_GAME = 0  # this env's one game, as the per-game opponent hooks count games (``opponents``)
_NO_MASK = np.zeros(2, dtype=np.int8)


class PagadoresGymEnv(gym.Env):
    """Single-agent Dados de Pagadores; see the module docstring for the full contract."""

    metadata = {"render_modes": ["human", "ansi", "rgb_array"], "render_fps": RENDER_FPS}

    def __init__(self, num_players: int = 2, cards: int | Sequence[int] = 10,
                 opponents: Opponents = ("random",),
                 learner_seat: int | str = "random", reward: str = "win",
                 illegal_action: str = "raise", render_mode: str | None = None,
                 info_events: bool = False) -> None:
        self.cards = check_cards(num_players, cards)  # also validates num_players
        self.num_players = num_players
        self.render_mode = check_choice("render_mode", render_mode, RENDER_MODES)
        self.info_events = check_flag("info_events", info_events)
        self._draw_picture = picture_drawer() if render_mode == "rgb_array" else None
        self.learner_seat = check_learner_seat(learner_seat, num_players)
        self.reward_scheme = check_scheme(reward)
        self.illegal_action = check_choice("illegal_action", illegal_action, ILLEGAL_ACTIONS)
        self.opponents = seat_opponents(opponents, num_players, self.cards)
        self.observation_space = gym.spaces.Box(-1.0, 1.0, (OBS_SIZE,), np.float32)
        self.action_space = gym.spaces.Discrete(2)
        self.game: Game | None = None
        self.seat = 0
        self._dice: DiceStream | None = None  # made with the generator in reset()
        self._log_at = 0
        self._done = True

    # ------------------------------------------------------------------ gym API
    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        """Start an episode at the learner's first decision: ``seed`` reseeds the dice and the
        opponents, without it both run on; ``options`` is ignored."""
        super().reset(seed=seed)
        if seed is not None or self._dice is None:  # a new seed drops the old seed's dice
            self._dice = DiceStream(self.np_random)
        reseed_opponents(self.opponents, seed)
        for _ in range(MAX_SILENT_GAMES):
            self._new_game()
            if not self._done:
                if self.render_mode == "human":
                    self.render()
                return self._observe(), self._info()
        raise RuntimeError(
            f"the learner got no decision in {MAX_SILENT_GAMES} games in a row "
            f"(num_players={self.num_players}, cards={self.cards}, opponents={self.opponents}): "
            "with these settings it never decides; give more cards or other opponents"
        )

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Play the learner's ``action`` (0 stop, 1 throw again; an illegal one as
        ``illegal_action`` says) and the game on to the learner's next decision or the end."""
        if self._done:
            raise RuntimeError("the episode is over (or never started): call reset() first")
        game = self.game
        assert game is not None  # an episode is running, so reset() made it
        replaced = False
        try:
            action = as_action(action)  # the one rule for every layer
        except IllegalMoveError as err:
            if self.illegal_action == "raise":
                raise IllegalMoveError(
                    f"the learner (seat {self.seat}) played an illegal action: {err}") from None
            if self.illegal_action == "penalty":
                self._done = True
                end_games(self.opponents, np.array([_GAME]), np.array([self.num_players]))
                return (self._observe(), -1.0, True, False,
                        self._info(illegal_action=True, placement=self.num_players))
            action, replaced = game.legal_actions()[0], True
        game.apply_action(action)
        self._play_until_learner()
        reward = self._final_reward() if self._done else 0.0
        if self._done:
            end_games(self.opponents, np.array([_GAME]), np.array([game.placements()[self.seat]]))
        if self.render_mode == "human":
            self.render()
        return self._observe(), reward, self._done, False, self._info(illegal_action=replaced)

    def render(self) -> str | np.ndarray | None:
        """``"ansi"``: the table as text; ``"human"``: print it; ``"rgb_array"``: a picture
        of it (``picture.draw``)."""
        if self.render_mode is None:
            gym.logger.warn(
                "render() was called without a render_mode; pass render_mode='ansi', "
                "'human' or 'rgb_array' to gymnasium.make('Pagadores-v0', ...)")
            return None
        if self.game is None:
            raise RuntimeError("render(): there is no game yet; call reset() first")
        if self._draw_picture is not None:
            names = [player(s) + (" (learner)" if s == self.seat else "")
                     for s in range(self.num_players)]
            return self._draw_picture(self.game, names)
        text = render_table(self.game)
        if self.render_mode == "human":
            print(text, end="\n\n")
            return None
        return text

    def action_masks(self) -> np.ndarray:
        """``[stop, throw again]`` legality (int8) for MaskablePPO; zeros once the episode ends."""
        if self._done:
            return _NO_MASK.copy()
        game = self.game
        assert game is not None  # an episode is running, so reset() made it
        mask = np.zeros(2, dtype=np.int8)
        mask[game.legal_actions()] = 1
        return mask

    # ------------------------------------------------------------------ internals
    def _new_game(self) -> None:
        if self.learner_seat == "random":
            self.seat = int(self.np_random.integers(self.num_players))
        else:
            self.seat = int(self.learner_seat)
        # Opponent policies in seat order, skipping the learner.
        others = [s for s in range(self.num_players) if s != self.seat]
        self._policy_of = dict(zip(others, self.opponents, strict=True))
        self.game = Game(self.num_players, self.cards)
        start_games(self.opponents, np.array([_GAME]))
        self._log_at = 0
        self._done = False
        self._play_until_learner()

    def _play_until_learner(self) -> None:
        """Roll dice and let opponents decide until the learner decides or its episode ends."""
        game, seat, dice = self.game, self.seat, self._dice
        assert game is not None and dice is not None  # reset() made both
        while not game.is_terminal() and game.cards[seat]:
            if game.is_chance_node():
                game.apply_throw(dice.draw())
            elif game.current_player == seat:
                return
            else:
                who = game.current_player
                mask = np.ones(2, dtype=np.int8)
                game.apply_action(game_action(self._policy_of[who], _GAME, who,
                                              encode(game, who), mask))
        self._done = True

    def _final_reward(self) -> float:
        assert self.game is not None  # only at the end of an episode reset() started
        places = self.game.placements()
        place = places[self.seat]
        return final_reward(self.reward_scheme, place, self.num_players, places.count(place))

    def _observe(self) -> np.ndarray:
        assert self.game is not None  # only from reset() and step(), after reset() made it
        return encode(self.game, self.seat)

    def _info(self, illegal_action: bool = False, placement: int | None = None) -> dict[str, Any]:
        """The info of the current step: always the same keys and shapes (see the module
        docstring); ``placement`` overrides the game's final place (a forfeit is last)."""
        assert self.game is not None  # only from reset() and step(), after reset() made it
        if placement is None:
            placement = self.game.placements()[self.seat] if self._done else 0
        info: dict[str, Any] = {
            "action_mask": self.action_masks(),
            "learner_seat": self.seat,
            "illegal_action": illegal_action,
            "placement": placement,
        }
        if self.info_events:
            log = self.game.log
            info["events"] = tuple(log[self._log_at:])
            self._log_at = len(log)
        return info


"""What every game's single-agent Gymnasium env shares (``Pagadores-v1``, ``Perudo-v1``,
``Paye-v1``, ``Pasch-v1``).

One seat is the learner and fixed policies play the others (``opponents``). The episode
plumbing is the same in every game, so it lives here once: ``reset`` retrying games in which
the learner never decides, ``step`` with its illegal-action handling (``"raise"``,
``"replace"``, ``"penalty"``) and its one final reward (``rewards.final_reward``), the start
of each game (learner seat, opponents seated in seat order, per-game hooks), the play of the
dice and the opponents up to the learner's next decision, the info keys, the action mask and
``render``. Each game's env supplies its engine through the hooks below (most have defaults
for an engine that follows the game protocol, ``core.protocol.GameState``); ``game`` is what
``render`` draws.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import gymnasium as gym
import numpy as np

from .checks import check_choice, check_seed
from .errors import IllegalMoveError
from .opponents import (
    Decide,
    GameHooks,
    Opponents,
    check_learner_seat,
    reseed_opponents,
    seat_opponents,
)
from .options import ILLEGAL_ACTIONS, RENDER_MODES, picture_drawer
from .policies import Policy, Table
from .rewards import check_scheme, final_reward
from .seats import player

MAX_SILENT_GAMES = 1000
#: This env's one game, as the per-game opponent hooks count games (``opponents``).
GAME_INDEX = 0


class SingleAgentEnv(gym.Env):
    """The shared episode plumbing; a game's env sets the attributes in ``__init__`` and
    implements the hooks ``_make_game``, ``_throw`` and ``_silent_message``; the others
    (``_reseed``, ``_apply_learner``, ``_first_legal``, ``_placements``,
    ``_play_until_learner``, ``_learner_done``, ``_legal_mask``, ``_picture``) and
    ``action_masks`` have defaults for a protocol engine with ``legal_mask()``, which a game's
    env overrides where its engine differs (Pagadores' compiled kernel, Perudo's eliminations
    and mask table)."""

    num_players: int
    learner_seat: int | str
    opponents: list[Policy]
    #: the opponents' per-game hooks, looked up as the env seats them (``opponents.GameHooks``)
    _hooks: GameHooks
    reward_scheme: str
    illegal_action: str
    render_mode: str | None
    game: Any
    seat: int
    _done: bool
    #: the game's observation codec: ``encode(game, seat)``
    _encode: Callable[[Any, int], np.ndarray]
    #: the game's ``render.render_table``
    _render_table: Callable[[Any], str]
    #: what ``render()`` without a render_mode tells the user to pass
    _render_hint: str
    #: ``picture.draw`` for ``render_mode="rgb_array"`` (``options.picture_drawer``), else None
    _draw_picture: Callable[..., np.ndarray] | None
    #: makes the game's dice stream from the env's generator (``_reseed``)
    _dice_stream: Callable[[np.random.Generator], Any]
    _dice: Any  # the game's dice stream (None until the first reset)
    action_space: gym.spaces.Discrete

    def _take_options(self, opponents: Opponents, learner_seat: Any, table: Table, game: str,
                      reward: Any, illegal_action: Any, render_mode: Any) -> None:
        """Check and keep the options every game's env takes alike, once ``num_players`` is
        known, in the order a wrong one is reported (``ValueError`` in one line): the learner's
        seat, the opponents (players of the registry's ``game``, seated and asked whether they
        play ``num_players`` seats at ``table``, ``opponents.seat_opponents``), the reward
        scheme, the illegal-action mode and the render mode (with the picture drawer of the
        env's own game package for ``"rgb_array"``). No game until ``reset()``."""
        self.learner_seat = check_learner_seat(learner_seat, self.num_players)
        self.opponents = seat_opponents(opponents, self.num_players, table, game=game)
        self._hooks = GameHooks(self.opponents)
        self.reward_scheme = check_scheme(reward)
        self.illegal_action = check_choice("illegal_action", illegal_action, ILLEGAL_ACTIONS)
        self.render_mode = check_choice("render_mode", render_mode, RENDER_MODES)
        self._draw_picture = picture_drawer(render_mode, type(self).__module__.rpartition(".")[0])
        self.game = None
        self.seat = 0
        self._dice = None  # made with the generator in reset()
        self._done = True

    # ------------------------------------------------------------------ gym API
    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        """Start an episode at the learner's first decision: ``seed`` reseeds the dice and the
        opponents, without it both run on; ``options`` is ignored. A seed other than None or
        an integer ≥ 0 raises ``ValueError`` and leaves the episode in play as it was
        (``checks.check_seed``; a numpy integer seeds as the same int, which Gymnasium refuses)."""
        seed = check_seed(seed)
        super().reset(seed=seed)
        self._reseed(seed)
        reseed_opponents(self.opponents, seed)
        for _ in range(MAX_SILENT_GAMES):
            self._new_game()
            if not self._done:
                if self.render_mode == "human":
                    self.render()
                return self._observe(), self._info()
        raise RuntimeError(self._silent_message())

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Play the learner's ``action`` (an illegal one as ``illegal_action`` says) and the
        game on to the learner's next decision or the end of its episode."""
        if self._done:
            raise RuntimeError("the episode is over (or never started): call reset() first")
        replaced = False
        try:
            self._apply_learner(action)
        except IllegalMoveError as err:
            if self.illegal_action == "raise":
                raise IllegalMoveError(
                    f"the learner (seat {self.seat}) played an illegal action: {err}") from None
            if self.illegal_action == "penalty":
                self._done = True
                self._hooks.end_games(np.array([GAME_INDEX]), np.array([self.num_players]))
                return (self._observe(), -1.0, True, False,
                        self._info(illegal_action=True, placement=self.num_players))
            self._apply_learner(self._first_legal())
            replaced = True
        self._play_until_learner()
        reward = 0.0
        if self._done:
            places = self._placements()
            place = places[self.seat]
            reward = final_reward(self.reward_scheme, place, self.num_players,
                                  places.count(place))
            self._hooks.end_games(np.array([GAME_INDEX]), np.array([place]),
                                  np.array([places.count(place)]))
        if self.render_mode == "human":
            self.render()
        return self._observe(), reward, self._done, False, self._info(illegal_action=replaced)

    def render(self) -> Any:  # gymnasium types it by version: 1.2's RenderFrame refuses ours
        """``"ansi"``: the table as text (str); ``"human"``: print it (None); ``"rgb_array"``
        (where the game has pictures): a picture of it (``_picture``, an ndarray)."""
        if self.render_mode is None:
            gym.logger.warn(
                f"render() was called without a render_mode; pass {self._render_hint}")
            return None
        if self.game is None:
            raise RuntimeError("render(): there is no game yet; call reset() first")
        if self.render_mode == "rgb_array":
            return self._picture()
        text = self._render_table(self.game)
        if self.render_mode == "human":
            print(text, end="\n\n")
            return None
        return text

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions (int8, one entry per action) for MaskablePPO; zeros
        once the episode has ended."""
        if self._done or self.game is None:
            return np.zeros(self.action_space.n, dtype=np.int8)
        return self._legal_mask()

    # ------------------------------------------------------------------ hooks
    def _make_game(self) -> None:
        """Start a new game at the current table, and reset any per-game state with it."""
        raise NotImplementedError

    def _throw(self) -> None:
        """Throw the game's dice (from ``_dice``) at the chance node it is at."""
        raise NotImplementedError

    def _silent_message(self) -> str:
        """The error when ``MAX_SILENT_GAMES`` games in a row gave the learner no decision."""
        raise NotImplementedError

    def _picture(self) -> np.ndarray:
        """The table as a picture (``picture.draw``), the learner's seat named "(learner)",
        for games with ``"rgb_array"`` among their render modes."""
        assert self._draw_picture is not None  # made in __init__ for "rgb_array"
        return self._draw_picture(self.game, self._seat_labels())

    def _seat_labels(self) -> list[str]:
        """Each seat's agent name, the learner's marked "(learner)"."""
        return [player(s) + (" (learner)" if s == self.seat else "")
                for s in range(self.num_players)]

    def _reseed(self, seed: int | None) -> None:
        """Make the game's dice stream from ``np_random`` when ``seed`` is new (or there is
        none yet): a new seed drops the old seed's dice."""
        if seed is not None or self._dice is None:
            self._dice = self._dice_stream(self.np_random)

    def _apply_learner(self, action: Any) -> None:
        """Play the learner's ``action``; an illegal one raises ``IllegalMoveError`` and
        changes nothing."""
        self.game.apply_action(action)

    def _first_legal(self) -> Any:
        """The learner's first legal action, played in place of an illegal one
        (``illegal_action="replace"``)."""
        return self.game.legal_actions()[0]

    def _placements(self) -> list[int]:
        """Final place per seat (1 = winner) of the game that is over."""
        return list(self.game.placements())

    def _learner_done(self) -> bool:
        """Whether the learner's episode is over: when the game is, unless the game ends it
        sooner (Perudo: when the learner is out)."""
        return bool(self.game.is_terminal())

    def _legal_mask(self) -> np.ndarray:
        """The int8 mask of the legal actions of the player to act, a new array (the game's
        ``legal_mask()``)."""
        return np.asarray(self.game.legal_mask())

    def _play_until_learner(self) -> None:
        """Throw the dice and let the opponents act until the learner acts; set ``_done`` if
        its episode ends first."""
        game, seat = self.game, self.seat
        while not self._learner_done():
            if game.is_chance_node():
                self._throw()
            elif game.current_player == seat:
                return
            else:
                who = game.current_player
                game.apply_action(self._decide_of[who](self._encode(game, who),
                                                       self._legal_mask()))
        self._done = True

    # ------------------------------------------------------------------ internals
    def _new_game(self) -> None:
        if self.learner_seat == "random":
            self.seat = int(self.np_random.integers(self.num_players))
        else:
            self.seat = int(self.learner_seat)
        # Opponent policies in seat order, skipping the learner.
        others = [s for s in range(self.num_players) if s != self.seat]
        self._policy_of = dict(zip(others, self.opponents, strict=True))
        self._decide_of: dict[int, Decide] = self._hooks.seat_deciders(self._policy_of,
                                                                       GAME_INDEX)
        self._make_game()
        self._hooks.start_games(np.array([GAME_INDEX]))
        self._done = False
        self._play_until_learner()

    def _observe(self) -> np.ndarray:
        """The learner's observation (``_encode``, where the game's env does not say
        otherwise)."""
        assert self.game is not None  # only from reset() and step(), after reset() made it
        return self._encode(self.game, self.seat)

    def _info(self, illegal_action: bool = False, placement: int | None = None) -> dict[str, Any]:
        """The info of the current step: always the same keys and shapes (see each env's
        module docstring); ``placement`` overrides the game's final place (a forfeit is
        last)."""
        if placement is None:
            placement = self._placements()[self.seat] if self._done else 0
        return {"action_mask": self.action_masks(), "learner_seat": self.seat,
                "illegal_action": illegal_action, "placement": placement}

"""What both games' single-agent Gymnasium envs share (``Pagadores-v1``, ``Perudo-v1``).

One seat is the learner and fixed policies play the others (``opponents``). The episode
plumbing is the same in both games, so it lives here once: ``reset`` retrying games in which
the learner never decides, ``step`` with its illegal-action handling (``"raise"``,
``"replace"``, ``"penalty"``) and its one final reward (``rewards.final_reward``), the start
of each game (learner seat, opponents seated in seat order, per-game hooks), the info keys
and ``render``. Each game's env supplies its engine through the hooks below; ``game`` is
what ``render`` draws.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import gymnasium as gym
import numpy as np

from .checks import check_seed
from .errors import IllegalMoveError
from .opponents import Decide, GameHooks, reseed_opponents
from .policies import Policy
from .rewards import final_reward

MAX_SILENT_GAMES = 1000
#: This env's one game, as the per-game opponent hooks count games (``opponents``).
GAME_INDEX = 0


class SingleAgentEnv(gym.Env):
    """The shared episode plumbing; a game's env sets the attributes in ``__init__`` and
    implements the hooks (``_reseed``, ``_make_game``, ``_apply_learner``,
    ``_first_legal``, ``_placements``, ``_play_until_learner``, ``_silent_message``,
    ``_picture`` with ``"rgb_array"``) and ``action_masks``."""

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

    # ------------------------------------------------------------------ hooks
    def _picture(self) -> np.ndarray:
        """The table as a picture, for games with ``"rgb_array"`` among their render modes."""
        raise NotImplementedError

    def _reseed(self, seed: int | None) -> None:
        """Make the game's random streams from ``np_random`` when ``seed`` is new."""
        raise NotImplementedError

    def _make_game(self) -> None:
        """Start a new game at the current table, and reset any per-game state with it."""
        raise NotImplementedError

    def _apply_learner(self, action: Any) -> None:
        """Play the learner's ``action``; an illegal one raises ``IllegalMoveError`` and
        changes nothing."""
        raise NotImplementedError

    def _first_legal(self) -> Any:
        """The learner's first legal action, played in place of an illegal one
        (``illegal_action="replace"``)."""
        raise NotImplementedError

    def _placements(self) -> list[int]:
        """Final place per seat (1 = winner) of the game that is over."""
        raise NotImplementedError

    def _play_until_learner(self) -> None:
        """Play chance and opponents until the learner decides; set ``_done`` if it never
        will in this episode."""
        raise NotImplementedError

    def _silent_message(self) -> str:
        """The error when ``MAX_SILENT_GAMES`` games in a row gave the learner no decision."""
        raise NotImplementedError

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

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions (int8) for MaskablePPO; zeros once the episode ends."""
        raise NotImplementedError

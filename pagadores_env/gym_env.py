"""``Pagadores-v0``: Dados de Pagadores as a single-agent Gymnasium environment.

One seat is the learner; the other seats are played by fixed policies and all dice are rolled
by the environment, so ``step`` returns at the learner's next decision. The env drives
``engine.Game`` directly (not the PettingZoo env) for speed::

    env = gymnasium.make("Pagadores-v0", num_players=2, cards=10, opponents=["random"],
                         learner_seat="random", reward="win", illegal_action="raise")

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
    other seat in seat order skipping the learner, or a single one reused in every other seat
    (a spec string then builds one instance per seat); ``learner_seat``: a seat number or
    ``"random"`` (drawn per game); ``reward``: ``"win"`` or ``"placement"``
    (``rewards.py``, the same mapping the PettingZoo env pays).

Episode
    ``reset(seed)`` seeds the dice (blocks of ordered outcomes 0…215 drawn from Gymnasium's
    ``np_random``, i.e. ``np.random.default_rng(seed)``, mapped through ``rules.THROWS``), the
    learner seat draw and the opponents' own generators, so a seeded run repeats exactly. It
    returns the learner's first decision; if a whole game passes without one (possible with
    few cards), it starts another game, and gives up with an error after ``MAX_SILENT_GAMES``
    such games. The episode ends (``terminated=True``) when the learner is knocked out or the
    game is over; the reward is then paid once and is 0 on every other step. Nothing
    truncates.

Illegal actions (anything but a legal action; the mask never forbids 0 or 1 at a decision)
    ``"raise"`` (default): ``IllegalMoveError`` naming the action and the legal ones, state
    unchanged. ``"replace"``: the first legal action is played instead and
    ``info["illegal_action"]`` is True. ``"penalty"``: reward -1 and the episode ends.

Info
    ``action_mask``; ``events``: the ``engine.Event`` records since the learner's previous
    decision (opponents' moves, all throws, losses); ``learner_seat``; ``illegal_action``;
    at the end ``placement`` (1 = winner).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np

from .checks import check_choice
from .dice import DiceStream
from .engine import Game, IllegalMoveError
from .observation import OBS_SIZE, encode
from .policies import Policy, check_tables, make_policy
from .rewards import check_scheme, final_reward

ILLEGAL_MODES = ("raise", "replace", "penalty")
MAX_SILENT_GAMES = 1000
_NO_MASK = np.zeros(2, dtype=np.int8)


class PagadoresGymEnv(gym.Env):
    """Single-agent Dados de Pagadores; see the module docstring for the full contract."""

    metadata = {"render_modes": []}

    def __init__(self, num_players: int = 2, cards: int | Sequence[int] = 10,
                 opponents: Sequence[str | Policy] | str | Policy = ("random",),
                 learner_seat: int | str = "random", reward: str = "win",
                 illegal_action: str = "raise", render_mode: None = None) -> None:
        if render_mode is not None:
            raise ValueError(f"Pagadores-v0 has no render modes, got render_mode={render_mode!r}")
        Game(num_players, cards)  # validates num_players and cards with clear errors
        self.num_players = num_players
        self.cards = cards
        if learner_seat != "random" and (
                isinstance(learner_seat, bool) or not isinstance(learner_seat, int | np.integer)
                or not 0 <= learner_seat < num_players):
            raise ValueError(
                f"learner_seat must be 'random' or a seat 0–{num_players - 1}, got {learner_seat!r}"
            )
        self.learner_seat = learner_seat
        self.reward_scheme = check_scheme(reward)
        self.illegal_action = check_choice("illegal_action", illegal_action, ILLEGAL_MODES)
        self.opponents = _resolve_opponents(opponents, num_players)
        check_tables(self.opponents, num_players, cards)  # e.g. optimal: 2 players only
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
        super().reset(seed=seed)
        if seed is not None or self._dice is None:  # a new seed drops the old seed's dice
            self._dice = DiceStream(self.np_random)
        if seed is not None:
            for policy, child in zip(self.opponents, np.random.SeedSequence(seed).spawn(
                    len(self.opponents)), strict=True):
                if hasattr(policy, "reset"):
                    policy.reset(int(child.generate_state(1)[0]))
        for _ in range(MAX_SILENT_GAMES):
            self._new_game()
            if not self._done:
                return self._observe(), self._info()
        raise RuntimeError(
            f"the learner got no decision in {MAX_SILENT_GAMES} games in a row "
            f"(num_players={self.num_players}, cards={self.cards}, opponents={self.opponents}): "
            "with these settings it never decides; give more cards or other opponents"
        )

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        if self._done:
            raise RuntimeError("the episode is over (or never started): call reset() first")
        game = self.game
        legal = game.legal_actions()
        replaced = False
        if not _is_legal(action, legal):
            if self.illegal_action == "raise":
                raise IllegalMoveError(
                    f"illegal action {action!r} for the learner (seat {self.seat}); "
                    f"legal actions: {[int(a) for a in legal]} (0 = stop, 1 = throw again)"
                )
            if self.illegal_action == "penalty":
                self._done = True
                return self._observe(), -1.0, True, False, self._info(illegal_action=True)
            action, replaced = legal[0], True
        game.apply_action(int(action))
        self._play_until_learner()
        reward = self._final_reward() if self._done else 0.0
        return self._observe(), reward, self._done, False, self._info(illegal_action=replaced)

    def action_masks(self) -> np.ndarray:
        """``[stop, throw again]`` legality (int8) for MaskablePPO; zeros once the episode ends."""
        if self._done:
            return _NO_MASK.copy()
        mask = np.zeros(2, dtype=np.int8)
        mask[self.game.legal_actions()] = 1
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
        self._log_at = 0
        self._done = False
        self._play_until_learner()

    def _play_until_learner(self) -> None:
        """Roll dice and let opponents decide until the learner decides or its episode ends."""
        game, seat = self.game, self.seat
        while not game.is_terminal() and game.cards[seat]:
            if game.is_chance_node():
                game.apply_throw(self._dice.draw())
            elif game.current_player == seat:
                return
            else:
                who = game.current_player
                mask = np.ones(2, dtype=np.int8)
                game.apply_action(self._policy_of[who].act(encode(game, who), mask))
        self._done = True

    def _final_reward(self) -> float:
        places = self.game.placements()
        place = places[self.seat]
        return final_reward(self.reward_scheme, place, self.num_players, places.count(place))

    def _observe(self) -> np.ndarray:
        return encode(self.game, self.seat)

    def _info(self, illegal_action: bool = False) -> dict[str, Any]:
        log = self.game.log
        info: dict[str, Any] = {
            "action_mask": self.action_masks(),
            "events": tuple(log[self._log_at:]),
            "learner_seat": self.seat,
            "illegal_action": illegal_action,
        }
        self._log_at = len(log)
        if self._done:
            info["placement"] = self.game.placements()[self.seat]
        return info


def _is_legal(action: Any, legal: list[int]) -> bool:
    try:
        return int(action) in legal and int(action) == action
    except (TypeError, ValueError):
        return False


def _resolve_opponents(opponents: Sequence[str | Policy] | str | Policy,
                       num_players: int) -> list[Policy]:
    """One policy per other seat; a single entry is reused (a spec builds one per seat)."""
    if isinstance(opponents, str | Policy):
        opponents = [opponents]
    opponents = list(opponents)
    needed = num_players - 1
    if len(opponents) == 1:
        opponents = opponents * needed
    elif len(opponents) != needed:
        raise ValueError(
            f"opponents must list one policy per other seat ({needed} for {num_players} "
            f"players) or a single one to reuse, got {len(opponents)}"
        )
    return [make_policy(spec) for spec in opponents]


"""Scripted Pasch players, from the observation alone (``pasch.observation.decode``); all
three are deterministic and answer many rows at once (``act_batch``).

- ``greedy`` plays its highest card. After a throw it keeps the dice of the most frequent
  value (the highest such value on ties, so with five distinct values it keeps the 6, or the
  5 of 1-2-3-4-5) and throws the rest again, stopping at five of a kind (X3.2). After the
  throws it spends a block on the raise or lower (X4.1) that gives the best placement
  (X6, X7.1) if that beats the placement it has, else it places (with two pairs, in the
  higher pair's column).
- ``turn_optimal`` plays its highest card too; its dice turn is the exact single turn
  (``pasch.exact.best_policy``, X9.1) that reaches the best disc on the board so far this
  round with the largest probability (an equal field counts: its disc lies on top, X6.4),
  throwing again and spending blocks only where that raises the chance. With no disc on
  the board yet (none placed, or all beside it) it plays its dice as ``greedy``.
- ``round_player`` plays as ``turn_optimal`` before the last round, and in the last round
  of a game at 2 or 3 players the round's subgame-perfect equilibrium
  (``pasch.exact.EquilibriumPolicy``, X9.2); at 4–6 players, where the last round is not
  solved, as ``turn_optimal`` throughout.

Registered with ``game="pasch"``.
"""

from __future__ import annotations

import numpy as np

from pagadores_env.core.policies import BasePolicy, register_policy
from pagadores_env.pasch.exact import EquilibriumPolicy, best_policy
from pagadores_env.pasch.last_round import PLAYERS
from pagadores_env.pasch.observation import ObsFields, decode
from pagadores_env.pasch.policies import GAME
from pagadores_env.pasch.rules import (
    BESIDE,
    DICE,
    DICE_ACTIONS,
    FACES,
    REL_LOWER,
    REL_PLACE,
    REL_RAISE,
    REL_STOP,
    class_field,
    hand_indices,
)
from pagadores_env.pasch.turn import tables

_CARD, _CHOOSE, _BLOCKS = 0, 1, 2  # observation.PHASES indices


def _rows(obs: np.ndarray, mask: np.ndarray) -> tuple[ObsFields, np.ndarray, int]:
    """The decoded rows, the masks as bools, and C (the first dice action, X8.1)."""
    legal = np.atleast_2d(np.asarray(mask)).astype(bool)
    view = decode(np.reshape(obs, (len(legal), -1)))
    return view, legal, legal.shape[1] - DICE_ACTIONS


def highest_card(legal: np.ndarray, first: int) -> np.ndarray:
    """The highest card held: card actions go up with the card's value (X8.1)."""
    return first - 1 - np.argmax(legal[:, :first][:, ::-1], axis=1)


def keep_most_frequent(dice: np.ndarray) -> np.ndarray:
    """Relative actions: stop at five of a kind, else throw again every die that does not
    show the most frequent value (the highest on ties)."""
    counts = (dice[:, :, None] == np.arange(1, FACES + 1)).sum(axis=1)
    value = 1 + np.argmax(counts * FACES + np.arange(FACES), axis=1)
    again = (dice != value[:, None]) @ (1 << np.arange(DICE))
    return np.where(again == 0, REL_STOP, again - 1)


def best_move(dice: np.ndarray, legal: np.ndarray) -> np.ndarray:
    """Relative actions after the throws: the legal raise or lower reaching the highest
    placement if it beats the current one (the lowest action among equals), else place."""
    t = tables()
    hands = hand_indices(dice)
    now = t.place[hands, 0]
    best, choice = now.copy(), np.full(len(dice), REL_PLACE)
    for base, to in ((REL_RAISE, t.raise_to), (REL_LOWER, t.lower_to)):
        for i in range(DICE):
            target = to[hands, i]
            reach = np.where((target >= 0) & legal[:, base + i], t.place[target, 0], -1)
            better = reach > best
            best = np.where(better, reach, best)
            choice = np.where(better, base + i, choice)
    return choice


class GreedyPasch(BasePolicy):
    """``greedy`` (module docstring)."""

    name = "greedy"

    def act(self, obs: np.ndarray, mask: np.ndarray) -> int:
        """The action at one observation."""
        return int(self.act_batch(np.reshape(obs, (1, -1)), np.reshape(mask, (1, -1)))[0])

    def act_batch(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """The actions at rows of observations."""
        view, legal, first = _rows(obs, mask)
        return _greedy(view, legal, first)


def _greedy(view: ObsFields, legal: np.ndarray, first: int) -> np.ndarray:
    dice_legal = legal[:, first:]
    dice = first + np.where(view.phase == _CHOOSE, keep_most_frequent(view.dice),
                            best_move(view.dice, dice_legal))
    return np.where(view.phase == _CARD, highest_card(legal, first), dice)


class TurnOptimal(BasePolicy):
    """``turn_optimal`` (module docstring)."""

    name = "turn_optimal"

    def act(self, obs: np.ndarray, mask: np.ndarray) -> int:
        """The action at one observation."""
        return int(self.act_batch(np.reshape(obs, (1, -1)), np.reshape(mask, (1, -1)))[0])

    def act_batch(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """The actions at rows of observations."""
        view, legal, first = _rows(obs, mask)
        return _turn_optimal(view, legal, first)


def _turn_optimal(view: ObsFields, legal: np.ndarray, first: int) -> np.ndarray:
    out = _greedy(view, legal, first)
    aiming = (view.best_disc > BESIDE) & (view.phase >= _CHOOSE)
    if not aiming.any():
        return out
    blocks = view.blocks[:, 0]
    hands = hand_indices(view.dice)
    keys = view.best_disc * 16 + blocks
    for key in np.unique(keys[aiming]):
        goal, left = divmod(int(key), 16)
        policy = best_policy(class_field(goal), left)
        rows = aiming & (keys == key)
        choosing = view.phase[rows] == _CHOOSE
        throws = np.clip(view.throws[rows], 1, 2) - 1
        out[rows] = first + np.where(choosing, policy.choose[throws, hands[rows]],
                                     policy.spend[left, hands[rows]])
    return out


class RoundPlayer(BasePolicy):
    """``round_player`` (module docstring)."""

    name = "round_player"

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self._equilibrium = EquilibriumPolicy()

    def act(self, obs: np.ndarray, mask: np.ndarray) -> int:
        """The action at one observation."""
        return int(self.act_batch(np.reshape(obs, (1, -1)), np.reshape(mask, (1, -1)))[0])

    def act_batch(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """The actions at rows of observations."""
        view, legal, first = _rows(obs, mask)
        out = _turn_optimal(view, legal, first)
        last = view.last_round & np.isin(view.players, PLAYERS) & (view.phase >= _CHOOSE)
        if last.any():
            obs = np.reshape(obs, (len(legal), -1))
            out[last] = self._equilibrium.act_batch(obs[last], legal[last].astype(np.int8))
        return out


for _player in (GreedyPasch, TurnOptimal, RoundPlayer):
    register_policy(_player.name, _player, game=GAME)

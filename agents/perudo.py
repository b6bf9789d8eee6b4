"""Scripted Perudo players that reason from their own dice and the binomial odds of the rest.

Both read only what their observation shows (P7.2), through the game's codec
(``perudo.observation.decode``): their own dice, how many dice are on the table, whether the
round is palifico, and the bid to beat. Every unseen die shows a
given face with probability 1/6 (P7.1); in a normal round a 1 also counts for every other face
(P5.1), so a die counts for a bid on a face 2–6 with probability 1/3. In a palifico round, and
for a joker bid, only the face itself counts (P4.1, P6.3). The chance that a bid (q, f) holds
is therefore ``P(Binomial(unseen, p) >= q - mine)`` with ``mine`` the player's own dice that
count for it.

- ``probabilistic:dudo_below=0.5`` calls dudo (P4.1) when the bid to beat holds with a
  probability below ``dudo_below``; otherwise it raises to the legal bid most likely to hold,
  the highest such bid when several tie (forcing the next player as high as it safely can).
  Deterministic.
- ``bluffer:bluff=0.25,overbid=1,dudo_below=0.5`` decides like ``probabilistic`` but, with
  probability ``bluff`` (its seeded generator), raises its chosen bid by ``overbid`` more dice
  of the same face, capped at the dice on the table (P3.1). A higher quantity on the same face
  raises whatever the chosen bid raised (P3.3–P3.5, P6.4), so the overbid is legal too.

Both offer ``act_batch`` (numpy over rows) and ``action_probabilities(obs, mask)`` (one row of
181 probabilities per observation), which the exact yardstick (``pagadores_env.perudo.exact``)
uses to measure a policy without sampling it. Registered with ``game="perudo"``.
"""

from __future__ import annotations

from math import comb
from typing import Any

import numpy as np

from pagadores_env.core.checks import check_int
from pagadores_env.core.policies import BasePolicy, register_policy
from pagadores_env.perudo.observation import OBS_SIZE, ObsFields, decode
from pagadores_env.perudo.policies import GAME
from pagadores_env.perudo.rules import BIDS, DUDO, FACES, JOKER, MAX_QUANTITY

#: Quantity and face of every bid action 1 … 180, in action order.
_QUANTITY = np.array([bid[0] for bid in BIDS[1:]])  # type: ignore[index]
_FACE = np.array([bid[1] for bid in BIDS[1:]])  # type: ignore[index]
#: _HOLDS[u, wild, n] = P(at least n of u unseen dice count): one die counts with probability
#: 1/6 for its face alone, 1/3 when the 1s are wild too (P5.1); n runs past every u.
_HOLDS = np.array([[[sum(comb(u, k) * p ** k * (1 - p) ** (u - k) for k in range(n, u + 1))
                     for n in range(MAX_QUANTITY + 2)]
                    for p in (1 / FACES, 2 / FACES)]
                   for u in range(MAX_QUANTITY + 1)])
_TIE = 1e-12  # probabilities this close count as equal (sums of the same terms)


def bid_odds(view: ObsFields) -> np.ndarray:
    """(B, 180): the probability that each bid action 1 … 180 holds, given my dice (P4.1,
    P5.1, P6.3), from decoded observation rows."""
    wild = ~view.palifico[:, None] & (_FACE != JOKER)
    mine = view.my_dice[:, _FACE - 1] + wild * view.my_dice[:, JOKER - 1:JOKER]
    need = np.clip(_QUANTITY - mine, 0, MAX_QUANTITY + 1)
    unseen = view.total - view.my_dice.sum(axis=1)
    return _HOLDS[unseen[:, None], wild.astype(np.int64), need]


def check_probability(name: str, value: Any, low_open: bool = False) -> float:
    """``value`` as a float in [0, 1] (or (0, 1] when ``low_open``); ``ValueError`` in one
    line otherwise."""
    allowed = "(0, 1]" if low_open else "[0, 1]"
    if isinstance(value, bool) or not isinstance(value, int | float | np.integer | np.floating) \
            or not (0 < value <= 1 if low_open else 0 <= value <= 1):
        raise ValueError(f"{name} must be a number in {allowed}, got {value!r}")
    return float(value)


class ProbabilisticBidder(BasePolicy):
    """Dudo below ``dudo_below``, else the legal bid most likely to hold (module docstring).
    ``dudo_below`` is in (0, 1]: a bid that cannot hold is always called, one that must hold
    never."""

    name = "probabilistic"

    def __init__(self, dudo_below: float = 0.5, seed: int | None = None) -> None:
        super().__init__(seed)
        self.dudo_below = check_probability("dudo_below", dudo_below, low_open=True)

    def act(self, obs: np.ndarray, mask: np.ndarray) -> int:
        """The action at one observation."""
        return int(self.act_batch(np.reshape(obs, (1, -1)), np.reshape(mask, (1, -1)))[0])

    def act_batch(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """The actions at rows of observations."""
        dudo, best, _ = self._choices(obs, mask)
        return np.where(dudo, DUDO, best)

    def action_probabilities(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """(B, 181): all weight on the action ``act_batch`` takes."""
        return _one_hot(self.act_batch(obs, mask))

    def _choices(self, obs: np.ndarray, mask: np.ndarray
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Per row: whether to call dudo, the best legal bid (an action id, 0 if none) and
        the table size, from one read of the rows."""
        view = decode(np.reshape(obs, (-1, OBS_SIZE)))
        legal = np.asarray(mask).astype(bool)
        odds = bid_odds(view)
        rows = np.arange(len(odds))
        bid_holds = odds[rows, np.maximum(view.bid, 1) - 1]
        ranked = np.where(legal[:, 1:], odds, -1.0)
        top = ranked.max(axis=1, keepdims=True)
        # the highest of the bids tied at the top: argmax over the reversed columns
        best = ranked.shape[1] - (ranked[:, ::-1] >= top - _TIE).argmax(axis=1)
        can_raise = legal[:, 1:].any(axis=1)
        dudo = legal[:, DUDO] & ((bid_holds < self.dudo_below) | ~can_raise)
        return dudo, np.where(can_raise, best, DUDO), view.total


class Bluffer(ProbabilisticBidder):
    """``probabilistic``, except that with probability ``bluff`` a raise names ``overbid`` more
    dice (module docstring). One draw of its generator per decision, so a batch consumes it
    exactly like the same decisions one by one."""

    name = "bluffer"

    def __init__(self, bluff: float = 0.25, overbid: int = 1, dudo_below: float = 0.5,
                 seed: int | None = None) -> None:
        super().__init__(dudo_below, seed)
        self.bluff = check_probability("bluff", bluff)
        self.overbid = check_int("overbid", overbid, 1, MAX_QUANTITY - 1)

    def act_batch(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """The actions at rows of observations."""
        dudo, honest, lie = self._options(obs, mask)
        bluffing = self.rng.random(len(dudo)) < self.bluff
        return np.where(dudo, DUDO, np.where(bluffing, lie, honest))

    def action_probabilities(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """(B, 181): dudo, or the honest raise and the overbid weighted 1 - bluff and bluff."""
        dudo, honest, lie = self._options(obs, mask)
        probs = (1 - self.bluff) * _one_hot(honest) + self.bluff * _one_hot(lie)
        return np.where(dudo[:, None], _one_hot(np.zeros_like(honest)), probs)

    def _options(self, obs: np.ndarray, mask: np.ndarray
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Per row: dudo or not, the honest raise, and the overbid on its face."""
        dudo, honest, total = self._choices(obs, mask)
        quantity = _QUANTITY[np.maximum(honest, 1) - 1]
        higher = np.minimum(quantity + self.overbid, np.maximum(total, quantity))
        lie = np.where(honest > 0, honest + (higher - quantity) * FACES, honest)
        return dudo, honest, lie


def _one_hot(actions: np.ndarray) -> np.ndarray:
    probs = np.zeros((len(actions), len(BIDS)))
    probs[np.arange(len(actions)), actions] = 1.0
    return probs


register_policy(ProbabilisticBidder.name, ProbabilisticBidder, game=GAME)
register_policy(Bluffer.name, Bluffer, game=GAME)

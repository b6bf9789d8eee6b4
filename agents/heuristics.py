"""Scripted players: rules of thumb, from coin flips to a lookahead on the exact dice odds.

Every player reads only the observation vector (``pagadores_env.pagadores.observation``) and the
action mask, and answers 0 (stop) or 1 (throw again). Each has a plain scalar ``act`` — the readable
reference — and a numpy ``act_batch`` over rows, which the tests check agree on real observations. A
wish to throw again is only honoured when the mask allows it. The players that read only the facts
of a decision table (``table_facts``: stop-first, always-throw, threshold, sensible) are played by
the batch engine's kernel itself, from a table of their ``act_batch``'s answers
(``pagadores_env.pagadores.vector.tables``).

Registered names (``make_policy("name:key=value")``): ``random``, ``stop-first``,
``always-throw``, ``threshold``, ``sensible``, ``lookahead``.
"""

from __future__ import annotations

from functools import lru_cache
from math import comb
from typing import NamedTuple

import numpy as np

from pagadores_env.core.policies import BasePolicy, register_policy
from pagadores_env.pagadores.observation import ObsFields, decode
from pagadores_env.pagadores.rules import (
    MAX_CARDS,
    MAX_THROWS,
    NUM_STRENGTHS,
    PICARO_LOSS,
    PICARO_STRENGTH,
    ROUND_LOSS,
    STRENGTH_KIND,
    STRENGTH_POINTS,
    TOP,
    Kind,
)
from pagadores_env.pagadores.rules import STRENGTH_PENALTY as PENALTY_OF
from pagadores_env.pagadores.rules import STRENGTH_PROB as P_STRENGTH

# ---------------------------------------------------------------- dice tables (R2, R7.2)
#: Flamenco points per strength; +inf for Cavar and specials (above every Flamenco), -inf Picaro.
POINTS_OF = np.select([STRENGTH_KIND == Kind.FLAMENCO, STRENGTH_KIND == Kind.PICARO],
                      [STRENGTH_POINTS, -np.inf], np.inf)
P_PICARO = P_STRENGTH[PICARO_STRENGTH]  # the weakest strength, 0
#: P(a fresh throw is strictly below / equal to / strictly above strength s), Picaro excluded.
P_BELOW = np.concatenate(([0.0], np.cumsum(P_STRENGTH)[:-1] - P_PICARO))
P_EQUAL = np.where(np.arange(NUM_STRENGTHS) > 0, P_STRENGTH, 0.0)
P_ABOVE = 1.0 - P_PICARO - P_BELOW - P_EQUAL


def strength_for_points(min_points: float) -> int:
    """The weakest strength that is at least a Flamenco of ``min_points`` (R2.3): a Cavar or a
    special is above every Flamenco, so a bar above 260 means "a Cavar or better"."""
    return int(np.flatnonzero(np.greater_equal(POINTS_OF, min_points))[0])


# ---------------------------------------------------------------- reading an observation
class View(NamedTuple):
    """The decision-relevant facts of observation(s); arrays over rows (0-d for one row)."""

    my_cards: np.ndarray
    opp_cards: np.ndarray  # (..., 5): cards of the other slots, 0 for padding and the out
    setting_limit: np.ndarray  # I am the insteker, so my stop fixes the throw limit (R3.2)
    limit: np.ndarray
    used: np.ndarray
    left: np.ndarray
    strength: np.ndarray
    to_beat: np.ndarray  # -1 when nobody has a score yet
    tied: np.ndarray  # seats already holding the score to beat
    followers: np.ndarray  # seats still to throw after me this round (R3.4)


def read(obs: np.ndarray | ObsFields) -> View:
    """The facts of one observation (1-D) or a batch (2-D), from ``observation.decode``, or
    of observations already decoded (``act_fields``)."""
    seen = obs if isinstance(obs, ObsFields) else decode(obs)
    return View(
        my_cards=seen.cards[..., 0],
        opp_cards=seen.cards[..., 1:],
        setting_limit=seen.throw_limit == 0,
        limit=seen.throw_limit,
        used=seen.throws_used,
        left=seen.throws_left,
        strength=seen.my_strength,
        to_beat=seen.to_beat,
        tied=seen.lowest.sum(axis=-1),
        followers=seen.to_throw.sum(axis=-1),
    )


def _legal(throw: bool, mask: np.ndarray) -> int:
    """Throw again only when allowed; stop only when allowed."""
    return int((throw and mask[1]) or not mask[0])


def _legal_batch(throw: np.ndarray, mask: np.ndarray) -> np.ndarray:
    mask = np.asarray(mask).astype(bool)
    return ((throw & mask[:, 1]) | ~mask[:, 0]).astype(np.int64)


#: Cards count for ``LookaheadPolicy`` only up to what they can lose at once: an opponent's up
#: to the biggest special's penalty (R4.1), mine up to a Picaro's (R4.4).
_OPP_CAP = int(PENALTY_OF.max())
#: Mixed radix of ``_decision_key``'s facts after the others' cards: each fact's count of
#: values.
_KEY_RADIX = (2, MAX_THROWS + 1, MAX_THROWS + 1, MAX_THROWS + 1, NUM_STRENGTHS + 1, MAX_CARDS,
              MAX_CARDS)


def _decision_key(v: View) -> np.ndarray:
    """One ``int64`` per row that tells apart exactly the rows ``LookaheadPolicy._values``
    values differently (everything but the strength, counts capped as they matter, the
    others' cards as a multiset): sorting integers is far faster than ``np.unique`` over
    rows, and capped counts make rows that only differ in card counts share one value."""
    others = np.sort(np.minimum(v.opp_cards, _OPP_CAP), axis=-1).T
    facts = (np.minimum(v.my_cards, PICARO_LOSS), *others,
             v.setting_limit, v.limit, v.used, v.left, v.to_beat + 1, v.tied, v.followers)
    radix = (PICARO_LOSS + 1, *(_OPP_CAP + 1,) * len(others), *_KEY_RADIX)
    return np.ravel_multi_index(tuple(np.asarray(f, np.int64) for f in facts), radix)


# ---------------------------------------------------------------- the players
class Heuristic(BasePolicy):
    """A scripted player: it reads its observations only through ``read``."""

    def fingerprint(self) -> str:
        """Nothing beyond its spec and the code decides its play (``solver.results_cache``)."""
        return ""

    def act_fields(self, fields: ObsFields, mask: np.ndarray) -> np.ndarray:
        """``act_batch`` on decoded observations (the exact solver's fast path): every
        scripted player reads its rows only through ``read``, which takes either."""
        return self.act_batch(fields, mask)  # type: ignore[arg-type]


class RandomPolicy(Heuristic):
    """Uniform over the legal actions: a baseline any learner must beat. One uniform draw per
    decision (also when only one action is legal), so batches consume the generator exactly
    like the same decisions one by one."""

    name = "random"

    def act(self, obs: np.ndarray, mask: np.ndarray) -> int:
        """The player's action at one observation."""
        return _legal(self.rng.random() < 0.5, mask)

    def act_batch(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """The player's actions at rows of observations."""
        return _legal_batch(self.rng.random(len(mask)) < 0.5, mask)

    def throw_probabilities(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """Exact solver hook: 1/2 where both actions are legal, else the legal one."""
        legal = np.asarray(mask).reshape(-1, 2).astype(bool)
        return np.where(legal[:, 0], 0.5 * legal[:, 1], 1.0)


class _ConstantPolicy(Heuristic):
    """The same choice (``throw``) at every decision, whenever the mask allows it."""

    throw = False
    table_facts = True  # reads nothing: the batch engine plays it from a table

    def act(self, obs: np.ndarray, mask: np.ndarray) -> int:
        return _legal(self.throw, mask)

    def act_batch(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        return _legal_batch(np.full(len(mask), self.throw), mask)


class StopFirstPolicy(_ConstantPolicy):
    """Never throws again: the insteker fixes a throw limit of 1, followers keep their first
    throw. Short rounds, no Picaro risk beyond the forced throw."""

    name = "stop-first"
    throw = False


class AlwaysThrowPolicy(_ConstantPolicy):
    """Throws again whenever allowed: the insteker sets a limit of 3, and every score is simply
    the last of all allowed throws (R3.3) — maximal special fishing, maximal Picaro risk."""

    name = "always-throw"
    throw = True


class ThresholdPolicy(Heuristic):
    """A fixed bar. As insteker: stop once the throw is at least ``min_strength`` (dense
    strength 0–41) or at least a Flamenco of ``min_points`` (a Cavar or special always
    qualifies). As follower: stop once the throw beats the score to beat (R3.5), else throw
    again. Give one of the two parameters; the default is ``min_points=100``."""

    name = "threshold"
    table_facts = True  # reads who fixes the limit, its strength and the score to beat only

    def __init__(self, min_strength: int | None = None, min_points: float | None = None,
                 seed: int | None = None) -> None:
        super().__init__(seed)
        if min_strength is not None and min_points is not None:
            raise ValueError("give min_strength or min_points, not both")
        if min_strength is not None:
            if isinstance(min_strength, bool) or not isinstance(min_strength, int) \
                    or not 0 <= min_strength <= TOP:
                raise ValueError(f"min_strength must be an integer 0–{TOP}, got {min_strength!r}")
            self.bar = min_strength
            self.name = f"threshold:min_strength={min_strength}"
        else:
            points = 100 if min_points is None else min_points
            if isinstance(points, bool) or not isinstance(points, int | float):
                raise ValueError(f"min_points must be a number, got {points!r}")
            self.bar = strength_for_points(points)
            self.name = f"threshold:min_points={points}"

    def act(self, obs: np.ndarray, mask: np.ndarray) -> int:
        """The player's action at one observation."""
        v = read(obs)
        if v.setting_limit:
            return _legal(int(v.strength) < self.bar, mask)
        return _legal(int(v.strength) <= int(v.to_beat), mask)

    def act_batch(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """The player's actions at rows of observations."""
        v = read(obs)
        throw = np.where(v.setting_limit, v.strength < self.bar, v.strength <= v.to_beat)
        return _legal_batch(throw, mask)


#: Sensible insteker bars (strengths), by throws used (1, 2): row 0 normally, row 1 with my
#: last card at stake (R1.4), where a weak first throw is not worth keeping.
_SENSIBLE_BARS = np.array([[strength_for_points(104), strength_for_points(104)],
                           [strength_for_points(122), strength_for_points(104)]])
#: Fish for a special only when a fresh throw still beats the score to beat this surely.
_FISH_SAFETY = 0.95


class SensiblePolicy(Heuristic):
    """A good casual player.

    As insteker: keep a decent throw — a Flamenco of at least 104 points (a die showing 1,
    or two sixes) — but on my last card (R1.4) ask 122 of the first throw. As follower:
    throw again while I am the lowest; on a tie (kampen, R5) throw again only if a fresh
    throw beats the score to beat more often than the coin-flip kampen would save me. Card
    counts: once safe, if an opponent is down to their last card, fish for a special
    (R4.1, R4.2) as long as a fresh throw would still beat the score to beat with 95 %
    probability.
    """

    name = "sensible"
    table_facts = True  # reads the facts of a decision table only (pagadores.vector.tables)

    def act(self, obs: np.ndarray, mask: np.ndarray) -> int:
        """The player's action at one observation (the readable reference)."""
        v = read(obs)
        s, to_beat = int(v.strength), int(v.to_beat)
        if v.setting_limit:
            last_card = int(v.my_cards) == 1
            return _legal(s < _SENSIBLE_BARS[int(last_card), min(int(v.used), 2) - 1], mask)
        if s < to_beat:
            return _legal(True, mask)
        if s == to_beat:
            return _legal(P_ABOVE[s] + P_EQUAL[s] / 2 > 0.5, mask)
        weakest = min((c for c in v.opp_cards.tolist() if c > 0), default=MAX_CARDS)
        fish = weakest <= 1 and P_ABOVE[to_beat] >= _FISH_SAFETY
        return _legal(bool(fish), mask)

    def act_batch(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """The player's actions at rows of observations."""
        v = read(obs)
        s, to_beat = v.strength, v.to_beat
        last_card = v.my_cards == 1
        bar = _SENSIBLE_BARS[last_card.astype(np.int64), np.clip(v.used, 1, 2) - 1]
        safe_beat = np.maximum(to_beat, 0)
        weakest = np.where(v.opp_cards > 0, v.opp_cards, MAX_CARDS).min(axis=-1)
        follower = np.select(
            [s < to_beat, s == to_beat],
            [True, P_ABOVE[s] + P_EQUAL[s] / 2 > 0.5],
            (weakest <= 1) & (P_ABOVE[safe_beat] >= _FISH_SAFETY),
        )
        return _legal_batch(np.where(v.setting_limit, s < bar, follower), mask)


# ---------------------------------------------------------------- lookahead model
def _follower_outcomes(limit: int) -> tuple[np.ndarray, np.ndarray]:
    """For a follower who throws until strictly above target ``s`` with ``limit`` throws:
    P(ends above s) and P(ends equal to s), per s. Below or Picaro frees me."""
    stay = P_BELOW + P_EQUAL  # throws that leave the follower still not above
    above = P_ABOVE * sum(stay**k for k in range(limit))
    equal = stay ** (limit - 1) * P_EQUAL
    return above, equal


_OUTCOMES = [_follower_outcomes(limit) for limit in range(1, MAX_THROWS + 1)]
#: _ABOVE[L, s], _EQUAL[L, s] for throw limits L = 1..3 (row 0 unused).
_ABOVE = np.stack([np.zeros(NUM_STRENGTHS)] + [above for above, _ in _OUTCOMES])
_EQUAL = np.stack([np.zeros(NUM_STRENGTHS)] + [equal for _, equal in _OUTCOMES])
#: _COMB[n, t] = C(n, t) for the at most five followers.
_COMB = np.array([[comb(n, t) for t in range(6)] for n in range(6)], dtype=np.float64)
_EPS = 1e-9  # values closer than this are equal: float noise must not flip a decision


@lru_cache(maxsize=1 << 16)
def _lookahead_throws(strength: int, to_beat: int, tied: int, followers: int,
                      opp_caps: tuple[int, ...], picaro_loss: int, setting: bool, used: int,
                      left: int, limit: int) -> bool:
    """The lookahead decision for one state (see ``LookaheadPolicy``), in plain Python."""
    opps = max(1, len(opp_caps))
    gains = [sum(min(int(PENALTY_OF[s]), c) for c in opp_caps) / opps
             for s in range(NUM_STRENGTHS)]

    def stop(s: int, used_now: int) -> float:
        if to_beat >= 0 and s > to_beat:
            p_lose = 0.0
        else:
            already = tied if s == to_beat else 0
            now = used_now if setting else limit  # the insteker's stop fixes the limit (R3.2)
            a, e = _ABOVE[now, s], _EQUAL[now, s]
            p_lose = sum(comb(followers, t) * a ** (followers - t) * e**t / (already + t + 1)
                         for t in range(followers + 1))
        return -p_lose * ROUND_LOSS + (1 - p_lose) * ROUND_LOSS / opps

    def again(used_now: int, left_now: int) -> float:
        total = -P_PICARO * picaro_loss
        deeper = again(used_now + 1, left_now - 1) if left_now > 1 else -np.inf
        for s in range(1, NUM_STRENGTHS):
            total += P_STRENGTH[s] * (gains[s] + max(stop(s, used_now + 1), deeper))
        return total

    return again(used, left) > stop(strength, used) + _EPS


class LookaheadPolicy(Heuristic):
    """Compares stop with throw again by expected cards, using the exact dice odds.

    The value of a final score ``s`` is ``-P(lose) + (1 - P(lose)) / opponents``: my own card
    lost against the average card an opponent loses when I don't. ``P(lose)`` assumes every
    later player throws until strictly above the score to beat, within the throw limit
    (``_ABOVE``/``_EQUAL``), and that a kampen is a fair lottery among the tied (R5). Throwing
    again is valued over the next throw's 56 outcomes: a Picaro costs me ``min(2, cards)``
    and ends the round (R4.4); a special takes cards from every opponent (R4.1, R4.2); then
    I decide again the same way while throws remain — as insteker each extra throw also
    raises the followers' limit (R3.2). Ties go to stopping. Specials thrown by others and
    their Picaros are left out of the model.
    """

    name = "lookahead"

    # ---- scalar reference
    def act(self, obs: np.ndarray, mask: np.ndarray) -> int:
        """The player's action at one observation (the readable reference)."""
        v = read(obs)
        if int(v.left) < 1:
            return _legal(False, mask)
        # Card counts matter only up to what a special or a Picaro can take, so the decision
        # is memoised on capped counts: the env asks the same questions over and over.
        caps = tuple(sorted(min(c, 3) for c in v.opp_cards.tolist() if c > 0))
        throws = _lookahead_throws(int(v.strength), int(v.to_beat), int(v.tied),
                                   int(v.followers), caps, min(PICARO_LOSS, int(v.my_cards)),
                                   bool(v.setting_limit), int(v.used), int(v.left), int(v.limit))
        return _legal(throws, mask)

    # ---- vectorised over rows, all strengths at once
    def act_batch(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """The player's actions at rows of observations. The values are computed for all 42
        strengths at once and depend on the row's own strength only through its stop, so
        rows that differ only in their strength share one computation: the solver asks
        every strength of a state (a search with lookahead seats spent 86% of its time here
        before)."""
        v = read(obs)
        _, first, inverse = np.unique(_decision_key(v), return_index=True,
                                      return_inverse=True)
        stop_values, again_values = self._values(View(*(f[first] for f in v)))
        inverse = inverse.reshape(-1)
        here = stop_values[inverse, v.strength]
        throw = (v.left >= 1) & (again_values[inverse] > here + _EPS)
        return _legal_batch(throw, mask)

    @staticmethod
    def _values(v: View) -> tuple[np.ndarray, np.ndarray]:
        """Per row of ``v``: the value of stopping now at each strength ``(B, 42)`` and of
        throwing again ``(B,)`` (see the class docstring)."""
        opps = np.maximum(1, (v.opp_cards > 0).sum(axis=-1))
        caps = np.minimum(PENALTY_OF[None, :, None], v.opp_cards[:, None, :])
        gains = caps.sum(axis=-1) / opps[:, None]  # (B, 42)
        picaro = -np.minimum(PICARO_LOSS, v.my_cards)
        strengths = np.arange(NUM_STRENGTHS)[None, :]
        to_beat = v.to_beat[:, None]
        holds = (to_beat < 0) | (strengths <= to_beat)  # I would be (one of) the lowest
        already = np.where(strengths == to_beat, v.tied[:, None], 0)
        followers = v.followers[:, None]

        def stop(used_now: np.ndarray) -> np.ndarray:  # (B, 42)
            limit = np.clip(np.where(v.setting_limit, used_now, v.limit), 1, MAX_THROWS)
            a, e = _ABOVE[limit], _EQUAL[limit]
            p_lose = np.zeros_like(a)
            for t in range(int(v.followers.max(initial=0)) + 1):
                rest = np.maximum(followers - t, 0)
                term = _COMB[v.followers, t][:, None] * a**rest * e**t
                p_lose += np.where(t <= followers, term, 0.0) / (already + t + 1)
            p_lose *= holds
            return -p_lose * ROUND_LOSS + (1 - p_lose) * ROUND_LOSS / opps[:, None]

        def again(used_now: np.ndarray, left_now: np.ndarray) -> np.ndarray:  # (B,)
            value = stop(used_now + 1)
            deeper = left_now > 1
            if deeper.any():
                value = np.where(deeper[:, None],
                                 np.maximum(value, again(used_now + 1, left_now - 1)[:, None]),
                                 value)
            body = (P_STRENGTH[None, 1:] * (gains[:, 1:] + value[:, 1:])).sum(axis=-1)
            return P_PICARO * picaro + body

        return stop(v.used), again(v.used, np.maximum(v.left, 1))


for _name, _factory in {
    "random": RandomPolicy,
    "stop-first": StopFirstPolicy,
    "always-throw": AlwaysThrowPolicy,
    "threshold": ThresholdPolicy,
    "sensible": SensiblePolicy,
    "lookahead": LookaheadPolicy,
}.items():
    register_policy(_name, _factory)

"""Paye's players: two rules of thumb and the exact players, registered with ``game="paye"``.

All read only the observation (``pagadores_env.paye.observation``: everything is public,
Y5.1). A choice is among **options**: in the base game the six special dice; in the
expansion at a red choice each legal red die, with, where a blue die is due (Y6.3), the blue
die the same rule would then choose for it (``rules.legal_blue``); at a blue choice each legal
blue die with the chosen red die. An option's turn gives points with known probabilities
(``layers.points_distribution``: the red die twice, less the blue die twice), and from the
player's score ``s`` and the target ``T`` (50, or 100 in the expansion) three numbers follow:

- ``hit``: the probability that the score after the turn is exactly ``T`` (Y4.1);
- ``expected``: the expected score after the turn, halved where it goes over (Y3.3, Y3.4),
  a hit counting ``T``;
- ``over``: the probability that the turn goes over ``T`` (and is halved).

``lookahead`` takes the option with the highest ``hit``; among those within 1e-12 of it the
highest ``expected``; then the lowest action. ``sensible:hit_at=0.2`` takes the option with
the highest ``hit`` (then ``expected``, then the lowest action) when that ``hit`` is at least
``hit_at``; otherwise the option with the highest ``expected`` among those that cannot go
over (the most points they can give keep ``s + points ≤ T``); when every option can go over,
the one with the lowest ``over`` (then the highest ``expected``, then the lowest action).
Both are deterministic, and in the base game they depend on the score and the dice alone, so
rows are answered from a table per dice set.

``optimal`` (2 players, either variant) and ``equilibrium`` (2–4 players, the base game; at
2 players it is ``optimal``) play the exact yardstick's choice (``pagadores_env.paye.exact``,
Y8.1): the table's players, variant, rounds and dice are read from the observation and its
solution computed on first use (under a second at 2 and 3 players, about a minute and a
half and 2 GB at 4) and kept.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from pagadores_env.core.checks import check_int
from pagadores_env.core.policies import BasePolicy, register_policy
from pagadores_env.paye.exact import solve
from pagadores_env.paye.expansion import solve_expansion
from pagadores_env.paye.layers import points_distribution
from pagadores_env.paye.observation import OBS_SIZE, SLICES, decode
from pagadores_env.paye.policies import GAME
from pagadores_env.paye.rules import (
    BASE_ACTIONS,
    NUM_ACTIONS,
    TARGETS,
    die_faces,
    legal_blue,
    settle,
)
from pagadores_env.paye.table_play import ExpansionTablePolicy, TablePolicy

TIE = 1e-12
Dice = tuple[tuple[int, ...], ...]
Points = tuple[tuple[int, float], ...]


# ---------------------------------------------------------------- the numbers of an option
@lru_cache(maxsize=4096)
def _points(dice: Dice, red: int, blue: int) -> Points:
    """The points of a turn with ``red`` (and ``blue``, -1 for none) and their chances."""
    minus = die_faces(dice, blue) if blue >= 0 else None
    return tuple(points_distribution(die_faces(dice, red), minus).items())


def _numbers(score: int, target: int, points: Points) -> tuple[float, float, float, int]:
    """``hit``, ``expected``, ``over`` and the most points of an option (module docstring)."""
    hit = expected = over = 0.0
    for p, chance in points:
        after = settle(score, p, target)[0]
        hit += chance * (after == target)
        expected += chance * after
        over += chance * (score + p > target)
    return hit, expected, over, max(p for p, _ in points)


def _best(values: Sequence[float], among: Sequence[int], highest: bool = True) -> list[int]:
    """The indices of ``among`` whose value is within ``TIE`` of the best."""
    sign = 1.0 if highest else -1.0
    top = max(sign * values[i] for i in among)
    return [i for i in among if sign * values[i] >= top - TIE]


def lookahead_pick(score: int, target: int, options: Sequence[Points]) -> int:
    """The index of ``lookahead``'s option: the highest ``hit``, then ``expected``, then the
    first."""
    numbers = [_numbers(score, target, points) for points in options]
    hit, expected = [n[0] for n in numbers], [n[1] for n in numbers]
    return _best(expected, _best(hit, range(len(options))))[0]


def sensible_pick(score: int, target: int, options: Sequence[Points], hit_at: float) -> int:
    """The index of ``sensible``'s option (module docstring)."""
    numbers = [_numbers(score, target, points) for points in options]
    hit, expected, over = ([n[k] for n in numbers] for k in range(3))
    everyone = range(len(options))
    if max(hit) >= hit_at:
        return _best(expected, _best(hit, everyone))[0]
    safe = [i for i in everyone if score + numbers[i][3] <= target]
    if safe:
        return _best(expected, safe)[0]
    return _best(expected, _best(over, everyone, highest=False))[0]


# ---------------------------------------------------------------- the rules of thumb
#: The columns an expansion row's choice reads besides the mask: the mover's score, whether
#: a blue die is due, the blue choice and the red die chosen, the dice aside and the faces
#: (every row of the expansion has its target; the round and the other scores do not count).
_CHOICE_COLUMNS = np.concatenate([[SLICES["scores"].start]] + [
    np.arange(SLICES[f].start, SLICES[f].stop)
    for f in ("blue_due", "blue_choice", "chosen", "aside", "faces")])
class _RuleOfThumb(BasePolicy):
    """A player choosing among the options by ``pick(score, target, options)``."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self._tables: dict[Dice, np.ndarray] = {}  # the base game's choices per dice set

    def pick(self, score: int, target: int, options: Sequence[Points]) -> int:
        """The index of the chosen option."""
        raise NotImplementedError

    def act(self, obs: np.ndarray, mask: np.ndarray) -> int:
        """The action at one observation."""
        return int(self.act_batch(np.reshape(obs, (1, -1)), np.reshape(mask, (1, -1)))[0])

    def act_batch(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """The actions at rows of observations: base-game rows from a table per dice set,
        expansion rows once per distinct question (``_CHOICE_COLUMNS`` and the mask)."""
        rows = np.asarray(obs, dtype=np.float32).reshape(-1, OBS_SIZE)
        masks = np.asarray(mask).reshape(len(rows), NUM_ACTIONS)
        actions = np.empty(len(rows), dtype=np.int64)
        expansion = rows[:, SLICES["expansion"].start] > 0.5
        base = np.flatnonzero(~expansion)
        faces = rows[base, SLICES["faces"]]
        while len(base):  # one dice set at a time: mostly all rows at once
            same = (faces == faces[0]).all(axis=1)
            dice = _dice(rows[base[0]])
            score = np.rint(rows[base[same], SLICES["scores"].start] * TARGETS["base"])
            actions[base[same]] = self._base_table(dice)[score.astype(np.int64)]
            base, faces = base[~same], faces[~same]
        rows_x = np.flatnonzero(expansion)
        if len(rows_x):  # once per distinct question: the exact yardstick asks ~10⁶ rows
            key = np.ascontiguousarray(np.concatenate(
                [rows[rows_x][:, _CHOICE_COLUMNS], masks[rows_x].astype(np.float32)], axis=1))
            rows_of = key.view(np.dtype((np.void, key.itemsize * key.shape[1]))).ravel()
            _, first, inverse = np.unique(rows_of, return_index=True, return_inverse=True)
            chosen = np.array([self._expansion_choice(rows[rows_x[i]], masks[rows_x[i]])
                               for i in first], dtype=np.int64)
            actions[rows_x] = chosen[inverse.reshape(-1)]
        return actions

    def _base_table(self, dice: Dice) -> np.ndarray:
        """The die chosen at every score of the base game with ``dice`` (made once)."""
        if dice not in self._tables:
            options = [_points(dice, d, -1) for d in BASE_ACTIONS]
            target = TARGETS["base"]
            self._tables[dice] = np.array([BASE_ACTIONS[self.pick(s, target, options)]
                                           for s in range(target)])
        return self._tables[dice]

    def _expansion_choice(self, row: np.ndarray, mask: np.ndarray) -> int:
        view = decode(row)
        dice = tuple(tuple(int(f) for f in die) for die in view.dice)
        score, target = int(view.scores[0]), int(view.target)
        legal = [int(a) for a in np.flatnonzero(mask)]
        if view.blue_choice:
            red = int(view.chosen)
            return legal[self.pick(score, target, [_points(dice, red, b) for b in legal])]
        if not view.blue_due:
            return legal[self.pick(score, target, [_points(dice, r, -1) for r in legal])]
        aside = tuple(int(a) for a in np.flatnonzero(view.aside))
        options = []
        for red in legal:
            blues = legal_blue(aside, red)
            both = [_points(dice, red, b) for b in blues]
            options.append(both[self.pick(score, target, both)])
        return legal[self.pick(score, target, options)]


def _dice(row: np.ndarray) -> Dice:
    return tuple(tuple(int(f) for f in die) for die in decode(row).dice)


class LookaheadPolicy(_RuleOfThumb):
    """The option most likely to hit the target exactly this turn (module docstring)."""

    name = "lookahead"

    def pick(self, score: int, target: int, options: Sequence[Points]) -> int:
        """``lookahead_pick``."""
        return lookahead_pick(score, target, options)


class SensiblePolicy(_RuleOfThumb):
    """Go for the exact hit when it is likely enough, else the safest fast option (module
    docstring). ``hit_at`` is a probability in (0, 1]."""

    name = "sensible"

    def __init__(self, hit_at: float = 0.2, seed: int | None = None) -> None:
        super().__init__(seed)
        if isinstance(hit_at, bool) or not isinstance(hit_at, int | float) \
                or not 0 < hit_at <= 1:
            raise ValueError(f"hit_at must be a number in (0, 1], got {hit_at!r}")
        self.hit_at = float(hit_at)

    def pick(self, score: int, target: int, options: Sequence[Points]) -> int:
        """``sensible_pick``."""
        return sensible_pick(score, target, options, self.hit_at)


# ---------------------------------------------------------------- the exact players
class _ExactPlayer(BasePolicy):
    """Plays the exact yardstick's solution of the table its rows come from (module
    docstring)."""

    players: tuple[int, ...] = ()
    #: the fields every row of one table shares, whose values name the table
    STATIC = ("present", "rounds", "expansion", "faces")

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self._static = np.concatenate([np.arange(SLICES[f].start, SLICES[f].stop)
                                       for f in self.STATIC])
        self._tables: dict[bytes, TablePolicy | ExpansionTablePolicy] = {}

    def fingerprint(self) -> str:
        """Its play is the solver's, from the code alone."""
        return ""

    def check_table(self, num_players: int, cards: int | Sequence[int]) -> None:
        """``ValueError`` unless it plays ``num_players`` (``cards``: the rounds, unused)."""
        check_int("num_players", num_players, 2, 6)
        if num_players not in self.players:
            raise ValueError(f"{self.name!r} plays {self._sizes()} players, got {num_players}")

    def _sizes(self) -> str:
        low, high = self.players[0], self.players[-1]
        return str(low) if low == high else f"{low}–{high}"

    def act(self, obs: np.ndarray, mask: np.ndarray) -> int:
        """The exact choice at one observation."""
        return int(self.act_batch(np.reshape(obs, (1, -1)), np.reshape(mask, (1, -1)))[0])

    def act_batch(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """The exact choices at rows of observations, solving each table on first use."""
        rows = np.asarray(obs, dtype=np.float32).reshape(-1, OBS_SIZE)
        masks = np.asarray(mask).reshape(len(rows), NUM_ACTIONS)
        actions = np.empty(len(rows), dtype=np.int64)
        static = rows[:, self._static]
        left = np.arange(len(rows))
        while len(left):  # one table at a time: mostly all rows at once
            same = (static[left] == static[left[0]]).all(axis=1)
            group = left[same]
            table = self._table(rows[group[0]])
            actions[group] = table.act_batch(rows[group], masks[group])
            left = left[~same]
        return actions

    def _table(self, row: np.ndarray) -> TablePolicy | ExpansionTablePolicy:
        key = row[self._static].tobytes()
        if key not in self._tables:
            view = decode(row)
            n, rounds = int(view.players), int(view.rounds)
            self.check_table(n, rounds)
            dice = tuple(tuple(int(f) for f in die) for die in view.dice)
            if view.expansion:
                self._tables[key] = solve_expansion(n, dice, rounds).policy(self.name)
            else:
                self._tables[key] = solve(n, dice, rounds).policy(self.name)
        return self._tables[key]


class OptimalPolicy(_ExactPlayer):
    """Optimal play at 2 players, in either variant (Y8.1)."""

    name = "optimal"
    players = (2,)


class EquilibriumPolicy(_ExactPlayer):
    """The subgame-perfect equilibrium at 2–4 players (Y8.1); the expansion at 2 players."""

    name = "equilibrium"
    players = (2, 3, 4)


for _player in (LookaheadPolicy, SensiblePolicy, OptimalPolicy, EquilibriumPolicy):
    register_policy(_player.name, _player, game=GAME)

"""The expansion's exact yardstick (Y6, Y8), at 2 players: the optimum of the game to 100 with
red and blue dice, for any special dice and number of rounds.

A position at the start of a turn is the scores, the round, the turn and the dice set aside
this round (Y6.4). Every turn's values are computed from the next turn's as in the base game
(``layers``), except that the next layer depends on the choice (the chosen dice are set
aside), a mover with 50 or more also chooses a blue die (Y6.3) whose sum counts against the
red one, and only the choices the rules allow are considered (``rules.legal_red``,
``rules.legal_blue``: dice in the middle, no blue of the red die's design, no dead ends, Y6.5).
The red choice comes first, then the blue one (Y6.6): for each red die the mover's best blue
die (the lowest action within 1e-12 of the best, Y8.1), then the best red die given those.

At 3 or more players the dice aside multiply the positions (hundreds of sets at a turn,
each with 100³ scores), so they are refused in one line.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from ..core import checks
from ..core.memory import memory_limit
from .layers import best_choice, final_layer, layer_bytes, points_distribution, transition, turned
from .rules import (
    BLUE_FROM,
    ROUNDS,
    TARGETS,
    check_dice,
    check_players,
    check_rounds,
    die_faces,
    legal_blue,
    legal_red,
)
from .sweep import Progress
from .table_play import ExpansionTablePolicy

TARGET = TARGETS["expansion"]
PLAYERS = 2  # the expansion's exact yardstick covers two players (module docstring)
Aside = tuple[int, ...]
#: Solutions with their choices kept in this process (``solve_expansion``), the most recently
#: used last.
SOLUTIONS = 4
_SOLVED: OrderedDict[tuple[tuple[tuple[int, ...], ...], int], ExpansionSolution] = OrderedDict()


@dataclass(frozen=True)
class ExpansionSolution:
    """The expansion's optimum at 2 players: each seat's share of the win from the start
    (``values``, seat 0 moving first) and, when kept, the red choice at every position per
    ``(round, turn, aside)`` and the blue choice per ``(round, turn, aside, red)`` (flat int8
    in the layers' order, -1 where no blue die is due); with ``keep_values``, the values at
    the start of every ``(round, turn, aside)`` (``layers``, ``layers.py``'s orientation)."""

    num_players: int
    dice: tuple[tuple[int, ...], ...]
    rounds: int
    values: tuple[float, ...]
    red: dict[tuple[int, int, Aside], np.ndarray] = field(repr=False)
    blue: dict[tuple[int, int, Aside, int], np.ndarray] = field(repr=False)
    seconds: float
    layers: dict[tuple[int, int, Aside], np.ndarray] = field(default_factory=dict, repr=False)

    def policy(self, name: str = "optimal") -> ExpansionTablePolicy:
        """The optimum as a player (``table_play.ExpansionTablePolicy``)."""
        if not self.red:
            raise ValueError("the choices were not kept: solve with keep=True")
        return ExpansionTablePolicy(self.num_players, self.dice, self.rounds, self.red,
                                    self.blue, name)

    def position_values(self, round_: int, turn: int, aside: Sequence[int],
                        scores: Sequence[int]) -> tuple[float, ...]:
        """Each seat's share of the win at the optimum from the start of ``turn`` of
        ``round_`` with the dice ``aside`` and ``scores`` in turn order from the player to
        move (its own first), in that order; the values must be kept (``keep_values``)."""
        if not self.layers:
            raise ValueError("the values were not kept: solve_expansion with keep_values=True")
        layer = self.layers.get((round_, turn, tuple(sorted(aside))))
        if layer is None:
            raise ValueError(f"no play reaches turn {turn} of round {round_} with the dice "
                             f"{sorted(aside)} aside (Y6.4, Y6.5)")
        return tuple(float(v) for v in layer[tuple(int(s) for s in scores)])


def reachable_asides(num_players: int) -> list[list[Aside]]:
    """Per turn of a round, every set of dice aside that play can lead to (Y6.4, Y6.5)."""
    states: list[list[Aside]] = [[()]]
    for _ in range(num_players - 1):
        after: set[Aside] = set()
        for aside in states[-1]:
            after |= {tuple(sorted((*aside, red))) for red in legal_red(aside, False)}
            after |= {tuple(sorted((*aside, red, blue))) for red in legal_red(aside, True)
                      for blue in legal_blue(aside, red)}
        states.append(sorted(after))
    return states


def solve_bytes(rounds: int = ROUNDS, keep_values: bool = False) -> int:
    """The memory ``solve_expansion`` takes at 2 players: three layers per set of dice aside
    at a turn while it works, and with ``keep_values`` every turn's layers of every round."""
    asides = reachable_asides(PLAYERS)
    per_layer = layer_bytes(PLAYERS, TARGET)
    return per_layer * (3 * max(map(len, asides))
                        + (rounds * sum(map(len, asides)) if keep_values else 0))


def check_expansion_players(num_players: int) -> int:
    """``num_players`` if the expansion's exact yardstick covers it (``PLAYERS``); else
    ``ValueError`` in one line."""
    n = check_players(num_players)
    if n != PLAYERS:
        raise ValueError(f"the expansion's exact yardstick covers {PLAYERS} players (the dice "
                         f"set aside multiply the positions beyond), got {n}")
    return n


def solve_expansion(num_players: int = PLAYERS, dice: Sequence[Sequence[int]] | None = None,
                    rounds: int = ROUNDS, keep: bool = True, progress: Progress | None = None,
                    keep_values: bool = False) -> ExpansionSolution:
    """The expansion's optimum at 2 players (module docstring); ``keep`` keeps the choices
    for a player (and the solution in this process for the next call, ``SOLUTIONS`` tables at
    most), ``keep_values`` (with ``keep``) also the values at the start of every turn.
    ``ValueError`` in one line for 3+ players or a bad argument."""
    n = check_expansion_players(num_players)
    faces, rounds_ = check_dice(dice), check_rounds(rounds)
    keep_values = keep and checks.check_flag("keep_values", keep_values)
    known = _SOLVED.get((faces, rounds_))
    if known is not None and (known.layers or not keep_values):
        _SOLVED.move_to_end((faces, rounds_))
        return known
    asides = reachable_asides(n)
    need = solve_bytes(rounds_, keep_values)
    if need > memory_limit():
        raise ValueError(f"the expansion needs about {need / 2**30:.1f} GiB, more than the "
                         f"{memory_limit() / 2**30:.1f} GiB this process may use")
    began = time.perf_counter()
    matrices = Matrices(faces)
    red: dict[tuple[int, int, Aside], np.ndarray] = {}
    blue: dict[tuple[int, int, Aside, int], np.ndarray] = {}
    layers: dict[tuple[int, int, Aside], np.ndarray] = {}
    following: dict[Aside, np.ndarray] = {(): final_layer(n, TARGET)}
    total, done = rounds_ * n, 0
    for round_ in range(rounds_, 0, -1):
        for turn in range(n - 1, -1, -1):
            # the next turn starts a round when this is the last: every die back (Y6.4)
            products = Products(matrices, following, turn == n - 1, asides[turn], n)
            current = {}
            for aside in asides[turn]:
                layer, reds, blues = best_turn(products, aside, n)
                current[aside] = layer
                if keep_values:
                    layers[(round_, turn, aside)] = layer
                if keep:
                    red[(round_, turn, aside)] = reds
                    blue.update({(round_, turn, aside, r): b for r, b in blues.items()})
            following = current
            done += 1
            if progress is not None:
                progress(done, total)
    values = tuple(float(v) for v in following[()][(0,) * n])
    solution = ExpansionSolution(n, faces, rounds_, values, red, blue,
                                 time.perf_counter() - began, layers)
    if keep:
        _SOLVED[(faces, rounds_)] = solution
        while len(_SOLVED) > SOLUTIONS:
            _SOLVED.popitem(last=False)
    return solution


class Matrices:
    """The transition matrices (``layers.transition``) of a red die alone, for the rows
    below ``BLUE_FROM`` (no blue die), and of every red and blue pair (Y6.3), for the rows
    from it; made when first needed."""

    def __init__(self, dice: tuple[tuple[int, ...], ...]) -> None:
        self.dice = dice
        self._made: dict[tuple[int, int], np.ndarray] = {}

    def __call__(self, red: int, blue: int = -1) -> np.ndarray:
        """The rows of red die ``red`` with blue die ``blue`` (-1: none)."""
        if (red, blue) not in self._made:
            minus = die_faces(self.dice, blue) if blue >= 0 else None
            matrix = transition(points_distribution(die_faces(self.dice, red), minus), TARGET)
            self._made[(red, blue)] = matrix[BLUE_FROM:] if blue >= 0 else matrix[:BLUE_FROM]
        return self._made[(red, blue)]


class Products:
    """The values after every choice of one layer's turns (``(rows, rest, n)`` each; an exact
    hit wins, Y4.1), made as one matrix product per next layer: a choice's next layer is
    the one with its dice set aside too, or, at the last turn of a round, the next round's
    first (every die back, Y6.4), which every choice of that turn shares."""

    def __init__(self, matrices: Matrices, following: dict[Aside, np.ndarray],
                 starts_round: bool, asides: Sequence[Aside], num_players: int) -> None:
        self.starts_round = starts_round
        wanted: dict[Aside, set[tuple[int, int]]] = {}
        for aside in asides:
            for r in legal_red(aside, False):
                wanted.setdefault(self._key(aside, r), set()).add((r, -1))
            for r in legal_red(aside, True):
                for b in legal_blue(aside, r):
                    wanted.setdefault(self._key(aside, r, b), set()).add((r, b))
        self._values: dict[tuple[Aside, int, int], np.ndarray] = {}
        for key, choices in wanted.items():
            order = sorted(choices)
            rows = [matrices(r, b) for r, b in order]
            stacked = np.concatenate(rows)
            flat = turned(following[key]).reshape(TARGET, -1)
            out = (stacked[:, :TARGET] @ flat).reshape(len(stacked), -1, num_players)
            out[..., 0] += stacked[:, TARGET][:, None]
            at = np.cumsum([0] + [len(m) for m in rows])
            for (r, b), begin, end in zip(order, at[:-1], at[1:], strict=True):
                self._values[(key, r, b)] = out[begin:end]

    def _key(self, aside: Aside, *chosen: int) -> Aside:
        return () if self.starts_round else tuple(sorted((*aside, *chosen)))

    def __call__(self, aside: Aside, red: int, blue: int = -1) -> np.ndarray:
        """The values after red die ``red`` and blue die ``blue`` (-1: none) at ``aside``."""
        chosen = (red,) if blue < 0 else (red, blue)
        return self._values[(self._key(aside, *chosen), red, blue)]


def _pick(options: list[np.ndarray], actions: Sequence[int]
          ) -> tuple[np.ndarray, np.ndarray]:
    """The mover's best of ``options`` (each ``(rows, rest, n)``, for ``actions`` ascending)
    at every position, the lowest action among ties (Y8.1): its values and its action."""
    stacked = np.stack(options)
    choice = best_choice(stacked[..., 0])
    values = np.take_along_axis(stacked, choice[None, :, :, None], axis=0)[0]
    return values, np.asarray(actions, dtype=np.int8)[choice]


def best_turn(products: Products, aside: Aside, num_players: int
              ) -> tuple[np.ndarray, np.ndarray, dict[int, np.ndarray]]:
    """One layer's values at the dice ``aside``, the red choice at every position, and per
    red die the blue choice (-1 where no blue die is due)."""
    reds_low = legal_red(aside, False)
    low_values, low_red = _pick([products(aside, r) for r in reds_low], reds_low)
    reds_high = legal_red(aside, True)
    best_blue: list[np.ndarray] = []
    blues: dict[int, np.ndarray] = {}
    for r in reds_high:
        options = legal_blue(aside, r)
        values, choice = _pick([products(aside, r, b) for b in options], options)
        best_blue.append(values)
        blues[r] = np.concatenate([np.full(low_red.shape, -1, np.int8), choice]).ravel()
    high_values, high_red = _pick(best_blue, reds_high)
    layer = np.concatenate([low_values, high_values]).reshape((TARGET,) * num_players
                                                               + (num_players,))
    return layer, np.concatenate([low_red, high_red]).ravel(), blues

"""One backward pass over the expansion's layers at 2 players (``expansion``) for several
**variants** side by side, as ``sweep`` does for the base game: who chooses the dice at each
seat counted from the first player (Y2.2), ``None`` for a seat that maximises its own share
of the win (the optimum, or a best response) or a policy, which plays its answers.

A layer is the turn's values at every dice-aside set the turn can meet (``expansion``'s
``reachable_asides``). A policy is asked about every position of a layer where it has a
choice (Y7.3: one legal die is no decision): the red die below ``BLUE_FROM`` points, and from
it the red die and then, for every red die it may choose, the blue one (Y6.3, Y6.6), on the
observation rows the environment gives its player (``observation.decision_rows``), in
batches, each policy object once per layer and dice aside however many variants seat it. A
policy that states its probabilities (``core.policies.SupportsActionProbabilities``, such as
``random``) is measured as that mixture; any other at its answers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..core.memory import memory_limit
from ..core.policies import Policy, SupportsActionProbabilities, batch_actions
from .engine import BLUE_CHOICE, CHOOSE, Game
from .expansion import PLAYERS, TARGET, Aside, Matrices, Products, best_turn, reachable_asides
from .layers import final_layer, layer_bytes
from .observation import decision_rows, encode
from .rules import BLUE_FROM, NUM_ACTIONS, legal_blue, legal_red
from .sweep import BATCH_ROWS, Choosers, Progress

#: A layer's rows below ``BLUE_FROM`` (no blue die) and from it (a blue die too), each
#: ``(rows, rest)`` with the mover's score on the first axis.
HALF = (BLUE_FROM, TARGET ** (PLAYERS - 1))


@dataclass(frozen=True)
class Decision:
    """A chooser's play at one decision over one half of a layer: among ``actions``
    (ascending), ``choice`` ``HALF`` of indices into them, or ``probabilities`` ``(len(
    actions),) + HALF``."""

    actions: tuple[int, ...]
    choice: np.ndarray | None = None
    probabilities: np.ndarray | None = None

    def play(self, options: list[np.ndarray]) -> np.ndarray:
        """The values where this decision is played, of ``options`` (one ``HALF + (n,)``
        array per action)."""
        if len(options) == 1:
            return options[0]
        stacked = np.stack(options)
        if self.choice is not None:
            return np.take_along_axis(stacked, self.choice[None, :, :, None].astype(np.intp),
                                      axis=0)[0]
        assert self.probabilities is not None  # a decision has its choice or its mixture
        return np.einsum("kpr,kprn->prn", self.probabilities, stacked, optimize=True)


@dataclass(frozen=True)
class Answers:
    """A policy's play at one layer and dice aside: its red die below ``BLUE_FROM``, its red
    die from it, and per red die it may choose there its blue die."""

    low: Decision
    high: Decision
    blue: dict[int, Decision]


def check_size(variants: int, what: str = "evaluate") -> int:
    """The bytes of a pass of ``variants`` (each two layers of every dice-aside set) if they
    fit ``core.memory.memory_limit()``; else ``ValueError`` in one line naming both."""
    asides = sum(map(len, reachable_asides(PLAYERS)))
    need = (2 * variants + 1) * layer_bytes(PLAYERS, TARGET) * asides
    limit = memory_limit()
    if need > limit:
        raise ValueError(f"cannot {what} in the expansion: it needs about {need / 2**30:.1f} "
                         f"GiB, more than the {limit / 2**30:.1f} GiB this process may use "
                         "(core.memory.memory_limit)")
    return need


def sweep_expansion(dice: tuple[tuple[int, ...], ...], rounds: int,
                    variants: Sequence[Choosers], progress: Progress | None = None
                    ) -> list[np.ndarray]:
    """Each variant's values at the start of the game (round 1, turn 0, every score 0, no
    dice aside): per seat counted from the first player, its share of the win."""
    n = PLAYERS
    asides = reachable_asides(n)
    matrices = Matrices(dice)
    following: list[dict[Aside, np.ndarray]] = [{(): final_layer(n, TARGET)}
                                                 for _ in variants]
    total, done = rounds * n, 0
    for round_ in range(rounds, 0, -1):
        for turn in range(n - 1, -1, -1):
            asked: dict[tuple[int, Aside], Answers] = {}
            for index, choosers in enumerate(variants):
                # the next turn starts a round when this is the last: every die back (Y6.4)
                products = Products(matrices, following[index], turn == n - 1,
                                     asides[turn], n)
                chooser = choosers[turn]
                current = {}
                for aside in asides[turn]:
                    if chooser is None:
                        current[aside] = best_turn(products, aside, n)[0]
                        continue
                    key = (id(chooser), aside)
                    if key not in asked:
                        asked[key] = ask(chooser, dice, rounds, round_, turn, aside)
                    current[aside] = _played(products, aside, asked[key])
                following[index] = current
            done += 1
            if progress is not None:
                progress(done, total)
    origin = (0,) * n
    return [f[()][origin].copy() for f in following]


def _played(products: Products, aside: Aside, answers: Answers) -> np.ndarray:
    """One layer's values at ``aside`` where a policy plays its ``answers``."""
    low = answers.low.play([products(aside, r) for r in answers.low.actions])
    high = answers.high.play([answers.blue[r].play([products(aside, r, b)
                                                    for b in answers.blue[r].actions])
                              for r in answers.high.actions])
    return np.concatenate([low, high]).reshape((TARGET,) * PLAYERS + (PLAYERS,))


def ask(policy: Policy, dice: tuple[tuple[int, ...], ...], rounds: int, round_: int,
        turn: int, aside: Aside) -> Answers:
    """``policy``'s play at every position of the layer (``round_``, ``turn``) with the dice
    ``aside`` set aside (module docstring)."""
    def start(mover_score: int) -> Game:
        scores = [0] * PLAYERS
        scores[turn] = mover_score  # seat 0 moves first, so ``turn`` is the mover
        return Game(PLAYERS, "expansion", dice, rounds, first_player=0, scores=scores,
                    round=round_, turn=turn, aside=aside)

    low = _decide(policy, start(0), legal_red(aside, False), 0)
    high_game = start(BLUE_FROM)
    reds = legal_red(aside, True)
    high = _decide(policy, high_game, reds, BLUE_FROM)
    blue = {}
    for red in reds:
        game = start(BLUE_FROM)
        if game.phase == CHOOSE:
            game.apply_action(red)
        blue[red] = _decide(policy, game, legal_blue(aside, red), BLUE_FROM)
    return Answers(low, high, blue)


def _decide(policy: Policy, game: Game, actions: tuple[int, ...], lowest: int) -> Decision:
    """``policy``'s play among ``actions`` at the decision ``game`` is at, over the rows of
    the mover's scores ``lowest`` … ``lowest + BLUE_FROM - 1``; no question where the engine
    plays the one legal action (Y7.3)."""
    if len(actions) == 1:
        return Decision(actions, choice=np.zeros(HALF, dtype=np.int8))
    assert game.phase in (CHOOSE, BLUE_CHOICE) and tuple(game.legal_actions()) == actions
    template = encode(game, game.mover)
    mover = np.repeat(np.arange(lowest, lowest + BLUE_FROM), HALF[1])
    other = np.tile(np.arange(HALF[1]), BLUE_FROM)
    scores = np.column_stack([mover, other])  # slot order: the mover first
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    mask[list(actions)] = 1
    mixed = isinstance(policy, SupportsActionProbabilities)
    rows = len(scores)
    out = np.empty((len(actions), rows)) if mixed else np.empty(rows, dtype=np.int8)
    for begin in range(0, rows, BATCH_ROWS):
        end = min(begin + BATCH_ROWS, rows)
        obs = decision_rows(template, scores[begin:end], TARGET)
        masks = np.broadcast_to(mask, (end - begin, NUM_ACTIONS)).copy()
        if isinstance(policy, SupportsActionProbabilities):
            out[:, begin:end] = _probabilities(policy, obs, masks, actions).T
        else:
            out[begin:end] = _indices(policy, batch_actions(policy, obs, masks), actions,
                                      end - begin)
    if mixed:
        return Decision(actions, probabilities=out.reshape((len(actions),) + HALF))
    return Decision(actions, choice=out.reshape(HALF))


def _indices(policy: Policy, answers: object, actions: tuple[int, ...], count: int
             ) -> np.ndarray:
    """The answers as indices into ``actions``; ``ValueError`` in one line for an answer
    that is not one of them."""
    chosen = np.asarray(answers)
    if chosen.shape != (count,) or not np.isin(chosen, actions).all():
        raise ValueError(f"policy {policy!r} must answer each of {count} rows with one of the "
                         f"legal dice {list(actions)} (Y6.3, Y7.2); got shape {chosen.shape}, "
                         f"values {np.unique(chosen)[:5].tolist()}")
    return np.searchsorted(actions, chosen).astype(np.int8)


def _probabilities(policy: SupportsActionProbabilities, obs: np.ndarray, masks: np.ndarray,
                   actions: tuple[int, ...]) -> np.ndarray:
    probs = np.asarray(policy.action_probabilities(obs, masks), dtype=np.float64)
    legal = masks.astype(bool)
    if probs.shape != masks.shape or not np.isfinite(probs).all() or (probs < 0).any() \
            or (probs[~legal] > 0).any() or not np.allclose(probs.sum(axis=1), 1):
        raise ValueError(f"policy {policy!r} must give each row {NUM_ACTIONS} probabilities "
                         f"≥ 0 summing to 1, none outside the legal dice {list(actions)}")
    return probs[:, list(actions)]


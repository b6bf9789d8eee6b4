"""One backward pass over the base game's layers (``layers``), for several **variants** side
by side: who chooses the die at each seat.

A variant names, per seat counted from the first player (seat 0 moves first in every round,
Y2.2), either ``None``, a seat that maximises its own share of the win (the equilibrium, or a
best response), or a policy, which plays its answers. Policies are asked about every position
of a layer on the very observation rows ``observation.encode`` gives its player to move
(``decision_rows``), through ``core.policies.batch_actions`` in ``BATCH_ROWS`` rows a call, so
a network is asked in batches; a policy object that several variants seat is asked each
distinct observation once (its answers are shared among them within the layer). A policy
that states its probabilities (``core.policies.SupportsActionProbabilities``, such as ``random``)
is measured as that mixture; any other at its answers.

The pass walks from the last turn of the last round back to the first turn of round 1 and
keeps only the layer being computed and the next one per variant.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..core.policies import Policy, SupportsActionProbabilities, batch_actions
from .engine import Game
from .layers import (
    best_choice,
    final_layer,
    gather,
    mix,
    points_distribution,
    transition,
    turn_products,
)
from .observation import decision_rows, encode
from .rules import BASE_ACTIONS, NUM_ACTIONS, SPECIAL_DICE, TARGETS

#: Rows per policy call.
BATCH_ROWS = 1 << 16
TARGET = TARGETS["base"]
#: The mask of every base-game decision: the six special dice (Y7.1).
BASE_MASK = np.zeros(NUM_ACTIONS, dtype=np.int8)
BASE_MASK[list(BASE_ACTIONS)] = 1
BASE_MASK.flags.writeable = False

#: Who chooses at each seat counted from the first player: None maximises, else a policy.
Choosers = tuple[Policy | None, ...]
#: Hears of each layer done: (layers done, layers in all).
Progress = Callable[[int, int], object]
#: Hears of each layer's values as they are made: (variant, round, turn, layer).
OnLayer = Callable[[int, int, int, np.ndarray], object]


def base_matrices(dice: Sequence[Sequence[int]]) -> np.ndarray:
    """``(6, 50, 51)``: the transition matrix of each special die thrown twice (Y3.2)."""
    return np.stack([transition(points_distribution(faces), TARGET) for faces in dice])


@dataclass
class Answers:
    """A policy's play at every position of one layer: ``choice`` ``(50, rest)`` of dice, or
    ``probabilities`` ``(6, 50, rest)``."""

    choice: np.ndarray | None = None
    probabilities: np.ndarray | None = None


def score_rows(num_players: int, start: int, stop: int) -> np.ndarray:
    """The scores of positions ``start … stop-1`` of a layer (C order over the seats' axes,
    the mover's first), one row per position in slot order."""
    index = np.arange(start, stop, dtype=np.int64)
    powers = TARGET ** np.arange(num_players - 1, -1, -1, dtype=np.int64)
    return (index[:, None] // powers[None, :]) % TARGET


def ask(policy: Policy, num_players: int, dice: tuple[tuple[int, ...], ...], rounds: int,
        round_: int, turn: int) -> Answers:
    """``policy``'s play at every position of the layer (``round_``, ``turn``) of a table."""
    game = Game(num_players, "base", dice, rounds, first_player=0, round=round_, turn=turn)
    template = encode(game, turn)
    positions = TARGET ** num_players
    mixed = isinstance(policy, SupportsActionProbabilities)
    out = (np.empty((SPECIAL_DICE, positions)) if mixed
           else np.empty(positions, dtype=np.int8))
    for start in range(0, positions, BATCH_ROWS):
        stop = min(start + BATCH_ROWS, positions)
        obs = decision_rows(template, score_rows(num_players, start, stop), TARGET)
        masks = np.broadcast_to(BASE_MASK, (stop - start, NUM_ACTIONS)).copy()
        if mixed:
            out[:, start:stop] = _probabilities(policy, obs, masks).T
        else:
            out[start:stop] = _actions(policy, batch_actions(policy, obs, masks), stop - start)
    shape = (TARGET, positions // TARGET)
    if mixed:
        return Answers(probabilities=out.reshape(SPECIAL_DICE, *shape))
    return Answers(choice=out.reshape(shape))


def _actions(policy: Policy, answers: Any, count: int) -> np.ndarray:
    actions = np.asarray(answers)
    if actions.shape != (count,) or not np.isin(actions, BASE_ACTIONS).all():
        raise ValueError(f"policy {policy!r} must answer each of {count} rows with a die "
                         f"0–5 (Y7.1); got shape {actions.shape}, values "
                         f"{np.unique(actions)[:5].tolist()}")
    return actions.astype(np.int8)


def _probabilities(policy: Any, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
    probs = np.asarray(policy.action_probabilities(obs, masks), dtype=np.float64)
    if probs.shape != masks.shape or not np.isfinite(probs).all() or (probs < 0).any() \
            or (probs[:, SPECIAL_DICE:] > 0).any() or not np.allclose(probs.sum(axis=1), 1):
        raise ValueError(f"policy {policy!r} must give each row {NUM_ACTIONS} probabilities "
                         f"≥ 0 summing to 1, none on the masked actions 6–12")
    return probs[:, :SPECIAL_DICE]


def sweep(num_players: int, dice: tuple[tuple[int, ...], ...], rounds: int,
          variants: Sequence[Choosers], keep: Collection[tuple[int, int]] = (),
          progress: Progress | None = None, on_layer: OnLayer | None = None
          ) -> tuple[list[np.ndarray], dict[tuple[int, int, int], np.ndarray]]:
    """Each variant's values at the start of the game (round 1, turn 0, every score 0): per
    seat counted from the first player, its share of the win; and, for each ``(variant,
    turn)`` of ``keep`` (a turn where that variant's mover maximises), its choice at every
    position of that turn's layer in every round, ``{(variant, round, turn): choices}``
    (int8, flat C order), for a player to play from. ``on_layer`` hears every variant's layer
    of values at the start of each turn (a new array each, never written to again), for a
    caller that keeps them."""
    n = num_players
    stacked = base_matrices(dice)
    shape = (TARGET,) * n + (n,)
    values = [final_layer(n, TARGET)] * len(variants)
    kept: dict[tuple[int, int, int], np.ndarray] = {}
    keep = set(keep)
    products = np.empty((SPECIAL_DICE, TARGET, TARGET ** (n - 1), n))
    total, done = rounds * n, 0
    for round_ in range(rounds, 0, -1):
        for turn in range(n - 1, -1, -1):
            asked: dict[int, Answers] = {}
            for index, choosers in enumerate(variants):
                turn_products(stacked, values[index], products)
                chooser = choosers[turn]
                if chooser is None:
                    choice = best_choice(products[..., 0])
                    if (index, turn) in keep:
                        kept[(index, round_, turn)] = choice.astype(np.int8).ravel()
                    layer = gather(products, choice)
                else:
                    if id(chooser) not in asked:
                        asked[id(chooser)] = ask(chooser, n, dice, rounds, round_, turn)
                    answers = asked[id(chooser)]
                    layer = (gather(products, answers.choice) if answers.choice is not None
                             else mix(products, answers.probabilities))  # type: ignore[arg-type]
                values[index] = layer.reshape(shape)
                if on_layer is not None:
                    on_layer(index, round_, turn, values[index])
            done += 1
            if progress is not None:
                progress(done, total)
    origin = (0,) * n
    return [v[origin].copy() for v in values], kept

"""The observation is sufficient for optimal play (R7.1), checked with the exact solver.

Decision states are reached through the real engine two ways: every first-round decision
from every two-player start with up to ``CARDS`` cards a side, with the dice limited to one
throw per strength in ``EXPLORED`` (the Picaro, every special, the lowest and highest
Flamenco and Cavar, a few between: the full 42 would take minutes), and every decision of
``PLAYOUTS`` random games (all dice, random choices, later rounds). Their optimal action values are
read from the solver's raw seat-level tables using the engine's own state (which seat acts,
which seat insteeks, both card counts, throws, limit, scores), not from the observation.
Decision states that give the acting player the same observation vector must then have the
same action values. Mirrored states (seat 0 vs seat 1 acting) share observations but are
valued from different halves of the tables, so the check has bite; a deliberately blinded
observation must fail it.
"""

from __future__ import annotations

from collections import defaultdict
from functools import lru_cache

import numpy as np
import pytest

from pagadores_env.pagadores.engine import Action, Game, Phase
from pagadores_env.pagadores.observation import SLICES, encode
from pagadores_env.pagadores.rules import THROWS
from pagadores_env.pagadores.solver import decision_from_game, encode_decisions, solve_two_player
from pagadores_env.pagadores.solver.model import Tables

CARDS = 4
TOLERANCE = 1e-12

PLAYOUTS = 300
#: Strengths thrown while enumerating: Picaro, Flamenco 8, 9, 104, 260, Cavar 2-2-2 and
#: 6-6-6, Puerta, Hermana, Celebro. Throws of equal strength lead to equal states (R2.5).
EXPLORED = (0, 1, 2, 14, 33, 34, 38, 39, 40, 41)
_DICE = {t.strength: t.dice for t in THROWS}


def _key(game: Game) -> tuple:
    return (tuple(game.cards), game.insteker, game.phase, game.pos, game.throws,
            None if game.current is None else game.current.strength, game.throw_limit,
            tuple(game.scores), tuple(game.kampen), game.kampen_pos,
            tuple(game.kampen_scores), game.decision)


def _first_round_decisions(start: Game) -> list[Game]:
    """Every distinct decision node of the first round, through the real engine."""
    found: list[Game] = []
    seen: set[tuple] = set()
    stack = [start]
    while stack:
        game = stack.pop()
        if game.phase != Phase.ROUND or game.round != 1 or _key(game) in seen:
            continue  # kampen has no decisions (R5.1); later rounds are other starts
        seen.add(_key(game))
        if game.is_decision_node():
            found.append(game)
            moves = [lambda g, a=a: g.apply_action(a) for a in (Action.STOP, Action.THROW)]
        else:
            moves = [lambda g, s=s: g.apply_throw(_DICE[s]) for s in EXPLORED]
        for move in moves:
            child = game.clone()
            move(child)
            stack.append(child)
    return found


def _playout_decisions(game: Game, rng: np.random.Generator) -> list[Game]:
    """Every decision node of one game with random dice and random choices."""
    found = []
    while not game.is_terminal():
        if game.is_decision_node():
            found.append(game.clone())
            game.apply_action(int(rng.integers(2)))
        else:
            game.apply_throw(tuple(int(d) for d in rng.integers(1, 7, size=3)))
    return found


@lru_cache(maxsize=1)
def _reachable() -> tuple[Game, ...]:
    games = []
    for a in range(1, CARDS + 1):
        for b in range(1, CARDS + 1):
            for first in (0, 1):
                games += _first_round_decisions(Game(2, [a, b], first_insteker=first))
    rng = np.random.default_rng(2024)
    for k in range(PLAYOUTS):
        games += _playout_decisions(Game(2, CARDS, first_insteker=k % 2), rng)
    return tuple(games)


def _engine_values(tables: Tables, game: Game) -> tuple[float, float]:
    """The acting seat's win probability after (STOP, THROW), from the raw tables: they hold
    seat 0's value with seat ``i`` insteeking, cards indexed (insteker, follower)."""
    seat, i = game.current_player, game.insteker
    a, b = game.cards[i], game.cards[1 - i]
    s, used = game.current.strength, game.throws
    if seat == i:
        stop = tables.follower_throw[i, a, b, used, s, 1]
        throw = tables.insteker_throw[i, a, b, used + 1]
    else:
        score, limit = game.scores[i], game.throw_limit
        stop = tables.resolve[i, a, b, score, s]
        throw = tables.follower_throw[i, a, b, limit, score, used + 1]
    return (stop, throw) if seat == 0 else (1.0 - stop, 1.0 - throw)


def _violations(observations: np.ndarray, values: np.ndarray) -> list[tuple[int, float]]:
    """Observation groups whose action values differ: (group size, largest difference)."""
    groups: dict[bytes, list[int]] = defaultdict(list)
    for row, obs in enumerate(observations):
        groups[obs.tobytes()].append(row)
    bad = []
    for rows in groups.values():
        spread = float(np.ptp(values[rows], axis=0).max())
        if spread > TOLERANCE:
            bad.append((len(rows), spread))
    return bad


@pytest.fixture(scope="module")
def reached() -> tuple[np.ndarray, np.ndarray]:
    tables = solve_two_player(CARDS).tables
    games = _reachable()
    observations = np.array([encode(g, g.current_player) for g in games])
    values = np.array([_engine_values(tables, g) for g in games])
    return observations, values


@pytest.mark.slow
def test_R7_1_equal_observations_have_equal_optimal_action_values(reached) -> None:
    observations, values = reached
    shared = len(observations) - len({o.tobytes() for o in observations})
    assert shared > 500, "the check needs distinct states that share an observation"
    assert np.ptp(values, axis=0).min() > 0.5, "the values must actually vary"
    assert _violations(observations, values) == []


@pytest.mark.slow
def test_R7_1_check_fails_for_an_observation_without_card_counts(reached) -> None:
    observations, values = reached
    blind = observations.copy()
    blind[:, SLICES["cards"]] = 0.0
    assert len(_violations(blind, values)) > 10


def test_direct_decision_encoder_matches_observation_encode() -> None:
    """The solver asks policies on rows it writes itself; they must equal ``encode``."""
    games = _reachable()
    decisions = np.array([decision_from_game(g) for g in games])
    rows = encode_decisions(decisions)
    expected = np.array([encode(g, g.current_player) for g in games])
    assert rows.dtype == expected.dtype
    assert np.array_equal(rows, expected)

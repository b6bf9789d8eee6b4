"""What a round remembers of its scores (``solver.scores``): the lowest view and the full view.

The lowest view keeps only the lowest score so far and which roles hold it (R3.5, R5.1); the
full view keeps every earlier score. (a) Their state maps agree with the scores they stand
for: ``index``, ``next`` and ``holders`` on random score tuples. (b) Both views give the
same equilibrium, and the same exact evaluation of players that read the scores only through
the lowest (``policies.reads_lowest_only``).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from pagadores_env.core.policies import make_policy
from pagadores_env.pagadores.rules import NUM_STRENGTHS, PICARO_STRENGTH, TOP
from pagadores_env.pagadores.solver import exact_evaluate
from pagadores_env.pagadores.solver.scores import score_states
from pagadores_env.pagadores.solver.sweep import Sweep

#: A score a round can hold: anything but the Picaro, which ends the turn (R4.4).
SCORE = st.integers(PICARO_STRENGTH + 1, TOP)
#: A throw's strength, the Picaro included.
STRENGTH = st.integers(0, NUM_STRENGTHS - 1)
#: Roles per round in the full view: 42 ** 4 states are still quick to build.
FULL_ROLES = 4


def _views(m: int) -> list:
    return [score_states(m, False)] + ([score_states(m, True)] if m <= FULL_ROLES else [])


def _holders(scores: list[int]) -> int:
    """The bit mask of the roles holding the lowest of ``scores`` (R3.5)."""
    low = min(scores)
    return sum(1 << r for r, s in enumerate(scores) if s == low)


@st.composite
def rounds(draw, most: int = 6) -> tuple[int, list[int]]:
    """A round of ``m`` roles and the scores of its first ``j <= m`` roles."""
    m = draw(st.integers(2, most))
    return m, draw(st.lists(SCORE, max_size=m))


@given(rounds(), STRENGTH)
def test_next_is_the_index_of_the_scores_with_one_more(round_, strength) -> None:
    m, scores = round_
    if len(scores) == m:
        scores = scores[:-1]
    for states in _views(m):
        j = len(scores)
        after = states.index(scores + [strength])
        assert after == states.next[j][states.index(scores), strength]
        assert 0 <= after < states.size[j + 1]


@given(rounds())
def test_real_scores_are_reachable_states_and_their_representatives_index_back(round_) -> None:
    m, scores = round_
    j = len(scores)
    for states in _views(m):
        q = int(states.index(scores))
        assert states.reachable[j][q]
        shown = states.scores[j][q].tolist()
        assert states.index(shown) == q
        assert len(shown) == j and all(PICARO_STRENGTH < s <= TOP for s in shown)
        if j:  # the representative keeps what decides the round (R3.5)
            assert min(shown) == min(scores) and _holders(shown) == _holders(scores)
        if states.full:
            assert shown == scores


@given(st.integers(2, 6).flatmap(lambda m: st.lists(SCORE, min_size=m, max_size=m)))
def test_holders_of_a_final_state_are_the_roles_holding_the_lowest(scores) -> None:
    for states in _views(len(scores)):
        assert states.holders[states.index(scores)] == _holders(scores)


@given(rounds(), st.data())
def test_the_lowest_view_forgets_only_scores_above_the_lowest(round_, data) -> None:
    """Raising any score that is not the lowest (to any score above it) keeps the state."""
    m, scores = round_
    if not scores or min(scores) == TOP:
        return
    low = min(scores)
    changed = [s if s == low else data.draw(st.integers(low + 1, TOP)) for s in scores]
    states = score_states(m, False)
    assert states.index(changed) == states.index(scores)
    lowered = [s - 1 if s > low + 1 else s for s in scores]
    assert states.index(lowered) == states.index(scores)
    if low > PICARO_STRENGTH + 1:  # a new lowest is a new state
        moved = list(scores)
        moved[scores.index(low)] = low - 1
        assert states.index(moved) != states.index(scores)


def test_index_works_on_batches_of_scores() -> None:
    rng = np.random.default_rng(7)
    for m in range(2, 5):
        for states in _views(m):
            for j in range(m + 1):
                batch = rng.integers(PICARO_STRENGTH + 1, TOP + 1, size=(5, 3, j))
                each = [[int(states.index(row)) for row in rows] for rows in batch]
                assert states.index(batch).tolist() == each


def test_state_arrays_are_read_only() -> None:
    states = score_states(3, False)
    for array in (states.next[1], states.reachable[2], states.scores[1], states.holders):
        with pytest.raises(ValueError):
            array[0] = 0


# --------------------------------------------------------------------- (b) same values
@pytest.mark.slow
@pytest.mark.parametrize("start", [(3, 3, 3), (1, 1, 1, 1), (2, 1, 0, 2)])
def test_lowest_and_full_views_give_the_same_equilibrium(start) -> None:
    """The equilibrium depends on a round's scores only through the lowest and its
    holders (R3.5, R5.1): every position's values agree to 1e-12."""
    everyone = [(True,) * len(start)]
    lowest = Sweep(start, everyone, {}, full=False)
    full = Sweep(start, everyone, {}, full=True)
    lowest.run()
    full.run()
    assert set(lowest.win) == set(full.win)
    for key, value in lowest.win.items():
        np.testing.assert_allclose(full.win[key], value, rtol=0, atol=1e-12, err_msg=str(key))


@pytest.mark.slow
def test_scripted_profiles_evaluate_the_same_in_the_full_view() -> None:
    """``exact_evaluate`` asks scripted players on the lowest view (they declare
    ``score_view = "lowest"``); asked about every combination of scores instead, they
    give the same values. One seat best-responds in a second variant (as in NashConv)."""
    specs = ["sensible", "threshold:min_points=150", "random"]  # random: its 50/50 mixture
    players = dict(enumerate(make_policy(spec, seed=1) for spec in specs))
    variants = [(False, False, False), (False, True, False)]
    start = (2, 2, 2)
    sweeps = {full: Sweep(start, variants, players, full=full) for full in (False, True)}
    for sweep in sweeps.values():
        sweep.run()
    assert sweeps[True].rows_asked > 5 * sweeps[False].rows_asked  # the views differ
    for key, value in sweeps[False].win.items():
        np.testing.assert_allclose(sweeps[True].win[key], value, rtol=0, atol=1e-12,
                                   err_msg=str(key))
    evaluated = exact_evaluate(specs, 3, 2)
    np.testing.assert_allclose(evaluated, sweeps[True].win[(start, 0)][0], rtol=0, atol=1e-12)

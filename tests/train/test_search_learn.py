"""The search player's learner (``pagadores_train.learners.search.learn``) and its fit
(``pagadores_train.learners.search.fit``) on tiny tables: it learns (the exact NashConv falls), it
resumes exactly from its saved state, and the fit's gradient is the loss's."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from pagadores_agents.search.value_net import ValueNet, features, turned
from pagadores_env.pagadores.solver import nash_conv
from pagadores_train.learners.search.fit import gradients
from pagadores_train.learners.search.learn import LearnSettings, ValueLearner

TINY = LearnSettings(games=20, fit_steps=100, hidden=(32, 32))


@pytest.mark.slow
def test_the_learned_player_is_less_than_half_as_exploitable_as_the_untrained_one() -> None:
    learner = ValueLearner.new(3, (2, 2, 2), TINY, seed=0)
    untrained = nash_conv([learner.player()] * 3, 3, 2).total
    for _ in range(2):
        learner.iterate()
    trained = nash_conv([learner.player()] * 3, 3, 2).total
    assert untrained > 0.01 and trained < untrained / 2, (untrained, trained)


def test_a_saved_learner_continues_exactly_as_the_one_that_saved_it(tmp_path: Path) -> None:
    learner = ValueLearner.new(3, (2, 1, 2), TINY, seed=3)
    learner.iterate()
    learner.save(tmp_path / "learner.npz")
    again = ValueLearner.load(tmp_path / "learner.npz", TINY)
    assert again.decisions == learner.decisions and list(again.buffer) == list(learner.buffer)
    first, second = learner.iterate(), again.iterate()
    assert first.loss == second.loss and again.decisions == learner.decisions
    for (w1, b1), (w2, b2) in zip(learner.net.layers, again.net.layers, strict=True):
        assert (w1 == w2).all() and (b1 == b2).all()


def test_a_damaged_learner_state_is_refused_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "learner.npz"
    ValueLearner.new(2, (2, 2), TINY, seed=0).save(path)
    path.write_bytes(path.read_bytes()[:200])
    with pytest.raises(ValueError, match="is damaged") as err:
        ValueLearner.load(path, TINY)
    assert "\n" not in str(err.value)



def test_a_garbage_npz_is_refused_without_numpys_advice_to_unpickle_it(tmp_path: Path) -> None:
    """numpy's message advised loading it "unsafely using the allow_pickle= keyword argument"
    (issue 45, item 12)."""
    path = tmp_path / "learner.npz"
    path.write_text("garbage, not a zip archive\n")
    with pytest.raises(ValueError) as refused:
        ValueLearner.load(path, TINY)
    assert str(refused.value) == (f"learner state {str(path)!r} is damaged (not an .npz file "
                                  "(no zip archive; damaged or cut off?))")


def test_games_start_at_the_table_or_at_random_positions_within_it() -> None:
    learner = ValueLearner.new(4, (3, 1, 2, 3), LearnSettings(random_starts=0.5), seed=1)
    starts = [tuple(learner.new_game().cards) for _ in range(200)]
    assert 60 < starts.count((3, 1, 2, 3)) < 140
    assert all(sum(1 for c in s if c) >= 2 and all(c <= m for c, m in zip(s, (3, 1, 2, 3),
                                                                          strict=True))
               for s in starts)


def test_a_backups_cap_backs_up_the_new_positions_and_the_longest_untouched_others() -> None:
    capped = LearnSettings(games=20, fit_steps=10, hidden=(16,), backups=3)
    learner = ValueLearner.new(3, (2, 2, 2), capped, seed=2)
    learner.iterate()
    assert all(len(t) for t in learner.buffer.values())  # the first iteration's are all new
    oldest = list(learner.buffer)[:3]
    new = (2, 1, 2), 0
    learner.buffer.pop(new, None)
    learner.buffer[new] = np.zeros(0)
    due = learner.due()
    assert due == [new, *oldest]
    marker = np.full(3, -1.0)  # no backed-up value is negative
    for position, target in learner.buffer.items():
        if len(target):
            learner.buffer[position] = marker
    learner.back_up(None)
    changed = [p for p, t in learner.buffer.items() if t is not marker]
    assert sorted(changed) == sorted(due)  # the others keep their targets
    assert list(learner.buffer)[-4:] == sorted(due, key=lambda p: sum(p[0]))  # touched: newest


def test_the_fits_gradient_is_the_cross_entropys() -> None:
    net = ValueNet.new(4, hidden=(8,), seed=2)
    net.layers[-1][0][:] = np.random.default_rng(2).normal(0, 1, net.layers[-1][0].shape)
    cards = np.array([[3, 0, 5, 1], [2, 2, 2, 2], [1, 7, 0, 4]])
    insteker = np.array([0, 3, 1])
    target = np.array([[0.2, 0.0, 0.5, 0.3], [0.1, 0.2, 0.3, 0.4], [0.6, 0.1, 0.0, 0.3]])
    x, alive = features(cards, insteker)
    turned_target = np.take_along_axis(target, turned(4, insteker), axis=1)
    _, grads = gradients(net, x, alive, turned_target)
    w = net.layers[0][0]
    for index in [(0, 0), (3, 5), (7, 2)]:
        keep = w[index]
        w[index] = keep + 1e-6
        up = gradients(net, x, alive, turned_target)[0]
        w[index] = keep - 1e-6
        down = gradients(net, x, alive, turned_target)[0]
        w[index] = keep
        assert abs((up - down) / 2e-6 - grads[0][index]) < 1e-6

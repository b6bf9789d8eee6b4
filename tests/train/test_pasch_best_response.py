"""Training a Pasch learner against the exact best response in the last round
(``env.best_response`` at 2 players, ``evaluation.pasch.last_round_response``; X9.2): the
opponent plays the response to the learner in the pool's last rounds and ``greedy``
elsewhere, it is recomputed every ``ExactResponse.every`` steps, and a table it cannot serve
is refused in one line."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("stable_baselines3")

from pagadores_env.core.policies import make_policy
from pagadores_env.pasch import exact
from pagadores_train.evaluation import exact_games
from pagadores_train.evaluation.pasch import (
    RESPONSE_EVERY,
    last_round_response,
    training_positions,
)
from pagadores_train.learners import best_response as module
from pagadores_train.learners.best_response import RespondEachRollout
from pagadores_train.learners.sb3 import train
from pagadores_train.run.config import config_from_dict
from pagadores_train.settings import ConfigError


def _config(tmp_path: Path, **env: object) -> dict:
    return {"env": {"game": "pasch", "num_players": 2, "best_response": True,
                    "last_round_starts": 1.0} | env,
            "algo": {"hyperparams": {"n_steps": 64, "batch_size": 64, "n_epochs": 1}},
            "vec_env": {"n_envs": 2}, "total_timesteps": 512, "checkpoint_every": 512,
            "seed": 0, "output_dir": str(tmp_path), "progress_bar": False,
            "eval": {"every": 512, "games": 4, "final_games": 4, "opponents": ["random"],
                     "exact": False}}


def test_x9_2_the_opponent_responds_in_the_pools_last_rounds_and_plays_greedy_elsewhere():
    greedy = make_policy("greedy", game="pasch", seed=0)
    response = last_round_response(greedy)
    pool = set(training_positions(2))
    # in each of the pool's rounds the two seats' gains add up to greedy's NashConv
    for scores, cards, blocks, starter in sorted(pool)[:3]:
        base = exact.exact_evaluate(greedy, scores, cards, blocks, starter)
        gains = [exact.exact_evaluate([response if s == seat else greedy for s in (0, 1)],
                                      scores, cards, blocks, starter)[seat] - base[seat]
                 for seat in (0, 1)]
        assert sum(gains) == pytest.approx(
            exact.nash_conv(greedy, scores, cards, blocks, starter), abs=1e-12)
    # a last round outside the pool (its scores never met there): greedy's own play
    outside = ((3, 9), (-1, -1), (1, 1), 0)
    assert outside[:2] not in {(p[0], p[1]) for p in pool}
    assert exact.exact_evaluate([response, greedy], *outside) == pytest.approx(
        exact.exact_evaluate(greedy, *outside), abs=1e-12)


class Opponent:
    """What ``RespondEachRollout`` needs of a ``BestResponseOpponent``: its game, its
    response's ``every``, and ``respond_to``, here counted."""

    def __init__(self, every: int) -> None:
        self.game = "pasch"
        self.response = dataclasses.replace(exact_games.exact_response("pasch"), every=every)
        self.calls = 0

    def respond_to(self, policy: object) -> float:
        self.calls += 1
        return float("nan")


@pytest.mark.parametrize(("every", "since", "expected"), [
    (0, 0, [4096, 8192, 12288, 16384]),  # before every rollout
    (10_000, 0, [12288]),  # at the first rollout from 10,000 on
    (10_000, 12288, []),  # resumed at 12,288, where the response was made
])
def test_the_response_is_recomputed_at_the_first_rollout_from_each_multiple_of_every(
        monkeypatch: pytest.MonkeyPatch, every: int, since: int, expected: list[int]) -> None:
    monkeypatch.setattr(module, "model_class", lambda game: type("M", (), {
        "of_model": staticmethod(lambda model: model)}))
    opponent = Opponent(every)
    callback = RespondEachRollout(opponent, since)  # type: ignore[arg-type]
    callback.model = None  # type: ignore[assignment]  # the patched model_class takes any
    responded = []
    for steps in (4096, 8192, 12288, 16384):
        if steps <= since:
            continue
        callback.num_timesteps = steps
        before = opponent.calls
        callback.on_rollout_start()
        if opponent.calls > before:
            responded.append(steps)
    assert responded == expected


def test_pasch_recomputes_its_response_every_response_every_steps() -> None:
    assert exact_games.exact_response("pasch").every == RESPONSE_EVERY > 0
    assert exact_games.exact_response("perudo").every == 0  # fast: every rollout


@pytest.mark.parametrize(("change", "message"), [
    ({"num_players": 3}, "needs the game the exact yardstick solves: num_players 2, got "
                         "num_players 3"),
    ({"selfplay": {"every": 1000}}, "env.best_response and env.selfplay both choose"),
])
def test_a_pasch_best_response_config_it_cannot_serve_is_refused_in_one_line(
        tmp_path: Path, change: dict, message: str) -> None:
    with pytest.raises(ConfigError, match=message) as err:
        config_from_dict(_config(tmp_path, **change), name="run")
    assert "\n" not in str(err.value)


@pytest.mark.slow
def test_a_pasch_run_trains_against_the_response_and_repeats_with_its_seed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    answered: list[object] = []
    respond = module.BestResponseOpponent.respond_to

    def counted(self: module.BestResponseOpponent, policy: object) -> float:
        answered.append(policy)
        return respond(self, policy)  # type: ignore[arg-type]

    monkeypatch.setattr(module.BestResponseOpponent, "respond_to", counted)
    fast = dataclasses.replace(exact_games.YARDSTICKS["pasch"].response, every=256)
    monkeypatch.setitem(exact_games.YARDSTICKS, "pasch",
                        dataclasses.replace(exact_games.YARDSTICKS["pasch"], response=fast))
    params = []
    for name in ("a", "b"):
        answered.clear()
        result = train(config_from_dict(_config(tmp_path), name=name))
        assert result.timesteps == 512
        # at the start, then at the rollout (of 2 x 64 steps) starting at 256; the others
        # start at 0, 128 and 384
        assert len(answered) == 2
        model = make_policy(f"model:path={result.run_dir / 'model.zip'}", game="pasch")
        params.append(np.concatenate([p.detach().numpy().ravel()
                                      for p in model.model.policy.parameters()]))
    assert np.array_equal(params[0], params[1])

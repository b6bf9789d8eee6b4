"""The approximate NashConv of the games without a compiled kernel
(``pagadores_train.learners.approximate_engine``): paired games on the same dice measure a
response's gain against Paye's exact yardstick (Y8.1), the learner runs at any table and game
of the table of games, seeded, and bad arguments are refused in one line before any
training."""

from __future__ import annotations

import tempfile

import gymnasium
import numpy as np
import pytest
import torch
from sb3_contrib import MaskablePPO

from pagadores_env.paye import exact
from pagadores_train.learners import approximate_engine
from pagadores_train.learners.approximate_engine import (
    approximate_game,
    learn_response,
    paired_gain,
    profile_players,
)

PAYE = {"variant": "base", "faces": None, "rounds": 10}


def test_pairs_of_the_same_player_are_the_same_games() -> None:
    players = profile_players("paye", "lookahead", 3, PAYE, seed=0)
    gain, half, won, base = paired_gain("paye", players[1], players, 1, PAYE, 40, seed=0)
    assert (gain, half) == (0.0, 0.0) and won == base  # every pair one game: no noise


def test_y8_1_paired_games_measure_the_exact_gain_of_a_response() -> None:
    players = profile_players("paye", "lookahead", 2, PAYE, seed=0)
    best = exact.best_response(players[0], 0, 2, keep_policy=True)  # plays either seat
    gain, half, won, base = paired_gain("paye", best.policy(), players, 0, PAYE, 400, seed=1)
    assert abs(gain - best.gain) <= 4 * half and half < 0.05
    assert gain > 0 and won > base


def test_the_learned_responses_are_seeded_and_any_games(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # where SB3 puts a bare logger

    def run(game: str, options: dict[str, object]) -> tuple[float, ...]:
        found = approximate_game(game, "greedy" if game == "pasch" else "sensible", 2,
                                 options, budget=32, games=4, seed=3)
        return tuple(x for s in found.seats for x in (s.gain, s.half_width, s.decisions))

    first = run("paye", {"rounds": 1})
    assert run("paye", {"rounds": 1}) == first  # the same arguments, the same result
    assert len(run("pasch", {"hand": [1, 2], "blocks": 0})) == 6
    assert not list(tmp_path.glob("SB3-*"))  # learning left no empty SB3-<date> folders


def test_score_exactly_scores_the_learned_responses_against_the_exact_ones() -> None:
    found = approximate_game("paye", "lookahead", 2, {"rounds": 2}, budget=64, games=4,
                             score_exactly=True)
    best = exact.nash_conv("lookahead", 2, rounds=2)
    assert [s.best_gain for s in found.seats] == pytest.approx(list(best.gains), abs=1e-12)
    assert all(s.exact_gain is not None and s.exact_gain <= s.best_gain + 1e-9
               for s in found.seats)  # a learned response never beats the best one


def test_a_trained_agents_response_starts_from_its_network(tmp_path, monkeypatch) -> None:
    agent = MaskablePPO("MlpPolicy", gymnasium.make("Paye-v1", num_players=2, rounds=1),
                        policy_kwargs={"net_arch": [16]}, seed=0)  # not the 64x64 default
    agent.save(tmp_path / "agent.zip")
    players = profile_players("paye", f"model:path={tmp_path / 'agent.zip'}", 2,
                              {"rounds": 1}, seed=0)
    assert approximate_engine.warm_start(players[0]) is players[0].model
    assert approximate_engine.warm_start(profile_players("paye", "lookahead", 2, PAYE,
                                                         seed=0)[0]) is None
    monkeypatch.setattr(MaskablePPO, "learn", lambda self, **kw: self)  # no update at all
    response, _ = learn_response("paye", players, 1, {"rounds": 1}, budget=16, seed=0)
    ours, theirs = response.model.policy.state_dict(), players[1].model.policy.state_dict()
    assert ours.keys() == theirs.keys()
    assert all(torch.equal(ours[name], theirs[name]) for name in ours)
    obs = np.random.default_rng(0).random((50, players[1].obs_size)).astype(np.float32)
    mask = np.ones((50, players[1].actions), dtype=np.int8)
    assert np.array_equal(response.act_batch(obs, mask), players[1].act_batch(obs, mask))


@pytest.mark.parametrize(("call", "named"), [
    (lambda: approximate_game("paye", "nobody", 2), "unknown policy of paye 'nobody'"),
    (lambda: approximate_game("paye", "random", 7), "num_players must be an integer 2–6"),
    (lambda: approximate_game("paye", "random", 2, {"variant": "deluxe"}),
     "variant must be one of"),
    (lambda: approximate_game("paye", ["random"] * 3, 2), "one agent for every seat or 2"),
    (lambda: approximate_game("paye", "random", 2, budget=0), "budget must be"),
    (lambda: approximate_game("pasch", "greedy", 2, score_exactly=True),
     "Pasch has no exact evaluation of whole games"),
    (lambda: approximate_game("paye", "random", 5, score_exactly=True), "covers 2–4 players"),
    (lambda: approximate_game("pagadores", "sensible", 2), "approximate_nash_conv"),
])
def test_bad_arguments_are_refused_in_one_line_before_any_training(call, named) -> None:
    with pytest.raises(ValueError, match=named) as err:
        call()
    assert "\n" not in str(err.value)

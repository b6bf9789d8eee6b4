"""Training against the exact best response in 2-player 1-die Perudo (``env.best_response``,
``pagadores_train.learners.best_response``; issue 13, goal 3): the response the opponent plays, the
learner it responds to, the config's checks and a run that recomputes it every rollout."""

from __future__ import annotations

from pathlib import Path

import gymnasium
import numpy as np
import pytest

pytest.importorskip("stable_baselines3")


from pagadores_agents.sb3_adapter import PerudoSB3Policy
from pagadores_env.core.policies import make_policy
from pagadores_env.perudo import exact
from pagadores_train.learners import best_response as module
from pagadores_train.learners.best_response import BestResponseOpponent
from pagadores_train.learners.sb3 import train
from pagadores_train.run.config import config_from_dict
from pagadores_train.run.reports import read_rows
from pagadores_train.settings import ConfigError


def _seat_edges(seat: int) -> np.ndarray:
    """Where ``seat`` acts, read from the tree's levels (not from the code under test)."""
    t = exact.tree()
    edges = np.zeros(t.edges, dtype=bool)
    for level, _, actor in t.levels:
        edges[level] = actor == seat
    return edges


@pytest.mark.parametrize("spec", ["probabilistic", "bluffer"])
def test_the_best_responses_earn_the_exploitability_in_both_seats(spec: str) -> None:
    """Each seat of the returned strategy, played against the policy in the other seat,
    earns exactly that seat's best value, and their mean is the exploitability."""
    sigma = exact.strategy(make_policy(spec, game="perudo", seed=0))
    value, best = exact.best_responses(sigma)
    assert value == pytest.approx(exact.exploitability(sigma), abs=1e-12)
    assert set(np.unique(best[_seat_edges(0) | _seat_edges(1)])) <= {0.0, 1.0}  # pure
    mine_0 = np.where(_seat_edges(0)[:, None], best, sigma)  # BR in seat 0, the policy in 1
    mine_1 = np.where(_seat_edges(1)[:, None], best, sigma)
    earned = (exact.expected_return(mine_0), -exact.expected_return(mine_1))
    assert earned == pytest.approx((exact.best_response(sigma, 0)[0],
                                    exact.best_response(sigma, 1)[0]), abs=1e-12)
    assert np.mean(earned) == pytest.approx(value, abs=1e-12)


@pytest.mark.slow
def test_an_equilibrium_leaves_its_best_response_nothing() -> None:
    assert exact.best_responses(exact.cfr_plus(300).strategy)[0] < 0.001


@pytest.mark.slow
def test_the_opponent_plays_the_best_response_to_the_policy_it_was_given() -> None:
    opponent = BestResponseOpponent()
    obs, masks = exact._views(2)
    with pytest.raises(RuntimeError, match="respond_to"):
        opponent.act(obs[0], masks[0])
    bidder = make_policy("probabilistic", game="perudo", seed=0)
    assert opponent.respond_to(bidder) == pytest.approx(exact.exploitability(bidder))
    best = exact.StrategyPolicy(exact.best_responses(bidder)[1]).action_probabilities(obs, masks)
    actions = opponent.act_batch(obs, masks)
    assert (actions == best.argmax(axis=1)).all()
    assert masks[np.arange(len(obs)), actions].all()  # always legal
    uniform = exact.uniform_strategy()
    assert opponent.respond_to(uniform) == pytest.approx(exact.exploitability(uniform))
    assert (opponent.act_batch(obs, masks) != actions).any()  # it answers the new policy


def test_a_model_in_memory_plays_as_the_same_model_saved_and_loaded(tmp_path: Path) -> None:
    from sb3_contrib import MaskablePPO

    env = gymnasium.make("Perudo-v1", num_players=2, dice=1, opponents=["random"])
    model = MaskablePPO("MlpPolicy", env, seed=5, device="cpu")
    model.save(tmp_path / "model.zip")
    live = PerudoSB3Policy.of_model(model)
    saved = make_policy(f"model:path={tmp_path / 'model.zip'}", game="perudo")
    obs, masks = exact._views(5)
    assert np.allclose(live.action_probabilities(obs, masks),
                       saved.action_probabilities(obs, masks), atol=1e-6)
    assert exact.exploitability(live) == pytest.approx(exact.exploitability(saved), abs=1e-5)
    with __import__("torch").no_grad():
        model.policy.action_net.bias[3] += 5.0
    assert not np.allclose(live.action_probabilities(obs, masks),  # not a copy: it follows
                           saved.action_probabilities(obs, masks), atol=1e-6)
    with pytest.raises(ValueError, match="algo must be one of"):
        PerudoSB3Policy.of_model(object())


def _config(tmp_path: Path, **env: object) -> dict:
    return {"env": {"game": "perudo", "num_players": 2, "dice": 1, "best_response": True}
            | env,
            "algo": {"hyperparams": {"n_steps": 64, "batch_size": 64, "n_epochs": 2}},
            "vec_env": {"n_envs": 2}, "total_timesteps": 512, "checkpoint_every": 512,
            "seed": 0, "output_dir": str(tmp_path), "progress_bar": False,
            "eval": {"every": 256, "games": 4, "final_games": 4, "opponents": ["random"]}}


@pytest.mark.parametrize(("change", "message"), [
    ({"env": {"game": "pagadores", "best_response": True}},
     r"env.best_response needs a game with an exact best response \(Perudo: num_players 2 "
     r"with dice 1; .*\), got env.game 'pagadores'"),
    ({"env": {"game": "perudo", "dice": 2, "best_response": True}},
     "needs the game the exact yardstick solves: num_players 2 with dice 1, got "
     "num_players 2 with dice 2"),
    ({"env": {"game": "perudo", "num_players": 3, "dice": 1, "best_response": True}},
     "num_players 2 with dice 1, got num_players 3"),
    ({"vec_env": {"kind": "subproc"}}, "needs vec_env.kind 'dummy'"),
    ({"env": {"game": "perudo", "dice": 1, "best_response": "yes"}}, "env.best_response"),
])
def test_a_best_response_config_the_game_cannot_serve_is_refused_in_one_line(
        tmp_path: Path, change: dict, message: str) -> None:
    data = _config(tmp_path) | change
    with pytest.raises(ConfigError, match=message) as err:
        config_from_dict(data, name="run")
    assert "\n" not in str(err.value)


@pytest.mark.slow
def test_a_run_recomputes_the_response_every_rollout_and_logs_the_exploitability(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    answered: list[float] = []
    respond = BestResponseOpponent.respond_to

    def counted(self: BestResponseOpponent, policy: object) -> float:
        answered.append(respond(self, policy))  # type: ignore[arg-type]
        return answered[-1]

    monkeypatch.setattr(module.BestResponseOpponent, "respond_to", counted)
    config = config_from_dict(_config(tmp_path), name="run")
    result = train(config)
    # one before learn's first reset, then one per rollout of 2 envs x 64 steps
    assert len(answered) == 1 + 512 // 128
    assert len(set(answered)) > 1  # the learner changed, and so did its response
    rows, final = (read_rows(tmp_path / "run" / name) for name in ("eval.csv", "final_eval.csv"))
    assert [int(r["timesteps"]) for r in rows] == [0, 256, 512]
    assert all(0 < float(r["exploitability"]) <= 1 for r in rows + final)
    model = make_policy(f"model:path={result.run_dir / 'model.zip'}", game="perudo")
    assert float(final[0]["exploitability"]) == pytest.approx(exact.exploitability(model),
                                                              abs=1e-5)
    assert (tmp_path / "run" / "learning_curve.png").stat().st_size > 0

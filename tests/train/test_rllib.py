"""RLlib self-play (pagadores_train.learners.rllib), its masking module and the rllib:path=… player.

The training runs are tiny (3 players with 2 cards, 200-step batches, sampling in the test
process) on one local Ray started with 2 CPUs and shut down after the module.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import pytest

pytest.importorskip("ray")
pytest.importorskip("torch")

import torch
import yaml

from pagadores_env import pagadores_v1
from pagadores_env.core.policies import make_policy
from pagadores_train.evaluation.evaluate import evaluate_agents
from pagadores_train.learners.rllib import LAYOUT, saved_run, train
from pagadores_train.learners.rllib_config import RLlibConfig, rllib_config_from_dict
from pagadores_train.learners.trainers import trainer_for
from pagadores_train.run.folder import RunError
from pagadores_train.settings import ConfigError

TINY = {"seed": 3, "total_timesteps": 400, "progress_bar": False,
        "env": {"num_players": 3, "cards": 2},
        "rllib": {"num_env_runners": 0, "train_batch_size": 200, "minibatch_size": 100,
                  "num_epochs": 2},
        "eval": {"games": 30, "opponents": ["sensible"]}, "checkpoint_every": 200}


def tiny(tmp: Path, name: str, **changes: Any) -> RLlibConfig:
    return rllib_config_from_dict(TINY | {"name": name, "output_dir": str(tmp)} | changes)


def rows(n: int, seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).uniform(-1, 1, (n, 49)).astype(np.float32)


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Two tiny runs of the same config ('a', 'b'), then 'a' continued to 600 steps from a
    config file, by the trainer ``pagadores train`` picks for it."""
    import ray

    tmp = tmp_path_factory.mktemp("rllib")
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        said = io.StringIO()
        with contextlib.redirect_stderr(said):  # progress_bar: false, so status lines
            a = train(tiny(tmp, "a"))
        b = train(tiny(tmp, "b"))
        policies = {name: make_policy(f"rllib:path={tmp / name}") for name in "ab"}
        config = tmp / "a.yaml"
        config.write_text(yaml.safe_dump(TINY | {"name": "a", "output_dir": str(tmp)}))
        trainer = trainer_for(config)
        data = trainer.load(str(config)).to_dict() | {"total_timesteps": 600}
        resumed = trainer.train(trainer.from_dict(data))
    finally:
        ray.shutdown()
    return {"tmp": tmp, "a": a, "b": b, "policies": policies, "resumed": resumed,
            "said": said.getvalue()}


@pytest.mark.slow
def test_a_run_says_what_it_does_through_its_final_evaluation(runs: dict[str, Any]) -> None:
    """Before, a small run checkpointed and then sat silent through its exact pass."""
    said = [line.partition(" [")[0] for line in runs["said"].splitlines()
            if not re.match(r"\d{4}-\d\d-\d\d ", line)]  # Ray's own log lines share stderr
    assert said[:3] == ["starting a new run in " + str(runs["tmp"] / "a"),
                        "training: 400 steps", "training: 200/400 steps"]
    assert "final evaluation: 1/2 steps (30 games against sensible)" in said
    assert any(line.startswith("exact pass of the policy: ") for line in said)
    assert said[-1] == "final evaluation: done"


@pytest.mark.slow
def test_tiny_run_writes_a_checkpoint_and_its_report(runs: dict[str, Any]) -> None:
    a = runs["a"]
    assert a.timesteps == 400
    folder = runs["tmp"] / "b" / "checkpoints"
    assert json.loads((folder / "latest.json").read_text())["checkpoint"] == "step_400"
    assert (folder / "step_400" / "rllib_checkpoint.json").is_file()
    assert sorted(p.name for p in folder.iterdir()) == ["latest.json", "step_400"]
    [row] = a.final
    assert row.opponent == "sensible" and row.stats.trials >= 30
    assert row.nash_conv is not None and row.nash_conv >= 0  # exact at 3 players
    assert "NashConv of the trained policy" in a.table()
    assert (runs["tmp"] / "b" / "final_eval.csv").read_text().startswith("timesteps,")


@pytest.mark.slow
def test_same_seed_same_weights_without_env_runners(runs: dict[str, Any]) -> None:
    a, b = runs["policies"]["a"], runs["policies"]["b"]
    mask = np.ones((500, 2), np.int8)
    assert np.array_equal(a.logits(rows(500), mask), b.logits(rows(500), mask))


@pytest.mark.slow
def test_checkpoint_loads_as_a_player_and_plays(runs: dict[str, Any]) -> None:
    player = make_policy(f"rllib:path={runs['tmp'] / 'b' / 'checkpoints' / 'step_400'}")
    result = evaluate_agents([player, "sensible"], num_players=3, num_games=12, seed=1,
                             cards=2, exact=False)
    assert result.rows[0].trials == 12
    actions = player.act_batch(rows(100), np.ones((100, 2), np.int8))
    assert actions.dtype == np.int64 and set(actions.tolist()) <= {0, 1}
    assert player.act(rows(1)[0], np.ones(2, np.int8)) == actions[0]


@pytest.mark.slow
def test_trained_player_never_picks_a_masked_action(runs: dict[str, Any]) -> None:
    player = runs["policies"]["a"]
    masks = np.random.default_rng(1).choice([[1, 0], [0, 1], [1, 1]], size=2000).astype(np.int8)
    actions = player.act_batch(rows(2000, seed=2), masks)
    assert masks[np.arange(2000), actions].all()
    assert set(actions[masks.sum(axis=1) == 1].tolist()) == {0, 1}  # both masks were obeyed


@pytest.mark.slow
def test_a_config_file_with_a_longer_total_resumes_the_run(runs: dict[str, Any]) -> None:
    assert runs["resumed"].timesteps == 600
    folder = runs["tmp"] / "a" / "checkpoints"
    assert sorted(p.name for p in folder.iterdir()) == ["latest.json", "step_600"]
    resumed = make_policy(f"rllib:path={runs['tmp'] / 'a'}")
    mask = np.ones((200, 2), np.int8)
    assert not np.array_equal(resumed.logits(rows(200), mask),
                              runs["policies"]["b"].logits(rows(200), mask))



@pytest.mark.slow
def test_sigterm_stops_the_run_as_ctrl_c_does_on_the_ray_it_starts(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``ray.init`` makes SIGTERM an exit of its own (``sys.exit``): a run on the Ray it
    started ended without a word, or was killed outright before it. It stops as on Ctrl-C,
    keeping its last checkpoint, and leaves SIGTERM's handler as it found it (issue 45,
    item 10)."""
    import signal

    import ray
    from ray.rllib.algorithms.ppo import PPO

    from pagadores_train.run.folder import Interrupted

    assert not ray.is_initialized()  # the run starts its own Ray
    real, calls = PPO.train, []

    def train_then_sigterm(self: Any) -> Any:
        calls.append(1)
        if len(calls) == 2:  # after the checkpoint at step 200
            signal.raise_signal(signal.SIGTERM)
        return real(self)
    monkeypatch.setattr(PPO, "train", train_then_sigterm)
    before = signal.getsignal(signal.SIGTERM)
    config = tiny(tmp_path, "term")
    with pytest.raises(Interrupted) as stop:
        train(config)
    from pagadores_train import signals

    assert (stop.value.timesteps, stop.value.saved_now) == (200, False)
    assert signals.received() == signal.SIGTERM
    assert signal.getsignal(signal.SIGTERM) is before
    assert not ray.is_initialized()
    assert not (config.run_dir / "run.lock").exists()
    assert json.loads((config.run_dir / "checkpoints" / "latest.json").read_text())[
        "checkpoint"] == "step_200"


# --------------------------------------------------------------------------- the module
def module(actions: int) -> Any:
    from pagadores_agents.rllib_module import MaskedPPOTorchRLModule

    torch.manual_seed(0)
    space = gym.spaces.Dict({"observation": gym.spaces.Box(-1, 1, (49,), np.float32),
                             "action_mask": gym.spaces.Box(0, 1, (actions,), np.int8)})
    return MaskedPPOTorchRLModule(observation_space=space,
                                  action_space=gym.spaces.Discrete(actions),
                                  model_config={"fcnet_hiddens": [16]})


@pytest.mark.parametrize("actions", [2, 5])
def test_module_gives_masked_actions_probability_zero(actions: int) -> None:
    from ray.rllib.core.columns import Columns

    net = module(actions)
    rng = np.random.default_rng(actions)
    masks = rng.integers(0, 2, (3000, actions)).astype(np.int8)
    masks[np.arange(3000), rng.integers(0, actions, 3000)] = 1  # at least one legal
    batch = {Columns.OBS: {"observation": torch.from_numpy(rows(3000)),
                           "action_mask": torch.from_numpy(masks)}}
    for forward in (net.forward_inference, net.forward_exploration, net.forward_train):
        logits = forward(dict(batch))[Columns.ACTION_DIST_INPUTS]
        probs = torch.softmax(logits, dim=1).detach().numpy()
        assert (probs[masks == 0] == 0).all()
        assert np.allclose(probs.sum(axis=1), 1)
        legal = torch.from_numpy(masks.astype(bool))
        assert legal[torch.arange(3000), logits.argmax(dim=1)].all()
        drawn = torch.distributions.Categorical(logits=logits).sample((20,))
        assert legal.gather(1, drawn.T).all()
    assert set(batch[Columns.OBS]) == {"observation", "action_mask"}  # not consumed


def test_module_needs_our_observation_keys() -> None:
    from pagadores_agents.rllib_module import MaskedPPOTorchRLModule

    space = gym.spaces.Dict({"observations": gym.spaces.Box(-1, 1, (49,), np.float32),
                             "action_mask": gym.spaces.Box(0, 1, (2,), np.int8)})
    with pytest.raises(ValueError, match="keys 'observation' and 'action_mask'"):
        MaskedPPOTorchRLModule(observation_space=space, action_space=gym.spaces.Discrete(2))


# --------------------------------------------------------------------------- the player
def fake_checkpoint(folder: Path, obs_size: int) -> Path:
    """An algorithm checkpoint's layout holding a masked module for ``obs_size`` floats."""
    from pagadores_agents.rllib_module import MaskedPPOTorchRLModule

    space = gym.spaces.Dict({"observation": gym.spaces.Box(-1, 1, (obs_size,), np.float32),
                             "action_mask": gym.spaces.Box(0, 1, (2,), np.int8)})
    net = MaskedPPOTorchRLModule(observation_space=space, action_space=gym.spaces.Discrete(2),
                                 model_config={"fcnet_hiddens": [8]})
    net.save_to_path(folder / "learner_group" / "learner" / "rl_module" / "shared")
    (folder / "rllib_checkpoint.json").write_text("{}")
    return folder


@pytest.mark.parametrize(("make", "message"), [
    (lambda tmp: tmp / "missing", "does not exist; expected an RLlib run folder"),
    (lambda tmp: (tmp / "f.zip").write_text("x") and tmp / "f.zip", "is a file; expected"),
    (lambda tmp: tmp, "is not an RLlib checkpoint; expected"),
    (lambda tmp: (tmp / "checkpoints").mkdir() or tmp, "has no usable checkpoints/latest.json"),
    (lambda tmp: (tmp / "rllib_checkpoint.json").write_text("{}") and tmp,
     "holds no module 'shared'"),
    (lambda tmp: fake_checkpoint(tmp, 10), r"expects observations Box\(10,\)"),
])
def test_bad_paths_are_one_line_errors(tmp_path: Path, make: Any, message: str) -> None:
    path = make(tmp_path)
    with pytest.raises(ValueError, match=message) as caught:
        make_policy(f"rllib:path={path}")
    assert "\n" not in str(caught.value)


def test_a_stable_baselines3_run_or_model_is_named_as_one(tmp_path: Path) -> None:
    from stable_baselines3 import PPO

    run = tmp_path / "default"  # what pagadores train writes for an SB3 config
    (run / "checkpoints").mkdir(parents=True)
    (run / "config.yaml").write_text("algo: {name: PPO}\n")
    model = run / "checkpoints" / "model_16_steps.zip"
    PPO("MlpPolicy", gym.make("Pagadores-v1"), n_steps=16, batch_size=16, device="cpu").save(model)
    (run / "checkpoints" / "latest.json").write_text(
        json.dumps({"model": model.name, "wall_time_s": 1.0}))
    with pytest.raises(ValueError, match=f"'{run}' is a stable-baselines3 run folder, not an "
                                         f"RLlib run: play its model as model:path={model}$"):
        make_policy(f"rllib:path={run}")
    (run / "model.zip").write_bytes(model.read_bytes())
    with pytest.raises(ValueError, match=f"play its model as model:path={run}/model.zip$"):
        make_policy(f"rllib:path={run}")
    with pytest.raises(ValueError, match=f"'{model}' is a stable-baselines3 model, not an "
                                         f"RLlib checkpoint: play it as model:path={model}$"):
        make_policy(f"rllib:path={model}")


def test_a_right_checkpoint_loads_without_a_run(tmp_path: Path) -> None:
    player = make_policy(f"rllib:path={fake_checkpoint(tmp_path, 49)}")
    assert player.act_batch(rows(3), np.array([[0, 1], [1, 0], [0, 1]])).tolist() == [1, 0, 1]


# --------------------------------------------------------------------------- the run folder
def test_a_damaged_latest_record_resumes_from_the_newest_checkpoint(tmp_path: Path) -> None:
    config = tiny(tmp_path, "r")
    folder = config.run_dir / "checkpoints"
    for step in (200, 400):
        (folder / f"step_{step}").mkdir(parents=True)
        (folder / f"step_{step}" / "rllib_checkpoint.json").write_text("{}")
    (folder / ".step_600.tmp").mkdir()  # a save that was killed
    (folder / "latest.json").write_text("{")
    (config.run_dir / "config.yaml").write_text(yaml.safe_dump(config.to_dict()))
    saved = saved_run(config, fresh=False)
    assert saved is not None and saved[1].timesteps == 400
    assert saved[1].folder == folder / "step_400"


def test_fresh_removes_only_what_a_run_wrote(tmp_path: Path) -> None:
    config = tiny(tmp_path, "r")
    (config.run_dir / "checkpoints" / "step_200").mkdir(parents=True)
    (config.run_dir / "checkpoints" / ".step_400.tmp").mkdir()
    (config.run_dir / "checkpoints" / "notes.txt").write_text("mine")
    (config.run_dir / "final_eval.csv").write_text("x")
    (config.run_dir / "keep.txt").write_text("mine")
    with pytest.raises(RunError, match="no config.yaml of an RLlib run, so it is not a run "
                                       "folder of ours and is left alone"):
        saved_run(config, fresh=True)
    (config.run_dir / "config.yaml").write_text(yaml.safe_dump(config.to_dict()))
    assert saved_run(config, fresh=True) is None
    LAYOUT.remove(config.run_dir)
    assert sorted(str(p.relative_to(config.run_dir)) for p in config.run_dir.rglob("*")) == [
        "checkpoints", "checkpoints/notes.txt", "keep.txt"]


# --------------------------------------------------------------------------- the config
@pytest.mark.parametrize(("change", "message"), [
    ({"rllib": {"lr": 0}}, r"rllib.lr must be a number > 0, got 0"),
    ({"rllib": {"lambda": 0.9}}, "unknown key 'rllib.lambda'"),
    ({"rllib": {"fcnet_hiddens": []}}, "rllib.fcnet_hiddens must be a non-empty list"),
    ({"rllib": {"train_batch_size": 100, "minibatch_size": 200}},
     "rllib.minibatch_size must be at most rllib.train_batch_size"),
    ({"env": {"num_players": 3, "cards": [2, 2]}}, "env.cards must list one count per seat"),
    ({"eval": {"opponents": ["nobody"]}}, "eval.opponents\\[0\\]: unknown policy 'nobody'"),
])
def test_bad_config_values_are_named(change: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError, match=message) as caught:
        rllib_config_from_dict(change)
    assert "\n" not in str(caught.value)


# --------------------------------------------------------------------------- the wrapper
@pytest.mark.parametrize(("players", "cards"), [(3, 1), (3, [1, 1, 1]), (4, [2, 1, 1, 1]),
                                                (2, 1)])
def test_stay_never_hands_rllib_a_partial_or_dead_observation(players: int, cards: Any) -> None:
    from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv

    env = PettingZooEnv(pagadores_v1.env(num_players=players, cards=cards))
    rng = np.random.default_rng(0)
    for episode in range(400):  # with 1 card, some games are over before anyone decides
        obs, _ = env.reset(seed=episode)
        while True:
            [(agent, o)] = obs.items()
            assert set(o) == {"observation", "action_mask"} and o["observation"].shape == (49,)
            assert o["action_mask"].tolist() == [1, 1]  # the agent to act has a decision
            obs, _, terminated, _, _ = env.step({agent: int(rng.integers(2))})
            assert all(set(o) == {"observation", "action_mask"} for o in obs.values())
            if terminated["__all__"]:
                break
            obs = {a: o for a, o in obs.items() if not terminated[a]}


@pytest.mark.parametrize("eliminated", ["stay", "leave"])
def test_rllib_is_never_handed_an_agent_already_out_after_reset(eliminated: str) -> None:
    """With ``eliminated="leave"`` a knock-out on the first throws used to terminate an agent
    in ``reset()``; RLlib's wrapper then handed that agent to RLlib to act (mask [0, 0]) and
    the env refused the action RLlib sent back. Now ``reset()`` terminates nobody: the agent
    handed over has a decision, and whole games play (issue 45)."""
    from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv

    env = PettingZooEnv(pagadores_v1.env(num_players=3, cards=1, eliminated=eliminated))
    rng = np.random.default_rng(0)
    early = 0
    for seed in range(200):
        obs, _ = env.reset(seed=seed)
        early += env.env.unwrapped.game.cards.count(0) > 0
        while True:
            [(agent, o)] = obs.items()
            assert o["action_mask"].tolist() == [1, 1]
            obs, _, terminated, _, _ = env.step({agent: int(rng.integers(2))})
            if terminated["__all__"]:
                break
            obs = {a: o for a, o in obs.items() if not terminated[a]}
    assert early > 0  # resets with a seat already out were met (seeds are deterministic)


# --------------------------------------------------------------------------- RLlib's env check
@pytest.mark.parametrize("game", ["pagadores_v1", "perudo_v1"])
def test_rllibs_env_pre_check_passes_on_both_games_with_replace(game: str) -> None:
    """RLlib's env runner checks a ``MultiAgentEnv`` by stepping one unmasked sample of the
    action space (``check_multiagent_environments``): with ``illegal_action="replace"``, as
    the recipe in ``docs/ray.md`` passes it, both games pass, seed after seed."""
    import importlib

    from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv
    from ray.rllib.utils.pre_checks.env import check_multiagent_environments

    module = importlib.import_module(f"pagadores_env.{game}")
    for seed in range(20):
        env = PettingZooEnv(module.env(num_players=3, illegal_action="replace"))
        env.action_space.seed(seed)
        check_multiagent_environments(env)


def test_rllibs_env_pre_check_hides_the_illegal_move_that_raise_makes() -> None:
    """Why the recipe passes ``"replace"``: with the default ``"raise"`` a Perudo bid sampled
    from the whole action space is mostly illegal, and RLlib reports the env as not abiding
    by "the new gymnasium-style API", the ``IllegalMoveError`` only as its cause."""
    from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv
    from ray.rllib.utils.pre_checks.env import check_multiagent_environments

    from pagadores_env import IllegalMoveError, perudo_v1

    failed = 0
    for seed in range(20):
        env = PettingZooEnv(perudo_v1.env(num_players=3))
        env.action_space.seed(seed)
        try:
            check_multiagent_environments(env)
        except ValueError as err:
            assert "does not abide to the new gymnasium-style API" in str(err)
            assert isinstance(err.__cause__, IllegalMoveError)
            failed += 1
    assert failed > 10

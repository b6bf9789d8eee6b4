"""Training configs: every shipped config validates, and bad ones are rejected with the key."""

from __future__ import annotations

from pathlib import Path

import pytest

from train.config import (
    ALGORITHMS,
    Config,
    ConfigError,
    config_from_dict,
    describe,
    load_config,
    save_config,
)

CONFIGS = sorted((Path(__file__).parent.parent / "configs").glob("*.yaml"))
REQUIRED = {"default", "ppo_2p", "a2c_2p", "dqn_2p", "maskable_ppo_4p"}


def test_the_required_configs_ship() -> None:
    assert {p.stem for p in CONFIGS} >= REQUIRED


@pytest.mark.parametrize("path", CONFIGS, ids=lambda p: p.stem)
def test_every_shipped_config_loads_and_validates(path: Path) -> None:
    config = load_config(path)
    assert config.name == path.stem
    assert config.algo.name in ALGORITHMS
    assert config.env.illegal_action == ("raise" if config.algo.masking else "replace")
    assert len(config.env.opponents) in (1, config.env.num_players - 1)


def test_default_config_is_the_main_job() -> None:
    config = load_config(Path(__file__).parent.parent / "configs" / "default.yaml")
    assert (config.algo.name, config.env.num_players, config.env.opponents) == (
        "MaskablePPO", 2, ["sensible"])


def test_empty_config_is_all_defaults() -> None:
    assert config_from_dict({}, name="x") == config_from_dict(None, name="x")
    assert config_from_dict({}).algo.name == "MaskablePPO"


def test_saved_config_loads_back_equal(tmp_path: Path) -> None:
    config = config_from_dict({"algo": {"name": "DQN", "hyperparams": {"buffer_size": 1000}},
                               "env": {"num_players": 3, "opponents": ["random", "sensible"]}},
                              name="round-trip")
    save_config(config, tmp_path / "c.yaml")
    again = load_config(tmp_path / "c.yaml")
    assert again == config
    assert isinstance(again, Config)


@pytest.mark.parametrize(("data", "message"), [
    ({"env": {"num_players": 7}}, "env.num_players must be 2–6, got 7"),
    ({"env": {"num_players": True}}, "env.num_players must be 2–6, got True"),
    ({"env": {"cards": 0}}, "env.cards must be 1–10, got 0"),
    ({"env": {"reward": "score"}}, "env.reward must be one of 'win', 'placement'"),
    ({"env": {"illegal_action": "ignore"}}, "env.illegal_action must be one of"),
    ({"env": {"learner_seat": 2}}, "env.learner_seat must be 'random' or a seat 0–1, got 2"),
    ({"env": {"learner_seat": "last"}}, "env.learner_seat must be 'random' or a seat number"),
    ({"env": {"opponents": []}}, "env.opponents must be a non-empty list"),
    ({"env": {"opponents": ["sensible", "nobody"]}}, "env.opponents[1]: unknown policy 'nobody'"),
    ({"env": {"num_players": 4, "opponents": ["random", "random"]}},
     "env.opponents must list 1 spec (reused) or 3"),
    ({"eval": {"opponents": ["threshold:bogus=1"]}},
     "eval.opponents[0]: policy 'threshold' has no parameter 'bogus'"),
    ({"eval": {"games": 0}}, "eval.games must be an integer ≥ 1, got 0"),
    ({"vec_env": {"kind": "threads"}}, "vec_env.kind must be one of 'dummy', 'subproc'"),
    ({"total_timesteps": "lots"}, "total_timesteps must be an integer ≥ 1, got 'lots'"),
    ({"progress_bar": "yes"}, "progress_bar must be true or false, got 'yes'"),
    ({"env": "two players"}, "env must be a mapping of keys to values"),
])
def test_bad_values_name_the_key(data: dict, message: str) -> None:
    with pytest.raises(ConfigError) as err:
        config_from_dict(data)
    assert message in str(err.value)


@pytest.mark.parametrize(("data", "message"), [
    ({"algo": {"lr": 0.1}}, "unknown key 'algo.lr' (allowed: name, policy, hyperparams)"),
    ({"learning_rate": 0.1}, "unknown key 'learning_rate' (allowed: name, seed,"),
    ({"env": {"players": 2}}, "unknown key 'env.players' (allowed: num_players,"),
    ({"eval": {"every_steps": 5}}, "unknown key 'eval.every_steps'"),
])
def test_unknown_keys_are_rejected_with_their_path(data: dict, message: str) -> None:
    with pytest.raises(ConfigError) as err:
        config_from_dict(data)
    assert message in str(err.value)


def test_bad_algorithm_lists_the_known_ones() -> None:
    with pytest.raises(ConfigError) as err:
        config_from_dict({"algo": {"name": "SAC"}})
    assert "algo.name must be one of 'MaskablePPO', 'PPO', 'A2C', 'DQN', got 'SAC'" in str(
        err.value)


@pytest.mark.parametrize(("algo", "name"), [
    ("MaskablePPO", "lr"), ("PPO", "buffer_size"), ("A2C", "n_epochs"), ("DQN", "n_epochs"),
])
def test_hyperparameter_names_follow_the_algorithm_signature(algo: str, name: str) -> None:
    with pytest.raises(ConfigError) as err:
        config_from_dict({"algo": {"name": algo, "hyperparams": {name: 1}},
                          "env": {"illegal_action": "replace"}})
    text = str(err.value)
    assert f"unknown key 'algo.hyperparams.{name}' for {algo}" in text
    assert "learning_rate" in text  # the allowed names are listed


def test_trainer_owned_arguments_are_refused() -> None:
    with pytest.raises(ConfigError, match=r"algo.hyperparams.seed' \(set by the trainer\)"):
        config_from_dict({"algo": {"hyperparams": {"seed": 3}}})


@pytest.mark.parametrize(("params", "message"), [
    ({"n_steps": 12.5}, "algo.hyperparams.n_steps must be an integer, got 12.5"),
    ({"learning_rate": "fast"}, "algo.hyperparams.learning_rate must be a number, got 'fast'"),
    ({"normalize_advantage": 1}, "algo.hyperparams.normalize_advantage must be true or false"),
    ({"policy_kwargs": [64, 64]}, "algo.hyperparams.policy_kwargs must be a mapping"),
    ({"policy_kwargs": {"activation_fn": "sigmoid"}},
     "algo.hyperparams.policy_kwargs.activation_fn must be one of 'tanh', 'relu'"),
])
def test_hyperparameter_types_follow_the_defaults(params: dict, message: str) -> None:
    with pytest.raises(ConfigError) as err:
        config_from_dict({"algo": {"hyperparams": params}})
    assert message in str(err.value)


def test_yaml_exponent_floats_are_read_as_numbers() -> None:
    # YAML 1.1 reads 3e-4 (no dot) as a string; the config takes it as the float it means.
    config = config_from_dict({"algo": {"hyperparams": {"learning_rate": "3e-4"}}})
    assert config.algo.hyperparams["learning_rate"] == pytest.approx(3e-4)


def test_linear_schedules_are_accepted_where_sb3_takes_them() -> None:
    config = config_from_dict({"algo": {"hyperparams": {"learning_rate": "lin_1e-3",
                                                        "clip_range": "lin_0.2"}}})
    assert config.algo.hyperparams == {"learning_rate": "lin_1e-3", "clip_range": "lin_0.2"}
    with pytest.raises(ConfigError, match="algo.hyperparams.learning_rate must be a number"):
        config_from_dict({"algo": {"hyperparams": {"learning_rate": "lin_fast"}}})
    with pytest.raises(ConfigError, match="algo.hyperparams.n_steps must be an integer"):
        config_from_dict({"algo": {"hyperparams": {"n_steps": "lin_100"}}})


def test_illegal_action_defaults_follow_masking() -> None:
    assert config_from_dict({}).env.illegal_action == "raise"
    assert config_from_dict({"algo": {"name": "PPO"}}).env.illegal_action == "replace"
    with pytest.raises(ConfigError, match="'raise' needs action masks, which A2C does not use"):
        config_from_dict({"algo": {"name": "A2C"}, "env": {"illegal_action": "raise"}})


def test_load_config_reports_missing_files_and_bad_yaml(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot read config"):
        load_config(tmp_path / "absent.yaml")
    bad = tmp_path / "bad.yaml"
    bad.write_text("env: [unclosed\n")
    with pytest.raises(ConfigError, match="is not valid YAML"):
        load_config(bad)
    bad.write_text("- just\n- a list\n")
    with pytest.raises(ConfigError, match="the config must be a mapping"):
        load_config(bad)


def test_describe_lists_every_key() -> None:
    text = describe()
    for key in ("algo.hyperparams", "env.num_players", "vec_env.n_envs", "eval.every",
                "checkpoint_every", "total_timesteps", "output_dir"):
        assert f"  {key} = " in text

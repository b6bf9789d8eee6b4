"""Training configs: every shipped config validates, and bad ones are rejected with the key."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("stable_baselines3")


from pagadores_train.learners.rllib_config import is_rllib_config, load_rllib_config
from pagadores_train.learners.search.config import is_search_config, load_search_config
from pagadores_train.run.config import (
    ALGORITHMS,
    Config,
    config_from_dict,
    load_config,
    save_config,
    table_sizes,
)
from pagadores_train.settings import ConfigError, describe

SHIPPED = sorted((Path(__file__).resolve().parents[2] / "configs").glob("*.yaml"))
#: RLlib configs (an ``rllib:`` section) and search configs (a ``search:`` section) have their
#: own schemas (pagadores_train.learners.rllib_config, pagadores_train.learners.search.config).
RLLIB_CONFIGS = [p for p in SHIPPED if is_rllib_config(p)]
SEARCH_CONFIGS = [p for p in SHIPPED if is_search_config(p)]
CONFIGS = [p for p in SHIPPED if p not in RLLIB_CONFIGS + SEARCH_CONFIGS]
REQUIRED = {"default", "ppo_2p", "a2c_2p", "dqn_2p", "maskable_ppo_4p", "selfplay_3p",
            "selfplay_4p", "selfplay_6p", "selfplay_mixed", "perudo_2p", "perudo_4p",
            "rllib_selfplay_3p", "search_2p", "search_3p"}


def test_the_required_configs_ship() -> None:
    assert {p.stem for p in SHIPPED} >= REQUIRED


@pytest.mark.parametrize("path", RLLIB_CONFIGS, ids=lambda p: p.stem)
def test_every_shipped_rllib_config_loads_and_validates(path: Path) -> None:
    assert load_rllib_config(path).name == path.stem


@pytest.mark.parametrize("path", SEARCH_CONFIGS, ids=lambda p: p.stem)
def test_every_shipped_search_config_loads_and_validates(path: Path) -> None:
    assert load_search_config(path).name == path.stem


@pytest.mark.parametrize("path", CONFIGS, ids=lambda p: p.stem)
def test_every_shipped_config_loads_and_validates(path: Path) -> None:
    config = load_config(path)
    assert config.name == path.stem
    assert config.algo.name in ALGORITHMS
    assert config.env.illegal_action == ("raise" if config.algo.masking else "replace")
    sizes = table_sizes(config.env)  # several sizes seat one opponent spec at each
    assert len(config.env.opponents) in ((1, sizes[0] - 1) if len(sizes) == 1 else (1,))


def test_default_config_is_the_main_job() -> None:
    config = load_config(Path(__file__).resolve().parents[2] / "configs" / "default.yaml")
    assert (config.algo.name, config.env.num_players, config.env.opponents) == (
        "MaskablePPO", 2, ["sensible"])


def test_empty_mapping_is_all_defaults() -> None:
    config = config_from_dict({}, name="x")
    assert (config.name, config.total_timesteps, config.algo.name) == (
        "x", Config().total_timesteps, "MaskablePPO")


def test_an_empty_yaml_file_is_refused(tmp_path: Path) -> None:
    """An empty file (or only comments) is a mistake, not a request for a 300k-step run."""
    for text in ("", "# nothing yet\n"):
        path = tmp_path / "empty.yaml"
        path.write_text(text)
        with pytest.raises(ConfigError, match=r"empty\.yaml is empty: a config is a mapping"):
            load_config(path)
    with pytest.raises(ConfigError, match="the config must be a mapping of keys to values"):
        config_from_dict(None)
    (tmp_path / "braces.yaml").write_text("{}\n")  # an explicit empty mapping: all defaults
    assert load_config(tmp_path / "braces.yaml").total_timesteps == Config().total_timesteps


@pytest.mark.parametrize("name", [".", "..", "../victim", "a/b", "a\\b", "/tmp", "", " "])
def test_run_names_are_plain_folder_names(name: str) -> None:
    """``--fresh`` clears the run folder, so a name must never lead outside ``output_dir``."""
    with pytest.raises(ConfigError) as err:
        config_from_dict({"name": name})
    assert str(err.value).startswith("name must be a ")
    assert len(str(err.value).splitlines()) == 1


def test_a_config_file_stem_is_checked_as_a_run_name(tmp_path: Path) -> None:
    (tmp_path / "..yaml").write_text("{}\n")  # its stem is "."
    with pytest.raises(ConfigError, match=r"name must be a plain folder name .* got '\.'"):
        load_config(tmp_path / "..yaml")
    assert config_from_dict({"name": "run-2.a_b"}).name == "run-2.a_b"


def test_per_seat_cards_are_accepted_and_checked(tmp_path: Path) -> None:
    config = config_from_dict({"env": {"num_players": 3, "cards": [3, 4, 10],
                                       "opponents": ["random"]}}, name="seats")
    assert config.env.cards == [3, 4, 10]
    save_config(config, tmp_path / "c.yaml")
    assert load_config(tmp_path / "c.yaml") == config
    env = config.env.make()
    env.reset(seed=0)
    assert list(env.unwrapped.game.start_cards) == [3, 4, 10]
    for cards, message in [
        ([3], "env.cards must list one count per seat (2 for 2 players), got 1"),
        ([3, 4, 5], "env.cards must list one count per seat (2 for 2 players), got 3"),
        ([0, 4], "env.cards[0] must be 1–10, got 0"),
        ([3, 11], "env.cards[1] must be 1–10, got 11"),
        ([3, True], "env.cards[1] must be 1–10, got True"),
        ([], "env.cards must be 1–10 or a list of one count 1–10 per seat, got []"),
        ("3,4", "env.cards must be 1–10 or a list of one count 1–10 per seat, got '3,4'"),
    ]:
        with pytest.raises(ConfigError) as err:
            config_from_dict({"env": {"cards": cards}})
        assert message in str(err.value)


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
    ({"env": {"cards": 0}}, "env.cards must be 1–10 or a list of one count 1–10 per seat, "
                            "got 0"),
    ({"env": {"reward": "score"}}, "env.reward must be one of 'win', 'placement'"),
    ({"env": {"illegal_action": "ignore"}}, "env.illegal_action must be one of"),
    ({"env": {"learner_seat": 2}}, "env.learner_seat must be 'random' or a seat 0–1, got 2"),
    ({"env": {"learner_seat": "last"}},
     "env.learner_seat must be 'random' or a seat 0–1, got 'last'"),
    ({"env": {"learner_seat": True}}, "env.learner_seat must be 'random' or a seat 0–1, got True"),
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
    assert ("algo.name must be one of 'MaskablePPO', 'PPO', 'A2C', 'DQN', 'QRDQN', "
            "'RecurrentPPO', got 'SAC'") in str(err.value)


@pytest.mark.parametrize(("algo", "policy"), [
    ("MaskablePPO", "MlpPolicy"), ("PPO", "MlpPolicy"), ("A2C", "MlpPolicy"),
    ("DQN", "MlpPolicy"), ("QRDQN", "MlpPolicy"), ("RecurrentPPO", "MlpLstmPolicy"),
])
def test_each_algorithm_gets_its_network_family(algo: str, policy: str, tmp_path: Path
                                                 ) -> None:
    config = config_from_dict({"algo": {"name": algo}}, name="x")
    assert config.algo.policy == policy
    assert config_from_dict({"algo": {"name": algo, "policy": policy}}).algo == config.algo
    save_config(config, tmp_path / "c.yaml")  # written out by name, read back the same
    assert load_config(tmp_path / "c.yaml").algo == config.algo


def test_recurrent_ppo_is_unmasked_and_takes_ppos_checked_hyperparameters() -> None:
    config = config_from_dict({"algo": {"name": "RecurrentPPO",
                                        "hyperparams": {"n_steps": 32, "gamma": 1.0}}})
    assert not config.algo.masking and config.env.illegal_action == "replace"
    with pytest.raises(ConfigError, match="algo.hyperparams.n_steps must be an integer ≥ 1"):
        config_from_dict({"algo": {"name": "RecurrentPPO", "hyperparams": {"n_steps": 0}}})
    with pytest.raises(ConfigError, match="unknown key 'algo.hyperparams.buffer_size' for "
                                          "RecurrentPPO"):
        config_from_dict({"algo": {"name": "RecurrentPPO", "hyperparams": {"buffer_size": 9}}})


@pytest.mark.parametrize(("algo", "message"), [
    ({"name": "RecurrentPPO", "policy": "MlpPolicy"},
     "algo.policy must be 'MlpLstmPolicy' for RecurrentPPO (or left out), got 'MlpPolicy'"),
    ({"name": "PPO", "policy": "MlpLstmPolicy"},
     "algo.policy must be 'MlpPolicy' for PPO (or left out), got 'MlpLstmPolicy'"),
    ({"policy": "MlpLstmPolicy"},  # the default algorithm, MaskablePPO
     "algo.policy must be 'MlpPolicy' for MaskablePPO (or left out), got 'MlpLstmPolicy'"),
    ({"name": "A2C", "policy": "CnnPolicy"},
     "algo.policy must be one of 'MlpPolicy', 'MlpLstmPolicy', got 'CnnPolicy'"),
])
def test_a_policy_the_algorithm_does_not_train_is_refused_in_one_line(algo: dict,
                                                                      message: str) -> None:
    with pytest.raises(ConfigError) as err:
        config_from_dict({"algo": algo})
    assert str(err.value) == message


@pytest.mark.parametrize(("algo", "kwargs", "message"), [
    ("RecurrentPPO", {"lstm_hidden_size": 0},
     "algo.hyperparams.policy_kwargs.lstm_hidden_size must be an integer ≥ 1, got 0"),
    ("RecurrentPPO", {"n_lstm_layers": 1.5},
     "algo.hyperparams.policy_kwargs.n_lstm_layers must be an integer ≥ 1, got 1.5"),
    ("RecurrentPPO", {"enable_critic_lstm": "no"},
     "algo.hyperparams.policy_kwargs.enable_critic_lstm must be true or false, got 'no'"),
    ("RecurrentPPO", {"shared_lstm": True},  # SB3's default enable_critic_lstm is true
     "algo.hyperparams.policy_kwargs.shared_lstm needs enable_critic_lstm: false (the critic "
     "shares the actor's LSTM or has its own, not both)"),
    ("PPO", {"net_arch": [8], "lstm_hidden_size": 8},
     "algo.hyperparams.policy_kwargs.lstm_hidden_size is for RecurrentPPO's LSTM, not PPO's "
     "MlpPolicy"),
])
def test_lstm_settings_are_checked_up_front(algo: str, kwargs: dict, message: str) -> None:
    with pytest.raises(ConfigError) as err:
        config_from_dict({"algo": {"name": algo, "hyperparams": {"policy_kwargs": kwargs}}})
    assert str(err.value) == message


def test_good_lstm_settings_are_accepted() -> None:
    kwargs = {"lstm_hidden_size": 32, "n_lstm_layers": 2, "shared_lstm": True,
              "enable_critic_lstm": False, "net_arch": [16]}
    config = config_from_dict({"algo": {"name": "RecurrentPPO",
                                        "hyperparams": {"policy_kwargs": dict(kwargs)}}})
    assert config.algo.hyperparams["policy_kwargs"] == kwargs


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


def test_a_features_extractor_of_another_games_observation_is_refused() -> None:
    with pytest.raises(ConfigError) as err:
        config_from_dict({"algo": {"name": "MaskablePPO", "hyperparams": {
            "policy_kwargs": {"features_extractor": "paye_grid"}}}})  # env.game: pagadores
    assert str(err.value) == ("algo.hyperparams.policy_kwargs.features_extractor 'paye_grid' "
                              "reads Paye's dobbelspel's observation (env.game 'paye'), got "
                              "env.game 'pagadores'")
    config_from_dict({"algo": {"name": "MaskablePPO", "hyperparams": {
        "policy_kwargs": {"features_extractor": "paye_grid"}}}, "env": {"game": "paye"}})
    with pytest.raises(ConfigError) as err:
        config_from_dict({"algo": {"name": "MaskablePPO", "hyperparams": {
            "policy_kwargs": {"features_extractor": "pasch_grid"}}}, "env": {"game": "paye"}})
    assert str(err.value).startswith("algo.hyperparams.policy_kwargs.features_extractor "
                                     "'pasch_grid' reads Pasch's observation (env.game 'pasch')")
    config_from_dict({"algo": {"name": "MaskablePPO", "hyperparams": {
        "policy_kwargs": {"features_extractor": "pasch_grid"}}}, "env": {"game": "pasch"}})


@pytest.mark.parametrize(("params", "message"), [
    ({"n_steps": 12.5}, "algo.hyperparams.n_steps must be an integer ≥ 1, got 12.5"),
    ({"learning_rate": "fast"},
     "algo.hyperparams.learning_rate must be a number > 0, got 'fast'"),
    ({"target_kl": "none"}, "algo.hyperparams.target_kl must be a number > 0, got 'none'"),
    ({"stats_window_size": 2.5}, "algo.hyperparams.stats_window_size must be an integer ≥ 1"),
    ({"normalize_advantage": 1}, "algo.hyperparams.normalize_advantage must be true or false"),
    ({"policy_kwargs": [64, 64]}, "algo.hyperparams.policy_kwargs must be a mapping"),
    ({"policy_kwargs": {"activation_fn": "sigmoid"}},
     "algo.hyperparams.policy_kwargs.activation_fn must be one of 'tanh', 'relu'"),
    ({"policy_kwargs": {"features_extractor": "grid"}},
     "algo.hyperparams.policy_kwargs.features_extractor must be one of 'paye_grid'"),
])
def test_hyperparameter_types_follow_the_defaults(params: dict, message: str) -> None:
    with pytest.raises(ConfigError) as err:
        config_from_dict({"algo": {"hyperparams": params}})
    assert message in str(err.value)


ON_POLICY = {"name": "PPO"}
DQN = {"name": "DQN"}


@pytest.mark.parametrize(("algo", "params", "message"), [
    (ON_POLICY, {"n_steps": -5}, "algo.hyperparams.n_steps must be an integer ≥ 1, got -5"),
    (ON_POLICY, {"n_steps": 0}, "n_steps must be an integer ≥ 1, got 0"),
    (ON_POLICY, {"batch_size": 0}, "batch_size must be an integer ≥ 1, got 0"),
    (ON_POLICY, {"n_epochs": 0}, "n_epochs must be an integer ≥ 1, got 0"),
    (ON_POLICY, {"learning_rate": 0}, "learning_rate must be a number > 0, got 0"),
    (ON_POLICY, {"learning_rate": "lin_-1e-3"}, "learning_rate must be a number > 0, got '-1e-3'"),
    (ON_POLICY, {"learning_rate": ".nan"}, "learning_rate must be a number > 0, got '.nan'"),
    (ON_POLICY, {"gamma": 1.5}, "gamma must be a number in [0, 1], got 1.5"),
    (ON_POLICY, {"gae_lambda": -0.1}, "gae_lambda must be a number in [0, 1], got -0.1"),
    (ON_POLICY, {"clip_range": 0.0}, "clip_range must be a number > 0, got 0.0"),
    (ON_POLICY, {"clip_range": "lin_0"}, "clip_range must be a number > 0, got '0'"),
    (ON_POLICY, {"clip_range_vf": -1}, "clip_range_vf must be a number > 0, got -1"),
    (ON_POLICY, {"ent_coef": -0.01}, "ent_coef must be a number ≥ 0, got -0.01"),
    (ON_POLICY, {"vf_coef": -1}, "vf_coef must be a number ≥ 0, got -1"),
    (ON_POLICY, {"max_grad_norm": 0}, "max_grad_norm must be a number > 0, got 0"),
    (ON_POLICY, {"target_kl": 0}, "target_kl must be a number > 0, got 0"),
    ({"name": "A2C"}, {"rms_prop_eps": 0}, "rms_prop_eps must be a number > 0, got 0"),
    (DQN, {"buffer_size": 0}, "buffer_size must be an integer ≥ 1, got 0"),
    (DQN, {"learning_starts": -1}, "learning_starts must be an integer ≥ 0, got -1"),
    (DQN, {"train_freq": 0}, "train_freq must be an integer ≥ 1, got 0"),
    (DQN, {"gradient_steps": -2}, "gradient_steps must be an integer ≥ -1, got -2"),
    (DQN, {"target_update_interval": 0}, "target_update_interval must be an integer ≥ 1"),
    (DQN, {"tau": 1.5}, "tau must be a number in [0, 1], got 1.5"),
    (DQN, {"exploration_fraction": 2}, "exploration_fraction must be a number in [0, 1], got 2"),
    (DQN, {"exploration_initial_eps": -0.5}, "exploration_initial_eps must be a number in [0, 1]"),
    (DQN, {"exploration_final_eps": 1.01}, "exploration_final_eps must be a number in [0, 1]"),
])
def test_hyperparameters_out_of_range_are_refused_up_front(algo: dict, params: dict,
                                                          message: str) -> None:
    """Values SB3 would take and fail on later (``n_steps: -5`` died inside SB3 after the
    run folder was written) are refused when the config is read."""
    with pytest.raises(ConfigError) as err:
        config_from_dict({"algo": algo | {"hyperparams": params},
                          "env": {"illegal_action": "replace"}})
    assert message in str(err.value)


@pytest.mark.parametrize(("data", "message"), [
    ({"algo": {"name": "MaskablePPO", "hyperparams": {"n_steps": 1}}, "vec_env": {"n_envs": 1}},
     "algo.hyperparams.n_steps × vec_env.n_envs must be ≥ 2 with normalize_advantage (one "
     "advantage cannot be normalised), got 1 × 1"),
    ({"algo": {"name": "PPO", "hyperparams": {"batch_size": 1}}},
     "algo.hyperparams.batch_size must be ≥ 2 with normalize_advantage"),
    ({"algo": {"name": "A2C", "hyperparams": {"n_steps": 1, "normalize_advantage": True}},
      "vec_env": {"n_envs": 1}}, "n_steps × vec_env.n_envs must be ≥ 2"),
])
def test_a_single_advantage_to_normalise_is_refused(data: dict, message: str) -> None:
    """MaskablePPO took these and trained until its logits were NaN."""
    with pytest.raises(ConfigError) as err:
        config_from_dict(data | {"env": {"illegal_action": "replace"}})
    assert message in str(err.value)
    data["algo"]["hyperparams"]["normalize_advantage"] = False  # then they are fine
    config_from_dict(data | {"env": {"illegal_action": "replace"}})


def test_hyperparameter_range_edges_are_allowed() -> None:
    ppo = config_from_dict({"algo": {"name": "PPO", "hyperparams": {
        "gamma": 1, "gae_lambda": 0, "ent_coef": 0, "n_steps": 1, "clip_range_vf": None,
        "target_kl": 0.01}}, "vec_env": {"n_envs": 2}})
    assert ppo.algo.hyperparams == {"gamma": 1.0, "gae_lambda": 0.0, "ent_coef": 0.0,
                                    "n_steps": 1, "clip_range_vf": None, "target_kl": 0.01}
    dqn = config_from_dict({"algo": {"name": "DQN", "hyperparams": {
        "gradient_steps": -1, "learning_starts": 0, "max_grad_norm": 0.5,
        "exploration_final_eps": 0}}})
    # DQN's max_grad_norm defaults to the int 10 but is a float: 0.5 is allowed
    assert dqn.algo.hyperparams["max_grad_norm"] == 0.5


def test_yaml_exponent_floats_are_read_as_numbers() -> None:
    # YAML 1.1 reads 3e-4 (no dot) as a string; the config takes it as the float it means.
    config = config_from_dict({"algo": {"hyperparams": {"learning_rate": "3e-4"}}})
    assert config.algo.hyperparams["learning_rate"] == pytest.approx(3e-4)


def test_integers_may_be_written_in_scientific_notation_when_whole(tmp_path: Path) -> None:
    # YAML 1.1 reads 1e6 and 1.5e3 as strings and 5.0e+4 as a float: each is the int it means
    path = tmp_path / "sci.yaml"
    path.write_text("total_timesteps: 1e6\ncheckpoint_every: 1.5e3\neval: {every: 5.0e+4}\n"
                    "algo: {hyperparams: {n_steps: 2.048e3}}\n")
    config = load_config(path)
    read = (config.total_timesteps, config.checkpoint_every, config.eval.every,
            config.algo.hyperparams["n_steps"])
    assert read == (1_000_000, 1500, 50_000, 2048)
    assert all(type(value) is int for value in read)
    rllib = tmp_path / "rllib.yaml"
    rllib.write_text("total_timesteps: 2e5\nrllib: {train_batch_size: 4e3}\n")
    config = load_rllib_config(rllib)  # the RLlib schema checks with the same validator
    assert (config.total_timesteps, config.rllib.train_batch_size) == (200_000, 4000)


@pytest.mark.parametrize("value", ["1.5e-3", 2.5, "1e", "1e6 steps", "nan", "1e400", True])
def test_a_count_that_is_no_whole_number_is_refused_naming_the_key(value: object) -> None:
    with pytest.raises(ConfigError) as refused:
        config_from_dict({"total_timesteps": value})
    assert str(refused.value) == f"total_timesteps must be an integer ≥ 1, got {value!r}"


def test_count_flags_take_what_the_config_takes() -> None:
    import argparse

    from pagadores_train.settings import count_argument

    parser = argparse.ArgumentParser(prog="pagadores train", exit_on_error=False)
    parser.add_argument("--timesteps", type=count_argument)
    assert parser.parse_args(["--timesteps", "1e6"]).timesteps == 1_000_000
    assert parser.parse_args(["--timesteps", "1.5e3"]).timesteps == 1500
    assert parser.parse_args(["--timesteps", "20000"]).timesteps == 20_000
    with pytest.raises(argparse.ArgumentError,
                       match="^argument --timesteps: must be a whole number such as 300000 or "
                             "3e5, got '1.5e-3'$"):
        parser.parse_args(["--timesteps", "1.5e-3"])


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


def test_a_truncated_or_binary_config_is_refused_in_one_line_naming_where(tmp_path: Path) -> None:
    """YAML's own message spans lines with a caret; ours names the line and column."""
    cut = tmp_path / "cut.yaml"
    cut.write_text("seed: 0\ntotal_timesteps: 1000\nvec")  # cut off mid-key
    with pytest.raises(ConfigError) as err:
        load_config(cut)
    assert str(err.value) == (f"{cut} is not valid YAML: line 3, column 4: "
                              "could not find expected ':'")
    binary = tmp_path / "binary.yaml"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(ConfigError, match=r"cannot read .*binary.yaml: not UTF-8 text") as err:
        load_config(binary)
    assert "\n" not in str(err.value)
    from pagadores_train.learners.rllib_config import load_rllib_config
    with pytest.raises(ConfigError) as err:
        load_rllib_config(cut)
    assert str(err.value).endswith("line 3, column 4: could not find expected ':'")


def test_describe_lists_every_key() -> None:
    text = describe(Config)
    for key in ("algo.hyperparams", "env.num_players", "vec_env.n_envs", "eval.every",
                "checkpoint_every", "total_timesteps", "output_dir"):
        assert f"  {key} = " in text



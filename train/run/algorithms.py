"""The stable-baselines3 algorithms an SB3 run's config may name (``algo.name``), the one
network family each trains here, and the checks of their constructor arguments
(``algo.hyperparams``), so a bad value is refused before a run starts, not deep inside SB3
(``config`` explains the keys).
"""

from __future__ import annotations

import importlib
import inspect
from typing import Any, NamedTuple

from ..settings import Check, ConfigError, boolean, choice, integer, like_default, mapping, number


class Algorithm(NamedTuple):
    """Where an algorithm's class lives, whether it takes action masks, and the one network
    family (``algo.policy``) it trains here."""

    module: str
    cls: str
    masking: bool
    policy: str = "MlpPolicy"


#: Algorithm name → ``Algorithm``. Only MaskablePPO takes action masks; the others meet an
#: illegal action through ``env.illegal_action`` (in Pagadores both actions are always legal,
#: R3.6). RecurrentPPO's policy is an LSTM (``MlpLstmPolicy``).
ALGORITHMS: dict[str, Algorithm] = {
    "MaskablePPO": Algorithm("sb3_contrib", "MaskablePPO", True),
    "PPO": Algorithm("stable_baselines3", "PPO", False),
    "A2C": Algorithm("stable_baselines3", "A2C", False),
    "DQN": Algorithm("stable_baselines3", "DQN", False),
    "QRDQN": Algorithm("sb3_contrib", "QRDQN", False),
    "RecurrentPPO": Algorithm("sb3_contrib", "RecurrentPPO", False, "MlpLstmPolicy"),
}
#: Every network family some algorithm trains (``Algorithm.policy``).
POLICIES = tuple(dict.fromkeys(a.policy for a in ALGORITHMS.values()))
#: ``policy_kwargs.activation_fn`` names → ``torch.nn`` classes (resolved by the trainer).
ACTIVATIONS = {"tanh": "Tanh", "relu": "ReLU", "elu": "ELU", "leaky_relu": "LeakyReLU"}
#: ``policy_kwargs.features_extractor`` names → (the game whose observation it reads, module,
#: class) of an SB3 features extractor (imported by the trainer; ``pagadores_agents.features``).
FEATURE_EXTRACTORS = {
    "paye_grid": ("paye", "pagadores_agents.features", "PayeGrid"),
    "pasch_grid": ("pasch", "pagadores_agents.features", "PaschGrid"),
}
#: Hyper-parameters that may be ``"lin_<start>"``: decay linearly from start to 0 over the run
#: (the rl-baselines3-zoo convention; the trainer builds the schedule).
SCHEDULES = frozenset({"learning_rate", "clip_range"})
LINEAR = "lin_"
#: Constructor arguments the trainer sets itself, so a config may not.
TRAINER_OWNED = frozenset({
    "self", "policy", "env", "seed", "tensorboard_log", "verbose", "device",
    "_init_setup_model", "rollout_buffer_class", "replay_buffer_class",
})


def algorithm_class(name: str) -> type:
    """The SB3 class for an algorithm name (imported lazily: torch is slow to import)."""
    algorithm = ALGORITHMS[name]
    return getattr(importlib.import_module(algorithm.module), algorithm.cls)


def without_log_files(model: Any) -> Any:
    """``model`` with a logger that writes nothing anywhere. Without a tensorboard folder,
    SB3's ``learn`` gives a model a logger with no outputs that still makes an empty folder
    ``SB3-<date>`` in the system's temporary directory each time
    (``stable_baselines3.common.utils.configure_logger``); a logger set here is kept."""
    from stable_baselines3.common.logger import Logger

    model.set_logger(Logger(folder=None, output_formats=[]))
    return model


#: Allowed values of the common hyper-parameters, wherever an algorithm takes them (SB3's
#: constructors check few of them, and fail late and obscurely on the rest).
_POSITIVE_INT, _PROBABILITY = integer(1), number(0, 1)
HYPERPARAMS: dict[str, Check] = {
    "n_steps": _POSITIVE_INT, "batch_size": _POSITIVE_INT, "n_epochs": _POSITIVE_INT,
    "buffer_size": _POSITIVE_INT, "train_freq": _POSITIVE_INT,
    "target_update_interval": _POSITIVE_INT, "stats_window_size": _POSITIVE_INT,
    "learning_starts": integer(0),
    "gradient_steps": integer(-1),  # -1: as many gradient steps as env steps (SB3)
    "learning_rate": number(0, above=True), "clip_range": number(0, above=True),
    "clip_range_vf": number(0, above=True), "max_grad_norm": number(0, above=True),
    "target_kl": number(0, above=True), "rms_prop_eps": number(0, above=True),
    "gamma": _PROBABILITY, "gae_lambda": _PROBABILITY, "tau": _PROBABILITY,
    "exploration_fraction": _PROBABILITY, "exploration_initial_eps": _PROBABILITY,
    "exploration_final_eps": _PROBABILITY,
    "ent_coef": number(0), "vf_coef": number(0),
}


def check_hyperparams(algo: Any) -> None:
    """``algo.hyperparams`` of an ``algo`` section (``config.AlgoConfig``): names against the
    constructor's signature; values against ``HYPERPARAMS``, or else by the type of their
    default."""
    params = inspect.signature(algorithm_class(algo.name).__init__).parameters
    allowed = [p for p in params if p not in TRAINER_OWNED]
    for name, value in algo.hyperparams.items():
        key = f"algo.hyperparams.{name}"
        if name not in allowed:
            owned = " (set by the trainer)" if name in TRAINER_OWNED else ""
            raise ConfigError(
                f"unknown key '{key}'{owned} for {algo.name} (allowed: {', '.join(allowed)})")
        default = params[name].default
        check = HYPERPARAMS.get(name) or like_default(default)
        if name in SCHEDULES and isinstance(value, str) and value.startswith(LINEAR):
            check(value[len(LINEAR):], key)  # the start value must be allowed
        elif not (value is None and default is None):  # None where SB3's default is None
            algo.hyperparams[name] = check(value, key)
    kwargs = algo.hyperparams.get("policy_kwargs")
    if kwargs is not None:
        mapping(kwargs, "algo.hyperparams.policy_kwargs")
        if "activation_fn" in kwargs:
            choice(*ACTIVATIONS)(kwargs["activation_fn"],
                                 "algo.hyperparams.policy_kwargs.activation_fn")
        if "features_extractor" in kwargs:
            choice(*FEATURE_EXTRACTORS)(kwargs["features_extractor"],
                                        "algo.hyperparams.policy_kwargs.features_extractor")
        _check_lstm_kwargs(algo, kwargs)


#: Allowed values of the LSTM's own ``policy_kwargs`` (``MlpLstmPolicy``, RecurrentPPO's).
LSTM_KWARGS: dict[str, Check] = {
    "lstm_hidden_size": _POSITIVE_INT, "n_lstm_layers": _POSITIVE_INT,
    "shared_lstm": boolean, "enable_critic_lstm": boolean,
}


def _check_lstm_kwargs(algo: Any, kwargs: dict[str, Any]) -> None:
    """The LSTM's ``policy_kwargs``: only with an LSTM policy, each in range, and the critic
    either sharing the actor's LSTM or having its own, not both (SB3 asserts that only when
    it builds the model, after a benchmark suite has started)."""
    given = [name for name in LSTM_KWARGS if name in kwargs]
    if given and algo.name != "RecurrentPPO":
        raise ConfigError(f"algo.hyperparams.policy_kwargs.{given[0]} is for RecurrentPPO's "
                          f"LSTM, not {algo.name}'s {algo.policy}")
    for name in given:
        kwargs[name] = LSTM_KWARGS[name](kwargs[name], f"algo.hyperparams.policy_kwargs.{name}")
    if given:
        policy = algorithm_class(algo.name).policy_aliases[algo.policy]
        chosen = {name: p.default for name, p in
                  inspect.signature(policy.__init__).parameters.items()} | kwargs
        if chosen["shared_lstm"] and chosen["enable_critic_lstm"]:
            raise ConfigError("algo.hyperparams.policy_kwargs.shared_lstm needs "
                              "enable_critic_lstm: false (the critic shares the actor's LSTM "
                              "or has its own, not both)")

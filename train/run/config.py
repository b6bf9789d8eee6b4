"""A training run's configuration: dataclasses loaded from YAML and validated.

Every field is declared once, with its default and a check, in the dataclasses below (CleanRL
style: reading them tells you every knob). ``load_config(path)`` reads a YAML file,
``config_from_dict(data)`` validates plain data. Anything wrong raises ``ConfigError`` naming
the offending key path and what is allowed, e.g. ``env.num_players must be 2–6, got 7`` or
``unknown key 'algo.lr' (allowed: name, policy, hyperparams)``.

Hyper-parameters under ``algo.hyperparams`` are handed to the stable-baselines3 constructor;
their names are checked against that constructor's signature, the common ones against their
allowed ranges (``HYPERPARAMS``, e.g. ``n_steps`` ≥ 1, ``gamma`` in [0, 1]) and the others'
types against their defaults, so a bad value is refused before a run starts, not deep inside
SB3. The arguments the trainer itself sets (env, seed, logging, device) are not allowed.
``learning_rate`` and ``clip_range`` may be ``"lin_<start>"``: a linear decay to 0.
``policy_kwargs.activation_fn`` names an activation (``ACTIVATIONS``) and
``policy_kwargs.features_extractor`` a features extractor (``FEATURE_EXTRACTORS``:
``paye_grid``, each Paye score one-hot beside the observation; ``pasch_grid``, Pasch's dice,
discs, lead, blocks and cards left written for a linear layer; ``pagadores_agents.features``).

``algo.name`` is one of ``ALGORITHMS``: every SB3 and sb3-contrib algorithm with a discrete
action space. Only MaskablePPO takes action masks; the others meet a masked action through
``env.illegal_action`` (``replace`` by default), though in Pagadores both actions are always
legal (R3.6). ``algo.policy`` is the algorithm's network family and may be left out:
``MlpLstmPolicy`` (an LSTM) for RecurrentPPO, ``MlpPolicy`` for the others; any other pairing
is refused. RecurrentPPO's LSTM settings (``policy_kwargs``: ``lstm_hidden_size``,
``n_lstm_layers``, ``shared_lstm``, ``enable_critic_lstm``) are checked like the common
hyper-parameters (``LSTM_KWARGS``). A trained RecurrentPPO model is evaluated without memory
(``pagadores_agents.sb3_adapter``: every decision from a fresh LSTM state).

``env.game`` picks the game, any of the table of games (``pagadores_env.core.games``):
``pagadores`` (``Pagadores-v1``, the default), ``perudo``, ``paye``, ``pasch``; the env is the
game's Gymnasium env (``GameSpec.gym_id``). The game's table options are keys of ``env`` named
as its options (``env.cards`` Pagadores', ``env.dice`` Perudo's, ``env.variant``,
``env.faces``, ``env.rounds`` Paye's, ``env.hand``, ``env.blocks`` Pasch's), checked by the
game (``run.games``: an option of another game is refused naming its game). A run names the
game's players wherever a spec goes (its namespace of the policy registry), and where it
names none, ``env.opponents`` is the game's scripted opponent (``GameSpec.opponent``) and
``eval.opponents`` its evaluation opponents (``GameSpec.eval_opponents``). Player specs are
checked against the chosen game's registry once the whole config is read (``_check_specs``).
What one game's runs have of their own (several table sizes and the ``batch`` engine are
Pagadores', ``env.shaping`` Perudo's) is its entry of ``run.games.RUN_GAMES``;
``env.best_response`` needs a game with an exact best response at the table
(``evaluation.exact_games``: Perudo at 2 players with 1 die, Paye's base game at 2
players, Pasch's last round at 2 players).

``name`` is a plain folder name (no path separators, not ``.`` or ``..``), so a run folder is
always a child of ``output_dir``. An empty YAML file is refused rather than read as "all defaults".
Wherever an integer goes, a whole number in scientific notation does too (``total_timesteps:
1e6``, ``1.5e3``; not ``1.5e-3``), as ``count_argument`` takes it on the command line.
"""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import gymnasium
import yaml

import pagadores_env  # noqa: F401  (registers every game and its envs)
from pagadores_env.core.atomic import write_atomic
from pagadores_env.core.games import GAME_SPECS, game_spec
from pagadores_env.core.opponents import check_learner_seat
from pagadores_env.core.policies import Policy
from pagadores_env.core.rewards import REWARDS
from pagadores_env.pagadores.rules import MAX_PLAYERS, MIN_PLAYERS

from ..evaluation.exact_games import exact_response, responding_games
from ..settings import (
    ConfigError,
    boolean,
    build_section,
    checked_later,
    choice,
    integer,
    mapping,
    number,
    optional,
    read_yaml,
    run_name,
    setting,
    text,
)
from ..signals import ignore_in_worker
from .algorithms import (
    ALGORITHMS,
    FEATURE_EXTRACTORS,
    POLICIES,
    algorithm_class,
    check_hyperparams,
)
from .games import check_options, possessive, run_game, split_options, with_feature

ILLEGAL_ACTIONS = ("raise", "replace", "penalty")
VEC_ENVS = ("dummy", "subproc", "batch")
#: How a self-play seat picks its snapshot of the learner (``pagadores_train.learners.selfplay``):
#: the newest, uniformly, or weighted to the ones the learner loses to (``priority_weights``).
SAMPLES = ("latest", "uniform", "priority")


# --------------------------------------------------------------------------- value checks
# Each check takes (value, key path) and returns the value (possibly normalised) or raises;
# the game-neutral ones live in pagadores_train.settings.


def players_spec(value: Any, key: str) -> int | list[int]:
    """One table size, or a list of sizes each game draws from (``gym_env``'s "Table
    sizes"; a size listed twice is drawn twice as often)."""
    size = integer(MIN_PLAYERS, MAX_PLAYERS)
    if isinstance(value, list):
        if not value:
            raise ConfigError(f"{key} must be {MIN_PLAYERS}–{MAX_PLAYERS} or a non-empty list "
                              "of such sizes, got []")
        return [size(v, f"{key}[{i}]") for i, v in enumerate(value)]
    return size(value, key)


def policy_spec(value: Any, key: str, game: str = "pagadores") -> str:
    """A player spec of ``game`` that ``make_policy`` can build (``"sensible"``,
    ``"threshold:…"``)."""
    from pagadores_env.core.policies import make_policy

    text(value, key)
    try:
        make_policy(value, game=game, seed=0)
    except ValueError as err:
        raise ConfigError(f"{key}: {err}") from None
    return value


def spec_list(value: Any, key: str) -> list[str]:
    """A non-empty list of player specs (strings here; each is checked by ``policy_spec``
    against the config's game in ``_check_specs``)."""
    if not isinstance(value, list) or not value:
        raise ConfigError(f"{key} must be a non-empty list of player specs, got {value!r}")
    return [text(v, f"{key}[{i}]") for i, v in enumerate(value)]


def spec_list_or_none(value: Any, key: str) -> list[str]:
    """A list of player specs, possibly empty (as ``spec_list``)."""
    return [] if value == [] else spec_list(value, key)


# --------------------------------------------------------------------------- the sections
@dataclass
class AlgoConfig:
    """``algo``: the SB3 algorithm, its network family and constructor arguments."""

    name: str = setting("MaskablePPO", choice(*ALGORITHMS), "stable-baselines3 algorithm")
    policy: str | None = setting(None, optional(choice(*POLICIES)),
                                "network family, the algorithm's (the default): MlpLstmPolicy "
                                "for RecurrentPPO, MlpPolicy for the others")
    hyperparams: dict[str, Any] = setting({}, mapping, "constructor keyword arguments")

    def __post_init__(self) -> None:
        """Fill in the algorithm's network family, or refuse another: each algorithm here
        trains one (an LSTM policy needs RecurrentPPO's rollouts, which carry its state)."""
        wanted = ALGORITHMS[self.name].policy
        if self.policy is None:
            self.policy = wanted
        elif self.policy != wanted:
            raise ConfigError(f"algo.policy must be {wanted!r} for {self.name} (or left out), "
                              f"got {self.policy!r}")

    @property
    def masking(self) -> bool:
        """True if the algorithm uses action masks (only MaskablePPO)."""
        return ALGORITHMS[self.name].masking


@dataclass
class SelfPlayConfig:
    """``env.selfplay``: opponents drawn per game and seat from frozen snapshots of the
    learner (``pagadores_train.learners.selfplay``), off with ``every: 0``."""

    every: int = setting(0, integer(0), "add a snapshot of the learner every N timesteps "
                        "(0: no self-play, env.opponents play)")
    sample: str = setting("latest", choice(*SAMPLES),
                         "which snapshot a seat plays: the latest, uniformly drawn, or "
                         "'priority': more often the ones the learner loses to")
    scripted_share: float = setting(0.0, number(0.0, 1.0),
                                   "chance a seat plays one of env.opponents instead")
    max_snapshots: int = setting(50, integer(1), "snapshots kept in the pool (and on disk): "
                                "the oldest goes when a new one comes")


def _per_game(attribute: str) -> str:
    """Each game's ``GameSpec`` value of ``attribute``, for a setting's meaning."""
    def shown(value: Any) -> str:
        return ", ".join(value) if isinstance(value, tuple) else str(value)

    return "; ".join(f"{name}: {shown(getattr(spec, attribute))}"
                     for name, spec in GAME_SPECS.items())


@dataclass
class EnvConfig:
    """``env``: the table the learner trains at, in the game's Gymnasium env
    (``GameSpec.gym_id``); the game's table options are keys of this section too, named as
    its options (``env.cards``, ``env.dice``, …; module docstring)."""

    num_players: int | list[int] = setting(
        2, players_spec, "players at the table, or a list of sizes (Pagadores): each game "
        "draws one")
    opponents: list[str] = setting([], spec_list,
                                  "one spec reused in every other seat, or one per other seat; "
                                  "left out, the game's scripted opponent ("
                                  + _per_game("opponent") + ")")
    learner_seat: str | int = setting("random", checked_later,
                                     "'random' (each episode) or a fixed seat")
    reward: str = setting("win", choice(*REWARDS), "reward scheme (pagadores_env.core.rewards)")
    illegal_action: str | None = setting(
        None, optional(choice(*ILLEGAL_ACTIONS)),
        "what the env does with a masked action; default raise with masks, else replace")
    game: str = setting("pagadores", choice(*GAME_SPECS),
                       "the game (pagadores_env.core.games): " + _per_game("gym_id"))
    shaping: float = setting(0.0, number(0.0), "perudo: reward per die the others lose (their "
                            "mean) minus per die the learner loses, each step "
                            "(pagadores_train.evaluation.perudo.DiceShaping); pasch: per "
                            "point the learner gains minus the others' mean gain "
                            "(pagadores_train.evaluation.pasch.PointsShaping)")
    last_round_starts: float = setting(0.0, number(0.0, 1.0), "pasch: the share of training "
                                       "games that start at the last round, at a position "
                                       "greedy-against-greedy games reach (pagadores_train."
                                       "evaluation.pasch.LastRoundStarts)")
    best_response: bool = setting(False, boolean, "the opponent is the exact best response to "
                                  "the learner, recomputed every rollout "
                                  "(pagadores_train.learners.best_response), where the game has "
                                  "one (" + responding_games() + "); env.opponents is then "
                                  "unused. Pasch's covers the last rounds of the late starts "
                                  "(greedy plays the rest) and is recomputed every "
                                  "pagadores_train.evaluation.pasch.RESPONSE_EVERY steps")
    selfplay: SelfPlayConfig = field(default_factory=SelfPlayConfig)
    #: the game's table options by name, its defaults filled in (``run.games.check_options``);
    #: keys of ``env`` in YAML, not a key of their own
    options: dict[str, Any] = field(default_factory=dict, metadata={"internal": True})

    def __post_init__(self) -> None:
        """The game's defaults for the options not given (``check_options`` checks given ones)."""
        given = self.options
        self.options = {o.name: given.get(o.name, o.default)
                        for o in game_spec(self.game).options}

    def __getattr__(self, name: str) -> Any:
        """A table option of the game by its name (``env.cards``, ``env.dice``)."""
        if name != "options" and not name.startswith("__") and name in self.options:
            return self.options[name]
        raise AttributeError(f"{type(self).__name__} of env.game {self.__dict__.get('game')!r}"
                             f" has no attribute or table option {name!r}")

    def make(self, opponents: Sequence[str | Policy] | None = None) -> gymnasium.Env:
        """The game's Gymnasium environment with these settings, ``env.shaping``'s and
        ``env.last_round_starts``' wrappers around it where the game has them; policy objects
        given as ``opponents`` sit in place of ``env.opponents``."""
        spec = game_spec(self.game)
        env = gymnasium.make(spec.gym_id, num_players=self.num_players,
                             opponents=list(self.opponents if opponents is None else opponents),
                             learner_seat=self.learner_seat, reward=self.reward,
                             illegal_action=self.illegal_action,
                             **spec.table_options(**self.options))
        run = run_game(self.game)
        if run.shaping is not None and self.shaping:
            env = run.shaping(env, self.shaping)
        if run.last_round_starts is not None and self.last_round_starts:
            env = run.last_round_starts(env, self.last_round_starts)
        return env


def make_env_in_worker(env: EnvConfig) -> gymnasium.Env:
    """``env.make()`` in a SubprocVecEnv worker, which ignores Ctrl-C and SIGTERM: the trainer
    handles them (saves a checkpoint, closes the workers; ``signals.ignore_in_worker``)."""
    ignore_in_worker()
    return env.make()


@dataclass
class VecEnvConfig:
    """``vec_env``: how many environments run side by side, and how."""

    n_envs: int = setting(8, integer(1, 256), "parallel environments")
    kind: str = setting("dummy", choice(*VEC_ENVS),
                       "DummyVecEnv (one process), SubprocVecEnv, or batch: all games in one "
                       "batch engine (pagadores_env.pagadores.vec_env.PagadoresVecEnv)")


@dataclass
class EvalConfig:
    """``eval``: when the learner is evaluated, against whom, over how many games."""

    every: int = setting(50_000, integer(0),
                        "evaluate every N timesteps (0: only before training and at the end)")
    games: int = setting(400, integer(1), "games per opponent at each evaluation")
    final_games: int = setting(2000, integer(1), "games per opponent in the final evaluation")
    opponents: list[str] = setting([], spec_list, "opponents to evaluate against; left out, "
                                  "the game's (" + _per_game("eval_opponents") + ")")
    exact: bool = setting(True, boolean,
                         "add the exact yardstick's numbers where it covers the table "
                         "(pagadores_train.run.model_eval)")
    compare: list[str] = setting([], spec_list_or_none,
                                "agents the final table measures like the trained policy "
                                "(written to compare.csv; pagadores_train.evaluation.compare)")


@dataclass
class Config:
    """A whole training run: the top-level keys and the sections above."""

    name: str | None = setting(None, optional(run_name),
                              "run folder name, a plain name (default: YAML file stem)")
    seed: int = setting(0, integer(0), "seeds the envs, the model and the evaluations")
    total_timesteps: int = setting(300_000, integer(1), "learner decisions to train on")
    algo: AlgoConfig = field(default_factory=AlgoConfig)
    env: EnvConfig = field(default_factory=EnvConfig)
    vec_env: VecEnvConfig = field(default_factory=VecEnvConfig)
    eval: EvalConfig = field(default_factory=EvalConfig)
    checkpoint_every: int = setting(50_000, integer(1), "save a checkpoint every N timesteps")
    keep_checkpoints: int = setting(5, integer(0), "checkpoints kept on disk, the newest "
                                   "(0: all); the resume point is always kept")
    output_dir: str = setting("runs", text, "runs are written to OUTPUT_DIR/NAME/")
    torch_threads: int = setting(1, integer(1, 64), "torch CPU threads (small nets: 1 is fastest)")
    progress_bar: bool = setting(True, boolean, "progress as tqdm bars; false: a status "
                                "line per step of each long phase (pagadores_train.progress)")

    @property
    def run_dir(self) -> Path:
        """The run's folder, ``output_dir/name`` (``output_dir/run`` without a name)."""
        return Path(self.output_dir) / (self.name or "run")

    def __post_init__(self) -> None:
        """Name the game's players where the config names none (``GameSpec.opponent`` and
        ``eval_opponents``): one rule for every game."""
        spec = game_spec(self.env.game)
        self.env.opponents = self.env.opponents or [spec.opponent]
        self.eval.opponents = self.eval.opponents or list(spec.eval_opponents)

    def to_dict(self) -> dict[str, Any]:
        """The config as plain nested data (what ``save_config`` writes): the table options
        as keys of ``env``, after ``game``."""
        data = dataclasses.asdict(self)
        env = data["env"]
        options = env.pop("options")
        data["env"] = {key: value for key, value in env.items() if key != "game"} | {
            "game": env["game"], **options}
        return data


# --------------------------------------------------------------------------- building


def _check_normalisation(config: Config) -> None:
    """One advantage cannot be normalised (its std is NaN): PPO refuses a rollout of one
    step, MaskablePPO and A2C train on until the policy's logits are NaN."""
    params = inspect.signature(algorithm_class(config.algo.name).__init__).parameters
    chosen = {name: p.default for name, p in params.items()} | config.algo.hyperparams
    if not chosen.get("normalize_advantage"):
        return
    why = "with normalize_advantage (one advantage cannot be normalised)"
    if chosen["n_steps"] * config.vec_env.n_envs < 2:
        raise ConfigError(f"algo.hyperparams.n_steps × vec_env.n_envs must be ≥ 2 {why}, got "
                          f"{chosen['n_steps']} × {config.vec_env.n_envs}")
    if chosen.get("batch_size", 2) < 2:
        raise ConfigError(f"algo.hyperparams.batch_size must be ≥ 2 {why}, got 1")


def _check_env(config: Config, options: dict[str, Any]) -> None:
    """The env section as a whole: the game's own keys and options (``_check_game``), then the
    table's opponents and learner seat at its one size or its several."""
    env, sizes = config.env, table_sizes(config.env)
    _check_game(config, options, sizes)
    if len(sizes) > 1:
        if len(env.opponents) != 1:
            raise ConfigError(f"env.opponents must be one spec (seated at every size) when "
                              f"env.num_players lists several sizes, got {len(env.opponents)}")
        try:
            check_learner_seat(env.learner_seat, sizes[0], "env.learner_seat")
        except ValueError as err:
            raise ConfigError(f"{err} (the smallest of env.num_players)") from None
    else:
        n = sizes[0]
        if len(env.opponents) not in (1, n - 1):
            raise ConfigError(
                f"env.opponents must list 1 spec (reused) or {n - 1} (one per other seat) for "
                f"{n} players, got {len(env.opponents)}")
        try:
            check_learner_seat(env.learner_seat, n, "env.learner_seat")
        except ValueError as err:
            raise ConfigError(str(err)) from None
    _check_common(config)


def _check_common(config: Config) -> None:
    """What every table needs: self-play's snapshots in this process, and
    ``illegal_action`` against masking."""
    env = config.env
    if env.selfplay.every and config.vec_env.kind == "subproc":
        raise ConfigError("env.selfplay needs vec_env.kind 'dummy' or 'batch' (the snapshots "
                          "live in the training process), got 'subproc'")
    if env.illegal_action is None:
        env.illegal_action = "raise" if config.algo.masking else "replace"
    elif env.illegal_action == "raise" and not config.algo.masking:
        raise ConfigError(
            f"env.illegal_action 'raise' needs action masks, which {config.algo.name} does not "
            "use; choose 'replace' or 'penalty'")


def _games_with(feature: str) -> str:
    return " or ".join(possessive(spec) for spec in with_feature(feature))


def _check_game(config: Config, options: dict[str, Any], sizes: list[int]) -> None:
    """What the chosen game takes (``run.games``): several table sizes, the batch engine,
    ``env.shaping``, its options, and an exact best response at the table."""
    env, run, spec = config.env, run_game(config.env.game), game_spec(config.env.game)
    game = repr(env.game)
    if len(sizes) > 1 and not run.sizes:
        raise ConfigError(f"env.num_players must be one size {spec.min_players}–"
                          f"{spec.max_players} for env.game {game}, got {env.num_players!r}")
    for n in sizes:
        if not spec.min_players <= n <= spec.max_players:
            raise ConfigError(f"env.num_players must be {spec.min_players}–{spec.max_players} "
                              f"for env.game {game}, got {n}")
    if config.vec_env.kind == "batch" and not run.batch:
        raise ConfigError(f"vec_env.kind 'batch' is {_games_with('batch')} batch engine; for "
                          f"env.game {game} choose 'dummy' or 'subproc'")
    for feature in ("shaping", "last_round_starts"):  # a wrapper of the game's run entry
        value = getattr(env, feature)
        if value and getattr(run, feature) is None:
            names = " or ".join(repr(s.name) for s in with_feature(feature))
            raise ConfigError(f"env.{feature} is {_games_with(feature)} (env.game {names}), "
                              f"got {value!r}")
    extractor = (config.algo.hyperparams.get("policy_kwargs") or {}).get("features_extractor")
    if extractor is not None and FEATURE_EXTRACTORS[extractor][0] != env.game:
        reads = FEATURE_EXTRACTORS[extractor][0]
        raise ConfigError(f"algo.hyperparams.policy_kwargs.features_extractor {extractor!r} "
                          f"reads {game_spec(reads).title}'s observation (env.game "
                          f"{reads!r}), got env.game {game}")
    env.options = check_options(env.game, options, sizes)
    if env.best_response:
        response = exact_response(env.game)
        if response is None:
            raise ConfigError(f"env.best_response needs a game with an exact best response "
                              f"({responding_games()}), got env.game {game}")
        missing = response.missing(sizes[0], env.options)
        if missing:
            raise ConfigError(f"env.best_response needs the game the exact yardstick solves: "
                              f"{missing}")
        if env.selfplay.every:
            raise ConfigError("env.best_response and env.selfplay both choose the learner's "
                              "opponent: set one (env.selfplay.every 0 turns self-play off)")
        if config.vec_env.kind != "dummy":
            raise ConfigError(f"env.best_response needs vec_env.kind 'dummy' (the opponent is "
                              f"recomputed in the training process), got "
                              f"{config.vec_env.kind!r}")


def _check_specs(config: Config) -> None:
    """Every player spec against the registry of the config's game (``policy_spec``)."""
    game = config.env.game
    for key, specs in (("env.opponents", config.env.opponents),
                       ("eval.opponents", config.eval.opponents),
                       ("eval.compare", config.eval.compare)):
        for i, spec in enumerate(specs):
            policy_spec(spec, f"{key}[{i}]", game)


def table_sizes(env: EnvConfig) -> list[int]:
    """The table sizes ``env`` trains at: its one size, or its list's sizes once each."""
    sizes = env.num_players if isinstance(env.num_players, list) else [env.num_players]
    return sorted(set(sizes))


def config_from_dict(data: Any, name: str | None = None) -> Config:
    """Validate plain data (as read from YAML) into a ``Config``; ``name`` fills a missing
    ``name``. Raises ``ConfigError`` naming the first bad key."""
    data, options = split_options(data)
    config = build_section(Config, data, "")
    _check_specs(config)
    if config.name is None and name is not None:
        config.name = run_name(name, "name")
    check_hyperparams(config.algo)
    _check_normalisation(config)
    _check_env(config, options)
    return config


def load_config(path: str | Path) -> Config:
    """Read and validate a YAML config; the run name defaults to the file's stem."""
    path = Path(path)
    data = read_yaml(path)
    if data is None:
        raise ConfigError(f"{path} is empty: a config is a mapping of keys to values "
                          "(write {} to take every default)")
    return config_from_dict(data, name=path.stem)


def save_config(config: Config, path: str | Path) -> None:
    """Write the config (defaults filled in) as YAML that ``load_config`` reads back,
    atomically."""
    write_atomic(path, yaml.safe_dump(config.to_dict(), sort_keys=False))




def check_table_run(config: Any, name: str | None) -> None:
    """What another trainer's config (RLlib's, the search trainer's: one table, one list of
    ``eval.opponents``) needs checked once its sections are built: ``name`` fills a missing
    ``name``, ``env.cards`` lists one count per seat, and every opponent spec builds."""
    if config.name is None and name is not None:
        config.name = run_name(name, "name")
    n, cards = config.env.num_players, config.env.cards
    if isinstance(cards, list) and len(cards) != n:
        raise ConfigError(f"env.cards must list one count per seat ({n} for {n} players), "
                          f"got {len(cards)}")
    for i, spec in enumerate(config.eval.opponents):
        policy_spec(spec, f"eval.opponents[{i}]")


def evaluation_config(run: Any) -> Config:
    """The SB3 run config whose evaluation settings are those of ``run``, another trainer's
    config (RLlib's, the search trainer's: ``name``, ``seed``, ``output_dir``,
    ``env.num_players``, ``env.cards``, ``eval.games``, ``eval.opponents``, ``eval.exact``),
    for ``model_eval.evaluate_player``, which reads the table, the opponents, ``exact`` and
    the seed."""
    return Config(name=run.name, seed=run.seed, output_dir=run.output_dir,
                  env=EnvConfig(num_players=run.env.num_players,
                                options={"cards": run.env.cards}),
                  eval=EvalConfig(games=run.eval.games, final_games=run.eval.games,
                                  opponents=list(run.eval.opponents), exact=run.eval.exact))

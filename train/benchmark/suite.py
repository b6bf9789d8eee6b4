"""The benchmark suite: algorithms × tasks × seeds, each trial a seeded training run and a
normalised score; ``pagadores benchmark SUITE.yaml --out DIR`` (``pagadores_cli.benchmark``).

A **task** (``configs/benchmark/tasks/<name>.yaml``) names a ``game`` (any of the table of
games, ``pagadores_env.core.games``; ``pagadores`` where it names none) and a table
(``num_players`` and the game's table options as keys named as its options,
``GameSpec.options``: Pagadores' ``cards``, Paye's ``variant``, ``faces``, ``rounds``, Pasch's
``hand``, ``blocks``, …, checked by the game itself; an option of another game is refused
naming whose it is), the opponents the learner trains and is scored against (the game's
players, one spec reused or one per other seat), optional ``selfplay`` (``env.selfplay`` of
the training config), a training ``budget`` in timesteps and a ``score``, normalised so that
0 is the uniform ``random`` policy in the learner's seat:

``exact-best-response``  (w − w_random) / (w_best_response − w_random), exact win
                         probabilities from the solver against the opponents (one spec
                         reused): 1 = the exact best response against them.
``exact-nashconv``       1 − NashConv(learner) / NashConv(random), the learner in every
                         seat, exact: 1 = an equilibrium (NashConv 0).
``monte-carlo``          (w − w_random) / (1 − w_random), win rates over ``eval_games`` seeded
                         games with a Wilson 95 % CI: 1 = winning every game (the solver does
                         not cover the table, so no best response is known).

The exact scores are Pagadores' (its solver); a task of another game is scored Monte Carlo,
its games played by the engine-driven evaluator (``evaluation.engine.evaluate_game``), where a
first place shared by k seats counts as 1/k of a win (Paye's Y4.4, Pasch's X1.4).

A **suite** (``configs/benchmark/*.yaml``) lists ``tasks`` (names of task files in the
``tasks/`` folder beside it), ``seeds``, and ``algorithms`` (name → ``n_envs``,
``hyperparams`` and ``illegal_action``, as in a training config; any algorithm the training
config takes, ``algorithms.ALGORITHMS``, each with its own network family: ``MlpLstmPolicy`` for
RecurrentPPO, whose model is scored from a fresh LSTM state at every decision, its memoryless
projection, ``pagadores_agents.sb3_adapter``), or ``search`` (below); ``budget`` and
``eval_games``, when given, replace every task's (the smoke suite's tiny budget).

**search** trains the search player's value net (``pagadores_train.learners.search.trainer``:
the round at hand searched exactly over the dice, a learned net where it ends) by self-play at
the task's table, whatever the task's opponents: the method aims at the equilibrium, not at a
best response to given players, so its score against them is what near-equilibrium play earns.
It plays Pagadores only: a suite running it on another game's task is refused.
Its ``hyperparams`` are a search config's ``search:`` keys (``search_config.SearchSettings``;
it takes no ``n_envs`` or ``illegal_action``), and its budget counts learner decisions like
the others': every decision of its self-play games is the learner's.

**Output** ``DIR/``: ``trials/<task>__<algo>__seed<seed>.json`` (one per finished trial,
written atomically at once: task, algo, seed, score, its CI if Monte Carlo, the raw measures,
wall time, the commit that ran it), ``runs/<trial>/`` (each trial's training run folder,
``pagadores_train.learners.sb3``), ``benchmark.json`` (marks the folder as ours), and the aggregate
(``benchmark_stats``). A rerun skips trials whose file exists (resume: a killed suite loses
the trials in flight only, which restart from scratch so their results equal an
uninterrupted run's; a resume on another commit mixes commits, which the summary lists).
A folder that holds anything but these, without ``benchmark.json``, is refused: nothing not written
here is ever overwritten.

**Backends**: ``local`` runs trials in a process pool (``spawn``), ``ray`` as Ray tasks (a
local Ray started on the fly, or a cluster's ``address``). A trial depends only on its spec
(seeded training on one torch thread, seeded evaluation), so results are the same whichever
backend or order runs it. On a cluster every node needs this package (with the ``train``
extra) installed, and writes the run folders of its trials under the same ``DIR`` path; the
trial records come back to the machine running the command.
"""

from __future__ import annotations

import contextlib
import io
import json
import time
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from pagadores_env.core.atomic import write_atomic
from pagadores_env.core.games import GameSpec, game_spec
from pagadores_env.core.pool import in_pool
from pagadores_env.integrations.ray_cluster import join_or_start
from pagadores_env.pagadores.rules import MAX_CARDS

from ..learners.search.config import SearchConfig, search_config_from_dict
from ..progress import Reporter, reporter
from ..run.algorithms import ALGORITHMS
from ..run.config import Config, config_from_dict, policy_spec, spec_list
from ..run.games import game_checks, option_owners, possessive, run_game
from ..run.lock import LOCK
from ..run.reports import provenance
from ..settings import ConfigError, integer, mapping, read_yaml, text

SCORES = ("exact-best-response", "exact-nashconv", "monte-carlo")
MONTE_CARLO = SCORES[2]
#: The game of a task that names none (as a training config's ``env.game``).
PAGADORES = "pagadores"
BACKENDS = ("local", "ray")
TASKS_FOLDER = "tasks"
TRIALS, RUNS, MARKER = "trials", "runs", "benchmark.json"
#: The suite's own algorithm beside the SB3 ones (``algorithms.ALGORITHMS``), and its keys.
SEARCH = "search"
SEARCH_KEYS = {"hyperparams"}
#: Seeds of the scoring games: the same for every trial and for the random baseline.
EVAL_SEED = 12345
#: Scoring games of a task that does not say (``eval_games``).
EVAL_GAMES = 2000


class SuiteError(ValueError):
    """A suite or task file that cannot be run; the message names the file and key."""


# --------------------------------------------------------------------------- tasks and suites
@dataclass(frozen=True)
class Task:
    """One benchmark task (see the module docstring)."""

    name: str
    num_players: int
    opponents: tuple[str, ...]
    budget: int
    score: str
    eval_games: int = EVAL_GAMES
    selfplay: dict[str, Any] = field(default_factory=dict)
    game: str = PAGADORES
    #: the game's table options by name (``Option.name``), its defaults filled in
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def cards(self) -> int:
        """Pagadores' starting cards (its exact scores and batch evaluator take them)."""
        return int(self.options["cards"])

    def record(self) -> dict[str, Any]:
        """The task as its trial records hold it: a Pagadores task in the layout records had
        before tasks named a game (``cards`` after ``num_players``), another game's with its
        ``game`` and table options."""
        data = asdict(self)
        options, game = data.pop("options"), data.pop("game")
        head = {"name": self.name, **({} if game == PAGADORES else {"game": game}),
                "num_players": self.num_players, **options}
        return head | data  # the keys of head keep their place


#: The keys every task takes; each game's table options come on top (``_table_options``).
TASK_KEYS = {"game", "num_players", "opponents", "budget", "score", "eval_games", "selfplay"}


def _keys(data: Any, allowed: Iterable[str], required: Iterable[str], where: str) -> dict:
    """``data`` as a mapping with only ``allowed`` keys and every ``required`` one."""
    data = mapping(data, where)
    allowed = sorted(allowed)
    for key in data:
        if key not in allowed:
            raise ConfigError(f"unknown key '{key}' in {where} (allowed: {', '.join(allowed)})")
    for key in required:
        if key not in data:
            raise ConfigError(f"{where} must name '{key}'")
    return data


def task_from_dict(name: str, data: Any) -> Task:
    """Validate a task's plain data; ``ConfigError`` names the bad key."""
    data = mapping(data, f"task {name}")
    game = text(data.get("game", PAGADORES), "game")
    try:
        spec = game_spec(game)
    except ValueError as err:
        raise ConfigError(str(err)) from None
    owners = option_owners()
    for key in data:  # before the unknown keys: an option of another game says whose it is
        if key in owners and key not in {o.name for o in spec.options}:
            raise ConfigError(_other_games_option(spec, key, data[key]))
    data = _keys(data, TASK_KEYS | {o.name for o in spec.options},
                 ("num_players", "opponents", "budget", "score"), f"task {name}")
    n = integer(spec.min_players, spec.max_players)(data["num_players"], "num_players")
    opponents = [policy_spec(o, f"opponents[{i}]", game)
                 for i, o in enumerate(spec_list(data["opponents"], "opponents"))]
    if len(opponents) not in (1, n - 1):
        raise ConfigError(f"opponents must list 1 spec (reused) or {n - 1} (one per other "
                          f"seat), got {opponents!r}")
    score = data["score"]
    if score not in SCORES:
        raise ConfigError(f"score must be one of {', '.join(SCORES)}, got {score!r}")
    if score != MONTE_CARLO and game != PAGADORES:
        raise ConfigError(f"score {score} needs {possessive(game_spec(PAGADORES))} exact "
                          f"solver; a task of game {game!r} takes score {MONTE_CARLO}")
    if score == "exact-best-response" and len(opponents) != 1:
        raise ConfigError("score exact-best-response needs one opponent spec (reused)")
    selfplay = mapping(data.get("selfplay", {}), "selfplay")
    options = _table_options(game, data, n)
    if score != MONTE_CARLO:
        _check_solver_covers(n, options["cards"], opponents[0], score)
    return Task(name, n, tuple(opponents), integer(1)(data["budget"], "budget"), score,
                integer(1)(data.get("eval_games", EVAL_GAMES), "eval_games"), selfplay, game,
                options)


def _other_games_option(spec: GameSpec, key: str, value: Any) -> str:
    """The refusal of another game's table option ``key`` in a task of ``spec``'s game."""
    whose = " or ".join(f"{o.title} (game {o.name!r})" for o in option_owners()[key])
    mine = ", ".join(o.name for o in spec.options) or "no table option"
    return (f"{key} is a table option of {whose}; {spec.title} (game {spec.name!r}) takes "
            f"{mine}, got {key}: {value!r}")


def _table_options(game: str, data: dict[str, Any], num_players: int) -> dict[str, Any]:
    """The task's table options of ``game`` by name, its defaults filled in, each checked by
    the game itself at the task's table (``run.games.game_checks``: its one-line error under
    the task's key); Pagadores' ``cards`` is one count 1–10 (its solver and batch evaluator
    take no count per seat)."""
    spec = game_spec(game)
    options = {o.name: data.get(o.name, o.default) for o in spec.options}
    if game == PAGADORES:
        options["cards"] = integer(1, MAX_CARDS)(options["cards"], "cards")
    for option in spec.options:  # each alone first, so the error names its key
        if option.name in data:
            game_checks(spec, [num_players], {option.name: options[option.name]},
                        option.argument, option.name)
    game_checks(spec, [num_players], options, "", f"the table of game {game!r}")
    return options


def _check_solver_covers(num_players: int, cards: int, opponent: str, score: str) -> None:
    """``ConfigError`` unless the solver covers the table of an exact score (before hours of
    training, not after)."""
    from pagadores_env.core.policies import make_policy

    from ..evaluation.yardstick import learner_cost

    try:
        learner_cost(make_policy("random", seed=0), [opponent], num_players, cards)
    except ValueError as err:
        raise ConfigError(f"score {score} needs a table the exact solver covers: {err}; "
                          "use score monte-carlo or fewer cards") from None


@dataclass(frozen=True)
class Suite:
    """Tasks × algorithms × seeds (see the module docstring)."""

    tasks: tuple[Task, ...]
    algorithms: dict[str, dict[str, Any]]
    seeds: tuple[int, ...]


SUITE_KEYS = {"tasks", "algorithms", "seeds", "budget", "eval_games"}
ALGO_KEYS = {"n_envs", "hyperparams", "illegal_action"}


def _read_yaml(path: Path) -> Any:
    try:
        return read_yaml(path, "file")
    except ConfigError as err:
        raise SuiteError(str(err)) from None


def load_suite(path: str | Path) -> Suite:
    """Read a suite and its tasks, and check that every trial's training config is valid,
    before anything runs; ``SuiteError`` (one line, naming the file) otherwise."""
    path = Path(path)
    data = _read_yaml(path)
    try:
        data = _keys(data, SUITE_KEYS, ("tasks", "algorithms", "seeds"), "the suite")
        names = data["tasks"]
        if not isinstance(names, list) or not names or not all(
                isinstance(n, str) and n.strip() and "/" not in n for n in names):
            raise ConfigError(f"tasks must be a non-empty list of task names, got {names!r}")
        seeds = data["seeds"]
        if not isinstance(seeds, list) or not seeds:
            raise ConfigError(f"seeds must be a non-empty list of distinct seeds, got {seeds!r}")
        given, seeds = seeds, [integer(0)(s, f"seeds[{i}]") for i, s in enumerate(seeds)]
        if len(set(seeds)) < len(seeds):  # compared as numbers: 1000 and 1e3 are one seed
            raise ConfigError(f"seeds must be a non-empty list of distinct seeds, got {given!r}")
        algorithms = mapping(data["algorithms"], "algorithms")
        if not algorithms:
            raise ConfigError("algorithms must name at least one algorithm")
        for name, settings in algorithms.items():
            if name not in ALGORITHMS and name != SEARCH:
                raise ConfigError(f"algorithms: unknown algorithm {name!r} (allowed: "
                                  f"{', '.join([*ALGORITHMS, SEARCH])})")
            algorithms[name] = _keys(settings or {}, SEARCH_KEYS if name == SEARCH
                                     else ALGO_KEYS, (), f"algorithms.{name}")
        overrides = {k: integer(1)(data[k], k) for k in ("budget", "eval_games") if k in data}
    except ConfigError as err:
        raise SuiteError(f"{path}: {err}") from None
    tasks = tuple(_load_task(path.parent / TASKS_FOLDER / f"{n}.yaml", n, overrides)
                  for n in names)
    suite = Suite(tasks, algorithms, tuple(seeds))
    for task in tasks:  # every trial's config must load: fail now, not hours in
        for algo in algorithms:
            try:
                trial_config(TrialSpec(task, algo, algorithms[algo], seeds[0]), Path("."))
            except ConfigError as err:
                raise SuiteError(f"{path}: {algo} on task {task.name}: {err}") from None
    return suite


def _load_task(path: Path, name: str, overrides: dict[str, int]) -> Task:
    if not path.is_file():
        raise SuiteError(f"task {name!r}: no task file {path}")
    try:
        data = _read_yaml(path)
        return task_from_dict(name, (data or {}) | overrides if isinstance(data, dict)
                              else data)
    except ConfigError as err:
        raise SuiteError(f"{path}: {err}") from None


# --------------------------------------------------------------------------- one trial
@dataclass(frozen=True)
class TrialSpec:
    """Everything one trial depends on (sent as it is to a worker process or Ray task)."""

    task: Task
    algo: str
    settings: dict[str, Any]
    seed: int

    @property
    def trial_id(self) -> str:
        """The trial's file stem under ``trials/`` and folder name under ``runs/``."""
        return f"{self.task.name}__{self.algo}__seed{self.seed}"


def trial_config(spec: TrialSpec, out: Path) -> Config | SearchConfig:
    """The training config of a trial: the task's table and opponents, the algorithm's
    settings, one torch thread and no progress bar (trials run side by side), evaluations
    reduced to the minimum (the score is measured afterwards, ``measure``)."""
    task, settings = spec.task, spec.settings
    if spec.algo == SEARCH:
        if task.game != PAGADORES:
            raise ConfigError(f"{SEARCH} plays {game_spec(PAGADORES).title} only, got game "
                              f"{task.game!r}")
        return search_config_from_dict({
            "name": spec.trial_id, "seed": spec.seed, "total_timesteps": task.budget,
            "env": {"num_players": task.num_players, "cards": task.cards},
            "search": settings.get("hyperparams") or {},
            "eval": {"every": 0, "games": 1, "exact": False, "opponents": [task.opponents[0]]},
            "checkpoint_every": task.budget, "output_dir": str(out / RUNS),
            "progress_bar": False,
        })
    env: dict[str, Any] = {"game": task.game, "num_players": task.num_players,
                           **task.options, "opponents": list(task.opponents)}
    if task.selfplay:
        env["selfplay"] = task.selfplay
    if "illegal_action" in settings:
        env["illegal_action"] = settings["illegal_action"]
    return config_from_dict({
        "name": spec.trial_id, "seed": spec.seed, "total_timesteps": task.budget,
        "algo": {"name": spec.algo, "hyperparams": settings.get("hyperparams") or {}},
        "env": env,
        "vec_env": {"n_envs": settings.get("n_envs", 8),  # the game's batch engine, if any
                    "kind": "batch" if run_game(task.game).batch else "dummy"},
        "eval": {"every": 0, "games": 1, "final_games": 1, "exact": False,
                 "opponents": [task.opponents[0]]},
        "checkpoint_every": task.budget, "output_dir": str(out / RUNS),
        "torch_threads": 1, "progress_bar": False,
    })


def run_trial(spec: TrialSpec, out: str) -> dict[str, Any]:
    """Train the trial's run from scratch and score its final model: the trial record."""
    from pagadores_env.core.policies import make_policy

    from ..learners.sb3 import train
    from ..learners.search.trainer import player_spec
    from ..learners.search.trainer import train as train_search
    from ..progress import SILENT

    began = time.perf_counter()
    config = trial_config(spec, Path(out))
    with contextlib.redirect_stdout(io.StringIO()):  # the run's own lines, per trial
        if isinstance(config, SearchConfig):  # the suite reports per trial
            result = train_search(config, fresh=True, progress=SILENT)
            player = make_policy(player_spec(config))
        else:
            result = train(config, fresh=True, progress=SILENT)
            player = make_policy(f"model:path={result.run_dir / 'model.zip'}",
                                 game=spec.task.game)
    score, raw = measure(player, spec.task)
    return {"task": spec.task.name, "algo": spec.algo, "seed": spec.seed,
            "score": score["score"], "score_ci": score.get("ci"), "raw": raw,
            "timesteps": result.timesteps, "train_wall_time_s": result.wall_time_s,
            "wall_time_s": round(time.perf_counter() - began, 2),
            "task_spec": spec.task.record(), "settings": spec.settings}


def measure(player: Any, task: Task) -> tuple[dict[str, Any], dict[str, float]]:
    """The task's normalised score of ``player`` (with its CI for Monte Carlo) and the raw
    measures it was computed from (see the module docstring)."""
    if task.score == "exact-nashconv":
        from ..evaluation.yardstick import learner_exact

        mine = learner_exact(player, [task.opponents[0]], task.num_players, task.cards)
        base = random_reference(task)
        raw = {"nash_conv": mine.nash_conv, "random_nash_conv": base["nash_conv"],
               "exact_win": mine.win_probability[task.opponents[0]]}
        return {"score": 1.0 - mine.nash_conv / base["nash_conv"]}, raw
    row = _row(player, task)
    base = random_reference(task)
    if task.score == "exact-best-response":
        w = row.exact_win_probability
        ceiling, floor = base["best_response_win"], base["exact_win"]
        raw = {"exact_win": w, "random_exact_win": floor, "best_response_win": ceiling}
        return {"score": (w - floor) / (ceiling - floor)}, raw
    floor = base["win_rate"]
    scale = 1.0 - floor
    raw = {"win_rate": row.win_rate, "ci_low": row.ci_low, "ci_high": row.ci_high,
           "games": row.trials, "random_win_rate": floor}
    return {"score": (row.win_rate - floor) / scale,
            "ci": [(row.ci_low - floor) / scale, (row.ci_high - floor) / scale]}, raw


def _row(player: Any, task: Task) -> Any:
    """``player``'s row of the task's scoring games (exact where the score is): Pagadores' on
    its batch evaluator, another game's on the engine-driven one."""
    if task.game != PAGADORES:
        from ..evaluation.engine import evaluate_game

        return evaluate_game(task.game, [player, *task.opponents], task.num_players,
                             task.eval_games, EVAL_SEED, task.options).rows[0]
    from ..evaluation.evaluate import evaluate_agents

    return evaluate_agents([player, *task.opponents], num_players=task.num_players,
                           num_games=task.eval_games, seed=EVAL_SEED, cards=task.cards,
                           exact=task.score == "exact-best-response").rows[0]


#: ``random_reference`` by task, per process: a worker's later trials of a task reuse it.
_references: dict[str, dict[str, float]] = {}


def random_reference(task: Task) -> dict[str, float]:
    """The uniform-random policy's measures on the task (its score's 0), and the best
    response's exact win against the opponents (its 1, for ``exact-best-response``);
    computed once per task and process (``_reference`` does the work)."""
    key = json.dumps(asdict(task), sort_keys=True)
    if key not in _references:
        _references[key] = _reference(task)
    return _references[key]


def _reference(task: Task) -> dict[str, float]:
    if task.score == "exact-nashconv":
        from pagadores_env.core.policies import make_policy

        from ..evaluation.yardstick import learner_exact

        random = make_policy("random", seed=0)
        return {"nash_conv": learner_exact(random, [task.opponents[0]], task.num_players,
                                           task.cards).nash_conv}
    row = _row("random", task)
    if task.score == "monte-carlo":
        return {"win_rate": row.win_rate}
    best = (row.exact_best_response_win_probability if task.num_players == 2
            else row.exact_win_probability + row.exact_gain)
    return {"exact_win": row.exact_win_probability, "best_response_win": best}


# --------------------------------------------------------------------------- the suite
def trial_specs(suite: Suite) -> list[TrialSpec]:
    """Every trial, task by task, algorithm by algorithm, seed by seed."""
    return [TrialSpec(task, algo, suite.algorithms[algo], seed)
            for task in suite.tasks for algo in suite.algorithms for seed in suite.seeds]


def check_out_dir(out: Path) -> None:
    """``SuiteError`` unless ``out`` is new, empty, or a benchmark folder (``benchmark.json``):
    the benchmark never writes into a folder of other files."""
    if out.exists() and not out.is_dir():
        raise SuiteError(f"--out {out} is a file, not a folder")
    if out.is_dir() and any(p.name != LOCK for p in out.iterdir()) \
            and not (out / MARKER).is_file():
        raise SuiteError(f"--out {out} holds files not written by pagadores benchmark (no "
                         f"{MARKER}); pick a new or empty folder")


def finished(out: Path, spec: TrialSpec) -> bool:
    """True if the trial's record exists (a rerun skips it); ``SuiteError`` if the file
    is there but not a trial record of this spec (it is never overwritten)."""
    path = out / TRIALS / f"{spec.trial_id}.json"
    if not path.exists():
        return False
    try:
        record = json.loads(path.read_text())
        same = (record["task"], record["algo"], record["seed"]) == (
            spec.task.name, spec.algo, spec.seed)
    except (OSError, ValueError, KeyError, TypeError):
        same = False
    if not same:
        raise SuiteError(f"{path} is not this suite's trial record; move it away to rerun "
                         "the trial")
    return True


def run_suite(suite: Suite, out: str | Path, backend: str = "local", workers: int = 2,
              address: str | None = None, progress: bool | Reporter = True
              ) -> list[dict[str, Any]]:
    """Run every unfinished trial of ``suite`` on ``backend``, writing each record under
    ``out/trials/`` the moment it finishes; returns the records of the trials run now.
    ``progress`` reports a step per trial (``pagadores_train.progress``). Two suites must not
    share ``out`` at once: ``pagadores benchmark`` holds its lock (``pagadores_train.run.lock``)."""
    out = Path(out)
    if backend not in BACKENDS:
        raise SuiteError(f"--backend must be one of {', '.join(BACKENDS)}, got {backend!r}")
    integer(1, 256)(workers, "--workers")
    if address is not None and backend != "ray":
        raise SuiteError("--address is for --backend ray")
    check_out_dir(out)
    pending = [s for s in trial_specs(suite) if not finished(out, s)]
    (out / TRIALS).mkdir(parents=True, exist_ok=True)
    if not (out / MARKER).exists():
        write_atomic(out / MARKER, json.dumps({"written_by": "pagadores benchmark"}) + "\n")
    run = _run_local if backend == "local" else _run_ray
    done = []
    commit = provenance()["commit"]  # the code the trials start from, read before they run
    with reporter(progress).phase("trials", len(pending), "trial") as phase:
        for record in run(pending, str(out), workers, address):
            record["commit"] = commit
            write_atomic(out / TRIALS / f"{record_id(record)}.json",
                         json.dumps(record, indent=1) + "\n")
            done.append(record)
            phase.step(note=record_id(record))
    return done


def record_id(record: dict[str, Any]) -> str:
    """The trial id of a record (as ``TrialSpec.trial_id``)."""
    return f"{record['task']}__{record['algo']}__seed{record['seed']}"


def _run_local(specs: list[TrialSpec], out: str, workers: int,
               address: str | None) -> Iterator[dict[str, Any]]:
    """Trials in a spawned process pool (``core.pool.in_pool``), yielded as they finish; a killed
    trial's run folder stays readable (files are written atomically) and a rerun trains it
    again."""
    return in_pool(run_trial, [(s, out) for s in specs], workers)


def _run_ray(specs: list[TrialSpec], out: str, workers: int,
             address: str | None) -> Iterator[dict[str, Any]]:
    """Trials as Ray tasks of one CPU each, yielded as they finish: on a local Ray of
    ``workers`` CPUs started here, or on the cluster at ``address``."""
    if not specs:
        return
    started = join_or_start(address, workers, SuiteError)
    import ray
    remote = ray.remote(num_cpus=1, max_retries=0)(run_trial)
    running: list[Any] = []
    try:
        running = [remote.remote(s, out) for s in specs]
        while running:
            ready, running = ray.wait(running, num_returns=1)
            yield ray.get(ready[0])
    finally:
        for ref in running:
            ray.cancel(ref, force=True)
        if started:
            ray.shutdown()


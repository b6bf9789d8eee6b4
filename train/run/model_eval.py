"""How a run measures its model (SB3's, RLlib's and the search trainer's alike): against
every evaluation opponent at every table size of the run, by Monte-Carlo games on the same
seeded games each time (so points of the learning curve and rows of the final table are
comparable), plus the solver's exact numbers where it covers the table.

**Exact numbers at two players**: the player's tabulation against each opponent's
(``pagadores_train.evaluation.yardstick``: exact win, % of the best response's, exploitability).

**Exact numbers at three or more players** (``eval.exact``): the NashConv of the model
playing every seat and its exact win against each evaluation opponent (reused in every other
seat, averaged over the seat rotation the games play: what the win rate estimates), all from
one solver pass that asks the model about each decision once (``yardstick.learner_exact``).
A pass asks the policies about every decision of the table: 3 players with 10 cards is
1.05e8 rows, about 2 CPU minutes with a small network. So they are computed at every
evaluation when the pass asks at most ``EVERY_ROWS`` rows (3 players, 10 cards: NashConv and
the win against one opponent), else at the final evaluation only when it asks at most
``FINAL_ROWS``, else not at all; a table the solver does not cover (4 players with many
cards) gets none. The final report says which, in one line, and where ``pagadores nashconv``'s
passes a seat at a time would fit (4 players with 10 cards: about an hour on 2 cores), names
that command. The final evaluation reuses the
exact numbers of an evaluation of the same weights (the scheduled one at the last step)
instead of solving again (``measured_exactly``).

**The games without a compiled kernel** (Perudo, Paye's dobbelspel, Pasch) are played by the
engine-driven evaluator (``pagadores_train.evaluation.engine``) and get their exact yardstick's
numbers where it covers the table (``eval.exact``; ``pagadores_train.evaluation.exact_games``):
Perudo's exploitability at 2 players with 1 die, Paye's exploitability and exact wins at 2
players and NashConv at 3 (every evaluation) and 4 players (the final one: its pass takes
minutes), Pasch's last-round NashConv at 2 and 3 players. Which way a game is measured is
``MEASURED``, one entry per game with a way of its own (Pagadores'), not a branch per game.

**Comparisons** (``eval.compare``): each agent measured as the final evaluation measures the
model, its exact numbers from the cache of ``pagadores_train.evaluation.compare``.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from stable_baselines3.common.base_class import BaseAlgorithm

from pagadores_env.core.policies import Policy, make_policy
from pagadores_env.pagadores.solver.passes import plan

from ..evaluation.compare import cache_key, cached_exact
from ..evaluation.engine import evaluate_game
from ..evaluation.evaluate import AgentStats, evaluate_agents
from ..evaluation.exact_games import exact_numbers
from ..evaluation.yardstick import (
    NOISE,
    ExactMetrics,
    LearnerExact,
    learner_cost,
    learner_exact,
    opponent_yardstick,
    yardstick,
)
from ..progress import SILENT, Phase, Reporter
from .config import Config, table_sizes

#: Policy rows (``yardstick.learner_cost``) the exact numbers of a 3+-player run may ask at
#: every evaluation: 3 players with 10 cards and one opponent (1.05e8 rows; two ask 1.47e8;
#: a small SB3 network answers about 1e6 rows a CPU second).
EVERY_ROWS = 13 * 10**7


#: The same at the final evaluation only: about three times as many.
FINAL_ROWS = 32 * 10**7


@dataclass(frozen=True)
class Evaluation:
    """The model against one opponent: Monte-Carlo games (``stats``, the model's row) and, at
    two-player tables, the solver's exact numbers (``pagadores_train.evaluation.yardstick``).
    ``drawn`` marks exact numbers against a stochastic opponent: they hold for the one deterministic
    table its calls drew, not for the opponent itself."""

    opponent: str
    stats: AgentStats
    exact: ExactMetrics | None = None
    drawn: bool = False
    #: Three or more players: the exact win and the model's NashConv (``learner_exact``).
    exact_win: float | None = None
    nash_conv: float | None = None
    #: Why a 3+-player evaluation has no exact numbers ("" when it has them or is 2-player).
    note: str = ""
    #: The table size, in runs that train at several (``env.num_players`` a list), else None.
    players: int | None = None
    #: A game without a kernel at 2 players (Perudo's 1-die table, Paye's base game): the
    #: policy's exact exploitability (``evaluation.exact_games``)
    exploitability: float | None = None
    #: The lines of the final table saying what a game's exact numbers mean
    #: (``evaluation.exact_games``; Pagadores' are ``reports.RunResult.table``'s own)
    legend: tuple[str, ...] = ()

    @property
    def label(self) -> str:
        """The opponent, with the table size in runs at several sizes."""
        return self.opponent if self.players is None else f"{self.opponent} ({self.players}p)"

    @property
    def exact_win_probability(self) -> float | None:
        """The exact win against this opponent at any table size (None: not computed)."""
        return self.exact_win if self.exact is None else self.exact.win_probability

    @property
    def exact_exploitability(self) -> float | None:
        """The policy's exact exploitability at two players (either game), or None."""
        return self.exploitability if self.exact is None else self.exact.exploitability

    @property
    def exact_nash_conv(self) -> float | None:
        """The model's NashConv (at two players twice its exploitability), or None."""
        return self.nash_conv if self.exact is None else 2 * self.exact.exploitability

    def row(self) -> dict[str, Any]:
        """The CSV columns after timesteps and wall time (exact ones empty when absent)."""
        s, x = self.stats, self.exact
        win, nash, exploited = (self.exact_win_probability, self.exact_nash_conv,
                                self.exact_exploitability)
        # wins are win shares (1/k of a first place shared by k): whole in most games
        wins = int(s.wins) if float(s.wins).is_integer() else round(float(s.wins), 4)
        return {"opponent": self.label, "games": s.trials, "wins": wins,
                "win_rate": round(s.win_rate, 4), "ci_low": round(s.ci_low, 4),
                "ci_high": round(s.ci_high, 4), "mean_placement": round(s.mean_placement, 3),
                "exact_win": "" if win is None else round(win, 5),
                "percent_of_best_response":
                    "" if x is None else round(x.percent_of_best_response, 3),
                "exploitability": "" if exploited is None else significant(exploited),
                "exact_vs_drawn_table": "" if x is None else self.drawn,
                "nash_conv": "" if nash is None else significant(nash)}


def significant(value: float) -> float:
    """A gap to the equilibrium for the CSV: five decimals, and below 0.001 four significant
    digits, so a trained player's 2.4e-06 is not written as 0.0; the solver's rounding noise
    is 0."""
    if abs(value) < NOISE:
        return 0.0
    return round(value, 5) if abs(value) >= 1e-3 else float(f"{value:.4g}")


def evaluate_model(model: BaseAlgorithm, config: Config, games: int, final: bool = False,
                   progress: Reporter = SILENT, label: str = "evaluation") -> list[Evaluation]:
    """The model against every evaluation opponent (``evaluate_player``). It plays through
    the ``model:path=…`` player (``pagadores_agents.sb3_adapter``), from a temporary copy;
    its exact numbers at three or more players are reused for the same weights
    (``measured_exactly``)."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "model.zip"
        model.save(path)
        player = make_policy(f"model:path={path}", game=config.env.game)
        return evaluate_player(player, config, games, final,
                               lambda at: measured_exactly(model, player, at, progress),
                               progress, label)


def evaluate_player(player: Policy, config: Config, games: int, final: bool,
                    exact_of: Callable[[Config], LearnerExact], progress: Reporter = SILENT,
                    label: str = "evaluation") -> list[Evaluation]:
    """``player`` against every evaluation opponent at every table size of the run, on the
    same seeded games each time so points on the learning curve (and rows of the final table)
    are comparable. Exact numbers at two players cost one tabulation of the player;
    opponents' tabulations are cached across evaluations. At three or more players they are
    ``exact_of(config at that size)`` (solver passes), so they are done when quick or
    ``final`` (see "Exact numbers" above; ``exact_plan``). ``progress`` reports the phase
    (``label``): a step per opponent and table size, and one for the exact numbers."""
    sizes = table_sizes(config.env)
    steps = len(sizes) * (len(config.eval.opponents) + config.eval.exact)
    with progress.phase(label, steps, "step") as phase:
        if len(sizes) == 1:
            return evaluate_at_size(player, config, games, final, exact_of, phase, progress)
        return [replace(r, players=n) for n in sizes
                for r in evaluate_at_size(player, at_size(config, n), games, final, exact_of,
                                          phase, progress)]


def at_size(config: Config, num_players: int) -> Config:
    """``config`` with its env at one table size (to evaluate a run at several)."""
    return replace(config, env=replace(config.env, num_players=num_players))


def evaluate_at_size(player: Policy, config: Config, games: int, final: bool,
                     exact_of: Callable[[Config], LearnerExact], phase: Phase,
                     progress: Reporter) -> list[Evaluation]:
    """``evaluate_player`` at a config of one table size, a ``phase`` step per opponent and
    one for the exact numbers (``progress`` reports the solver passes within it): the game's
    way of measuring (``MEASURED``), the engine-driven evaluator's by default."""
    env = config.env
    size = f" ({env.num_players}p)" if len(table_sizes(config.env)) > 1 else ""

    def against(opponent: str, stats: AgentStats) -> Evaluation:
        phase.step(note=f"{games:,} games against {opponent}{size}")
        return Evaluation(opponent, stats)

    measured = MEASURED.get(env.game, on_engine)
    return measured(player, config, games, final, exact_of, phase, against)


#: ``(opponent, its games' row of the model)`` → the ``Evaluation`` (a step of the phase).
Against = Callable[[str, AgentStats], Evaluation]


def on_engine(player: Policy, config: Config, games: int, final: bool,
              exact_of: Callable[[Config], LearnerExact], phase: Phase,
              against: Against) -> list[Evaluation]:
    """A game without a compiled kernel: its games by the engine-driven evaluator
    (``evaluation.engine.evaluate_game``), its exact numbers by its yardstick where that
    covers the table (``evaluation.exact_games``; the same for every opponent but the exact
    win)."""
    env = config.env
    results = [against(opponent, evaluate_game(env.game, [player, opponent], env.num_players,
                                               games, config.seed, env.options).rows[0])
               for opponent in config.eval.opponents]
    if not config.eval.exact:
        return results
    found = exact_numbers(env.game, player, env.num_players, env.options,
                          config.eval.opponents, final)
    phase.step(note="exact numbers")
    return [replace(r, exploitability=found.exploitability, nash_conv=found.nash_conv,
                    exact_win=found.win.get(r.opponent), note=found.note, legend=found.legend)
            for r in results]


def on_kernel(player: Policy, config: Config, games: int, final: bool,
              exact_of: Callable[[Config], LearnerExact], phase: Phase,
              against: Against) -> list[Evaluation]:
    """Pagadores: its games on the compiled batch engine (``evaluate.evaluate_agents``), its
    exact numbers from the solver (see "Exact numbers" above)."""
    env = config.env
    results = [
        against(opponent, evaluate_agents([player, opponent], num_players=env.num_players,
                                          num_games=games, seed=config.seed, cards=env.cards,
                                          exact=False).rows[0])
        for opponent in config.eval.opponents
    ]
    if not config.eval.exact:
        return results
    if env.num_players > 2:
        wanted, note = exact_plan(player, config, final)
        if not wanted:
            phase.step(note="exact numbers skipped")
            return [replace(r, note=note) for r in results]
        measured = exact_of(config)
        phase.step(note="exact numbers")
        return [replace(r, exact_win=measured.win_probability[r.opponent],
                        nash_conv=measured.nash_conv) for r in results]
    phase.step(note="exact yardstick")
    if not isinstance(env.cards, int):
        return results  # the two-player yardstick needs one card count for both
    mine = yardstick(player, env.cards)
    return [replace(r, exact=mine.against(theirs), drawn=not theirs.exact)
            for r in results for theirs in [opponent_yardstick(r.opponent, env.cards)]]


#: How a run measures its model, per game with a way of its own: Pagadores on its compiled
#: kernel with its solver; every other game ``on_engine``.
MEASURED = {"pagadores": on_kernel}


def compare_agents(config: Config, progress: Reporter = SILENT) -> dict[str, list[Evaluation]]:
    """Every ``eval.compare`` agent measured as the final evaluation measures the model
    (``evaluate_player``), its exact numbers from the cache of
    ``pagadores_train.evaluation.compare``."""
    compared = {}
    for i, spec in enumerate(config.eval.compare):
        player = make_policy(spec, game=config.env.game, seed=config.seed)

        def exact(at: Config, player: Policy = player, spec: str = spec) -> LearnerExact:
            env = at.env
            key = cache_key(spec, at.eval.opponents, env.num_players, env.cards, at.seed)
            return cached_exact(key, lambda: learner_exact(
                player, at.eval.opponents, env.num_players, env.cards, at.seed,
                progress=progress, label=f"exact pass of {spec}"), progress=progress,
                label=f"exact numbers of {spec}")
        label = f"comparison {i + 1}/{len(config.eval.compare)}: {spec}"
        compared[spec] = evaluate_player(player, config, config.eval.final_games, True, exact,
                                         progress, label)
    return compared


def exact_plan(player: Policy, config: Config, final: bool) -> tuple[bool, str]:
    """Whether this evaluation of a 3+-player run gets exact numbers (``learner_exact``),
    and the note saying why not: a table beyond the solver, or passes asking more policy
    rows than ``EVERY_ROWS`` (every evaluation) or ``FINAL_ROWS`` (the final one)."""
    env = config.env
    try:
        rows = learner_cost(player, config.eval.opponents, env.num_players, env.cards)
    except ValueError as err:
        return False, f"exact: not covered: {err}; Monte Carlo only{_per_seat_hint(player, env)}"
    if rows <= EVERY_ROWS or (final and rows <= FINAL_ROWS):
        return True, ""
    limit = FINAL_ROWS if final else EVERY_ROWS
    return False, (f"exact: skipped: the solver passes would ask the model {rows:.1e} rows, "
                   f"more than the {limit:.0e} allowed at {'the final' if final else 'each'} "
                   "evaluation; Monte Carlo only")


def _per_seat_hint(player: Policy, env: Any) -> str:
    """Where the one-pass evaluation does not fit but ``pagadores nashconv``'s passes a
    seat at a time (``solver.passes.plan``) do, the note says so: training does not wait an
    hour for them, a user can (the command takes one card count for every seat)."""
    if not isinstance(env.cards, int):
        return ""
    try:
        plan([player], env.num_players, env.cards, True, "compute NashConv of")
    except ValueError:
        return ""
    return (" (`pagadores nashconv model:path=RUN/model.zip --players "
            f"{env.num_players} --cards {env.cards} --workers 2` scores the saved model "
            "exactly, a pass per seat)")


#: The run's last ``learner_exact`` result, by what it measured (``weights_key``, opponents,
#: table): the final evaluation of a run whose last scheduled evaluation fell on its last step
#: asks the same weights again.
_last_exact: dict[tuple[object, ...], LearnerExact] = {}


def forget_exact() -> None:
    """Forget the exact numbers ``measured_exactly`` keeps: they are reused within a run only."""
    _last_exact.clear()


def weights_key(model: BaseAlgorithm) -> bytes:
    """The model's policy weights as bytes: equal exactly when it plays the same."""
    return b"".join(t.detach().cpu().numpy().tobytes()
                    for t in model.policy.state_dict().values())


def measured_exactly(model: BaseAlgorithm, player: Policy, config: Config,
                     progress: Reporter = SILENT) -> LearnerExact:
    """``learner_exact`` of ``player`` (``model`` saved as a policy) at the run's table,
    reused when the previous call measured the same weights the same way."""
    return exact_pass(player, progress, "exact pass of the model", weights_key(model))(config)


def exact_pass(player: Policy, progress: Reporter = SILENT, label: str = "exact pass",
               weights: bytes | None = None) -> Callable[[Config], LearnerExact]:
    """``evaluate_player``'s ``exact_of`` for ``player``: its ``learner_exact`` at a config's
    table (``progress`` hears the pass as ``label``). Given the bytes of what decides its play
    (``weights``), a measure is reused while the next call measures the same bytes the same
    way (the final evaluation of a run whose last scheduled one fell on its last step)."""

    def exact(config: Config) -> LearnerExact:
        env = config.env
        key = (weights, tuple(config.eval.opponents), env.num_players, str(env.cards),
               config.seed)
        if weights is not None and key in _last_exact:
            return _last_exact[key]
        measured = learner_exact(player, config.eval.opponents, env.num_players, env.cards,
                                 config.seed, progress=progress, label=label)
        if weights is not None:
            _last_exact.clear()
            _last_exact[key] = measured
        return measured
    return exact


def evaluate_run(spec: str, config: Config, progress: Reporter = SILENT,
                 weights: bytes | None = None, label: str = "exact pass of the policy"
                 ) -> list[Evaluation]:
    """The final evaluation of another trainer's run (RLlib's, the search trainer's, with
    ``config`` its evaluation settings: ``config.evaluation_config``): its player ``spec``
    (``rllib:path=RUN_DIR``, ``search:path=RUN_DIR``) against every evaluation opponent over
    ``eval.games`` games, with the exact numbers where the solver covers the table
    (``exact_pass``: ``weights`` and ``label`` as there)."""
    player = make_policy(spec, seed=config.seed)
    return evaluate_player(player, config, config.eval.games, True,
                           exact_pass(player, progress, label, weights), progress,
                           "final evaluation")


def final_evaluation(model: BaseAlgorithm, config: Config,
                     progress: Reporter = SILENT) -> list[Evaluation]:
    """``evaluate_model`` with the final evaluation's number of games."""
    return evaluate_model(model, config, config.eval.final_games, final=True,
                          progress=progress, label="final evaluation")

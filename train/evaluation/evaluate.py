"""Pit agents against each other and report who is better, with honest error bars.

``evaluate_agents`` (a round-robin of such matches is ``pagadores_train.evaluation.tournament``) is
seeded and reproducible bit for bit, playing on the batch engine
(``pagadores_env.pagadores.vector.evaluate.play_lineup``: ``CHUNK`` games in lock-step, pinned to
``engine.Game`` by the differential test), so each agent answers all its pending decisions in one
``act_batch`` call (one forward pass for a model; an agent without ``act_batch`` is asked row by
row):

``evaluate_agents(agents, num_players, num_games, seed, cards, progress, exact, label)``
    ``agents[0]`` is the agent under test; the rest fill the other seats, either one entry per
    other seat (``len(agents) == num_players``) or a single opponent reused in every other
    seat (``len(agents) == 2``). An agent is a spec string (``"threshold:min_points=100"``,
    ``"model:path=runs/x/model.zip"``) or a policy object (anything with ``act(obs, mask)``).
    Seats are rotated: in game ``g`` entry ``i`` sits at seat ``(i + g) % num_players``. Seat 0
    always insteeks the first round (R3.1), so rotation also rotates who starts; ``num_games``
    is rounded up to a multiple of ``num_players`` so every entry sits in every seat equally
    often and nobody profits from seat order (the table says so when it rounded:
    ``rounding_note``). A player that must know its seat (``equilibrium`` at 4+ players: the
    observation does not say it) is told it: each seat it rotates through is played by its
    copy for that seat (``policies``' ``for_seat``; ``vector.evaluate.seat_players``), and one
    given a fixed ``seat=`` is refused, as a rotation cannot keep it there.

Per agent ``EvalResult`` reports: win rate with a 95 % Wilson confidence interval, mean final
placement (1 = winner; players knocked out together share a place), mean cards lost per round
played (cards lost over the game / rounds it was in), and the mean game length in rounds.

Evaluations also carry the exact yardstick (``exact``; ``pagadores_train.evaluation.yardstick``). At
two players (on by default): each agent's exact win probability against the other, averaged over who
insteeks first exactly as the seat rotation averages, its % of the best response's value against
that opponent, and its exploitability. Tabulating an agent asks it about all 512 500 decision states
once (well under a second with a vectorised ``act_batch``, ~9 s for ``lookahead``, longer for a
scalar-only ``act``). At three or more players (``yardstick.lineup_exact``): each agent's exact win
probability averaged over the same seat rotation the games play (so it is what the Monte-Carlo win
rate estimates), what its seats gain by switching to their best response (``BR gain``) and the
lineup's NashConv; one solver pass per rotation, asking every policy about every decision (3 players
with 10 cards: about 6e7 rows a pass, a model's forward passes being slower than a heuristic). By
default they are computed when the passes ask at most ``yardstick.QUICK_ROWS`` rows; ``exact=True``
computes them whenever the solver covers the table. The table's note says which: exact, skipped (and
why) or not covered (naming the limit), Monte Carlo only. ``exact=False`` skips the exact columns at
any table.

Randomness (``pagadores_env.core.seeding``): agent row ``r``'s own generator is seeded with
``child_seed(seed, 1, r)``; the dice of all games come from one generator,
``child_rng(seed, 3)``; a tournament's pair ``(i, j)`` is evaluated with the seed
``child_seed(seed, 2, i, j)``. So a result depends only on its arguments. (Before 0.2 an
agent without ``vectorised = True`` was played on separate ``engine.Game`` tables with dice
``(seed, 0, g)`` per game: those results differ from today's within sampling error.)

Progress (``progress``: a ``pagadores_train.progress.Reporter``, or True for bars) is reported
per phase: the games (a status line per tenth of them, as chunks finish), the exact passes
(one step per agent tabulated at two players, per solver pass at three or more) and a
tournament's pairs (one step per pair).

Both results write CSV, JSON and a plot (``to_csv``, ``to_json``, ``plot``), each file
atomically (``pagadores_env.core.atomic``): an interrupted write leaves the earlier file.
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any

import numpy as np

from pagadores_env.core.atomic import write_atomic
from pagadores_env.core.checks import check_int
from pagadores_env.core.policies import (
    BasePolicy,
    Named,
    Policy,
    SupportsReset,
    batch_actions,
    check_tables,
    make_policy,
    monte_carlo_only,
)
from pagadores_env.core.seeding import child_rng, child_seed
from pagadores_env.pagadores.engine import Game
from pagadores_env.pagadores.rules import MAX_PLAYERS, MIN_PLAYERS
from pagadores_env.pagadores.vector.evaluate import Totals, play_lineup, seat_players

from ..progress import Reporter, reporter
from .yardstick import (
    DRAWN,
    QUICK_ROWS,
    LineupExact,
    Yardstick,
    decimals,
    lineup_cost,
    lineup_exact,
    yardstick,
)

AgentLike = str | Policy
Z95 = 1.959963984540054  # two-sided 95 % normal quantile
CHUNK = 65_536  # games played in lock-step; fixed, because it orders the dice generator's draws


def wilson_interval(wins: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion; (0, 1) when there are no trials."""
    if trials == 0:
        return 0.0, 1.0
    p = wins / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z / denom * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials))
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True)
class AgentStats:
    """One row of an evaluation. ``copies`` > 1 when one opponent fills several seats; its
    numbers are then per seat (``trials = games × copies``), comparable with the fair share."""

    label: str
    copies: int
    trials: int
    wins: int
    win_rate: float
    ci_low: float
    ci_high: float
    mean_placement: float
    cards_lost_per_round: float
    seat_counts: tuple[int, ...]  # games played in each seat (all copies together)
    # The exact yardstick (None where not computed): see ``pagadores_train.evaluation.yardstick``.
    exact_win_probability: float | None = None
    # Two players only: the best response's win against the same opponent, the agent's % of
    # it and the agent's exploitability.
    exact_best_response_win_probability: float | None = None
    exact_percent_of_best_response: float | None = None
    exact_exploitability: float | None = None
    # False: a drawn table of a stochastic agent (†); None at 3+ players, where each policy
    # is asked once per decision and nothing is asked again to tell.
    exact_deterministic: bool | None = None
    # Three or more players only: what this agent's seats gain by switching to their best
    # response (per seat), and the whole lineup's NashConv (the same in every row).
    exact_gain: float | None = None
    exact_nash_conv: float | None = None

    @property
    def has_exact(self) -> bool:
        """True if the exact columns are filled in."""
        return self.exact_win_probability is not None


def _exact_cell(row: AgentStats) -> str:
    drawn = row.exact_deterministic is False
    return decimals(row.exact_win_probability or 0.0) + (DRAWN if drawn else "")


#: Table columns (header, cell) in order; the exact ones sit next to the Monte-Carlo win rate.
_Column = tuple[str, Callable[[AgentStats], str]]
FRONT: tuple[_Column, ...] = (
    ("agent", lambda r: r.label),
    ("seats", lambda r: str(r.copies)),
    ("win rate", lambda r: f"{r.win_rate:.3f}"),
    ("95% CI", lambda r: f"[{r.ci_low:.3f}, {r.ci_high:.3f}]"),
)
_EXACT: tuple[_Column, ...] = (
    ("exact win", _exact_cell),
    ("% of BR", lambda r: f"{r.exact_percent_of_best_response:.1f}"),
    ("exploitability", lambda r: decimals(r.exact_exploitability or 0.0)),
)
BACK: tuple[_Column, ...] = (
    ("mean place", lambda r: f"{r.mean_placement:.2f}"),
    ("cards lost/round", lambda r: f"{r.cards_lost_per_round:.3f}"),
)
_TABLE_EXACT: tuple[_Column, ...] = (
    ("exact win", _exact_cell),
    ("BR gain", lambda r: decimals(r.exact_gain or 0.0)),
)
_EXACT_NOTE = ("exact: solver values averaged over who insteeks first; % of BR = exact win / the "
               "best response's exact win against the same opponent × 100; exploitability = "
               "the best response's exact win against the agent − 0.5")
_TABLE_NOTE = ("exact: solver values averaged over the seat rotation the games play; BR gain = "
               "what the agent's seats win by switching to their best response while the "
               "others keep theirs; NashConv of the lineup = the sum of every seat's gain: {}")
_DRAWN_NOTE = (f"{DRAWN} stochastic agent: its exact columns are for the one deterministic table "
               "its calls drew (the solver cannot evaluate a mixed policy)")


@dataclass(frozen=True)
class EvalResult:
    """What ``evaluate_agents`` returns: one ``AgentStats`` per entry (reused opponents
    merged)."""

    num_players: int
    num_games: int
    seed: int
    cards: int
    mean_game_length: float
    rows: tuple[AgentStats, ...]
    #: Why a 3+-player evaluation has no exact columns ("" when it has them or was not asked).
    exact_note: str = ""
    #: The games asked for, which ``num_games`` rounds up to whole seat rotations
    #: (``rounding_note``); None where not known.
    games_asked: int | None = None

    @property
    def has_exact(self) -> bool:
        """Whether the rows carry the exact yardstick."""
        return bool(self.rows) and all(r.has_exact for r in self.rows)

    def table(self) -> str:
        """An aligned plain-text table, one line per agent (exact columns when present)."""
        multi = self.num_players > 2
        exact = (_TABLE_EXACT if multi else _EXACT) if self.has_exact else ()
        columns = (*FRONT, *exact, *BACK)
        header = tuple(name for name, _ in columns)
        body = [tuple(cell(r) for _, cell in columns) for r in self.rows]
        title = (f"{self.num_games} games, {self.num_players} players, {self.cards} cards, "
                 f"seed {self.seed}; mean game length "
                 f"{self.mean_game_length:.2f} rounds; fair share {1 / self.num_players:.3f}")
        notes = [note for note in (rounding_note(self.num_games, self.games_asked,
                                                 self.num_players), self.exact_note) if note]
        if self.has_exact:
            notes.append(_TABLE_NOTE.format(decimals(self.rows[0].exact_nash_conv or 0.0))
                         if multi else _EXACT_NOTE)
        if self.has_exact and any(r.exact_deterministic is False for r in self.rows):
            notes.append(_DRAWN_NOTE)
        return "\n".join([title, aligned([header, *body]), *notes])

    def to_csv(self, path: str | Path) -> None:
        """One CSV line per agent, plus the run's settings in every line."""
        settings = {"num_players": self.num_players, "num_games": self.num_games,
                    "seed": self.seed, "cards": self.cards,
                    "mean_game_length": self.mean_game_length}
        names = [f.name for f in fields(AgentStats)] + list(settings)
        buffer = io.StringIO()
        writer = csv.DictWriter(buffer, fieldnames=names)
        writer.writeheader()
        for row in self.rows:
            line = asdict(row)
            line["seat_counts"] = " ".join(map(str, row.seat_counts))
            writer.writerow(line | settings)
        write_atomic(path, buffer.getvalue())

    def to_json(self, path: str | Path) -> None:
        """Write every field as JSON to ``path``, atomically."""
        write_atomic(path, json.dumps(asdict(self), indent=2))

    def plot(self, path: str | Path) -> None:
        """Win-rate bars with 95 % CI error bars, the exact win probabilities as diamonds
        (when present) and the fair-share (1/num_players) line."""
        fig = figure()
        ax = fig.add_subplot()
        labels = [r.label for r in self.rows]
        rates = np.array([r.win_rate for r in self.rows])
        errors = np.array([[r.win_rate - r.ci_low for r in self.rows],
                           [r.ci_high - r.win_rate for r in self.rows]])
        ax.bar(range(len(labels)), rates, yerr=errors, capsize=6, color="tab:blue")
        if self.has_exact:
            ax.scatter(range(len(labels)), [r.exact_win_probability for r in self.rows],
                       marker="D", color="black", zorder=3, label="exact")
        ax.axhline(1 / self.num_players, color="tab:red", linestyle="--",
                   label=f"fair share {1 / self.num_players:.0%}")
        ax.set_xticks(range(len(labels)), labels, rotation=20, ha="right")
        ax.set_ylim(0, 1)
        ax.set_ylabel("win rate (95% Wilson CI)")
        ax.set_title(f"{self.num_players} players, {self.num_games} games, seats rotated")
        ax.legend()
        save_figure(fig, path)


# ---------------------------------------------------------------------- public API
def evaluate_agents(agents: Sequence[AgentLike], num_players: int = 2, num_games: int = 1000,
                    seed: int = 0, cards: int = 10, progress: bool | Reporter = False,
                    exact: bool | None = None, label: str = "evaluate") -> EvalResult:
    """Play ``num_games`` games (rounded up to a multiple of ``num_players``) with rotated seats
    on the batch engine (``play_lineup``); what ``pagadores evaluate`` runs.

    ``agents[0]`` is under test; ``agents[1:]`` is one entry per other seat or one opponent
    reused. Spec strings are built with ``make_policy(spec, seed=...)``; policy objects are
    ``reset(seed)`` when they have ``reset``; a player that must know its seat plays each seat
    as its copy for that seat (``seat_players``). ``progress`` (a ``Reporter``, or True for
    bars) reports the games as phase ``label`` and the exact columns as ``label (exact)``
    (see the module docstring). ``exact`` adds the exact yardstick to each row: ``None``
    (default) at two players always, at three or more when the solver covers the table and
    its passes ask at most ``yardstick.QUICK_ROWS`` policy rows (else ``exact_note`` says why
    not); ``True`` whenever covered. The exact win
    at 3+ players is the average over the seat rotation the games play, seat 0 insteeking
    first in each (``yardstick.lineup_exact``), so it is what ``win_rate`` estimates.
    After the games, each agent is reseeded as before them and tabulated, so the exact
    columns depend only on the arguments too. Raises ``ValueError`` on a bad agent count,
    spec, ``num_players``, ``num_games``, ``seed``, ``cards`` or ``exact`` (``True`` at a
    table the solver does not cover), for an agent that cannot play this table
    (``policies.check_tables``, e.g. ``optimal`` at 3+ players) and for one given a seat the
    rotation cannot keep it in (``equilibrium:seat=0``), all before any game.
    """
    check_int("num_players", num_players, MIN_PLAYERS, MAX_PLAYERS)
    check_int("num_games", num_games, 1)
    check_int("seed", seed, 0)
    Game(num_players, cards)  # validates cards with the engine's message
    asked = exact
    exact = _exact_wanted(exact, num_players, cards)
    agents = list(agents)
    row_of_entry = entry_rows(len(agents), num_players)
    policies = [_build(agent, seed, row) for row, agent in enumerate(agents)]
    check_tables(seat_players(policies, num_players)[0], num_players, cards)
    note = ""
    slow = [p for p in policies if monte_carlo_only(p)]
    if slow and asked:
        raise ValueError(f"{getattr(slow[0], 'name', slow[0])!r} plays Monte Carlo only: no "
                         f"exact columns with it (exact=False, --no-exact)")
    if slow:
        exact, note = False, (f"exact: skipped: {getattr(slow[0], 'name', slow[0])!r} plays "
                              f"Monte Carlo only")
    if num_players > 2 and exact is not False:
        exact, note = _lineup_plan(exact, policies, num_players, cards)
    games = -(-num_games // num_players) * num_players
    report = reporter(progress)
    with report.phase(label, games, "game") as phase:
        played = play_lineup(policies, row_of_entry, games, child_rng(seed, 3), cards, CHUNK,
                             phase.step, lambda done: phase.note(f"{done:,} decisions played"))
    totals = played.totals(len(policies))
    labels = agent_labels(agents, policies)
    rows = tuple(_stats(totals, r, labels[r], row_of_entry.count(r))
                 for r in range(len(policies)))
    if exact and num_players == 2:
        rows = _with_exact(rows, policies, seed, cards, report, f"{label} (exact)")
    elif exact:
        measured = lineup_exact(policies, row_of_entry, cards,
                                before_pass=lambda: [reseed_row(p, seed, r)
                                                     for r, p in enumerate(policies)],
                                progress=report, label=f"{label} (exact)")
        rows = tuple(with_lineup_exact(stats, measured, r) for r, stats in enumerate(rows))
    return EvalResult(num_players, games, seed, cards, float(played.rounds.mean()), rows, note,
                      games_asked=num_games)


def _stats(totals: Totals, row: int, label: str, copies: int) -> AgentStats:
    """Agent row ``row``'s line of the table from the games' totals."""
    trials, wins = int(totals.seated[row].sum()), int(totals.wins[row].sum())
    low, high = wilson_interval(wins, trials)
    return AgentStats(label, copies, trials, wins, wins / trials, low, high,
                      totals.places[row] / trials, totals.cards_lost[row] / totals.rounds_in[row],
                      tuple(totals.seated[row].tolist()))


def _exact_wanted(exact: bool | None, num_players: int, cards: Any) -> bool | None:
    """``exact`` checked, and at two players resolved: None means "when the yardstick can"
    (one card count for both, R1.1); ``True`` where it cannot is an error, raised before any
    game. At three or more players ``_lineup_plan`` resolves it once the agents are built."""
    if exact is not None and not isinstance(exact, bool):
        raise ValueError(f"exact must be True, False or None (automatic), got {exact!r}")
    if num_players > 2:
        return exact
    solvable = isinstance(cards, int | np.integer)
    if exact and not solvable:
        raise ValueError(f"exact=True at 2 players needs one card count for both, "
                         f"got cards {cards!r}")
    return solvable if exact is None else exact


def _lineup_plan(exact: bool | None, policies: list[Policy], num_players: int,
                 cards: Any) -> tuple[bool, str]:
    """Whether a 3+-player evaluation gets its exact columns, and the note saying why not:
    not covered by the solver (an error if ``exact`` is True), or, unasked, beyond
    ``QUICK_ROWS``."""
    try:
        rows = lineup_cost(policies, num_players, cards)
    except ValueError as err:
        if exact:
            raise
        return False, f"exact: not covered: {err}; Monte Carlo only"
    if exact or rows <= QUICK_ROWS:
        return True, ""
    return False, (f"exact: skipped: its {num_players} solver passes would ask {rows:.1e} policy "
                   f"rows, more than the {QUICK_ROWS:.0e} done unasked (exact=True, or "
                   f"--exact at the command line, computes them); Monte Carlo only")


def _with_exact(rows: tuple[AgentStats, ...], policies: list[Policy], seed: int,
                cards: int, report: Reporter, label: str) -> tuple[AgentStats, ...]:
    """The two rows with each agent's exact yardstick against the other (phase ``label``:
    one step per agent tabulated)."""
    sticks: list[Yardstick] = []
    with report.phase(label, len(policies), "agent") as phase:
        for row, (policy, stats) in enumerate(zip(policies, rows, strict=True)):
            reseed_row(policy, seed, row)  # the table is drawn as from a fresh start of the run
            sticks.append(yardstick(policy, cards))
            phase.step(note=stats.label)
    return tuple(with_exact(stats, asdict(mine.against(theirs)), mine.exact)
                 for mine, theirs, stats in zip(sticks, reversed(sticks), rows, strict=True))


def with_lineup_exact(stats: AgentStats, measured: LineupExact, row: int) -> AgentStats:
    """``stats`` (agent row ``row`` of a 3+-player lineup) with its exact columns filled in
    from ``measured`` (``yardstick.lineup_exact``)."""
    return replace(stats, exact_win_probability=measured.win_probability[row],
                   exact_gain=None if measured.gain is None else measured.gain[row],
                   exact_nash_conv=measured.nash_conv)


def with_exact(stats: AgentStats, metrics: Mapping[str, float],
               deterministic: bool = True) -> AgentStats:
    """``stats`` with the exact columns filled in from ``metrics`` (an
    ``yardstick.exact_metrics`` dict); ``deterministic=False`` marks a drawn table (†)."""
    return replace(stats, **{f"exact_{key}": value for key, value in metrics.items()},
                   exact_deterministic=deterministic)


# ---------------------------------------------------------------------- helpers
def rounding_note(played: int, asked: int | None, num_players: int,
                  unit: str = "games") -> str:
    """The table's line saying why ``played`` games were played when ``asked`` were asked
    for: rounded up to whole seat rotations, so every agent sits in every seat equally often
    (R3.1: seat 0 insteeks first). "" when nothing was rounded (or ``asked`` is unknown)."""
    if asked is None or asked == played:
        return ""
    return (f"{played:,} {unit}: {asked:,} rounded up to whole seat rotations of "
            f"{num_players} (every agent sits in every seat equally often)")


def entry_rows(count: int, num_players: int) -> list[int]:
    """Which of ``count`` agents each seat's entry of a ``num_players`` lineup plays: one
    agent per seat, or two (the agent under test, then one opponent in every other seat).
    Raises ``ValueError`` in one line on any other count."""
    if count == num_players:
        return list(range(num_players))
    if count == 2:
        return [0] + [1] * (num_players - 1)
    if num_players == 2:  # one per seat is the same count as the agent and its opponent
        raise ValueError(f"agents must be 2 (the agent under test and its opponent), got {count}")
    raise ValueError(
        f"agents must be {num_players} entries (one per seat) or 2 (the agent under test "
        f"and one opponent reused), got {count}"
    )


def _build(agent: AgentLike, seed: int, row: int) -> Policy:
    if isinstance(agent, str):
        return make_policy(agent, seed=child_seed(seed, 1, row))
    return reseed_row(make_policy(agent), seed, row)


def reseed_row(policy: Policy, seed: int, row: int) -> Policy:
    """``policy`` reseeded as agent row ``row`` of a run seeded ``seed`` (when it has a
    generator: ``reset``, ``policies.SupportsReset``), so a result depends only on its
    arguments; returns it."""
    if isinstance(policy, SupportsReset):
        policy.reset(child_seed(seed, 1, row))
    return policy


class Acting(BasePolicy):
    """A policy's ``act_batch`` alone, so an exact yardstick that measures a policy stating
    its probabilities as that mixture (Perudo's, Paye's, Pasch's) measures the deterministic
    play that evaluations see instead."""

    def __init__(self, policy: Policy) -> None:
        super().__init__()
        self.policy = policy
        self.name = str(policy.name) if isinstance(policy, Named) else "acting"

    def act_batch(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """The wrapped policy's actions."""
        return batch_actions(self.policy, obs, mask)

    def act(self, obs: np.ndarray, mask: np.ndarray) -> int:
        """The wrapped policy's action at one row."""
        return int(self.act_batch(np.asarray(obs)[None], np.asarray(mask)[None])[0])


def agent_labels(agents: list[AgentLike], policies: Sequence[AgentLike]) -> list[str]:
    """Spec strings as given, else the policy's name (``policies.Named``; else the policy as a
    string); repeats get ``#2``, ``#3`` and so on."""
    labels: list[str] = []
    for agent, policy in zip(agents, policies, strict=True):
        base = agent if isinstance(agent, str) else str(
            policy.name if isinstance(policy, Named) else policy)
        label, k = base, 1
        while label in labels:
            k += 1
            label = f"{base}#{k}"
        labels.append(label)
    return labels


def aligned(rows: list[tuple[str, ...]]) -> str:
    """``rows`` as a text table: the first column left-aligned, the rest right-aligned, a
    rule under the header row."""
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(c.ljust(w) if i == 0 else c.rjust(w)
                       for i, (c, w) in enumerate(zip(row, widths, strict=True))).rstrip()
             for row in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def figure(size: tuple[float, float] = (7.0, 4.5)) -> Any:
    """A matplotlib figure on the Agg canvas: no pyplot, no global backend switch."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=size, layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def save_figure(fig: Any, path: str | Path) -> None:
    """Render ``fig`` in the format its file suffix names (PNG without one) and write it
    atomically."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format=Path(path).suffix.lstrip(".") or "png")
    write_atomic(path, buffer.getvalue())

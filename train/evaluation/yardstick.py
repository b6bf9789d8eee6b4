"""The exact yardstick: exact win probabilities straight from the solver
(``pagadores_env.pagadores.solver``) — at two players with % of the best response's value and
exploitability, at three or more with NashConv (see "Tables of three or more" below).

An agent is tabulated once (``policy_table``: its action at every two-player decision state,
asked in a few large ``act_batch`` calls) into a :class:`Yardstick`, which also holds the exact
best response against it. Comparing two yardsticks is then one backward pass:

- **exact win probability** of A against B, averaged over who insteeks the first round (R3.1):
  the very quantity a seat-rotated ``evaluate_agents`` (``pagadores_train.evaluation.evaluate``)
  estimates by Monte Carlo;
- **% of best-response value**: A's exact win probability against B divided by the best
  response's against B, × 100. 100 means A beats B as well as anything can; a training curve
  climbing towards 100 against a fixed opponent is learning to exploit it;
- **exploitability** of A: the best response's exact win probability against A − ½, which is
  ``pagadores_env.pagadores.solver.exploitability`` (the two first-insteker game values add
  up to 1); 0 for optimal play.

Stochastic agents: a policy that reports its action probabilities (``throw_probabilities``,
as ``random`` does) is tabulated as those probabilities and evaluated exactly as the mixture.
A stochastic agent without that hook can only be evaluated as the deterministic table its
calls drew; :attr:`Yardstick.exact` is False for such a table (asking again gave
different answers), and reports mark it with ``†``.

``exact_metrics(policy, opponent)`` is the training-loop hook (the opponent's yardstick is
cached); the table of every agent against every other is ``pagadores exact``
(``pagadores_cli.exact_report``; ``docs/yardsticks.md``).

Tables of three or more (``lineup_exact``): a lineup (one policy per agent row, placed at
the seats by ``row_of_entry`` as ``evaluate_agents`` does) is solved once per seat rotation
with ``solver.nash_conv`` (or ``solver.exact_evaluate`` for the win alone): in rotation ``g``
entry ``e`` sits at seat ``(e + g) % n`` and seat 0 insteeks first (R3.1), exactly the games
a seat-rotated evaluation plays, so the averaged win probability is the very quantity its
Monte-Carlo win rate estimates. (At four or more players, or with unequal cards, seats
differ beyond who starts, R6.2's youngest seat, so rotating the agents is not the same as
rotating the first insteker.) A player that must know its seat plays each seat as its copy for
that seat (``vector.evaluate.seated``), as in the games. A pass asks every policy
about every decision of the table (``solver.solve_cost``), so ``lineup_cost`` says what the
passes ask before any starts, and ``ValueError`` if the table is beyond the solver's limits.
``lineup_exact`` reports one step per pass and ``learner_exact`` its one pass's positions to
``progress`` (a ``pagadores_train.progress.Reporter``; silent by default).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass

import numpy as np

from pagadores_env.core.policies import Policy, check_tables, make_policy, reads_lowest_only
from pagadores_env.pagadores.rules import MAX_CARDS
from pagadores_env.pagadores.solver import (
    BestResponse,
    PolicyTable,
    best_response,
    check_size,
    exact_evaluate,
    exact_evaluate_starts,
    nash_conv,
    policy_table,
    symmetric,
    win_probabilities,
)
from pagadores_env.pagadores.solver.cost import table_cards
from pagadores_env.pagadores.solver.equilibrium import nash_conv_and_evaluate
from pagadores_env.pagadores.solver.model import check_cards
from pagadores_env.pagadores.vector.evaluate import seated

from ..progress import Reporter, reporter

#: Marks an exact number that belongs to the deterministic table a stochastic agent drew.
DRAWN = "†"
#: Opponent yardsticks kept by ``exact_metrics`` (oldest dropped first).
CACHE_SIZE = 16

Agent = str | Policy | PolicyTable


@dataclass(frozen=True)
class ExactMetrics:
    """One agent measured exactly against one opponent (see the module docstring)."""

    win_probability: float
    best_response_win_probability: float
    percent_of_best_response: float
    exploitability: float


@dataclass(frozen=True)
class Yardstick:
    """An agent tabulated at every decision with 1…``cards`` cards a side, and the exact best
    response against it."""

    cards: int
    table: PolicyTable  # may cover more cards than ``cards`` (a table passed in as it is)
    response: BestResponse
    exact: bool  # False: the numbers are for one drawn table of a stochastic agent (†)

    @property
    def exploitability(self) -> float:
        """Best response's win probability against this agent − ½ (0 for optimal play)."""
        return self.response.win_mean - 0.5

    def against(self, other: Yardstick) -> ExactMetrics:
        """This agent's exact metrics against ``other`` (same cards)."""
        if other.cards != self.cards:
            raise ValueError(f"yardsticks for {self.cards} and {other.cards} cards cannot meet")
        win = win_probabilities(self.table, other.table, self.cards).win_mean
        ceiling = other.response.win_mean
        return ExactMetrics(win, ceiling, 100.0 * win / ceiling, self.exploitability)


def yardstick(agent: Agent, cards: int = MAX_CARDS, seed: int = 0) -> Yardstick:
    """Tabulate ``agent`` (a spec string built with ``seed``, a policy, or a ``PolicyTable``)
    and solve the best response against it: one ``policy_table`` pass + one backward pass."""
    cards = check_cards(cards)
    if isinstance(agent, PolicyTable):
        return Yardstick(cards, agent, best_response(agent, cards), True)
    policy = make_policy(agent, seed=seed) if isinstance(agent, str) else make_policy(agent)
    check_tables([policy], 2, cards)
    table = policy_table(policy, cards)
    exact = table.mixed or _answers_again(policy, table)
    return Yardstick(cards, table, best_response(table, cards), exact)


def _answers_again(policy: Policy, table: PolicyTable) -> bool:
    """Ask once more at the one-card-each position (5 125 decisions): a stochastic policy's
    fresh draws disagree with the table somewhere, a deterministic one's never do."""
    again = policy_table(policy, 1)
    return all(np.array_equal(getattr(again, side)[1, 1], getattr(table, side)[1, 1])
               for side in ("insteker", "follower"))


# ---------------------------------------------------------------------- training-loop hook
_cache: dict[tuple[object, int], tuple[Agent, Yardstick]] = {}


def opponent_yardstick(opponent: Agent, cards: int = MAX_CARDS) -> Yardstick:
    """``yardstick(opponent, cards)``, cached per process: spec strings by their text, other
    opponents by identity (held, so the identity stays theirs). An opponent object must not
    change while cached; call ``clear_cache()`` after changing one (e.g. in self-play)."""
    key = (opponent if isinstance(opponent, str) else id(opponent), check_cards(cards))
    hit = _cache.get(key)
    if hit is None:
        if len(_cache) >= CACHE_SIZE:
            _cache.pop(next(iter(_cache)))
        hit = _cache[key] = (opponent, yardstick(opponent, cards))
    return hit[1]


def clear_cache() -> None:
    """Forget every cached opponent yardstick."""
    _cache.clear()


def exact_metrics(policy: Agent | Yardstick, opponent: Agent,
                  cards: int = MAX_CARDS) -> dict[str, float]:
    """``policy``'s exact two-player metrics against ``opponent`` with ``cards`` each:
    ``win_probability`` (averaged over who insteeks first), ``best_response_win_probability``,
    ``percent_of_best_response`` and ``exploitability``. The opponent's table and best response
    are cached (``opponent_yardstick``); the policy costs one tabulation (a few ``act_batch``
    calls over 512 500 rows at 10 cards) and two backward passes, unless it is passed as its
    ``yardstick`` already (to measure one learner against several opponents)."""
    mine = policy if isinstance(policy, Yardstick) else yardstick(policy, cards)
    return asdict(mine.against(opponent_yardstick(opponent, cards)))


#: Below this a measure is rounding noise of the solver's sums (shown as 0).
NOISE = 1e-9


def decimals(value: float, places: int = 4) -> str:
    """``value`` rounded for a report: rounding noise around 0 as 0 (not -0.0000), and a
    value too small for ``places`` decimals but above the noise in two significant digits
    (a NashConv of 2.1e-05 is not 0.0000)."""
    if NOISE <= abs(value) < 0.5 * 10.0**-places:
        return f"{value:.1e}"
    text = f"{value:.{places}f}"
    return text.lstrip("-") if float(text) == 0 else text


# ---------------------------------------------------------------------- three or more players
#: Policy rows (``solver.solve_cost``) the exact columns of 3+-player tables may ask in all
#: when nobody asked for them explicitly: about half a minute of heuristics on two cores.
QUICK_ROWS = 2 * 10**7


@dataclass(frozen=True)
class LineupExact:
    """A lineup measured exactly at a table of three or more, averaged over the seat
    rotation, per agent row: ``win_probability`` per seat it holds (comparable with the
    Monte-Carlo win rate), ``gain`` what its seats win by switching to their best response
    while every other seat keeps its policy, and the lineup's ``nash_conv`` (the sum of every
    seat's gain). ``gain`` and ``nash_conv`` are None when only the win was asked for."""

    win_probability: tuple[float, ...]
    gain: tuple[float, ...] | None
    nash_conv: float | None


def rotated_profiles(players: Sequence[Policy], row_of_entry: Sequence[int]
                     ) -> list[list[Policy]]:
    """One profile per seat rotation ``g``: entry ``e`` (agent row ``row_of_entry[e]``)
    at seat ``(e + g) % n``, as ``evaluate_agents`` seats game ``g`` (a player that must know
    its seat as its copy for that seat, ``seated``)."""
    n = len(row_of_entry)
    return [[seated(players[row_of_entry[(seat - g) % n]], seat, n) for seat in range(n)]
            for g in range(n)]


def pass_cost(players: Sequence[Policy], num_players: int, cards: int | Sequence[int],
              nash: bool = True) -> int:
    """The policy rows one ``solver.nash_conv`` (or, without ``nash``, ``exact_evaluate``)
    pass of ``players`` asks, or ``ValueError`` (one line, naming the limit) if it is beyond
    the solver's limits (``solver.check_size``)."""
    full = not all(reads_lowest_only(p) for p in players)
    return check_size(table_cards(num_players, cards), full=full,
                      variants=num_players + 1 if nash else 1, asked=True,
                      what="compute NashConv of" if nash else "evaluate").rows


def lineup_cost(players: Sequence[Policy], num_players: int, cards: int | Sequence[int],
                nash: bool = True) -> int:
    """The policy rows the ``lineup_exact`` passes (one per rotation) ask in all
    (``pass_cost``)."""
    return num_players * pass_cost(players, num_players, cards, nash)


def lineup_exact(players: Sequence[Policy], row_of_entry: Sequence[int],
                 cards: int | Sequence[int], nash: bool = True,
                 before_pass: Callable[[], object] | None = None,
                 progress: bool | Reporter = False,
                 label: str = "exact") -> LineupExact:
    """``players`` (one per agent row) seated by ``row_of_entry`` (one entry per seat),
    solved in every seat rotation (``rotated_profiles``) and averaged; ``nash`` adds the
    gains and NashConv. ``before_pass`` runs before each pass (to reseed stochastic
    players, so each rotation sees them as fresh). ``progress`` hears phase ``label``, one
    step per pass."""
    n, rows = len(row_of_entry), len(players)
    copies = np.bincount(row_of_entry, minlength=rows)
    win, gain, total = np.zeros(rows), np.zeros(rows), 0.0
    profiles = rotated_profiles(players, row_of_entry)
    with reporter(progress).phase(label, len(profiles), "pass") as phase:
        for g, profile in enumerate(profiles):
            if before_pass is not None:
                before_pass()
            if nash:
                measured = nash_conv(profile, n, cards)
                values, gains, total = measured.values, measured.gains, total + measured.total
            else:
                values, gains = exact_evaluate(profile, n, cards), (0.0,) * n
            for entry, row in enumerate(row_of_entry):
                win[row] += values[(entry + g) % n]
                gain[row] += gains[(entry + g) % n]
            phase.step(note=f"rotation {g}")
    per_seat = n * copies
    return LineupExact(tuple((win / per_seat).tolist()),
                       tuple((gain / per_seat).tolist()) if nash else None,
                       total / n if nash else None)


def starts_rotate(num_players: int, cards: int | Sequence[int]) -> bool:
    """Whether rotating the agents round the table is the same as rotating the first insteker
    (R3.1): at 2–3 players with equal cards seats differ in nothing else, so one pass that
    solves every start (``solver.exact_evaluate_starts``) stands for every rotation."""
    return symmetric(num_players, table_cards(num_players, cards))


@dataclass(frozen=True)
class LearnerExact:
    """A learned policy measured exactly at a table of three or more: its win probability
    against each opponent (reused in every other seat, averaged over the seat rotation as
    ``evaluate_agents`` plays it) and the NashConv of the policy playing every seat."""

    win_probability: dict[str, float]
    nash_conv: float


def learner_lineups(player: Policy, opponent: Policy, num_players: int,
                    cards: int | Sequence[int]) -> list[list[Policy]]:
    """The lineups ``player``'s win with ``opponent`` in every other seat is read from: one
    with it at seat 0, read at every first insteker, where that is the same as rotating the
    seats (``starts_rotate``); else one per seat rotation ``g`` (it at seat ``g``, seat 0
    insteeking first, as ``lineup_exact`` seats them). A player that must know its seat
    plays each as its copy for that seat (``seated``)."""
    n = num_players
    if starts_rotate(n, cards):
        return [[seated(player if seat == 0 else opponent, seat, n) for seat in range(n)]]
    return [[seated(player if seat == g else opponent, seat, n) for seat in range(n)]
            for g in range(n)]


def _win(starts: Sequence[dict[int, tuple[float, ...]]], rotate: bool) -> float:
    """The learner's win averaged over the rotation, from ``exact_evaluate_starts`` of its
    ``learner_lineups`` (the learner at seat ``g`` of lineup ``g``)."""
    if rotate:
        return float(np.mean([values[0] for values in starts[0].values()]))
    return float(np.mean([lineup[0][g] for g, lineup in enumerate(starts)]))


def learner_cost(player: Policy, opponents: Sequence[str], num_players: int,
                 cards: int | Sequence[int]) -> int:
    """The policy rows ``learner_exact``'s one pass asks, or ``ValueError`` (one line,
    naming the limit) if the table is beyond the solver's limits (``solver.check_size``).
    Each seat asks each policy it holds in some variant once: the learner everywhere, and
    every opponent at the seats beside it (all but seat 0 when ``starts_rotate``, each
    holding ``1 / num_players`` of the rows by symmetry), else at every seat."""
    built = [make_policy(o, seed=0) for o in opponents]
    lineups = [lineup for o in built for lineup in learner_lineups(player, o, num_players,
                                                                  cards)]
    full = not all(reads_lowest_only(p) for p in [player, *built])
    rows = check_size(table_cards(num_players, cards), full=full,
                      variants=1 + num_players + len(lineups), asked=True,
                      what="compute NashConv of").rows
    if starts_rotate(num_players, cards):
        return rows + len(built) * (rows - rows // num_players)
    return rows * (1 + len(built))


def learner_win(player: Policy, opponent: Policy, num_players: int,
                cards: int | Sequence[int]) -> float:
    """``player``'s exact win with ``opponent`` in every other seat, averaged over the seat
    rotation (as ``lineup_exact``): one pass per lineup of ``learner_lineups``."""
    lineups = learner_lineups(player, opponent, num_players, cards)
    return _win([exact_evaluate_starts(lineup, num_players, cards) for lineup in lineups],
                starts_rotate(num_players, cards))


def learner_exact(player: Policy, opponents: Sequence[str], num_players: int,
                  cards: int | Sequence[int], seed: int = 0,
                  progress: bool | Reporter = False,
                  label: str = "exact pass") -> LearnerExact:
    """``player``'s exact win against each of ``opponents`` (spec strings, built with
    ``seed``; as ``learner_win``) and its NashConv at the table (``solver.nash_conv`` with it
    in every seat), all from ONE solver pass (``nash_conv_and_evaluate``): the player is
    asked about each decision once (``learner_cost`` rows in all). ``progress`` hears that
    pass as phase ``label``, stepping through the card positions it solves."""
    built = {o: make_policy(o, seed=seed) for o in opponents}
    plans = {o: learner_lineups(player, opponent, num_players, cards)
             for o, opponent in built.items()}
    with reporter(progress).solver_phase(label) as callback:
        measured, starts = nash_conv_and_evaluate(
            player, [lineup for plan in plans.values() for lineup in plan], num_players, cards,
            progress=callback)
    wins, at, rotate = {}, 0, starts_rotate(num_players, cards)
    for o, plan in plans.items():
        wins[o] = _win(starts[at:at + len(plan)], rotate)
        at += len(plan)
    return LearnerExact(wins, measured.total)

"""Approximate NashConv where the solver cannot go: every seat's best response **learned** by
the search learner, and its gain measured in games (``approximate_nash_conv``, ``pagadores
nashconv --approximate``).

For each seat, the learner of ``search_learn`` (``ValueLearner`` with the other seats
``fixed``) learns that seat's win probability at round starts while the others play the
profile, and plays the round at hand by a search in which that seat maximises and the others
play their policies (``pagadores_agents.search.player.RoundSearch`` with ``fixed``). That player is
the seat's approximate best response. Its gain is then measured in **paired games**: game
``g`` is played twice from the same dice (the ``k``-th throw of both games is the same draw),
once with the response in the seat and once with the profile's own agent there; the gain is
the mean of the paired differences in that seat's win. Until the response first deviates the
two games are the same game, so most pairs differ by nothing and the gain's confidence
interval is far narrower than two independent win rates' would be.

**Luck removed** (a control variate, as AIVAT removes it in poker): each game's win is
corrected by the luck of its round throws. Before a round throw the response's search values
every strength the throw may show for the seat (``throw_values``: a plain score kept or
thrown again, a Picaro's round end, a special where the search lands it), and the throw then
subtracts its value less their mean over the dice's odds. Throws are fair, so each term
averages 0 whatever the values are: the corrected win has the win's mean (the gain stays
unbiased), and as the values track the game it carries far less of the dice's noise (3
players with 3 cards, 2,000 pairs: a 95% half-width of 0.0030 instead of 0.0148). Kampen
throws are not corrected.

What it means: a learned response is at most the best one, so each seat's gain estimates a
**lower bound** of that seat's exact gain (up to its 95% CI, a normal interval on the paired
differences); their sum a lower bound of NashConv. ``budget`` is the learner decisions each
seat's response trains on (that seat's decisions in its training games; the fixed seats'
are not counted), and ``games`` the pairs each gain rests on.

The fixed seats' agents must read only the score to beat and its holders (every heuristic
and the search player do; a trained network reading every score does not), since the
response's search asks them about every decision of a round at once.
"""

from __future__ import annotations

import dataclasses
import math
import pickle
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from pagadores_agents.search.player import RoundSearch, SearchPolicy
from pagadores_env.core.checks import check_int
from pagadores_env.core.policies import Policy, SupportsForSeat
from pagadores_env.core.pool import in_pool
from pagadores_env.pagadores.engine import Game, Phase
from pagadores_env.pagadores.observation import encode
from pagadores_env.pagadores.rules import (
    MAX_CARDS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    PICARO_LOSS,
    THROWS,
    throws_allowed,
)
from pagadores_env.pagadores.solver import NashConv, exact_evaluate, nash_conv
from pagadores_env.pagadores.solver.cost import table_cards
from pagadores_env.pagadores.solver.model import PICARO, PROB, SPECIALS
from pagadores_env.pagadores.solver.passes import Profile, profile_players
from pagadores_env.pagadores.solver.scores import score_states
from pagadores_env.pagadores.solver.table_play import stop_values
from pagadores_env.pagadores.solver.two_player import throws_again

from ..progress import LINES, SILENT, Reporter
from .search.learn import BOTH, LearnSettings, ValueLearner

#: Round states whose throw values ``round_luck`` keeps: the two games of a pair are one
#: game until the response deviates, so the second reads the first's.
MEMO = 10_000
#: Two-sided 95% normal quantile.
Z95 = 1.959963984540054
#: Learner decisions each seat's response trains on by default.
BUDGET = 10_000
#: Paired games each seat's gain rests on by default.
GAMES = 2_000
#: The responses' learner by default: its search follows no special in a row (a search with
#: fixed seats asks their agents about every decision of every position it solves, so one
#: position, not the dozens a chain of specials reaches, keeps a round's search under a second
#: at 10 cards), iterations of 50 games, so a small budget is spent in several fits, and at
#: most 500 positions backed up again per iteration besides the new ones (the whole buffer,
#: backed up anew by each iteration, took most of a 6-player seat's time).
SETTINGS = LearnSettings(games=50, specials=0, backups=500)


@dataclass(frozen=True)
class SeatGain:
    """One seat's learned best response: its gain (a lower bound of the exact one, up to the
    CI), the win rates the pairs gave, and what it cost."""

    seat: int
    gain: float  # mean paired difference: response's win less the profile's, in this seat
    half_width: float  # the gain's 95% CI is gain ± half_width
    response_win: float
    profile_win: float
    decisions: int  # learner decisions the response trained on
    games: int  # paired games the gain rests on
    #: scored exactly (``score_exactly``): the learned response's exact gain, and the exact
    #: best response's
    exact_gain: float | None = None
    best_gain: float | None = None


@dataclass(frozen=True)
class ApproximateNashConv:
    """Every seat's ``SeatGain`` and their sum (a lower bound of NashConv, up to its CI)."""

    seats: tuple[SeatGain, ...]

    @property
    def exact_share(self) -> float | None:
        """With the responses scored exactly: the share of the exact NashConv their exact
        gains reach (1 where the profile is an equilibrium), else None."""
        if any(s.exact_gain is None or s.best_gain is None for s in self.seats):
            return None
        best = sum(s.best_gain or 0.0 for s in self.seats)
        return sum(s.exact_gain or 0.0 for s in self.seats) / best if best > 0 else 1.0

    @property
    def total(self) -> float:
        """The seats' gains summed: approximate NashConv."""
        return sum(s.gain for s in self.seats)

    @property
    def half_width(self) -> float:
        """The total's 95% CI half-width (the seats' pairs are independent)."""
        return math.sqrt(sum(s.half_width**2 for s in self.seats))

    @property
    def decisions(self) -> int:
        """Learner decisions of all seats' responses: the budget used."""
        return sum(s.decisions for s in self.seats)


def seated(players: Sequence[Policy], num_players: int) -> list[Policy]:
    """Each seat's player, its own copy for players that must know their seat."""
    return [p.for_seat(seat, num_players) if isinstance(p, SupportsForSeat) else p
            for seat, p in enumerate(players)]


def learn_response(players: Sequence[Policy], seat: int, cards: tuple[int, ...], budget: int,
                   settings: LearnSettings, seed: int, progress: Reporter = SILENT
                   ) -> ValueLearner:
    """``seat``'s best response to the others' ``players`` (one per seat), learned on at least
    ``budget`` of its decisions (whole iterations)."""
    n = len(players)
    fixed = {s: p for s, p in enumerate(players) if s != seat}
    learner = ValueLearner.new(n, cards, settings, seed, fixed)
    with progress.phase(f"seat {seat}: learning its best response", budget,
                        "decision") as phase:
        def note(done: int, total: int, what: str) -> None:
            phase.note(f"{what} {done:,}/{total:,}")

        while learner.decisions < budget:
            report = learner.iterate(note)
            phase.total = max(phase.total, learner.decisions)
            phase.advance_to(learner.decisions, f"loss {report.loss:.4f}")
    return learner


def play(players: Sequence[Policy], cards: tuple[int, ...], dice: np.random.Generator,
         luck: Callable[[Game, int], float] | None = None) -> tuple[int, float]:
    """The winner of one game from ``cards`` (seat 0 insteeks first, R3.1), each seat playing
    its player, every throw drawn from ``dice`` in turn; and the sum of ``luck(game,
    strength)`` over its throws, each asked before the throw is applied (0 without)."""
    game = Game(len(players), list(cards), 0)
    total = 0.0
    while not game.is_terminal():
        if game.is_chance_node():
            throw = THROWS[int(dice.integers(len(THROWS)))]
            if luck is not None:
                total += luck(game, throw.strength)
            game.apply_throw(throw)
        else:
            seat = game.current_player
            game.apply_action(players[seat].act(encode(game, seat), BOTH))
    assert game.winner is not None
    return game.winner, total


def throw_values(search: RoundSearch, seat: int, game: Game) -> np.ndarray:
    """``[42]``: ``seat``'s value after the round throw ``game`` is about to take, per strength,
    as ``search`` values the round: a plain throw's score kept or thrown again as the thrower's
    own value says (the searched player's rule, assumed for every seat), a Picaro's round end
    (R4.4), a special where ``search`` lands it (R4.1, ``RoundSearch.landed``). For the seats
    that maximise in ``search`` it is exact: ``PROB @ values`` is the value before the throw."""
    cards, order, role = tuple(game.cards), game.order, game.pos
    position = search.position(cards, game.insteker)
    states = score_states(len(order), False)
    q = int(states.index([game.scores[s] for s in order[:role]]))
    limit, used = game.throw_limit or 0, game.throws + 1
    after = stop_values(position, len(order), False, role, limit, used,
                        states.next[role][q])[:, 0]  # [42, n]
    if used < throws_allowed(limit):  # the thrower decides (R3.6)
        again = position.before[(role, limit, used + 1)][q][0]  # [n]
        thrower = order[role]
        after = np.where(throws_again(again[thrower], after[:, thrower])[:, None],
                         again, after)
    values = after[:, seat].copy()
    values[PICARO] = search.lose(cards, order[role], PICARO_LOSS)[0, seat]
    for idx, special in enumerate(SPECIALS):
        values[special] = search.landed(cards, game.insteker, (role, limit, used), idx)[
            q, 0, seat]
    return values


def round_luck(search: RoundSearch, seat: int) -> Callable[[Game, int], float]:
    """``luck(game, strength)`` for ``play``: how much a round throw of ``strength`` moved
    ``seat``'s value beyond what the throw was expected to bring (``throw_values``; module
    docstring); 0 for kampen throws."""
    known: dict[tuple, np.ndarray] = {}  # a pair's two games share their start

    def luck(game: Game, strength: int) -> float:
        if game.phase != Phase.ROUND:
            return 0.0
        key = (tuple(game.cards), game.insteker, game.pos, tuple(game.scores),
               game.throw_limit, game.throws)
        values = known.get(key)
        if values is None:
            if len(known) > MEMO:
                known.clear()
            values = known[key] = throw_values(search, seat, game)
        return float(values[strength] - PROB @ values)

    return luck


def paired_gain(response: SearchPolicy, players: Sequence[Policy], seat: int,
                cards: tuple[int, ...], games: int, seed: int, progress: Reporter = SILENT
                ) -> tuple[float, float, float, float]:
    """``seat``'s gain from playing ``response`` instead of ``players[seat]``, over ``games``
    pairs of games from the same dice, each win corrected by its luck as ``response``'s search
    sees it (module docstring): (gain, 95% half-width, response's win rate, the profile's;
    the win rates as played, uncorrected)."""
    lineup = list(players)
    lineup[seat] = response
    luck = round_luck(response.search, seat)
    differences = np.empty(games)
    wins = np.empty((games, 2))
    with progress.phase(f"seat {seat}: paired games", games, "game") as phase:
        for g in range(games):
            corrected = []
            for k, table in enumerate((lineup, players)):
                dice = np.random.default_rng([seed, seat, g])
                winner, lucky = play(table, cards, dice, luck)
                wins[g, k] = winner == seat
                corrected.append(wins[g, k] - lucky)
            differences[g] = corrected[0] - corrected[1]
            gain, half = mean_interval(differences[:g + 1])
            phase.step(note=f"gain so far {gain:.4f} ± {half:.4f}")
    gain, half = mean_interval(differences)
    return gain, half, float(wins[:, 0].mean()), float(wins[:, 1].mean())


def mean_interval(values: np.ndarray) -> tuple[float, float]:
    """The mean of ``values`` and its 95% normal half-width (0 for a single value)."""
    spread = values.std(ddof=1) if len(values) > 1 else 0.0
    return float(values.mean()), Z95 * float(spread) / math.sqrt(len(values))


def seat_gain(profile: Profile, num_players: int, start: tuple[int, ...], seat: int,
              budget: int, games: int, seed: int, settings: LearnSettings,
              exact: NashConv | None = None, progress: Reporter = SILENT) -> SeatGain:
    """One seat's learned best response to ``profile`` and its gain in ``games`` paired
    games (``approximate_nash_conv``), with ``exact`` (the profile's exact NashConv) also
    scored exactly; the profile's players are made here, for this seat alone, so a seat's
    result is the same whichever process or order computes it."""
    players = seated(profile_players(profile, num_players, start), num_players)
    learner = learn_response(players, seat, start, budget, settings, seed + seat, progress)
    response = learner.player()
    gain, half, won, base = paired_gain(response, players, seat, start, games, seed, progress)
    found = SeatGain(seat, gain, half, won, base, learner.decisions, games)
    if exact is None:
        return found
    lineup = [response if s == seat else p for s, p in enumerate(players)]
    with progress.phase(f"seat {seat}: its learned response scored exactly", 1,
                        "pass") as phase:
        value = exact_evaluate(lineup, num_players, start)[seat]
        phase.advance_to(1)
    return dataclasses.replace(found, exact_gain=value - exact.values[seat],
                               best_gain=exact.gains[seat])


def approximate_nash_conv(profile: Profile, num_players: int = 3,
                          cards: int | Sequence[int] = MAX_CARDS, budget: int = BUDGET,
                          games: int = GAMES, seed: int = 0,
                          settings: LearnSettings | None = None,
                          progress: Reporter = SILENT, workers: int = 1,
                          score_exactly: bool = False) -> ApproximateNashConv:
    """Every seat's learned best response to ``profile`` (one agent for all seats or one per
    seat, as ``nash_conv`` takes it) and its gain in ``games`` paired games (module
    docstring): a lower bound of NashConv, at any table. ``budget`` learner decisions per
    seat; ``settings`` the learner's (``SETTINGS`` by default). The seats are independent:
    ``workers`` processes compute them side by side (``core.pool.in_pool``; each reports in
    status lines), with the same result as one. Seeded: the same arguments give the same
    result. ``ValueError`` in one line for a bad argument, an agent that cannot play the
    table or cannot be searched against, or, with more than one worker, a profile of
    objects that cannot be sent to another process (give agent specs). With
    ``score_exactly``, where the solver covers the table, each learned response is also
    scored exactly against the profile's exact NashConv (``SeatGain.exact_gain`` beside
    ``best_gain``; ``ApproximateNashConv.exact_share``): how close the learned responses
    come to the best ones."""
    n = check_int("num_players", num_players, MIN_PLAYERS, MAX_PLAYERS)
    start = table_cards(n, cards)
    check_int("budget", budget, 1)
    check_int("games", games, 2)
    check_int("seed", seed, 0)
    check_int("workers", workers, 1, 256)
    seated(profile_players(profile, n, start), n)  # a bad profile is refused before any work
    settings = settings or SETTINGS
    exact = nash_conv(profile, n, start) if score_exactly else None
    jobs = [(profile, n, start, seat, budget, games, seed, settings, exact)
            for seat in range(n) if start[seat]]
    return in_seats(seat_gain, jobs, profile, workers, progress)


def in_seats(gain_of: Callable[..., SeatGain], jobs: Sequence[tuple[object, ...]],
             profile: object, workers: int, progress: Reporter) -> ApproximateNashConv:
    """Every seat's ``gain_of(*job, progress)``, one job a seat, in this process or in
    ``workers`` processes side by side (``core.pool.in_pool``; each reporting in status lines),
    with the same result; ``ValueError`` in one line if ``profile`` (a job's players) cannot be
    sent to another process."""
    if workers == 1:
        return ApproximateNashConv(tuple(gain_of(*job, progress) for job in jobs))
    try:
        pickle.dumps(profile)
    except Exception as err:  # what pickling a policy object raises varies
        raise ValueError(f"workers={workers}: the profile must be agent specs (such as "
                         f"'lookahead' or 'search:path=runs/search_6p') to be sent to other "
                         f"processes; {err}") from None
    lines = LINES if progress.enabled else SILENT
    found = in_pool(gain_of, [(*job, lines) for job in jobs], workers, finish_running=False)
    return ApproximateNashConv(tuple(sorted(found, key=lambda gain: gain.seat)))

"""The exact multi-player best response, checked against the real engine three ways.

(a) An independent expectimax that plays the real ``engine.Game`` — every chance node over
the 56 throws with their probabilities, max over the hero's actions, the opponents asked on
``observation.encode`` of the real state — agrees to 1e-9. (b) Monte-Carlo games through the
engine with the computed best-response policy win what it promises, within 4 standard
errors (seeded, so every run repeats bit for bit). (c) With two seats it reproduces the
two-player solver exactly. The observation rows the solver asks policies about equal
``observation.encode`` on real games.
"""

from __future__ import annotations

import math
import re
import tracemalloc
from collections.abc import Callable

import numpy as np
import pytest

from pagadores_env.core.policies import BasePolicy, Policy, make_policy
from pagadores_env.pagadores.engine import Game
from pagadores_env.pagadores.observation import OBS_SIZE, encode
from pagadores_env.pagadores.rules import MAX_CARDS, MAX_PLAYERS, classify
from pagadores_env.pagadores.solver import (
    best_response,
    cost,
    exact_evaluate,
    multi_rows,
    nash_conv,
    passes,
    solve,
)
from pagadores_env.pagadores.solver.cost import solve_cost, table_cards
from pagadores_env.pagadores.solver.multi import MultiBestResponse, best_response_multi
from pagadores_env.pagadores.solver.sweep import Sweep

MASK = np.ones(2, dtype=np.int8)
OUTCOMES = [(classify(dice), p) for dice, p in Game(3).chance_outcomes()]
#: Kampen events one round may hold before the expectimax cuts the path (value 0). Each
#: kampen after the first needs a tie for lowest (probability < 0.1), so the cut paths
#: weigh well under 1e-11 — far below the 1e-9 tolerance.
KAMPEN_DEPTH = 12
#: Stands for every score above the round's lowest.
ABOVE = 10**6


# --------------------------------------------------------------------- (a) expectimax
def _key(game: Game, kampen_count: int) -> tuple:
    """What the rest of the game depends on. Kampen has no decisions, so its key skips the
    round's scores; a chance node overwrites ``current``, so only decisions keep it. Of the
    scores it keeps the lowest and who holds it (``_scores_key``): exact here
    because every opponent below reads the scores only through them: the observation shows
    no other score (checked in ``tests/agents/test_agents.py``)."""
    cards = tuple(game.cards)
    if game.phase == "kampen":
        return (cards, tuple(game.kampen), game.kampen_pos, tuple(game.kampen_scores),
                kampen_count)
    current = game.current.dice if game.decision else None
    return (cards, game.insteker, game.pos, game.throws, current, game.decision,
            _scores_key(game), game.throw_limit)


def _scores_key(game: Game) -> tuple[int, ...]:
    """The round's scores with every score above the lowest so far made equal (R3.5)."""
    low = game.score_to_beat()
    return tuple(s if s in (-1, low) else ABOVE for s in game.scores)


def expectimax(game: Game, hero: int, players: dict[int, Policy],
               leaf: Callable[[Game], float] | None = None) -> float:
    """The hero's win probability from ``game`` with optimal play against ``players``,
    through the real engine. With ``leaf``, a new round is not played but valued by it."""
    memo: dict[tuple, float] = {}

    def child(game: Game, kampen_count: int, move: Callable[[Game], None]) -> float:
        nxt = game.clone()
        move(nxt)
        new_round = False
        for event in nxt.log:
            if event.kind == "round":
                kampen_count, new_round = 0, True
            elif event.kind == "kampen":
                kampen_count += 1
        nxt.log.clear()
        nxt.history.clear()
        if new_round and leaf is not None:
            return leaf(nxt)
        return value(nxt, kampen_count)

    def value(game: Game, kampen_count: int) -> float:
        if game.is_terminal():
            return 1.0 if game.winner == hero else 0.0
        if kampen_count > KAMPEN_DEPTH:
            return 0.0
        key = _key(game, kampen_count)
        if key not in memo:
            if game.is_decision_node():
                seat = game.current_player
                actions = (0, 1) if seat == hero else (
                    players[seat].act(encode(game, seat), MASK),)
                memo[key] = max(child(game, kampen_count, lambda g, a=a: g.apply_action(a))
                                for a in actions)
            else:
                memo[key] = sum(p * child(game, kampen_count, lambda g, t=t: g.apply_throw(t))
                                for t, p in OUTCOMES)
        return memo[key]

    start = game.clone()
    start.log.clear()
    start.history.clear()
    return value(start, 0)


def _table(hero: int, specs: list[str]) -> tuple[list[Policy], dict[int, Policy]]:
    """Opponent policies for the other seats in seat order, and the same by seat."""
    others = [s for s in range(len(specs) + 1) if s != hero]
    policies = [make_policy(spec) for spec in specs]
    return policies, dict(zip(others, policies, strict=True))


@pytest.mark.slow
def test_three_players_one_card_matches_engine_expectimax() -> None:
    """R1–R6 at [1, 1, 1]: every special empties (R6.2, also two at once → R1.3), every
    loss and Picaro eliminates (R6.1), and the last two play on with 3-seat observations."""
    policies, players = _table(1, ["sensible", "threshold"])
    result = best_response_multi(policies, num_players=3, cards=1, hero_seat=1)
    exact = expectimax(Game(3, 1), 1, players)
    assert result.value == pytest.approx(exact, abs=1e-9)
    assert 0.05 < exact < 0.95


@pytest.mark.slow
def test_R4_3_R6_2_specials_that_empty_nobody_continue_the_round() -> None:
    """One round at cards (2, 2, 1), the hero (seat 0) insteeking, through the engine, with
    the solver's values where the next round starts: a Puerta by seat 2 goes on at
    (1, 1, 1) mid-round (R4.3), one by seat 0 or 1 empties seat 2 and seat 0 insteeks next
    (R6.2); kampen specials hit only kampen players (R5.2)."""
    cards = [2, 2, 1]
    policies, players = _table(0, ["sensible", "threshold:min_points=150"])
    result = best_response_multi(policies, num_players=3, cards=cards, hero_seat=0)

    def leaf(game: Game) -> float:
        if game.is_terminal():
            return 1.0 if game.winner == 0 else 0.0
        if game.cards[0] == 0:
            return 0.0
        return result.values[(tuple(game.cards), game.insteker)]

    exact = expectimax(Game(3, cards), 0, players, leaf)
    assert result.values[((2, 2, 1), 0)] == pytest.approx(exact, abs=1e-9)


# --------------------------------------------------------------------- (c) two players
# random reports its probabilities: both solvers must evaluate the same 50/50 mixture
@pytest.mark.parametrize("spec", ["sensible", "threshold:min_points=120", "random"])
def test_two_seats_reproduce_the_two_player_best_response(spec: str) -> None:
    reference = best_response(make_policy(spec), cards=3)
    first = best_response_multi([make_policy(spec)], num_players=2, cards=3)
    second = best_response_multi([make_policy(spec)], num_players=2, cards=3,
                                 first_insteker=1)
    assert first.value == pytest.approx(reference.win_first, abs=1e-12)
    assert second.value == pytest.approx(reference.win_second, abs=1e-12)


# --------------------------------------------------------------------- (b) Monte Carlo
def _play(game: Game, seats: dict[int, Policy], rng: np.random.Generator) -> int:
    while not game.is_terminal():
        if game.is_decision_node():
            seat = game.current_player
            game.apply_action(seats[seat].act(encode(game, seat), MASK))
        else:
            game.apply_throw(rng.integers(1, 7, size=3).tolist())
    return game.winner  # type: ignore[return-value]


@pytest.mark.slow
def test_monte_carlo_best_response_wins_what_it_promises() -> None:
    policies, players = _table(2, ["sensible", "threshold"])
    result = best_response_multi(policies, num_players=3, cards=2, hero_seat=2,
                                 keep_policy=True)
    players[2] = result.policy()
    rng = np.random.default_rng(2026)
    games = 3000
    wins = sum(_play(Game(3, 2), players, rng) == 2 for _ in range(games))
    se = math.sqrt(result.value * (1 - result.value) / games)
    assert abs(wins / games - result.value) < 4 * se, (wins / games, result.value, se)


# --------------------------------------------------------------------- observation rows
def _decisions(num_players: int, cards: list[int], seed: int):
    """Real decision states of random games: (game, seat) at every decision node."""
    rng = np.random.default_rng(seed)
    for _ in range(30):
        game = Game(num_players, cards, first_insteker=next(s for s, c in enumerate(cards) if c))
        while not game.is_terminal():
            if game.is_decision_node():
                yield game, game.current_player
                game.apply_action(int(rng.integers(2)))
            else:
                game.apply_throw(rng.integers(1, 7, size=3).tolist())


@pytest.mark.parametrize(("num_players", "cards"), [(3, [4, 4, 4]), (3, [3, 0, 4]),
                                                    (4, [2, 3, 0, 2])])
def test_R7_1_asked_rows_equal_observation_encode(num_players: int, cards: list[int]) -> None:
    seen = 0
    for game, seat in _decisions(num_players, cards, seed=num_players + sum(cards)):
        order = tuple(game.order)
        role = order.index(seat)
        limit = game.throw_limit if role else 0
        prefix = [game.scores[s] for s in order[:role]]
        state = (*prefix, game.current.strength)  # type: ignore[union-attr]
        expected = encode(game, seat)
        where = (num_players, tuple(game.cards), order, role, limit, game.throws)
        direct = multi_rows.encode_states(*where, np.array([prefix]), np.array([state[-1]]))[0]
        assert direct.tobytes() == expected.tobytes()
        if role < 3:  # the solver's cached grids (4-seat last roles are too big to build here)
            rows = multi_rows.decision_rows(*where)
            index = np.ravel_multi_index(tuple(np.subtract(state, multi_rows.THROWN[0])),
                                         (len(multi_rows.THROWN),) * (role + 1))
            assert rows[index].tobytes() == expected.tobytes()
        seen += 1
    assert seen > 100


# --------------------------------------------------------------------- inputs
class _Counting(BasePolicy):
    """Stops always; counts rows and refuses writes to them. It declares that it reads every
    score (``score_view = "all"``), so the solver asks it about every combination of earlier
    scores (``reads_lowest_only``)."""

    score_view = "all"

    def __init__(self) -> None:
        super().__init__()
        self.rows = 0

    def act_batch(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        assert obs.shape[1] == OBS_SIZE and not obs.flags.writeable
        self.rows += len(obs)
        return np.zeros(len(obs), dtype=np.int64)


def test_every_decision_state_is_asked_once_on_read_only_rows() -> None:
    policy = _Counting()
    result = best_response_multi([policy, make_policy("stop-first")], num_players=3, cards=1)
    assert result.full  # _Counting reads every score, so both opponents get the full view
    # (1,1,1): the opponent at seat 1 decides as insteker (2 x 41 rows), first follower
    # (3 x 41^2) or second follower (3 x 41^3); at (1,1,0) and at (0,1,1) as insteker or
    # follower (the pass solves every position, also those where the hero is already out).
    three = 2 * 41 + 3 * 41**2 + 3 * 41**3
    two = 2 * 41 + 3 * 41**2
    assert policy.rows == three + 2 * two
    assert result.rows_asked == 2 * policy.rows


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"num_players": 7}, "num_players must be 2–6"),
    ({"cards": 0}, "cards must be 1–10"),
    ({"cards": [1, 0, 0]}, "at least two above 0"),
    ({"hero_seat": 3}, "hero_seat must be an integer 0–2, got 3"),
    ({"cards": [0, 2, 1], "hero_seat": 0}, "hero_seat must be a seat 0–2 with cards, got 0"),
    ({"first_insteker": -1}, "first_insteker must be an integer 0–2, got -1"),
])
def test_impossible_settings_are_rejected(kwargs: dict, message: str) -> None:
    opponents = [make_policy("stop-first"), make_policy("stop-first")]
    with pytest.raises(ValueError, match=message):
        best_response_multi(opponents, **kwargs)


def test_opponents_must_be_one_policy_per_other_seat() -> None:
    with pytest.raises(ValueError, match="opponents must be 2 policies"):
        best_response_multi([make_policy("stop-first")], num_players=3, cards=1)


def test_policy_needs_the_kept_table() -> None:
    result = best_response_multi([make_policy("stop-first")], num_players=2, cards=1)
    assert isinstance(result, MultiBestResponse)
    with pytest.raises(ValueError, match="keep_policy=True"):
        result.policy()


def test_big_grids_are_encoded_piece_by_piece_in_grid_order(monkeypatch) -> None:
    """The uncached path (a 4-seat table's last role) yields the same rows in the same
    order as the cached grid."""
    args = (3, (2, 5, 1), (1, 2, 0), 2, 3, 2)
    cached = multi_rows.decision_rows(*args)
    monkeypatch.setattr(multi_rows, "CACHED_ROWS", 0)
    pieces = list(multi_rows.decision_row_chunks(*args, chunk=10_000))
    assert all(not p.flags.writeable for p in pieces) and len(pieces) == 7
    assert np.concatenate(pieces).tobytes() == cached.tobytes()


def test_opponents_that_cannot_play_the_table_are_refused_up_front() -> None:
    with pytest.raises(ValueError, match="'optimal' plays 2-player games only"):
        best_response_multi([make_policy("stop-first"), make_policy("optimal:cards=1")],
                            num_players=3, cards=1)


# --------------------------------------------------------------------- size limits
#: The memory limit of a 16 GB machine (3/4 of it), so the limits named below do not depend
#: on the machine running the tests.
LIMIT = 12 * 10**9
#: Within the limits at that memory, for a pass asking policies that read every score: a
#: best response's pass (three policies asked at 4 players), an evaluation's per-seat pass.
FULL_VIEW_LIMITS = {
    "best-respond at": "2–3 players with up to 10 cards each, 4 players with up to 2 cards each",
    "evaluate": "2–3 players with up to 10 cards each, 4 players with up to 3 cards each"}


@pytest.fixture
def fixed_memory(monkeypatch) -> None:
    monkeypatch.setattr(cost, "memory_limit", lambda: LIMIT)


@pytest.fixture
def sweeps(monkeypatch) -> list[Sweep]:
    """Every ``Sweep`` run during the test, once it has run."""
    seen: list[Sweep] = []
    run = Sweep.run

    def spy(self: Sweep, progress=None) -> None:
        run(self, progress)
        seen.append(self)

    monkeypatch.setattr(Sweep, "run", spy)
    return seen


class _Accepted(Exception):
    """A pass started: the table passed the size check."""


@pytest.fixture
def no_pass(monkeypatch) -> None:
    """A pass, or the answer book before the passes (``passes.record``), that starts raises
    ``_Accepted`` instead of doing the work."""
    def run(*args, **kwargs) -> None:
        raise _Accepted

    monkeypatch.setattr(Sweep, "run", run)
    monkeypatch.setattr(passes, "record", run)


class _Stopper(BasePolicy):
    """Stops always, reads the scores only through the lowest (``score_view``) and counts
    the rows it is asked."""

    score_view = "lowest"

    def __init__(self) -> None:
        super().__init__()
        self.rows = 0

    def act_batch(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        self.rows += len(obs)
        return np.zeros(len(obs), dtype=np.int64)


class _FullStopper(_Stopper):
    score_view = "all"


@pytest.mark.parametrize(("num_players", "cards", "hero", "player"), [
    (2, 3, 0, _Stopper), (3, 2, 1, _Stopper), (3, [2, 1, 3], 2, _Stopper),
    (3, [0, 2, 1], 1, _Stopper), (4, 1, 3, _Stopper), (3, 1, 2, _FullStopper)])
def test_the_cost_is_counted_exactly_before_the_solve(num_players, cards, hero, player,
                                                      sweeps) -> None:
    """``solve_cost`` counts the positions a pass solves and the rows an evaluation asks
    (every seat at every decision, once); a best response asks the same rows but the
    hero's."""
    start = table_cards(num_players, cards)
    full = player is _FullStopper
    players = [player() for _ in range(num_players)]
    exact_evaluate(players, num_players, cards, first_insteker=hero)
    evaluated = [p.rows for p in players]
    others = [p for seat, p in enumerate(players) if seat != hero]
    result = best_response_multi(others, num_players, cards, hero_seat=hero,
                                 first_insteker=hero)
    cost = solve_cost(start, full=full, asked=True)
    evaluation, response = sweeps
    assert cost.positions == len(evaluation.win) == len(response.win)
    assert cost.rows == evaluation.rows_asked == sum(evaluated)
    assert result.rows_asked == cost.rows - evaluated[hero]
    assert [p.rows for p in players] == [2 * r if s != hero else r
                                         for s, r in enumerate(evaluated)]
    assert set(result.values) == {key for key in response.win if key[0][hero]}
    assert result.full == full and cost.fits()


def test_solve_counts_the_positions_it_keeps(sweeps) -> None:
    solution = solve(3, [2, 1, 3], cache=False)
    assert solve_cost((2, 1, 3), keep=True).positions == len(solution.positions) \
        == len(sweeps[0].win)


class _Recorder:
    """A player that records every call the solver makes to it."""

    def __init__(self, score_view: str) -> None:
        self.score_view = score_view
        self.calls: list[str] = []

    def check_table(self, num_players: int, cards) -> None:
        self.calls.append("check_table")

    def act(self, obs: np.ndarray, mask: np.ndarray) -> int:
        self.calls.append("act")
        return 0

    def act_batch(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        self.calls.append("act_batch")
        return np.zeros(len(obs), dtype=np.int64)


#: Every exact entry point that checks the size: what its refusal says it cannot do, and
#: a call at a table of ``n`` seats with ``cards`` where every seat plays ``player``.
ENTRY_POINTS = {
    "best-respond at": lambda player, n, cards: best_response_multi([player] * (n - 1), n,
                                                                    cards),
    "evaluate": lambda player, n, cards: exact_evaluate(player, n, cards),
    "compute NashConv of": lambda player, n, cards: nash_conv(player, n, cards),
    "solve": lambda player, n, cards: solve(n, cards, cache=False),
}
#: The smallest pass each entry point can make (``solve_cost`` arguments but the start): an
#: evaluation or NashConv too big for one pass takes one per seat, that seat's value alone
#: (``passes.plan``), and its refusal names the limits such a pass is over.
ENTRY_COST = {
    "best-respond at": lambda view, n, cards: solve_cost(
        table_cards(n, cards), full=view == "all", asked=True),
    "evaluate": lambda view, n, cards: solve_cost(
        table_cards(n, cards), full=view == "all", asked=True, tracked=1),
    "compute NashConv of": lambda view, n, cards: solve_cost(
        table_cards(n, cards), full=view == "all", variants=2, asked=True, tracked=1),
    "solve": lambda view, n, cards: solve_cost(table_cards(n, cards), keep=True),
}
TOO_BIG = [(what, view, n, cards)
           for what in ENTRY_POINTS if what != "solve" for view, n, cards in [
               ("all", 5, 2), ("all", 6, 1), ("all", 4, 4), ("all", 4, [4, 4, 4, 3]),
               ("lowest", 5, 6), ("lowest", 5, 10), ("lowest", 6, 4), ("lowest", 6, 10)]]
TOO_BIG += [("solve", "lowest", n, cards) for n, cards in [(5, 5), (6, 3), (6, 10)]]


@pytest.mark.parametrize(("what", "view", "num_players", "cards"), TOO_BIG)
def test_tables_too_big_are_refused_at_once_before_any_player_is_asked(
        what, view, num_players, cards, fixed_memory, no_pass) -> None:
    """Issue 10: never a run that eats all memory — a one-line error naming the table and
    the limits, within a few MB and before any player is asked anything (a player's
    ``check_table`` may itself be a solve: ``equilibrium``)."""
    player = _Recorder(view)
    tracemalloc.start()
    try:
        with pytest.raises(ValueError) as refused:
            ENTRY_POINTS[what](player, num_players, cards)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    message = str(refused.value)
    start = table_cards(num_players, cards)
    each = "card" if start[0] == 1 else "cards"
    table = f"{start[0]} {each} each" if len(set(start)) == 1 else \
        f"cards {', '.join(map(str, start))}"
    assert message.startswith(f"{num_players} players with {table} is too big to {what} "
                              f"exactly: "), message
    assert "\n" not in message  # it names the limits the table is over, and only those
    cost = ENTRY_COST[what](view, num_players, cards)
    assert ("limit 3e+09" in message) == (cost.rows > 3 * 10**9)
    assert ("limit 12.0 GB" in message) == (cost.bytes > 12 * 10**9)
    # with 16 GB the equilibrium fits at 4 players with 10 cards (the per-special store)
    most = "2–3" if view == "all" and what != "solve" else "2–4"
    assert f"within the limits: {most} players with up to 10 cards each" in message
    assert peak < 20 * 10**6, peak
    assert player.calls == []


@pytest.mark.parametrize("what", ["evaluate", "compute NashConv of"])
def test_a_profile_beyond_the_limits_is_refused_before_its_players_solve_their_tables(
        what, fixed_memory, no_pass) -> None:
    """An equilibrium player seated beside players that read every score (4 players with 4
    cards: too big to ask about every decision) would solve its table as it is seated
    (minutes, gigabytes at bigger tables): the refusal must come before that, and before
    any player is asked anything. (The equilibrium's own rows are lookups, so a profile of
    equilibrium players alone is refused only where its passes do not fit in memory.)"""
    reading = _Recorder("all")
    with pytest.raises(ValueError, match="4 players with 4 cards each is too big"):
        ENTRY_POINTS[what](["equilibrium", reading, reading, reading], 4, 4)
    assert reading.calls == []


def _named_limits(message: str) -> list[tuple[int, int]]:
    """(players, most cards) of every group "2–3 players with up to 10 cards each" in the
    refusal's "within the limits" part."""
    named = []
    for low, high, most in re.findall(r"(\d)(?:–(\d))? players with up to (\d+) cards? each",
                                      message.split("within the limits: ")[1]):
        named += [(n, int(most)) for n in range(int(low), int(high or low) + 1)]
    return named


@pytest.mark.parametrize(("what", "view", "num_players", "cards"), [
    ("best-respond at", "all", 5, 2), ("best-respond at", "lowest", 6, 3),
    ("evaluate", "all", 4, 4), ("evaluate", "lowest", 5, 10),
    ("compute NashConv of", "all", 4, 4), ("compute NashConv of", "lowest", 5, 10),
    ("solve", "lowest", 6, 10)])
def test_the_limits_a_refusal_names_are_the_tables_that_call_accepts(
        what, view, num_players, cards, fixed_memory, no_pass) -> None:
    """Each table the message calls within the limits starts its pass; one more card each
    is refused (the limits of a NashConv pass grow with the seats: one variant per seat)."""
    call = ENTRY_POINTS[what]
    with pytest.raises(ValueError, match="within the limits") as refused:
        call(_Recorder(view), num_players, cards)
    named = _named_limits(str(refused.value))
    assert [n for n, _ in named] == list(range(2, 2 + len(named)))  # no seat count skipped
    if view == "all" and what != "compute NashConv of":
        assert str(refused.value).endswith(FULL_VIEW_LIMITS[what])
    for n, most in named:
        with pytest.raises(_Accepted):
            call(_Recorder(view), n, most)
        if most < MAX_CARDS:
            with pytest.raises(ValueError, match="too big"):
                call(_Recorder(view), n, most + 1)
    for n in range(2 + len(named), MAX_PLAYERS + 1):
        with pytest.raises(ValueError, match="too big"):
            call(_Recorder(view), n, 1)


def test_the_documented_tables_fit() -> None:
    """The docs' promises (docs/yardsticks.md, "Limits"): 3 players with 10 cards for any
    player (every score read), the equilibrium at 4 players with 2 cards (issue 10)."""
    assert solve_cost((10,) * 3, full=True, asked=True).fits(LIMIT)
    assert solve_cost((2,) * 4, full=True, asked=True).fits(LIMIT)
    assert solve_cost((10,) * 3, keep=True).fits(LIMIT)
    assert solve_cost((2,) * 4, keep=True).fits(LIMIT)




# --------------------------------------------------------------------- Solution inputs
@pytest.fixture(scope="module")
def solution_3p2c(tmp_path_factory):
    return solve(3, 2, cache=False)


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"cards": (11, 0, 0)}, r"cards must be 3 counts with at most \[2, 2, 2\] per seat, "
                            r"got \[11, 0, 0\]"),
    ({"cards": (3, 1, 1)}, r"at most \[2, 2, 2\] per seat, got \[3, 1, 1\]"),
    ({"cards": (1, 1)}, r"cards must be 3 counts"),
    ({"cards": (1, 1, 1, 1)}, r"cards must be 3 counts"),
    ({"cards": (-1, 2, 2)}, r"cards must be 3 counts"),
    ({"cards": (0, 0, 0)}, r"cards must be 3 counts"),
    ({"cards": (2, 0, 1), "insteker": 1}, r"insteker must be a seat 0–2 with cards, got 1"),
    ({"cards": (2, 1, 1), "insteker": 3}, r"insteker must be a seat 0–2 with cards, got 3"),
    ({"insteker": -1}, r"insteker must be a seat 0–2 with cards, got -1"),
])
def test_bad_positions_are_one_line_errors(solution_3p2c, kwargs, message) -> None:
    with pytest.raises(ValueError, match=message) as refused:
        solution_3p2c.win_probabilities(**kwargs)
    assert "\n" not in str(refused.value)


def test_win_probabilities_of_a_finished_game_and_of_a_position(solution_3p2c) -> None:
    assert solution_3p2c.win_probabilities(cards=(0, 2, 0)) == (0.0, 1.0, 0.0)
    values = solution_3p2c.win_probabilities(cards=(1, 0, 2), insteker=2)
    assert values[1] == 0.0 and sum(values) == pytest.approx(1.0, abs=1e-12)


def test_action_values_need_a_decision_of_this_table(solution_3p2c) -> None:
    chance = Game(3, 2)  # the first throw comes next: a chance node
    decision = Game(4, 1)
    decision.apply_throw((2, 3, 4))
    bigger = Game(3, [3, 1, 1])
    bigger.apply_throw((2, 3, 4))
    for game, message in [(chance, "needs an engine.Game at a decision node"),
                          ("not a game", "needs an engine.Game at a decision node"),
                          (decision, "this solution is for 3 players, the game has 4"),
                          (bigger, r"at most \[2, 2, 2\] per seat, got \[3, 1, 1\]")]:
        with pytest.raises(ValueError, match=message) as refused:
            solution_3p2c.action_values(game)
        assert "\n" not in str(refused.value)
        with pytest.raises(ValueError, match=message):
            solution_3p2c.best_action(game)


@pytest.mark.parametrize("profile", [["sensible", "random"], ["sensible"] * 4, []])
def test_a_profile_of_the_wrong_length_names_the_count(profile) -> None:
    for call in (exact_evaluate, nash_conv):
        with pytest.raises(ValueError, match=f"one agent for every seat or 3 agents "
                                             f"\\(one per seat\\), got {len(profile)}"):
            call(profile, 3, 1)


@pytest.mark.slow
def test_a_profile_of_one_agent_in_a_list_plays_every_seat() -> None:
    assert exact_evaluate(["sensible"], 3, 2) == exact_evaluate("sensible", 3, 2)
    assert nash_conv(["sensible"], 3, 2) == nash_conv("sensible", 3, 2)


@pytest.mark.parametrize("profile", [["nope"], "nope", ["sensible", "nope", "sensible"]])
def test_an_unknown_agent_in_a_profile_is_named(profile) -> None:
    for call in (exact_evaluate, nash_conv):
        with pytest.raises(ValueError, match="^unknown policy 'nope'; known: .*sensible") as no:
            call(profile, 3, 2)
        assert "\n" not in str(no.value)

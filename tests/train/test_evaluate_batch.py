"""Evaluation plays every lineup on the compiled batch engine (``evaluate_agents`` →
``play_lineup``): players that answer a batch in one call and players asked row by row play
the same games, and the statistics it reports are those of the same games replayed on the
scalar ``engine.Game``, game by game."""

from __future__ import annotations

from collections import defaultdict

import numpy as np
import pytest

from pagadores_env.core.policies import make_policy
from pagadores_env.pagadores.engine import Game
from pagadores_env.pagadores.observation import encode
from pagadores_env.pagadores.rules import THROWS
from pagadores_env.pagadores.vector import VectorGame
from pagadores_env.pagadores.vector import evaluate as batch_evaluation
from pagadores_env.pagadores.vector.evaluate import EvalGame, Played, play_lineup, play_out
from pagadores_train.evaluation.evaluate import evaluate_agents
from tests.players import SEAT_BOUND, Looping, RowByRow, SeatBound


# ---------------------------------------------------------------- any player plays
# The wrapped player is one without a decision table (a table player's batch form is the
# kernel's, which takes dice in another order: tests/pagadores/test_decision_tables.py checks
# those).
@pytest.mark.parametrize("wrap", [RowByRow, Looping])
@pytest.mark.parametrize(("agents", "num_players"), [
    (["lookahead", "threshold"], 2),
    (["random", "always-throw", "threshold", "stop-first"], 4),
])
def test_a_player_asked_row_by_row_plays_the_same_games_as_its_batch_form(wrap, agents,
                                                                          num_players):
    batched = evaluate_agents(agents, num_players, 200, seed=3, exact=False)
    row_by_row = evaluate_agents([wrap(agents[0]), *agents[1:]], num_players, 200, seed=3,
                                 exact=False)
    assert row_by_row == batched


# ---------------------------------------------------------------- exact per-game bookkeeping
class LoggedGame(EvalGame):
    """Remembers every game's dice, so the scalar engine can replay them."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        self.dice_log: dict[int, list[int]] = defaultdict(list)
        super().__init__(*args, **kwargs)

    def draw_dice(self, row: int, count: int) -> np.ndarray:
        die = int(self.rng.integers(0, len(THROWS)))  # one at a time: it is game ``row``'s
        self.dice_log[row].append(die)
        return np.array([die])


def _replay(num_players: int, cards: int | list[int], dice: list[int], players: list,
            player_of: list[int]) -> Game:
    game, throws = Game(num_players, cards), iter(dice)
    while not game.is_terminal():
        if game.is_chance_node():
            game.apply_throw(THROWS[next(throws)])
        else:
            seat = game.current_player
            game.apply_action(players[player_of[seat]].act(encode(game, seat), np.ones(2)))
    assert next(throws, None) is None  # the scalar game used exactly the batch game's dice
    return game


def _rounds_played(game: Game) -> list[int]:
    """Rounds each seat took part in, read from the log: up to the round it went out in,
    else all of them (none for a seat that started without cards)."""
    played = [game.round if cards else 0 for cards in game.start_cards]
    current = 0
    for event in game.log:
        if event.kind == "round":
            current = event.value
        elif event.kind == "out":
            played[event.seat] = current
    return played


def _outcome(games: list[Game], player_of: list[list[int]]) -> Played:
    """Finished scalar games in the batch engine's form."""
    return Played(np.array(player_of), np.array([g.winner for g in games]),
                  np.array([g.placements() for g in games]), np.array([g.round for g in games]),
                  np.array([_rounds_played(g) for g in games]),
                  np.array([g.start_cards for g in games]) - np.array([g.cards for g in games]))


@pytest.mark.parametrize(("num_players", "cards"), [(4, 3), (5, 2), (4, [3, 0, 2, 3])])
def test_R1_4_R6_batch_outcomes_equal_the_scalar_replay_game_by_game(num_players, cards):
    """Winner, placements, rounds, cards lost and the rounds each seat played (up to the
    round it went out in, R1.4, R6) equal the scalar engine's on the same dice."""
    players = [make_policy(name) for name in ("sensible", "always-throw", "threshold")]
    size = 300
    player_of = np.random.default_rng(0).integers(0, len(players), (size, num_players))
    game = LoggedGame(size, num_players, cards, seed=1)
    play_out(game, players, player_of)
    batch = Played(player_of, game.winner, game.placements(), game.round, game.rounds_in(),
                   game.start_cards - game.cards)
    scalar = _outcome([_replay(num_players, cards, game.dice_log[i], players,
                               player_of[i].tolist()) for i in range(size)],
                      player_of.tolist())
    for name, mine, theirs in zip(Played._fields, batch, scalar, strict=True):
        np.testing.assert_array_equal(mine, theirs, err_msg=name)
    went_out = (batch.rounds_in < batch.rounds[:, None]).sum()
    assert went_out > size // 2  # players knocked out before the last round were checked


@pytest.mark.parametrize(("agents", "num_players", "cards"), [
    (["sensible", "always-throw"], 2, 10),
    (["sensible", "threshold", "always-throw", "stop-first"], 4, 3),
    (["lookahead", "stop-first"], 3, 4),  # one opponent in two seats
])
def test_evaluate_agents_reports_the_same_games_replayed_on_the_scalar_engine(
        agents, num_players, cards, monkeypatch):
    """Every statistic of ``evaluate_agents`` (wins, seats, mean place, cards lost per round
    played, mean game length) equals the one counted from ``engine.Game`` replays of its
    games, seats rotated as promised (R3.1: entry ``k`` in seat ``(k + g) % n`` of game g)."""
    logged: list[LoggedGame] = []

    class Logging(LoggedGame):
        def __init__(self, *args: object, **kwargs: object) -> None:
            super().__init__(*args, **kwargs)
            logged.append(self)

    monkeypatch.setattr(batch_evaluation, "EvalGame", Logging)
    result = evaluate_agents(agents, num_players, 120, seed=11, cards=cards, exact=False)
    (game,) = logged  # one chunk
    n, games = num_players, result.num_games
    rows = list(range(len(agents))) if len(agents) == n else [0] + [1] * (n - 1)
    entry_of = [[(s - g) % n for s in range(n)] for g in range(games)]
    row_of = [[rows[e] for e in entries] for entries in entry_of]
    players = [make_policy(a) for a in agents]  # deterministic players: no seeds to match
    scalar = [_replay(n, cards, game.dice_log[g], players, row_of[g]) for g in range(games)]
    for r, stats in enumerate(result.rows):
        seats = [(g, s) for g in range(games) for s in range(n) if row_of[g][s] == r]
        lost = sum(scalar[g].start_cards[s] - scalar[g].cards[s] for g, s in seats)
        rounds_in = sum(_rounds_played(scalar[g])[s] for g, s in seats)
        assert stats.trials == len(seats) == games * stats.copies
        assert stats.wins == sum(scalar[g].winner == s for g, s in seats)
        assert stats.seat_counts == tuple(sum(1 for _, s in seats if s == seat)
                                          for seat in range(n))
        assert stats.mean_placement == pytest.approx(
            np.mean([scalar[g].placements()[s] for g, s in seats]))
        assert stats.cards_lost_per_round == pytest.approx(lost / rounds_in)
    assert result.mean_game_length == pytest.approx(np.mean([g.round for g in scalar]))


def test_play_lineup_reports_every_finished_game():
    heard: list[int] = []
    played = play_lineup([make_policy("sensible")], [0, 0, 0], 500,
                         np.random.default_rng(0), chunk=128, on_finished=heard.append)
    assert sum(heard) == 500 == len(played.winner)
    assert (played.placements[np.arange(500), played.winner] == 1).all()
    np.testing.assert_array_equal(played.player_of, 0)


@pytest.mark.slow
def test_a_player_that_must_know_its_seat_plays_each_seat_as_its_copy_for_it(
        monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    """Seats rotate, so ``SeatBound`` sits at every seat; each seat's games are played by its
    copy for that seat (``threshold`` at seat 0, ``stop-first`` elsewhere), and counted as
    the one player's. Its Monte-Carlo win per seat matches the exact value of that seat's
    copy (4 standard errors), which differs from the other copy's by 8 or more."""
    from pagadores_env.pagadores.solver import exact_evaluate

    monkeypatch.setenv("PAGADORES_CACHE", str(tmp_path))
    games = 6000
    played = play_lineup([SeatBound(), make_policy("sensible")], [0, 1, 1], games,
                         np.random.default_rng(4), cards=2)
    totals = played.totals(2)
    np.testing.assert_array_equal(totals.seated[0], [games // 3] * 3)
    for seat in range(3):
        def exact(spec: str, seat: int = seat) -> float:
            return exact_evaluate([spec if s == seat else "sensible" for s in range(3)], 3, 2)[
                seat]

        mine, other = exact(SEAT_BOUND[seat > 0]), exact(SEAT_BOUND[seat == 0])
        se = (mine * (1 - mine) / (games // 3)) ** 0.5
        assert abs(other - mine) > 8 * se  # the test tells the copies apart
        assert abs(totals.wins[0, seat] / (games // 3) - mine) < 4 * se, seat


def test_play_out_refuses_games_that_restart_forever():
    with pytest.raises(ValueError, match="auto_reset=False"):
        play_out(VectorGame(4, 2, seed=0), [make_policy("sensible")], np.zeros((4, 2), int))

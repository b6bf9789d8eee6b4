"""The evaluation command's two engines (train.evaluate ``engine=``): which one "auto" picks,
and that the numpy batch engine reports the same statistics as the scalar one."""

from __future__ import annotations

from collections import defaultdict

import numpy as np
import pytest

from agents.heuristics import SensiblePolicy
from pagadores_env.engine import Game
from pagadores_env.observation import encode
from pagadores_env.policies import BasePolicy, make_policy
from pagadores_env.rules import THROWS
from pagadores_env.vector import VectorGame
from pagadores_env.vector.evaluate import EvalGame, Played, is_vectorised, play_lineup, play_out
from train.evaluate import EvalResult, _outcome, evaluate


class Plain:
    """A policy object with only ``act``: nothing says it can answer a batch at once."""

    name = "plain"

    def act(self, obs: np.ndarray, mask: np.ndarray) -> int:
        return 0


class Looping(BasePolicy):
    """``BasePolicy``'s ``act_batch`` is a Python loop over ``act``: not vectorised."""

    name = "looping"

    def act(self, obs: np.ndarray, mask: np.ndarray) -> int:
        return 1


# ---------------------------------------------------------------- choosing the engine
def test_auto_picks_the_batch_engine_when_every_agent_is_vectorised():
    assert evaluate(["sensible", "random"], 2, 10, exact=False).engine == "batch"
    assert evaluate([SensiblePolicy(), "threshold"], 4, 8).engine == "batch"
    assert all(is_vectorised(make_policy(name)) for name in
               ("random", "stop-first", "always-throw", "threshold", "sensible", "lookahead"))


@pytest.mark.parametrize("other", [Plain(), Looping()])
def test_auto_falls_back_to_scalar_for_a_policy_that_is_not_vectorised(other):
    assert not is_vectorised(other)
    assert evaluate(["sensible", other], 2, 10, exact=False).engine == "scalar"
    # forcing the batch engine still works: it asks the policy row by row
    forced = evaluate(["sensible", other], 2, 10, exact=False, engine="batch")
    assert forced.engine == "batch" and forced.rows[1].label == other.name


def test_bad_engine_is_refused_with_the_choices():
    with pytest.raises(ValueError, match="engine must be one of 'auto', 'batch', 'scalar', "
                                         "got 'gpu'"):
        evaluate(["sensible", "random"], 2, 10, engine="gpu")


def test_engine_is_reported_in_table_and_csv(tmp_path):
    result = evaluate(["sensible", "random"], 2, 10, exact=False, engine="batch")
    assert "batch engine" in result.table().splitlines()[0]
    result.to_csv(tmp_path / "r.csv")
    assert ",batch" in (tmp_path / "r.csv").read_text().splitlines()[1]


# ---------------------------------------------------------------- the two engines agree
def _standard_errors(played: Played, entry: int) -> dict[str, float]:
    """Per-game standard deviations of the statistics of ``entry`` (the denominator of a
    per-seat mean is one game-seat; cards lost per round is a ratio: delta method)."""
    mine = played.player_of == entry
    per_game = mine.sum(axis=1)
    wins = (played.player_of[np.arange(len(mine)), played.winner] == entry).astype(float)
    lost = (played.cards_lost * mine).sum(axis=1)
    rounds_in = (played.rounds_in * mine).sum(axis=1)
    ratio = lost.sum() / rounds_in.sum()
    return {
        "win_rate": wins.std() / per_game.mean(),
        "mean_placement": (played.placements * mine).sum(axis=1).std() / per_game.mean(),
        "cards_lost_per_round": (lost - ratio * rounds_in).std() / rounds_in.mean(),
        "mean_game_length": played.rounds.std(),
    }


@pytest.mark.parametrize(("agents", "num_players", "scalar_games"), [
    (["sensible", "random"], 2, 4000),
    (["sensible", "random", "threshold", "always-throw"], 4, 2000),
])
def test_batch_and_scalar_engines_agree_within_4_standard_errors(agents, num_players,
                                                                 scalar_games):
    batch_games = 10 * scalar_games
    batch = evaluate(agents, num_players, batch_games, seed=11, exact=False, engine="batch")
    scalar = evaluate(agents, num_players, scalar_games, seed=12, exact=False, engine="scalar")
    # per-game spread, from a separate batch run that keeps every game's outcome
    players = [make_policy(a, seed=k) for k, a in enumerate(agents)]
    played = play_lineup(players, range(num_players), batch_games, np.random.default_rng(5))
    scale = np.sqrt(1 / batch.num_games + 1 / scalar.num_games)
    for entry, (b, s) in enumerate(zip(batch.rows, scalar.rows, strict=True)):
        assert b.seat_counts == tuple([batch.num_games // num_players] * num_players)
        assert s.seat_counts == tuple([scalar.num_games // num_players] * num_players)
        for name, sd in _standard_errors(played, entry).items():
            if name == "mean_game_length":
                mine, theirs = batch.mean_game_length, scalar.mean_game_length
            else:
                mine, theirs = getattr(b, name), getattr(s, name)
            assert abs(mine - theirs) < 4 * sd * scale, (name, entry, mine, theirs)


@pytest.mark.parametrize("engine", ["batch", "scalar"])
def test_each_engine_is_reproducible_and_depends_on_the_seed(engine):
    args = (["random", "sensible", "random"], 3, 300)
    first = evaluate(*args, seed=4, engine=engine)
    assert evaluate(*args, seed=4, engine=engine) == first
    assert evaluate(*args, seed=5, engine=engine) != first


def test_the_engines_draw_different_dice_but_report_the_same_shape():
    batch = evaluate(["sensible", "random"], 4, 400, seed=3, engine="batch")
    scalar = evaluate(["sensible", "random"], 4, 400, seed=3, engine="scalar")
    assert isinstance(batch, EvalResult) and batch.rows != scalar.rows
    for b, s in zip(batch.rows, scalar.rows, strict=True):
        assert (b.label, b.copies, b.trials, b.seat_counts) == (s.label, s.copies, s.trials,
                                                                  s.seat_counts)


# ---------------------------------------------------------------- exact per-game bookkeeping
class LoggedGame(EvalGame):
    """Remembers every game's dice, so the scalar engine can replay them."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        self.dice_log: dict[int, list[int]] = defaultdict(list)
        super().__init__(*args, **kwargs)

    def draw_dice(self, rows: np.ndarray) -> np.ndarray:
        dice = super().draw_dice(rows)
        for row, outcome in zip(rows.tolist(), dice.tolist(), strict=True):
            self.dice_log[row].append(outcome)
        return dice


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


def test_play_lineup_reports_every_finished_game():
    heard: list[int] = []
    played = play_lineup([make_policy("sensible")], [0, 0, 0], 500,
                         np.random.default_rng(0), chunk=128, on_finished=heard.append)
    assert sum(heard) == 500 == len(played.winner)
    assert (played.placements[np.arange(500), played.winner] == 1).all()
    np.testing.assert_array_equal(played.player_of, 0)


def test_play_out_refuses_games_that_restart_forever():
    with pytest.raises(ValueError, match="auto_reset=False"):
        play_out(VectorGame(4, 2, seed=0), [make_policy("sensible")], np.zeros((4, 2), int))

"""The exact yardstick of 2-player 1-die Perudo: best responses, exploitability, CFR+."""

from __future__ import annotations

import functools

import numpy as np
import pytest

from pagadores_env import perudo_v1
from pagadores_env.core.policies import make_policy
from pagadores_env.perudo import exact
from pagadores_env.perudo.engine import Game
from pagadores_env.perudo.observation import encode
from pagadores_env.perudo.rules import BIDS, DUDO, legal_actions, legal_mask


def test_the_tree_holds_every_bid_history_once():
    t = exact.tree()
    assert len(set(t.histories)) == t.nodes
    assert len(t.payoff) == t.nodes - 1  # every history but the empty one can be called
    assert t.edges == t.nodes - 1 + len(t.payoff)  # one edge into every other node
    # every history replays in the engine and offers what the tree says
    for history in t.histories[:: 97]:
        game = Game(2, 1)
        game.apply_roll(((3,), (4,)))
        for action in history:
            game.apply_action(action)
        node = t.index[history]
        edges = slice(t.first[node], t.first[node] + t.legal[node])
        assert t.action[edges].tolist() == game.legal_actions()


def br_against_uniform(seat: int) -> float:
    """``seat``'s best return against a uniform random opponent, by plain recursion over the
    seat's information states. The opponent's choice does not depend on its die, so the die
    stays uniformly unknown all round; the dudo is counted here from P4.1/P4.2 directly."""

    def called(history, caller, mine):
        q, f = BIDS[history[-1]]
        returns = []
        for other in range(1, 7):
            count = sum(d == f or (f != 1 and d == 1) for d in (mine, other))
            loser = caller if count >= q else 1 - caller  # a tie goes against the caller
            returns.append(-1.0 if loser == seat else 1.0)
        return sum(returns) / 6

    @functools.cache
    def value(history, mine):
        actor = len(history) % 2
        actions = legal_actions(history[-1] if history else DUDO, 2, False)
        children = [called(history, actor, mine) if a == DUDO else value((*history, a), mine)
                    for a in actions]
        return max(children) if actor == seat else sum(children) / len(children)

    return sum(value((), mine) for mine in range(1, 7)) / 6


def test_random_exploitability_two_ways():
    uniform = exact.uniform_strategy()
    walks = [exact.best_response(uniform, seat)[0] for seat in (0, 1)]
    recursion = [br_against_uniform(seat) for seat in (0, 1)]
    assert walks == pytest.approx(recursion, abs=1e-12)
    assert exact.exploitability(uniform) == pytest.approx(sum(recursion) / 2, abs=1e-12)
    assert exact.exploitability(uniform) > 0.5


def play(seats, games: int, seed: int) -> np.ndarray:
    """Seat 0's returns in ``games`` seeded games of the 2-player 1-die AEC env."""
    returns = np.empty(games)
    for game in range(games):
        env = perudo_v1.env(num_players=2, dice=1)
        env.reset(seed=seed + game)
        for agent in env.agent_iter():
            obs, reward, done, cut, _ = env.last()
            if done or cut:
                if agent == "player_0":
                    returns[game] = reward
                env.step(None)
                continue
            env.step(seats[int(agent[-1])].act(obs["observation"], obs["action_mask"]))
    return returns


@pytest.mark.slow
@pytest.mark.parametrize("seat", [0, 1])
def test_the_best_response_to_random_wins_what_the_walk_says_in_the_env(seat):
    value, best = exact.best_response(exact.uniform_strategy(), seat)
    seats = [make_policy("random", game="perudo", seed=seat)] * 2
    seats[seat] = exact.StrategyPolicy(best, seed=seat)
    returns = play(seats, 1500, 10_000 * seat) * (1 if seat == 0 else -1)
    error = returns.std() / np.sqrt(len(returns))
    assert abs(returns.mean() - value) < 4 * error


@pytest.mark.slow
@pytest.mark.parametrize("spec", ["probabilistic", "bluffer:bluff=0.5"])
@pytest.mark.parametrize("seat", [0, 1])
def test_a_best_response_beats_every_pure_alternative_tried(spec, seat):
    t = exact.tree()
    fixed = exact.strategy(make_policy(spec, game="perudo"))
    value, best = exact.best_response(fixed, seat)
    sign = 1 if seat == 0 else -1
    assert sign * exact.expected_return(best) == pytest.approx(value, abs=1e-12)
    mine = np.zeros(t.edges, dtype=bool)
    for edges, _, actor in t.levels:
        mine[edges] = actor == seat
    rng = np.random.default_rng(seat)
    for _ in range(100):  # random pure strategies of the seat, the other seat fixed
        pick = rng.random((t.nodes, 6)) * t.legal[:, None]
        choice = t.first[:, None] + pick.astype(int)
        alternative = fixed.copy()
        alternative[mine] = 0.0
        for die in range(6):
            chosen = np.zeros(t.edges, dtype=bool)
            chosen[choice[:, die]] = True
            alternative[mine & chosen, die] = 1.0
        assert sign * exact.expected_return(alternative) <= value + 1e-12
    # changing the best response at one information state never helps either
    for edge in np.flatnonzero(mine)[:: 401]:
        node = t.parent[edge]
        for die in range(6):
            moved = best.copy()
            moved[t.first[node]:t.first[node] + t.legal[node], die] = 0.0
            moved[edge, die] = 1.0
            assert sign * exact.expected_return(moved) <= value + 1e-12


@pytest.mark.slow
def test_cfr_plus_converges_below_0_01_and_keeps_falling():
    result = exact.cfr_plus(60, report_every=15)
    values = [result.exploitability[i] for i in (15, 30, 45, 60)]
    assert values == sorted(values, reverse=True) and values[0] > values[-1]
    assert values[-1] < 0.01
    assert exact.exploitability(result.strategy) == pytest.approx(values[-1])
    assert result.seconds > 0
    # the same information states as the policies: seat 0 cannot do better than its
    # equilibrium value by much, nor seat 1
    game_value = exact.expected_return(result.strategy)
    br0 = exact.best_response(result.strategy, 0)[0]
    br1 = exact.best_response(result.strategy, 1)[0]
    assert br0 >= game_value - 1e-12 and br1 >= -game_value - 1e-12


@pytest.mark.slow
def test_the_bidders_are_more_exploitable_than_the_equilibrium_and_less_than_random():
    floor = exact.cfr_plus(60).exploitability[60]
    for spec in ("probabilistic", "bluffer"):
        measured = exact.exploitability(make_policy(spec, game="perudo", seed=0))
        assert floor < measured < exact.exploitability(exact.uniform_strategy())


def test_a_policy_and_its_strategy_measure_alike():
    sigma = exact.cfr_plus(5).strategy
    policy = exact.StrategyPolicy(sigma)
    assert np.allclose(exact.strategy(policy), sigma)
    t = exact.tree()

    def by_table(die, history):
        node = t.index[history]
        probs = np.zeros(181)
        edges = slice(t.first[node], t.first[node] + t.legal[node])
        probs[t.action[edges]] = sigma[edges, die - 1]
        return probs

    assert np.allclose(exact.strategy(by_table), sigma)
    rows = [(die, history) for die in (1, 4, 6) for history in t.histories[::331]]
    for die, history in rows:  # the policy reads the same state from the observation
        assert np.array_equal(policy.action_probabilities(encode_at(die, history), None)[0],
                              by_table(die, history))
    bidder = make_policy("probabilistic", game="perudo")
    assert exact.exploitability(bidder) == exact.exploitability(exact.strategy(bidder))


def encode_at(die: int, history) -> np.ndarray:
    game = Game(2, 1)
    game.apply_roll(((die,), (die,)))
    for action in history:
        game.apply_action(action)
    return encode(game, game.current_player)[None]


def test_bad_strategies_are_refused_in_one_line():
    t = exact.tree()
    cases = [
        (np.zeros((3, 6)), "shape"),
        (np.zeros((t.edges, 6)), "summing to 1"),
        (lambda die, history: np.ones(181) / 181, "legal actions only"),
        (lambda die, history: np.ones(5), "181 action probabilities"),
        ("random", "a strategy source must be"),
    ]
    for source, words in cases:
        with pytest.raises(ValueError, match=words) as err:
            exact.strategy(source)
        assert "\n" not in str(err.value)
    with pytest.raises(ValueError, match="iterations must be an integer"):
        exact.cfr_plus(0)


def test_a_strategy_policy_refuses_another_table():
    game = Game(2, 2)
    game.apply_roll(((3, 3), (4, 4)))
    policy = exact.StrategyPolicy(exact.uniform_strategy())
    with pytest.raises(ValueError, match="2-player 1-die game only"):
        policy.act(encode(game, 0), legal_mask(game.bid_action, 4, False))


def test_the_summary_reports_every_number():
    numbers = exact.summary(10, players=("probabilistic",))
    assert numbers["uniform random"] == exact.exploitability(exact.uniform_strategy())
    assert numbers["probabilistic"] == exact.exploitability(
        make_policy("probabilistic", game="perudo"))
    assert 0 < numbers["cfr+ after 10 iterations"] < numbers["probabilistic"]
    assert numbers["cfr+ seconds"] > 0

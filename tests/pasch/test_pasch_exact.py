"""Pasch's exact yardstick (X9): the single turn against computations written here from the
rules alone (a Markov chain for five of a kind, a plain expectimax over sorted hands), the
last round's equilibrium against a brute-force expectimax of the same round, the players'
evaluation against uniform play computed here, NashConv, and the refusals."""

from __future__ import annotations

import itertools
import time
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest

from pagadores_env.pasch import exact
from pagadores_env.pasch.engine import Game
from pagadores_env.pasch.observation import decode, encode
from pagadores_env.pasch.policies import RandomPolicy
from pagadores_env.pasch.rules import DICE_ACTIONS, ROWS

FACES = range(1, 7)
HANDS = sorted(set(tuple(sorted(h)) for h in itertools.product(FACES, repeat=5)))
GOALS = [("pair", 1), ("pair", 6), ("two pairs", 4), ("triple", 1), ("full house", 6),
         ("four", 3), ("five", 1), ("five", 6)]


# ---------------------------------------------------------------- the rules, written again
def board_class(hand) -> list[int]:
    """The classes a hand may be placed at: -1 beside the board, else row * 6 + column - 1
    (X6, X7.1), from the counts of equal dice."""
    counts = Counter(hand)
    shape = tuple(sorted(counts.values(), reverse=True))
    top = max(v for v, c in counts.items() if c == shape[0])
    row = {(5,): 5, (4, 1): 4, (3, 2): 3, (3, 1, 1): 2, (2, 2, 1): 1, (2, 1, 1, 1): 0}.get(shape)
    if row is None:
        return [-1]
    if row == 1:
        return [row * 6 + v - 1 for v, c in counts.items() if c == 2]
    return [row * 6 + top - 1]


def thrown(kept) -> dict:
    """The sorted hands after keeping ``kept`` and throwing the rest, with probabilities."""
    k = 5 - len(kept)
    out: Counter = Counter()
    for t in itertools.product(FACES, repeat=k):
        out[tuple(sorted(kept + t))] += Fraction(1, 6 ** k)
    return {h: float(p) for h, p in out.items()}


KEPT = {kept: thrown(kept) for size in range(5)
        for kept in itertools.combinations_with_replacement(FACES, size)}


def without(hand, positions):
    return tuple(d for i, d in enumerate(hand) if i not in positions)


def expect(values, kept):
    """The expected value of ``values`` (per hand) after keeping ``kept``."""
    return sum(p * values[h] for h, p in KEPT[kept].items())


def turn_value(payoff, blocks: int, mode: str = "max"):
    """The value of a fresh turn: ``payoff(cls)`` is a vector of columns; ``"max"``: each
    column maximises itself; ``"uniform"``: every legal action (by position, X8.1) alike."""
    return expect(turn_levels(payoff, blocks, mode)[2], ())


def turn_levels(payoff, blocks: int, mode: str = "max"):
    """``turn_value``'s values per hand: after the throws with b blocks left (a list by b),
    after throw 2 and after throw 1."""
    def pick(options):
        options = [np.asarray(o, dtype=float) for o in options]
        if mode == "max":
            return np.max(options, axis=0)
        return np.mean(options, axis=0)

    level = {h: pick([payoff(c) for c in board_class(h)]) for h in HANDS}
    spent = [level]
    for _ in range(blocks):
        below = level
        level = {}
        for h in HANDS:
            options = [payoff(c) for c in board_class(h)]
            options += [expect(below, without(h, (i,))) for i in range(5)]
            options += [below[tuple(sorted(without(h, (i,)) + (h[i] + s,)))]
                        for s in (1, -1) for i in range(5) if 1 <= h[i] + s <= 6]
            level[h] = pick(options)
        spent.append(level)
    after = level
    subsets = [s for k in range(1, 6) for s in itertools.combinations(range(5), k)]
    second = {h: pick([after[h]] + [expect(after, without(h, s)) for s in subsets])
              for h in HANDS}
    first = {h: pick([after[h]] + [expect(second, without(h, s)) for s in subsets])
             for h in HANDS}
    return spent, second, first


def field(goal) -> int:
    return ROWS.index(goal[0]) * 6 + goal[1] - 1


# ---------------------------------------------------------------- X9.1 the single turn
def test_X9_1_five_of_a_kind_in_three_throws_is_the_well_known_4_60_percent():
    """A Markov chain on the count of the most frequent value, keeping it and throwing the
    rest (taking a larger group of another value where one comes up)."""
    def step(k):
        out: Counter = Counter()
        for t in itertools.product(FACES, repeat=5 - k):
            c = Counter(t)
            out[max(k + c[1], max((v for f, v in c.items() if f != 1), default=0))] += \
                Fraction(1, 6 ** (5 - k))
        return out

    dist = Counter()
    for t in itertools.product(FACES, repeat=5):
        dist[max(Counter(t).values())] += Fraction(1, 6 ** 5)
    for _ in range(2):
        nxt: Counter = Counter()
        for k, p in dist.items():
            for k2, q in (step(k).items() if k < 5 else [(5, 1)]):
                nxt[k2] += p * q
        dist = nxt
    assert float(dist[5]) == pytest.approx(exact.best_chance(("five", 1)), abs=1e-14)
    assert round(exact.best_chance(("five", 1)), 5) == 0.04603


@pytest.mark.parametrize("blocks", [0, 1, 2])
def test_X9_1_best_chance_is_an_expectimax_written_from_the_rules(blocks):
    values = turn_value(lambda c: [float(c >= field(g)) for g in GOALS], blocks)
    for goal, value in zip(GOALS, values, strict=True):
        assert exact.best_chance(goal, blocks) == pytest.approx(value, abs=1e-12)


def test_X9_1_more_blocks_never_lower_and_higher_goals_never_raise_the_chance():
    table = np.array([exact.chance_table(b) for b in range(11)])
    assert (np.diff(table, axis=0) >= -1e-12).all() and (np.diff(table, axis=1) <= 1e-12).all()
    assert table[10, 1:].min() > 0.97 and table[:, 0] == pytest.approx(1.0)


@pytest.mark.parametrize(("goal", "blocks"), [(("full house", 6), 0), (("four", 2), 1),
                                              (("five", 6), 2)])
def test_X9_1_best_policy_achieves_the_chance_and_spends_only_where_it_gains(goal, blocks):
    """The policy played by the engine's own moves over every chance outcome of each of
    its decisions, backwards: its value is the chance; and every block it spends raises the
    chance of the state over placing."""
    policy = exact.best_policy(goal, blocks)
    target = field(goal)
    reach = {h: float(max(board_class(h)) >= target) for h in HANDS}
    values = {}  # (hand, blocks left) -> value of the policy's blocks phase
    for b in range(blocks + 1):
        for h in HANDS:
            rel = policy.after_stop(h, b)
            if rel in (47, 48):
                values[h, b] = float(board_class(h)[rel - 47] >= target)
                continue
            kind, i = divmod(rel - 32, 5)
            if kind == 0:
                values[h, b] = sum(p * values[n, b - 1]
                                   for n, p in KEPT[without(h, (i,))].items())
            else:
                values[h, b] = values[tuple(sorted(without(h, (i,)) + (h[i] + (1 if kind == 1
                                                                          else -1),))), b - 1]
            assert values[h, b] > reach[h] + 1e-12  # a block only where it raises the chance

    def choose(t, later):
        out = {}
        for h in HANDS:
            rel = policy.act(h, t, blocks)
            if rel == 31:
                out[h] = values[h, blocks]
                continue
            positions = tuple(i for i in range(5) if (rel + 1) >> i & 1)
            out[h] = sum(p * later[n] for n, p in KEPT[without(h, positions)].items())
        return out

    second = choose(2, {h: values[h, blocks] for h in HANDS})
    first = choose(1, second)
    value = sum(p * first[h] for h, p in KEPT[()].items())
    assert value == pytest.approx(policy.chance, abs=1e-12)
    assert policy.chance == exact.best_chance(goal, blocks)


def test_X9_1_every_table_is_solved_in_well_under_a_minute():
    exact._solved.cache_clear()
    start = time.perf_counter()
    for blocks in range(11):
        exact.chance_table(blocks)
    assert time.perf_counter() - start < 30


@pytest.mark.parametrize(("call", "named"), [
    (lambda: exact.best_chance(("six", 1)), r"^goal must be a field \(row, column\)"),
    (lambda: exact.best_chance(("pair", 7)), r"^goal must be a field"),
    (lambda: exact.best_chance(("pair", 6), blocks=11), r"^blocks must be a whole number 0–10"),
    (lambda: exact.best_policy(("pair", 6), 1).act((1, 2, 3, 4, 5), 3, 2),
     r"^this policy plays 0–1 blocks left"),
    (lambda: exact.best_policy(("pair", 6)).act((0, 2, 3, 4, 5), 1, 0), r"^dice must be"),
])
def test_X9_1_bad_arguments_are_refused_in_one_line(call, named):
    with pytest.raises(ValueError, match=named) as err:
        call()
    assert "\n" not in str(err.value)


# ---------------------------------------------------------------- X9.2 the last round
def two_player_shares(scores, cards, later_wins: bool, starter: int) -> list[float]:
    """2 players: the ranking's winner takes the higher card unless it is a -1 (X7.2)."""
    later = 1 - starter
    first, last = (later, starter) if later_wins else (starter, later)
    final = list(scores)
    high = [c for c in (cards[first], cards[last]) if c != -1]
    final[last] += sum(c for c in (cards[first], cards[last]) if c == -1)
    for seat, card in zip((first, last), sorted(high, reverse=True), strict=False):
        final[seat] += card
    best = max(final)
    return [1 / final.count(best) if f == best else 0.0 for f in final]


@pytest.mark.parametrize(("scores", "cards", "blocks", "starter"), [
    ([10, 8], [5, 3], [1, 1], 1), ([5, 5], [-1, 4], [0, 1], 0), ([3, 9], [5, -1], [2, 0], 0)])
def test_X9_2_two_players_equal_a_brute_force_expectimax(scores, cards, blocks, starter):
    later = 1 - starter
    win = two_player_shares(scores, cards, True, starter)[later]
    lose = two_player_shares(scores, cards, False, starter)[later]
    classes = range(-1, 36)
    # the later seat, for every class of the starter's disc: it wins the ranking at or above
    second = turn_value(lambda c: [win if c >= c0 else lose for c0 in classes], blocks[later])
    first = turn_value(lambda c: [1 - second[c + 1]], blocks[starter])[0]
    shares = exact.last_round(scores, cards, blocks, starter)
    assert shares[starter] == pytest.approx(first, abs=1e-12)
    assert sum(shares) == pytest.approx(1.0)


def test_X9_2_the_equilibrium_players_value_is_the_equilibrium_and_its_nash_conv_is_0():
    player = exact.EquilibriumPolicy()
    position = ([10, 8], [5, 3], [2, 1], 1)
    assert exact.exact_evaluate(player, *position) == pytest.approx(
        list(exact.last_round(*position)), abs=1e-12)
    assert exact.nash_conv(player, *position) == pytest.approx(0.0, abs=1e-10)
    assert exact.nash_conv(RandomPolicy(), *position) > 0.2


@pytest.mark.slow
def test_X9_2_three_players_equilibrium_has_nash_conv_0():
    player = exact.EquilibriumPolicy()
    position = ([10, 8, 9], [5, 3, -1], [0, 1, 0], 2)
    shares = exact.last_round(*position)
    assert sum(shares) == pytest.approx(1.0) and min(shares) > 0
    assert exact.exact_evaluate(player, *position) == pytest.approx(list(shares), abs=1e-12)
    assert exact.nash_conv(player, *position) == pytest.approx(0.0, abs=1e-10)


def test_X9_2_uniform_play_is_evaluated_as_computed_here():
    """Two uniform players: each ends at a class with a probability of its own turn (the
    uniform expectimax), and the shares follow from the pairs of classes."""
    scores, cards, blocks, starter = [6, 7], [4, -1], [1, 0], 1
    dist = {seat: turn_value(lambda c: [float(c == k) for k in range(-1, 36)], blocks[seat],
                             "uniform") for seat in (0, 1)}
    expected = np.zeros(2)
    for c0 in range(37):
        for c1 in range(37):
            later_wins = (c0 if starter == 1 else c1) >= (c1 if starter == 1 else c0)
            expected += dist[0][c0] * dist[1][c1] * np.array(
                two_player_shares(scores, cards, later_wins, starter))
    value = exact.exact_evaluate(RandomPolicy(), scores, cards, blocks, starter)
    assert value == pytest.approx(list(expected), abs=1e-12)


class Spy:
    """Plays its lowest legal action and keeps every (observation, mask) it is asked."""

    def __init__(self) -> None:
        self.seen: set[bytes] = set()

    def act(self, obs, mask):
        return int(self.act_batch(obs[None], mask[None])[0])

    def act_batch(self, obs, mask):
        self.seen.update(o.tobytes() + m.astype(np.int8).tobytes() for o, m in zip(obs, mask,
                                                                                   strict=True))
        return np.argmax(mask, axis=1)


def test_X9_2_the_players_are_asked_exactly_what_the_engine_shows_them():
    scores, cards, blocks, starter = [4, 6], [3, -1], [1, 1], 0
    spy = Spy()
    exact.exact_evaluate(spy, scores, cards, blocks, starter, hand=[-1, 1, 3])
    rng = np.random.default_rng(0)
    checked = 0
    for _ in range(30):
        game = Game(2, [-1, 1, 3], blocks, hands=[[c] for c in cards], scores=scores,
                    starter=starter)
        while not game.is_terminal():
            if game.is_chance_node():
                outcomes = game.chance_outcomes()
                game.apply_chance(outcomes[rng.integers(len(outcomes))][0])
                continue
            seat = game.current_player
            assert encode(game, seat).tobytes() + game.legal_mask().tobytes() in spy.seen
            checked += 1
            legal = game.legal_actions()
            game.apply_action(legal[rng.integers(len(legal))])
    assert checked > 60


def test_X9_2_each_choices_value_equals_a_brute_force_expectimax():
    """The later of two seats, after the starter's disc: every throw-again subset and the
    stop after throw 1, then placing and every block's rethrow, against the expectimax."""
    scores, cards, blocks, starter = [10, 8], [5, 3], [1, 1], 1
    win = two_player_shares(scores, cards, True, starter)[0]
    lose = two_player_shares(scores, cards, False, starter)[0]
    rng = np.random.default_rng(3)
    game = Game(2, blocks=blocks, hands=[[c] for c in cards], scores=scores, starter=starter)
    while game.is_chance_node() or game.current_player != 0:  # the starter plays at random
        if game.is_chance_node():
            outcomes = game.chance_outcomes()
            game.apply_chance(outcomes[rng.integers(len(outcomes))][0])
        else:
            legal = game.legal_actions()
            game.apply_action(legal[rng.integers(len(legal))])
    starters_class = game.discs[0][1] - 1  # here -1 is beside the board
    spent, second, _ = turn_levels(lambda c: [win if c >= starters_class else lose], 1)
    first = game.actions.dice  # C (X8.1)
    hand = tuple(game.dice)
    values = exact.action_values(encode(game, 0), game.legal_mask())
    assert len(values) == 32 and values[first + 31] == pytest.approx(spent[1][hand][0])
    for m in range(1, 32):  # throw again the sorted positions of the bits of m (X3.2)
        positions = tuple(i for i in range(5) if m >> i & 1)
        assert values[first + m - 1] == pytest.approx(expect(second, without(hand, positions))[0],
                                                      abs=1e-12)
    assert max(values.values()) == pytest.approx(
        values[int(exact.EquilibriumPolicy().act(encode(game, 0), game.legal_mask()))])
    game.apply_action(first + 31)  # stop: the blocks phase, one block left
    hand = tuple(game.dice)
    values = exact.action_values(encode(game, 0), game.legal_mask())
    assert values[first + 47] == pytest.approx(
        win if max(board_class(hand)) >= starters_class else lose)
    for i in range(5):  # a block's rethrow of die i (X4.1)
        assert values[first + 32 + i] == pytest.approx(expect(spent[0], without(hand, (i,)))[0],
                                                       abs=1e-12)


def test_X9_2_the_equilibriums_action_is_the_best_valued_at_three_players():
    rng = np.random.default_rng(5)
    game = Game(3, blocks=[1, 2, 0], hands=[[5], [3], [-1]], scores=[10, 8, 9], starter=2)
    player, checked = exact.EquilibriumPolicy(), 0
    while not game.is_terminal():
        if game.is_chance_node():
            outcomes = game.chance_outcomes()
            game.apply_chance(outcomes[rng.integers(len(outcomes))][0])
            continue
        obs, mask = encode(game, game.current_player), game.legal_mask()
        values = exact.action_values(obs, mask)
        assert sorted(values) == game.legal_actions()
        assert values[int(player.act(obs, mask))] == pytest.approx(max(values.values()),
                                                                   abs=1e-12)
        assert all(0 <= v <= 1 for v in values.values())
        checked += 1
        legal = game.legal_actions()
        game.apply_action(legal[rng.integers(len(legal))])
    assert checked >= 6


def test_X9_2_action_values_refuse_a_decision_before_the_last_round():
    game = Game(2)
    game.apply_action(game.legal_actions()[0])  # a card, then the dice
    game.apply_chance(game.chance_outcomes()[0][0])
    with pytest.raises(ValueError, match=r"last round at 2 or 3 players \(X9\.2\)") as err:
        exact.action_values(encode(game, game.current_player), game.legal_mask())
    assert "\n" not in str(err.value)


@pytest.mark.parametrize(("call", "named"), [
    (lambda: exact.last_round([1, 2, 3, 4], [1, 1, 1, 1], 0, 0),
     r"^scores must be 2 or 3 whole numbers, one per seat"),
    (lambda: exact.last_round([1, 2], [1, 11], 0, 0), r"^last_cards must be 2 cards"),
    (lambda: exact.last_round([1, 2], [1, 1], 11, 0), r"^blocks must be a whole number 0–10"),
    (lambda: exact.last_round([1, 2], [1, 1], 0, 2), r"^starter must be a seat 0–1"),
    (lambda: exact.exact_evaluate(RandomPolicy(), [1, 2, 3], [1, 1, 1], 3, 0),
     r"^the last round at 3 players with blocks \[3, 3, 3\] has [\d,]+ decisions to ask"),
    (lambda: exact.exact_evaluate([RandomPolicy()] * 3, [1, 2], [1, 1], 0, 0),
     r"^players must be one policy per seat \(2\) or one for all"),
    (lambda: exact.exact_evaluate(RandomPolicy(), [1, 2], [1, 7], 0, 0),
     r"^last_cards must be cards of the hand \[-1, 1, 2, 3, 4, 5\] \(X1\.3\), got \[1, 7\]"),
])
def test_X9_2_bad_positions_are_refused_in_one_line(call, named):
    with pytest.raises(ValueError, match=named) as err:
        call()
    assert "\n" not in str(err.value)


class Lowest:
    """A fixed pure player: its lowest legal action everywhere (an easy one to exploit)."""

    def act(self, obs, mask):
        return int(self.act_batch(obs[None], mask[None])[0])

    def act_batch(self, obs, mask):
        return np.argmax(mask, axis=1)


@pytest.mark.parametrize(("player", "position"), [
    (Lowest(), ([10, 8], [5, 3], [2, 1], 1)),
    (exact.EquilibriumPolicy(), ([15, 15], [-1, -1], [1, 0], 0)),
    (Lowest(), ([15, 15], [-1, -1], [0, 2], 0))])
def test_X9_2_the_response_earns_each_seats_best_gain_and_together_the_nash_conv(player,
                                                                                 position):
    response = exact.ResponsePolicy(player, fallback=Lowest())
    base = exact.exact_evaluate(player, *position)
    gains = [exact.exact_evaluate([response if s == seat else player for s in (0, 1)],
                                  *position)[seat] - base[seat] for seat in (0, 1)]
    assert min(gains) >= -1e-12  # no seat loses by its best response
    assert sum(gains) == pytest.approx(exact.nash_conv(player, *position), abs=1e-12)
    # the starter's gain alone: no other starter's turn does better against the player
    starter = position[3]
    other = [Lowest() if s == starter else player for s in (0, 1)]
    assert exact.exact_evaluate(other, *position)[starter] <= base[starter] + gains[starter] \
        + 1e-12


class Highest(Lowest):
    """Its highest legal action everywhere."""

    def act_batch(self, obs, mask):
        return mask.shape[1] - 1 - np.argmax(mask[:, ::-1], axis=1)


def _first_decision(scores, cards):
    """The starter's first dice decision of a last round at 2 players, 1 block each."""
    game = Game(2, blocks=[1, 1], hands=[[c] for c in cards], scores=scores, starter=0)
    game.apply_chance(game.chance_outcomes()[5][0])
    return encode(game, game.current_player), game.legal_mask()


def test_X9_2_the_response_plays_its_positions_and_leaves_the_rest_to_its_fallback():
    response = exact.ResponsePolicy(Lowest(), Highest(), positions=[((4, 4), (2, -1), 0, 0)])
    obs, mask = _first_decision([4, 4], [2, -1])
    table = exact.starter_response(Lowest(), [4, 4], [2, -1], [1, 1], 0)
    hand = exact.hand_indices(decode(obs[None]).dice)[0]
    first = len(mask) - DICE_ACTIONS
    assert response.act(obs, mask) == first + table[0, hand]  # after throw 1
    assert response.act(obs, mask) != Highest().act(obs, mask)
    other, other_mask = _first_decision([4, 5], [2, -1])  # scores not among its positions
    assert response.act(other, other_mask) == Highest().act(other, other_mask)
    early = Game(2)  # a card decision of the first round
    early_obs, early_mask = encode(early, early.current_player), early.legal_mask()
    assert response.act(early_obs, early_mask) == Highest().act(early_obs, early_mask)


def test_X9_2_the_starters_response_is_refused_at_3_players_in_one_line():
    with pytest.raises(ValueError, match=r"^the starter's best response is built at 2 "
                                         r"players, got 3$"):
        exact.starter_response(Lowest(), [1, 2, 3], [1, 1, 1], 0, 0)

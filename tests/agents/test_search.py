"""The search player (``pagadores_agents.search.player``) against the brute-force expectimax through
the engine (``tests/expectimax.py``), given the same values where a round ends; its value net
(``pagadores_agents.search.value_net``) and the net's fit
(``pagadores_train.learners.search.fit``)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from pagadores_agents.search.player import SearchPolicy, check_specials, default_specials, searcher
from pagadores_agents.search.value_net import ValueNet
from pagadores_env.core.policies import make_policy
from pagadores_env.pagadores.engine import Game
from pagadores_env.pagadores.observation import encode
from pagadores_env.pagadores.solver import results_cache
from pagadores_env.pagadores.solver.multi_kampen import Kampen
from tests.expectimax import Expectimax


def bumpy_net(num_players: int, seed: int) -> ValueNet:
    """A net whose values differ from position to position (a new net's are all even)."""
    net = ValueNet.new(num_players, hidden=(16,), seed=seed)
    w, b = net.layers[-1]
    w += np.random.default_rng(seed).normal(0.0, 2.0, w.shape)
    return net


def by_net(net: ValueNet):
    return lambda game: net(np.asarray([game.cards]), np.asarray([game.insteker]))[0]


POSITIONS = [(2, (2, 3), 1), (3, (1, 2, 2), 0), (3, (2, 1, 3), 2), (4, (1, 2, 1, 2), 3)]


@pytest.mark.parametrize(("n", "cards", "insteker"), POSITIONS)
def test_the_searched_round_is_the_engines_expectimax_with_the_nets_values_at_its_end(
        n, cards, insteker) -> None:
    # R3-R6: every throw, special, Picaro, kampen and knock-out of the round, seat by seat
    net = bumpy_net(n, seed=n + insteker)
    oracle = Expectimax(n, leaf=by_net(net))
    expected = oracle.values(Game(n, list(cards), insteker))
    got = searcher(net, depth=1).value(cards, insteker)
    np.testing.assert_allclose(got, expected, atol=1e-10)
    assert abs(got.sum() - 1.0) < 1e-9


def test_two_rounds_deep_is_the_expectimax_over_the_one_round_search() -> None:
    net = bumpy_net(3, seed=5)
    one = searcher(net, depth=1)
    oracle = Expectimax(3, leaf=lambda game: one.value(tuple(game.cards), game.insteker))
    expected = oracle.values(Game(3, [2, 2, 1], 1))
    np.testing.assert_allclose(searcher(net, depth=2).value((2, 2, 1), 1), expected,
                               atol=1e-10)


@pytest.mark.slow
@pytest.mark.parametrize(("n", "cards"), [(3, (2, 2, 3)), (4, (1, 1, 2, 2))])
def test_the_player_takes_the_action_the_expectimax_values_higher(n, cards) -> None:
    # at 4 players each seat's copy is told its seat (for_seat), as the evaluators do
    net = bumpy_net(n, seed=11)
    oracle = Expectimax(n, leaf=by_net(net))
    player = SearchPolicy.over(net, specials="all")  # every chain of specials, as the oracle
    rng = np.random.default_rng(0)
    compared = 0
    for _ in range(8):
        game = Game(n, list(cards), int(rng.integers(n)))
        while not game.is_terminal():
            if game.is_chance_node():
                outcomes = game.chance_outcomes()
                pick = rng.choice(len(outcomes), p=[p for _, p in outcomes])
                game.apply_throw(outcomes[pick][0])
                continue
            me = game.current_player
            if sum(1 for c in game.cards if c) > 1 and game.is_decision_node():
                stop, throw = oracle.action_values(game)[:, me]
                acting = player.for_seat(me, n) if n > 3 else player
                got = acting.act(encode(game, me), np.ones(2, np.int8))
                if abs(throw - stop) > 1e-9:
                    assert got == int(throw > stop), (game.cards, game.insteker)
                    compared += 1
            game.apply_action(int(rng.integers(2)))
    assert compared > 20


def test_the_player_is_made_from_a_saved_net_and_refuses_what_it_cannot_play(tmp_path) -> None:
    net = bumpy_net(3, seed=2)
    net.save(tmp_path / "value.npz")
    player = make_policy(f"search:path={tmp_path / 'value.npz'}")
    player.check_table(3, 10)
    with pytest.raises(ValueError, match="trained at 3 players, the table has 4"):
        player.check_table(4, 10)
    with pytest.raises(ValueError, match="trained at 3 players, the table has 4"):
        player.for_seat(3, 4)  # a rotation asks for the seat before the table is checked
    with pytest.raises(ValueError, match=r"needs its path: search:path=RUN_DIR$"):
        make_policy("search")
    with pytest.raises(ValueError, match="depth must be"):
        make_policy(f"search:path={tmp_path / 'value.npz'},depth=0")
    (tmp_path / "empty").mkdir()
    with pytest.raises(ValueError, match="holds no search run's value net"):
        make_policy(f"search:path={tmp_path / 'empty'}")
    four = bumpy_net(4, seed=2)
    four.save(tmp_path / "four.npz")
    with pytest.raises(ValueError, match="needs its seat"):
        make_policy(f"search:path={tmp_path / 'four.npz'}").check_table(4, 10)



def test_a_net_used_at_more_cards_than_it_was_trained_at_warns_in_one_line(tmp_path) -> None:
    """A net trained at 4 cards used at 10 gave no warning (issue 45, item 13): the net now
    records its table's cards, and a table starting with more (positions it never saw) is
    said once, in one line; at fewer or as many cards its values were trained, and a net of
    an older file (no cards recorded) says nothing."""
    net = bumpy_net(3, seed=2)
    net.cards = (4, 4, 4)
    net.save(tmp_path / "value.npz")
    player = make_policy(f"search:path={tmp_path / 'value.npz'}")
    assert player.net.cards == (4, 4, 4)
    with pytest.warns(UserWarning) as said:
        player.check_table(3, 10)
    [warning] = said
    assert str(warning.message) == (
        "search: its value net was trained at a table of 4 cards a seat; this one starts "
        "with 10, where its values are guesses at positions it never saw")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        player.check_table(3, [4, 2, 4])
        bumpy_net(3, seed=2).save(tmp_path / "older.npz")  # no cards recorded
        older = make_policy(f"search:path={tmp_path / 'older.npz'}")
        assert older.net.cards is None
        older.check_table(3, 10)


# ---------------------------------------------------------------- the value net
def test_the_nets_values_are_win_probabilities_of_the_seats_still_in() -> None:
    net = bumpy_net(4, seed=9)
    cards = np.array([[3, 0, 5, 1], [0, 0, 2, 7], [10, 10, 10, 10]])
    values = net(cards, np.array([2, 3, 1]))
    assert (values[cards == 0] == 0).all() and (values[cards > 0] > 0).all()
    np.testing.assert_allclose(values.sum(axis=1), 1.0)


def test_a_saved_net_loads_equal_and_a_damaged_one_is_refused_in_one_line(tmp_path) -> None:
    net = bumpy_net(3, seed=4)
    path = net.save(tmp_path / "value.npz")
    cards, insteker = np.array([[4, 2, 7]]), np.array([1])
    assert (ValueNet.load(path)(cards, insteker) == net(cards, insteker)).all()
    path.write_bytes(path.read_bytes()[:100])
    with pytest.raises(ValueError, match="is damaged or not a value net") as err:
        ValueNet.load(path)
    assert "\n" not in str(err.value)
    with pytest.raises(ValueError, match="does not exist"):
        ValueNet.load(tmp_path / "missing.npz")



def test_a_garbage_npz_is_refused_without_numpys_advice_to_unpickle_it(tmp_path) -> None:
    """numpy's message advised loading it "unsafely using the allow_pickle= keyword argument"
    (issue 45, item 12)."""
    path = tmp_path / "value.npz"
    path.write_text("garbage, not a zip archive\n")
    with pytest.raises(ValueError) as refused:
        ValueNet.load(path)
    assert str(refused.value) == (f"value net {str(path)!r} is damaged or not a value net of "
                                  "format 1 (not an .npz file (no zip archive; damaged or cut "
                                  "off?))")


def test_a_seat_the_nets_table_lacks_is_refused_naming_its_players(tmp_path) -> None:
    bumpy_net(3, seed=2).save(tmp_path / "value.npz")
    with pytest.raises(ValueError, match=r"trained at 3 players, whose seats are 0–2; got seat=3"):
        make_policy(f"search:path={tmp_path / 'value.npz'},seat=3")


def test_searches_side_by_side_keep_their_positions_within_one_budget(monkeypatch) -> None:
    import gc

    from pagadores_agents.search import memory as search_memory
    from pagadores_agents.search import player as search

    net = bumpy_net(3, seed=1)
    size = search_memory.position_bytes(3)
    ledger = search_memory.Ledger(lambda: 20 * size)
    monkeypatch.setattr(search, "LEDGER", ledger)
    first, second = searcher(net, depth=1), searcher(net, depth=1)
    before = first.value((3, 2, 3), 0).copy()  # R4.3: its specials reach fewer cards
    second.value((4, 3, 4), 1)
    kept = len(first.solved) + len(second.solved)
    assert 16 <= kept <= 20 and len(first.solved) < 16  # the oldest went, first's
    assert set(first.store.slices) == set(first.solved) and set(first.win) <= set(first.solved)
    assert np.array_equal(first.value((3, 2, 3), 0), before)  # solved again, the same
    assert ledger.bytes == size * len(ledger.order) <= 20 * size
    del second  # a search that is gone gives its share back
    gc.collect()
    assert {ident for ident, _ in ledger.order} == {id(first)}
    assert ledger.bytes == size * len(first.solved)


def test_the_ledger_reads_its_budget_again_only_after_its_refresh_time(monkeypatch) -> None:
    from pagadores_agents.search import memory as search_memory

    clock, reads, limit = [100.0], [], [10**9]
    monkeypatch.setattr(search_memory.time, "monotonic", lambda: clock[0])
    ledger = search_memory.Ledger(lambda: reads.append(clock[0]) or limit[0])

    class Search:  # an owner the ledger can take positions back from
        def drop(self, key) -> None:
            dropped.append(key)

    owner, dropped = Search(), []
    for key in range(20):
        ledger.keep(owner, key, 10)
    assert reads == [100.0] and not dropped  # one read for twenty kept positions
    limit[0] = 100  # the budget shrank (say, memory mapped elsewhere)
    ledger.keep(owner, 20, 10)
    assert not dropped  # not yet seen
    clock[0] += search_memory.REFRESH
    ledger.keep(owner, 21, 10)
    assert reads == [100.0, clock[0]]
    assert ledger.bytes <= 160 and dropped == list(range(6))  # down to the floor, oldest first


def test_following_no_special_searches_one_position_close_to_following_all() -> None:
    # R4.3: beyond the followed specials the round goes on at the same cards, shifted
    net = bumpy_net(4, seed=3)
    every = searcher(net, depth=1, specials=None)
    none = searcher(net, depth=1, specials=0)
    cards = (4, 3, 4, 4)
    exact, shifted = every.value(cards, 1), none.value(cards, 1)
    assert len(none.solved) == 1 and len(every.solved) > 20
    assert {c for c, _ in none.kampen.memo} == {cards}  # kampen only at the round's cards
    assert abs(shifted.sum() - 1.0) < 1e-9
    assert np.abs(shifted - exact).max() < 0.02
    assert np.abs(shifted - exact).max() > 1e-6  # it is an approximation, not the same pass
    one = searcher(net, depth=1, specials=1)
    one.value(cards, 1)
    assert 1 < len(one.solved) < len(every.solved)


def lose_by_table(values: dict):
    def lose(cards, seat, count):
        after = list(cards)
        after[seat] = max(0, after[seat] - count)
        return values.setdefault(tuple(after), np.random.default_rng(len(values)).random(3))
    return lose


def test_a_shifted_kampen_is_the_exact_one_where_every_special_ends_the_round() -> None:
    # R5.2 + R6.2: with one card each, any special in the kampen empties the others
    from pagadores_env.pagadores.solver.sweep import Sweep
    sweep = Sweep((1, 1, 1), [(True,) * 3], {}, full=False)
    values: dict = {}
    sweep.value_at = lambda cards, insteker: values.setdefault(  # type: ignore[method-assign]
        cards, np.random.default_rng(sum(cards) * 7 + insteker).random(3))
    exact = Kampen(sweep.lose, sweep.hit).value((1, 1, 1), (0, 1, 2))
    shifted = Kampen(sweep.lose, sweep.hit, shifted=True).value((1, 1, 1), (0, 1, 2))
    np.testing.assert_allclose(shifted, exact, atol=1e-12)
    at_two = [Kampen(sweep.lose, sweep.hit, shifted=s).value((2, 2, 2), (0, 1, 2))
              for s in (False, True)]
    assert np.abs(at_two[0] - at_two[1]).max() > 1e-6  # there a special may leave all in


class _Recursive(Kampen):
    """The shifted kampen worked out over its states at every group (no weights)."""

    def value(self, cards, group):
        return self.memo.setdefault((cards, group), self._solve(cards, group))


@pytest.mark.parametrize("n", [4, 5, 6])
def test_a_shifted_kampens_weighted_terms_are_its_recursion(n) -> None:
    # R5: the weights worked out once per group size and pattern of ending specials give
    # the kampen's values at every card position, low cards (specials that empty) included
    from pagadores_env.pagadores.solver.sweep import Sweep
    sweep = Sweep((3,) * n, [(True,) * n], {}, full=False)
    values: dict = {}
    sweep.value_at = lambda cards, insteker: values.setdefault(  # type: ignore[method-assign]
        (cards, insteker), np.random.default_rng(len(values)).random((1, n)))
    rng = np.random.default_rng(n)
    for _ in range(12):
        cards = tuple(int(c) for c in rng.integers(1, 6, n))
        group = tuple(sorted(int(s) for s in rng.choice(n, int(rng.integers(2, n + 1)),
                                                      replace=False)))
        weighted = Kampen(sweep.lose, sweep.hit, shifted=True).value(cards, group)
        recursed = _Recursive(sweep.lose, sweep.hit, shifted=True).value(cards, group)
        np.testing.assert_allclose(weighted, recursed, rtol=0, atol=1e-12)


def test_leaves_worked_out_together_give_the_search_the_same_values() -> None:
    net = bumpy_net(6, seed=4)
    together = searcher(net, depth=1, specials=0)
    one_by_one = searcher(net, depth=1, specials=0)
    one_by_one.batch = None
    for cards in [(10, 9, 10, 8, 10, 10), (3, 1, 4, 2, 5, 2)]:
        np.testing.assert_allclose(together.value(cards, 1), one_by_one.value(cards, 1),
                                   rtol=0, atol=1e-12)
    assert len(together._leaves) > 100  # the kampen's shifts were asked, in one call


def test_specials_default_by_table_and_bad_values_are_refused_in_one_line(tmp_path) -> None:
    assert default_specials(3) is None and default_specials(4) == 0
    assert check_specials("all", 4) is None and check_specials(2, 3) == 2
    path = bumpy_net(3, seed=1).save(tmp_path / "net.npz")
    assert make_policy(f"search:path={path},specials=all").specials is None
    for bad in (4, -1, "some", True):
        with pytest.raises(ValueError, match=r"specials must be 0, 1, 2, 3 or 'all'") as err:
            SearchPolicy(path, specials=bad)
        assert "\n" not in str(err.value)


@pytest.mark.parametrize("n", [2, 3, 4, 6])
def test_one_position_is_valued_as_in_a_batch(n) -> None:
    net = bumpy_net(n, seed=n)
    rng = np.random.default_rng(n)
    for _ in range(20):
        cards = rng.integers(0, 11, n)
        cards[rng.choice(n, 2, replace=False)] = rng.integers(1, 11, 2)
        insteker = int(rng.choice(np.flatnonzero(cards)))
        np.testing.assert_allclose(net.one(tuple(cards), insteker),
                                   net(cards[None], np.asarray([insteker]))[0], atol=1e-12)


def test_a_position_first_reached_by_a_special_is_not_solved_again_when_asked() -> None:
    # following all specials, a position solved inside another's round is as exact as asked
    search = searcher(bumpy_net(3, seed=2), depth=1, specials=None)
    search.value((4, 4, 4), 0)
    solved = len(search.solved)
    calls = []
    search.solve_position = lambda *a: calls.append(a)  # type: ignore[method-assign]
    search.position((4, 3, 3), 0)  # a Puerta by seat 0 lands here (R4.1)
    assert calls == [] and len(search.solved) == solved


def test_a_networks_key_in_the_results_cache_is_its_weights() -> None:
    same = [SearchPolicy.over(ValueNet.new(3, (8,), seed=0)) for _ in range(2)]
    other = SearchPolicy.over(ValueNet.new(3, (8,), seed=1))
    assert same[0].fingerprint() == same[1].fingerprint() != other.fingerprint()

    def key(player) -> str | None:
        return results_cache.pass_key(["search:path=x"], [player] * 3, (3, 3, 3), False,
                                      True, [("profile", 0)], (0, 1, 2))

    assert key(same[0]) == key(same[1]) != key(other)


def test_a_search_players_rows_are_lookups_not_queries_for_the_row_limit(monkeypatch) -> None:
    from pagadores_env.pagadores.solver import cost, passes

    monkeypatch.setattr(cost, "MAX_ROWS", 1000)  # far below any 3-player table's rows
    with pytest.raises(ValueError, match=r"policy queries \(limit 1e\+03\)"):
        passes.plan(["lookahead"], 3, 3, True, "compute NashConv of")  # asked row by row
    search = SearchPolicy.over(ValueNet.new(3, (8,), seed=0))
    assert passes.plan([search], 3, 3, True, "compute NashConv of").passes  # looked up

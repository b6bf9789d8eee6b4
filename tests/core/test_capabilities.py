"""The policy protocol's capabilities are declared Protocols (``core.policies``, and each game's
own in ``pagadores.policies``, ``perudo.policies``): an object that has the method or attribute
has the capability whether or not it subclasses ``BasePolicy``, one without it has not, the
code that serves a capability finds it so, and the shipped players declare what they offer."""

from __future__ import annotations

import importlib

import numpy as np
import pytest

from pagadores_env.core import policies
from pagadores_env.core.opponents import GameHooks, reseed_opponents
from pagadores_env.core.policies import (
    BasePolicy,
    DeclaresParameterForms,
    DeclaresScoreView,
    DeclaresTableFacts,
    Named,
    SupportsActBatch,
    SupportsActGames,
    SupportsCheckTable,
    SupportsEndGames,
    SupportsForSeat,
    SupportsNewGames,
    SupportsReset,
    batch_actions,
    check_tables,
    make_policy,
    reads_lowest_only,
    registered_policies,
    required_parameters,
    spec_form,
)
from pagadores_env.pagadores.observation import OBS_SIZE
from pagadores_env.pagadores.policies import SupportsActFields, SupportsThrowProbabilities
from pagadores_env.pagadores.vector.evaluate import seated
from pagadores_env.pagadores.vector.tables import decision_table
from pagadores_env.perudo.policies import SupportsActionProbabilities
from tests.players import RowByRow, SeatBound


def _method(*args, **kwargs):
    return None


#: Each capability: its Protocol and the one member it asks for (a method, or a declared value).
CAPABILITIES = [
    (SupportsActBatch, "act_batch", _method),
    (SupportsReset, "reset", _method),
    (SupportsCheckTable, "check_table", _method),
    (SupportsForSeat, "for_seat", _method),
    (SupportsNewGames, "new_games", _method),
    (SupportsActGames, "act_games", _method),
    (SupportsEndGames, "end_games", _method),
    (DeclaresTableFacts, "table_facts", True),
    (DeclaresScoreView, "score_view", "all"),
    (Named, "name", "duck"),
    (DeclaresParameterForms, "parameter_forms", {"path": "FILE"}),
    (SupportsThrowProbabilities, "throw_probabilities", _method),
    (SupportsActFields, "act_fields", _method),
    (SupportsActionProbabilities, "action_probabilities", _method),
]


class Bare:
    """A player and nothing more: ``act`` only."""

    def act(self, obs: np.ndarray, mask: np.ndarray) -> int:
        return 0


@pytest.mark.parametrize(("protocol", "member", "value"), CAPABILITIES,
                         ids=[c[0].__name__ for c in CAPABILITIES])
def test_a_duck_typed_object_with_the_member_has_the_capability(protocol, member,
                                                                 value) -> None:
    duck = type("Duck", (Bare,), {member: value})()
    assert isinstance(duck, protocol) and not isinstance(Bare(), protocol)
    later = Bare()
    setattr(later, member, value)  # set on the object, as a player may in __init__
    assert isinstance(later, protocol)


@pytest.mark.parametrize(("protocol", "member", "value"), CAPABILITIES,
                         ids=[c[0].__name__ for c in CAPABILITIES])
def test_each_capability_asks_for_its_own_member_only(protocol, member, value) -> None:
    """A check means one thing: an object with every other capability's member has not this
    one."""
    others = {m: v for p, m, v in CAPABILITIES if p is not protocol and m != member}
    assert not isinstance(type("AllButOne", (Bare,), others)(), protocol)


def test_batch_actions_asks_act_batch_where_there_is_one_else_act_row_by_row() -> None:
    class Batched(Bare):
        def act_batch(self, obs, mask):
            return np.ones(len(obs), np.int64)

    obs, mask = np.zeros((3, OBS_SIZE), np.float32), np.ones((3, 2), np.int8)
    assert batch_actions(Batched(), obs, mask).tolist() == [1, 1, 1]
    assert batch_actions(Bare(), obs, mask).tolist() == [0, 0, 0]
    assert not isinstance(RowByRow("sensible"), SupportsActBatch)


def test_reseeding_reaches_a_duck_typed_reset_and_passes_over_a_player_without() -> None:
    seeds: list[int | None] = []

    class Seeded(Bare):
        def reset(self, seed=None):
            seeds.append(seed)

    reseed_opponents([Seeded(), Bare()], seed=7)
    assert len(seeds) == 1 and seeds[0] is not None


def test_check_tables_asks_a_duck_typed_check_table() -> None:
    class TwoOnly(Bare):
        def check_table(self, num_players, cards):
            if num_players != 2:
                raise ValueError("two players only")

    check_tables([TwoOnly(), Bare()], 2, 10)
    with pytest.raises(ValueError, match="two players only"):
        check_tables([Bare(), TwoOnly()], 3, 10)


def test_seated_plays_a_duck_typed_seat_copy_and_a_plain_player_itself() -> None:
    copy = Bare()

    class Seats(Bare):
        def for_seat(self, seat, num_players):
            return copy

    plain = Bare()
    assert seated(Seats(), 1, 3) is copy and seated(plain, 1, 3) is plain
    assert isinstance(SeatBound(), SupportsForSeat)


def test_the_envs_call_a_duck_typed_players_per_game_hooks_once_per_object() -> None:
    calls: list[tuple] = []

    class PerGame(Bare):
        def new_games(self, games):
            calls.append(("new", np.asarray(games).tolist()))

        def act_games(self, games, seats, obs, mask):
            calls.append(("act", np.asarray(games).tolist(), np.asarray(seats).tolist()))
            return np.ones(len(games), np.int64)

        def end_games(self, games, learner_won):
            calls.append(("end", games.tolist(), learner_won.tolist()))

    per_game, plain = PerGame(), Bare()
    hooks = GameHooks([per_game, plain, per_game])
    hooks.start_games(np.array([0, 1]))
    obs, mask = np.zeros((1, OBS_SIZE), np.float32), np.ones((1, 2), np.int8)
    assert hooks.game_actions(per_game, np.array([1]), np.array([2]), obs, mask).tolist() == [1]
    assert hooks.game_actions(plain, np.array([1]), np.array([2]), obs, mask).tolist() == [0]
    decide = hooks.seat_deciders({1: per_game, 2: plain}, game=0)
    assert decide[1](obs[0], mask[0]) == 1 and decide[2](obs[0], mask[0]) == 0
    hooks.end_games(np.array([0, 1]), np.array([1, 2]))
    assert calls == [("new", [0, 1]), ("act", [1], [2]), ("act", [0], [1]),
                     ("end", [0, 1], [True, False])]


def test_declared_facts_are_read_as_declared_and_default_as_base_policy_does() -> None:
    class Table(Bare):
        table_facts = True

    class NoTable(Bare):
        table_facts = False

    class SeesAll(Bare):
        score_view = "all"

    assert decision_table(Table()) is not None
    assert decision_table(NoTable()) is None and decision_table(Bare()) is None
    assert not reads_lowest_only(SeesAll())
    assert reads_lowest_only(Bare()) and reads_lowest_only(BasePolicy())
    assert BasePolicy.table_facts is False and BasePolicy.score_view == "lowest"


def test_a_factory_s_parameter_forms_show_in_its_spec_form(monkeypatch) -> None:
    def formed(path: str) -> Bare:
        return Bare()

    formed.parameter_forms = {"path": "FOLDER"}
    monkeypatch.setitem(policies._REGISTRY["pagadores"], "formed", formed)
    assert isinstance(formed, DeclaresParameterForms)
    assert spec_form("formed") == "formed:path=FOLDER"


# ----------------------------------------------------------------- the shipped players
@pytest.mark.parametrize("game", policies.GAMES)
def test_every_shipped_player_batches_reseeds_and_is_named(game) -> None:
    for name in registered_policies(game):
        if required_parameters(name, game):
            continue  # a saved model's adapter: needs a file
        player = make_policy(name, game=game)
        assert all(isinstance(player, p) for p in (SupportsActBatch, SupportsReset, Named)), name


@pytest.mark.parametrize(("spec", "tabled"), [
    ("sensible", True), ("threshold", True), ("stop-first", True), ("always-throw", True),
    ("random", False), ("lookahead", False), ("equilibrium", False), ("optimal", False)])
def test_the_table_players_declare_table_facts(spec, tabled) -> None:
    player = make_policy(spec)
    assert isinstance(player, DeclaresTableFacts) and player.table_facts is tabled


def test_the_shipped_players_declare_what_they_offer() -> None:
    equilibrium, optimal = make_policy("equilibrium"), make_policy("optimal")
    assert isinstance(equilibrium, SupportsForSeat) and isinstance(equilibrium, SupportsCheckTable)
    assert isinstance(optimal, SupportsCheckTable) and not isinstance(optimal, SupportsForSeat)
    assert not isinstance(make_policy("sensible"), SupportsCheckTable | SupportsForSeat)
    scripted = [make_policy(s) for s in ("random", "sensible", "threshold", "lookahead")]
    assert all(isinstance(p, SupportsActFields) for p in scripted)
    assert [isinstance(p, SupportsThrowProbabilities) for p in scripted] == [
        True, False, False, False]
    assert all(reads_lowest_only(make_policy(s)) for s in ("random", "sensible", "equilibrium"))


def test_perudo_players_that_state_their_distribution_declare_it() -> None:
    for spec, states in (("probabilistic", True), ("bluffer", True), ("random", False)):
        player = make_policy(spec, game="perudo")
        assert isinstance(player, SupportsActionProbabilities) is states, spec



@pytest.mark.parametrize("game", ["perudo", "paye", "pasch"])
def test_action_probabilities_is_one_core_capability_still_importable_from_each_game(game):
    module = importlib.import_module(f"pagadores_env.{game}.policies")
    assert module.SupportsActionProbabilities is policies.SupportsActionProbabilities
    random_player = make_policy("random", game=game)
    states = game != "perudo"  # Paye's and Pasch's random players state their mixture
    assert isinstance(random_player, policies.SupportsActionProbabilities) is states

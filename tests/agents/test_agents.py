"""Scripted players (pagadores_agents.heuristics) and the SB3 model adapter
(pagadores_agents.sb3_adapter)."""

from __future__ import annotations

import random
import zipfile

import numpy as np
import pytest

from pagadores_agents import heuristics as h
from pagadores_agents.sb3_adapter import SB3Policy, detect_algo
from pagadores_env.core.policies import make_policy, registered_policies
from pagadores_env.pagadores.observation import OBS_SIZE, decode, encode, encode_batch
from pagadores_env.pagadores.rules import THROWS, classify
from tests.decisions import real_decisions
from tests.dice import AGAIN, LOW, STOP, TOP, new_game, random_step
from tests.imports import run_without_extras

BOTH = np.array([1, 1], dtype=np.int8)
SPECS = ["random", "stop-first", "always-throw", "threshold", "threshold:min_strength=20",
         "threshold:min_points=200", "sensible", "lookahead"]


def decide(policy, script, cards=10, num_players=2) -> int:
    """The policy's action at the decision node the script leads to."""
    game = new_game(num_players, cards, script=script)
    assert game.is_decision_node(), "the script must end at a decision"
    return policy.act(encode(game, game.current_player), BOTH)


def dice_of(points: int) -> tuple[int, int, int]:
    """Some dice scoring a Flamenco of exactly ``points``."""
    return next(t.dice for t in THROWS if t.kind.name == "FLAMENCO" and t.points == points)


# ---------------------------------------------------------------- registry and specs
def test_all_heuristics_are_registered():
    assert {"random", "stop-first", "always-throw", "threshold", "sensible", "lookahead",
            "model"} <= set(registered_policies())


@pytest.mark.parametrize(("spec", "message"), [
    ("nosuch", "unknown policy 'nosuch'; known: .*sensible"),
    ("threshold:colour=red", "no parameter 'colour'; allowed: min_strength, min_points"),
    ("threshold:min_strength=50", "min_strength must be an integer 0–41, got 50"),
    ("threshold:min_strength=3,min_points=100", "not both"),
    ("threshold:min_points=abc", "min_points must be a number, got 'abc'"),
    ("threshold:min_points", "must look like key=value"),
    ("model:path=no/such/model.zip", "does not exist"),
])
def test_bad_specs_give_clear_errors(spec, message):
    with pytest.raises(ValueError, match=message):
        make_policy(spec)


@pytest.mark.parametrize(("spec", "game", "message"), [
    ("model", "pagadores", "policy 'model' needs its path: model:path=FILE"),
    ("rllib", "pagadores", "policy 'rllib' needs its path: rllib:path=RUN_FOLDER"),
    ("model:algo=ppo", "pagadores", "policy 'model' needs its path: model:path=FILE"),
    ("model", "perudo", "policy 'model' needs its path: model:path=FILE"),
])
def test_a_player_without_a_required_parameter_is_shown_the_spec_it_needs(spec, game,
                                                                          message):
    with pytest.raises(ValueError) as refused:
        make_policy(spec, game=game)
    assert str(refused.value) == message


def test_required_parameters_name_what_a_players_spec_must_give():
    from pagadores_env.core.policies import required_parameters, spec_form

    assert required_parameters("model") == required_parameters("rllib") == ["path"]
    assert required_parameters("model", game="perudo") == ["path"]
    for name in ("sensible", "threshold", "equilibrium", "random"):
        assert required_parameters(name) == [] and spec_form(name) == name
    assert spec_form("rllib") == "rllib:path=RUN_FOLDER"
    with pytest.raises(ValueError, match="unknown policy 'nosuch'; known: .*sensible"):
        required_parameters("nosuch")


def test_spec_parameters_reach_the_policy():
    assert make_policy("threshold:min_strength=20").bar == 20
    assert make_policy("threshold:min_points=104").bar == classify((1, 2, 2)).strength
    assert make_policy("threshold").bar == classify((1, 2, 2)).strength  # 100 → 104 is next


def test_strength_for_points_counts_cavar_and_specials_above_every_flamenco():  # R2.3
    assert h.strength_for_points(260) == classify(TOP).strength
    assert h.strength_for_points(261) == classify((2, 2, 2)).strength  # the weakest Cavar


# ---------------------------------------------------------------- batch == scalar
@pytest.mark.parametrize("spec", SPECS)
def test_act_batch_equals_act_on_real_observations(spec):
    obs, masks = real_decisions(600, seed=SPECS.index(spec))
    scalar, batch = make_policy(spec, seed=7), make_policy(spec, seed=7)
    expected = np.array([scalar.act(o, m) for o, m in zip(obs, masks, strict=True)])
    got = batch.act_batch(obs, masks)
    assert got.dtype == np.int64 and got.shape == (len(obs),)
    np.testing.assert_array_equal(got, expected)
    assert masks[np.arange(len(obs)), got].all(), "every answer must be legal"


def test_lookahead_batch_of_every_strength_of_a_state_equals_act():
    """The solver asks every strength of a decision state in one batch, where lookahead
    shares one computation among rows that differ only in their strength: each row still gets
    the scalar answer."""
    obs, masks = real_decisions(40, seed=11)
    seen = decode(obs)
    strengths = np.arange(1, h.NUM_STRENGTHS)  # every strength a throw can leave a decision at
    rows = np.repeat(np.arange(len(obs)), len(strengths))
    fields = seen._replace(**{name: np.asarray(value)[rows] for name, value in
                              seen._asdict().items()})
    fields = fields._replace(my_strength=np.tile(strengths, len(obs)))
    every, every_mask = encode_batch(fields), masks[rows]
    player = make_policy("lookahead")
    expected = [player.act(o, m) for o, m in zip(every, every_mask, strict=True)]
    np.testing.assert_array_equal(player.act_batch(every, every_mask), expected)
    assert 0 < np.mean(expected) < 1  # both answers occur


def test_real_decisions_cover_both_roles_and_low_card_counts():
    view = h.read(real_decisions(600, seed=1)[0])
    assert view.setting_limit.any() and (~view.setting_limit).any()
    assert (view.opp_cards == 1).any() and (view.my_cards == 1).any()
    assert (view.strength == view.to_beat).any()  # ties, where kampen looms


def test_random_is_seeded_and_uses_both_actions():
    obs, _ = real_decisions(200, seed=2)
    masks = np.ones((len(obs), 2), dtype=np.int8)
    first = make_policy("random", seed=3).act_batch(obs, masks)
    again = make_policy("random", seed=3).act_batch(obs, masks)
    np.testing.assert_array_equal(first, again)
    assert 0.3 < first.mean() < 0.7


# ---------------------------------------------------------------- behaviour on crafted states
def test_stop_first_always_stops_and_always_throw_throws_while_allowed():
    obs, _ = real_decisions(200, seed=4)
    both = np.ones((len(obs), 2), dtype=np.int8)
    stop_only = np.tile(np.array([1, 0], dtype=np.int8), (len(obs), 1))
    assert (make_policy("stop-first").act_batch(obs, both) == 0).all()
    assert (make_policy("always-throw").act_batch(obs, both) == 1).all()
    assert (make_policy("always-throw").act_batch(obs, stop_only) == 0).all()


def test_R3_2_threshold_insteker_stops_at_or_above_its_bar():
    policy = make_policy("threshold:min_points=104")
    assert decide(policy, [dice_of(104)]) == STOP
    assert decide(policy, [(6, 6, 5)]) == STOP  # 125
    assert decide(policy, [(2, 2, 2)]) == STOP  # a Cavar beats every Flamenco (R2.3)
    assert decide(policy, [dice_of(70)]) == AGAIN
    bar = make_policy(f"threshold:min_strength={classify(dice_of(68)).strength}")
    assert decide(bar, [dice_of(68)]) == STOP
    assert decide(bar, [dice_of(67)]) == AGAIN


def test_R3_4_threshold_follower_stops_once_it_beats_the_score_to_beat():
    policy = make_policy("threshold:min_points=250")
    insteker = [LOW, AGAIN, dice_of(68), STOP]  # limit 2, score 68
    assert decide(policy, insteker + [dice_of(70)]) == STOP
    assert decide(policy, insteker + [dice_of(68)]) == AGAIN  # a tie is not beating
    assert decide(policy, insteker + [dice_of(65)]) == AGAIN


def test_sensible_insteker_keeps_a_decent_throw_and_asks_more_on_its_last_card():  # R1.4
    policy = make_policy("sensible")
    assert decide(policy, [dice_of(104)]) == STOP
    assert decide(policy, [dice_of(70)]) == AGAIN
    assert decide(policy, [dice_of(110)], cards=[1, 5]) == AGAIN
    assert decide(policy, [(6, 6, 5)], cards=[1, 5]) == STOP
    assert decide(policy, [LOW, AGAIN, dice_of(104)], cards=[1, 5]) == STOP


def test_R5_sensible_follower_escapes_being_lowest_and_weighs_ties():
    policy = make_policy("sensible")
    low_bar = [LOW, AGAIN, LOW, STOP]  # insteker's score: the lowest Flamenco
    high_bar = [LOW, AGAIN, TOP, STOP]  # insteker's score: 260
    assert decide(policy, [LOW, AGAIN, dice_of(68), STOP, dice_of(65)]) == AGAIN
    assert decide(policy, low_bar + [LOW]) == AGAIN  # a fresh throw beats 8 almost surely
    assert decide(policy, high_bar + [TOP]) == STOP  # a kampen beats fishing for > 260


def test_R4_2_sensible_fishes_for_a_special_when_an_opponent_is_on_its_last_card():
    policy = make_policy("sensible")
    script = [LOW, AGAIN, LOW, STOP, dice_of(70)]  # safe: 70 beats 8, fresh throws too
    assert decide(policy, script, cards=[1, 10]) == AGAIN
    assert decide(policy, script, cards=[5, 10]) == STOP


def test_lookahead_plays_the_obvious_moves():
    policy = make_policy("lookahead")
    assert decide(policy, [(6, 6, 6)]) == STOP
    assert decide(policy, [LOW]) == AGAIN
    assert decide(policy, [LOW, AGAIN, dice_of(68), STOP, dice_of(65)]) == AGAIN
    # Already above the score to beat: throwing again only risks a Picaro or a worse score.
    assert decide(policy, [LOW, AGAIN, dice_of(68), STOP, TOP]) == STOP


def test_lookahead_follower_model_matches_brute_force():
    """``_ABOVE``/``_EQUAL``: a follower throwing until strictly above s, by enumeration."""
    def ends(target: int, left: int) -> tuple[float, float]:
        above = equal = 0.0
        for strength, p in enumerate(h.P_STRENGTH):
            if strength == 0:  # Picaro: the round ends (R4.4)
                continue
            if strength > target:
                above += p
            elif left > 1:
                a, e = ends(target, left - 1)
                above, equal = above + p * a, equal + p * e
            elif strength == target:
                equal += p
        return above, equal

    for limit in (1, 2, 3):
        for target in (1, 12, 25, 33, 38, 41):
            a, e = ends(target, limit)
            assert h._ABOVE[limit, target] == pytest.approx(a, abs=1e-12)
            assert h._EQUAL[limit, target] == pytest.approx(e, abs=1e-12)


def test_strength_odds_add_up():  # R7.2
    assert h.P_STRENGTH.sum() == pytest.approx(1.0)
    total = h.P_PICARO + h.P_BELOW + h.P_EQUAL + h.P_ABOVE
    np.testing.assert_allclose(total[1:], 1.0)
    assert h.P_ABOVE[classify(LOW).strength] == pytest.approx(1 - (3 + 6) / 216)


# ---------------------------------------------------------------- SB3 adapter
@pytest.fixture(scope="module")
def saved_models(tmp_path_factory):
    """One untrained model per algorithm, saved as training would save it."""
    pytest.importorskip("sb3_contrib")
    import gymnasium as gym
    from sb3_contrib import MaskablePPO
    from stable_baselines3 import A2C, DQN, PPO

    env = gym.make("Pagadores-v1")
    folder = tmp_path_factory.mktemp("models")
    paths = {}
    for algo, cls in {"maskable_ppo": MaskablePPO, "ppo": PPO, "a2c": A2C, "dqn": DQN}.items():
        model = cls("MlpPolicy", env, seed=0, device="cpu")
        paths[algo] = folder / f"{algo}.zip"
        model.save(paths[algo])
    return paths


def test_sb3_algorithm_is_detected_from_the_zip(saved_models):
    for algo, path in saved_models.items():
        assert detect_algo(path) == algo


def test_sb3_policy_plays_the_models_deterministic_choice_and_only_legal_actions(saved_models):
    obs, masks = real_decisions(300, seed=5)
    for algo, path in saved_models.items():
        policy = make_policy(f"model:path={path}")
        assert isinstance(policy, SB3Policy) and policy.algo == algo
        raw, _ = policy.model.predict(obs, deterministic=True)
        got = policy.act_batch(obs, masks)
        rows = np.arange(len(obs))
        assert masks[rows, got].all(), algo
        legal_raw = masks[rows, raw].astype(bool)
        np.testing.assert_array_equal(got[legal_raw], raw[legal_raw])  # kept where legal
        np.testing.assert_array_equal(got, [policy.act(o, m) for o, m in zip(obs, masks,
                                                                              strict=True)])


def test_sb3_algo_override_and_bad_files(saved_models, tmp_path):
    assert make_policy(f"model:path={saved_models['ppo']},algo=a2c").algo == "a2c"
    with pytest.raises(ValueError, match="algo must be one of maskable_ppo, ppo, a2c, dqn"):
        make_policy(f"model:path={saved_models['ppo']},algo=sac")
    junk = tmp_path / "junk.zip"
    with zipfile.ZipFile(junk, "w") as archive:
        archive.writestr("readme.txt", "not a model")
    with pytest.raises(ValueError, match="not a saved stable-baselines3 model"):
        make_policy(f"model:path={junk}")


@pytest.mark.parametrize(("env_id", "expects"), [
    ("CartPole-v1", "observations Box(4,) and actions Discrete(2)"),
    ("MountainCar-v0", "observations Box(2,) and actions Discrete(3)"),
])
def test_a_model_of_another_environment_is_refused_naming_both_spaces(env_id, expects,
                                                                       tmp_path):
    pytest.importorskip("stable_baselines3")
    from stable_baselines3 import PPO

    path = tmp_path / "other.zip"
    PPO("MlpPolicy", env_id, n_steps=16, batch_size=16, device="cpu", seed=0).save(path)
    spec = f"model:path={path}"
    with pytest.raises(ValueError) as error:
        make_policy(spec)
    message = str(error.value)
    assert message == (f"policy {spec!r}: the model expects {expects}, but Pagadores gives "
                       "observations Box(49,) and actions Discrete(2): was it trained on "
                       "another environment?")


def test_a_directory_or_a_damaged_model_is_named(saved_models, tmp_path):
    with pytest.raises(ValueError, match=f"model path '{tmp_path}' is a directory; expected "
                                         "the .zip file"):
        make_policy(f"model:path={tmp_path}")
    broken = tmp_path / "broken.zip"
    with zipfile.ZipFile(saved_models["ppo"]) as source, zipfile.ZipFile(broken, "w") as out:
        for name in source.namelist():
            if name != "policy.pth":  # the network's weights
                out.writestr(name, source.read(name))
    with pytest.raises(ValueError, match=f"policy 'model:path={broken}': '{broken}' does not "
                                         "load as a PPO model: "):
        make_policy(f"model:path={broken}")


def test_a_run_folder_given_as_a_model_names_the_spec_that_plays_it(saved_models, tmp_path):
    sb3_run = tmp_path / "sb3_run"
    (sb3_run / "checkpoints").mkdir(parents=True)
    (sb3_run / "checkpoints" / "model_2048_steps.zip").write_bytes(
        saved_models["ppo"].read_bytes())
    (sb3_run / "checkpoints" / "model_4096_steps.zip").write_bytes(
        saved_models["ppo"].read_bytes())
    with pytest.raises(ValueError, match=f"model path '{sb3_run}' is a run folder, not a model "
                                         f"file: play its model as model:path={sb3_run}/"
                                         "checkpoints/model_4096_steps.zip$"):
        make_policy(f"model:path={sb3_run}")  # a run still training: its newest checkpoint
    (sb3_run / "model.zip").write_bytes(saved_models["ppo"].read_bytes())
    with pytest.raises(ValueError, match=f"play its model as model:path={sb3_run}/model.zip$"):
        make_policy(f"model:path={sb3_run}")
    rllib_run = tmp_path / "rllib_run"
    (rllib_run / "checkpoints" / "step_200").mkdir(parents=True)
    (rllib_run / "checkpoints" / "step_200" / "rllib_checkpoint.json").write_text("{}")
    (rllib_run / "checkpoints" / "latest.json").write_text('{"checkpoint": "step_200"}')
    for folder in (rllib_run, rllib_run / "checkpoints" / "step_200"):
        with pytest.raises(ValueError) as refused:
            make_policy(f"model:path={folder}")
        assert str(refused.value) == (
            f"policy 'model:path={folder}': model path '{folder}' is an RLlib run folder or "
            f"checkpoint, not a stable-baselines3 model: play it as rllib:path={folder}")


def test_env_package_and_heuristics_stay_free_of_torch_and_sb3():
    """``import pagadores_env`` (the envs, the batch engine, the players) imports neither torch
    nor stable-baselines3, nor ``pagadores_env.pagadores.vec_env``, which needs them (``train``
    extra)."""
    run_without_extras("import gymnasium, pagadores_agents, pagadores_env\n"
                       "from pagadores_env import pagadores_v1\n"
                       "from pagadores_env.pagadores import vector\n"
                       "from pagadores_env.core.policies import make_policy\n"
                       "make_policy('lookahead')\n"
                       "gymnasium.make('Pagadores-v1', num_players=3, "
                       "opponents='sensible').reset(seed=0)\n"
                       "pagadores_v1.env(num_players=3).reset(seed=0)")



# ---------------------------------------------------------------- table sizes
@pytest.mark.parametrize(("kwargs", "message"), [
    ({"num_players": 3, "opponents": ["optimal"]}, "'optimal' plays 2-player games only"),
    ({"num_players": 4, "opponents": ["sensible", "optimal", "random"]},
     "'optimal' plays 2-player games only"),
    ({"cards": 4, "opponents": ["optimal:cards=2"]}, "'optimal' covers up to 2 cards a player"),
    ({"cards": [2, 3], "opponents": ["optimal:cards=2"]}, "covers up to 2 cards a player, got 3"),
])
def test_gym_env_refuses_optimal_at_tables_it_cannot_play(kwargs, message):
    import gymnasium as gym

    with pytest.raises(ValueError, match=message):
        gym.make("Pagadores-v1", **kwargs)


def test_optimal_is_accepted_where_it_plays():
    import gymnasium as gym

    env = gym.make("Pagadores-v1", cards=[2, 1], opponents=["optimal:cards=2"])
    obs, _ = env.reset(seed=0)
    assert obs.shape == (OBS_SIZE,)


# ---------------------------------------------------------------- score views (issue 10)
#: The equilibrium player is asked at 3 players with up to this many cards (it solves them).
EQ_CARDS = 3


@pytest.fixture
def private_cache(monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("PAGADORES_CACHE", str(tmp_path))


def _twin_rows(num_players: int, most_cards: int, count: int, seed: int,
               seat: int | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Pairs of observation rows of real decisions (``multi_rows.encode_states``) with at
    least two earlier scores, of states equal but for the earlier scores above the lowest
    (each replaced by another score above it): ``[B, OBS_SIZE]`` twice, and whether the
    twins' scores differ ``[B]``. With ``seat``, every decision is that seat's, at any role
    (so also with fewer earlier scores)."""
    from pagadores_env.pagadores.rules import TOP as TOP_STRENGTH
    from pagadores_env.pagadores.rules import turn_order
    from pagadores_env.pagadores.solver.multi_rows import decision_keys, encode_states

    rng = np.random.default_rng(seed)
    first, second, differ = [], [], []
    while sum(len(rows) for rows in first) < count:
        cards = tuple(int(c) for c in rng.integers(0, most_cards + 1, num_players))
        alive = [s for s, c in enumerate(cards) if c]
        if len(alive) < (2 if seat is not None else 3) or (seat is not None and not cards[seat]):
            continue
        order = turn_order(cards, int(rng.choice(alive)))
        role = order.index(seat) if seat is not None else int(rng.integers(2, len(order)))
        limit, used = decision_keys(role)[rng.integers(len(decision_keys(role)))]
        prefix = rng.integers(1, TOP_STRENGTH + 1, size=(50, role))
        low = prefix.min(axis=1, keepdims=True) if role else prefix
        above = low + 1 + (rng.random(prefix.shape) * (TOP_STRENGTH - low)).astype(np.int64)
        other = np.where(prefix == low, prefix, above)
        strength = rng.integers(1, TOP_STRENGTH + 1, size=50)
        where = (num_players, cards, order, role, limit, used)
        first.append(encode_states(*where, prefix, strength))
        second.append(encode_states(*where, other, strength))
        differ.append((prefix != other).any(axis=1))
    return np.concatenate(first), np.concatenate(second), np.concatenate(differ)


def test_R3_5_states_differing_only_above_the_lowest_score_give_the_same_observation() -> None:
    """A score above the lowest can never lose the round (R3.5, R5), so the observation
    leaves it out: twin states give bit-identical rows, and so every policy (it reads only
    the observation) acts the same on them — what lets the exact solver ask one row per
    lowest score and holders (``policies.reads_lowest_only``, ``solver.scores``)."""
    for num_players, most in [(3, 10), (4, 10), (5, 4), (6, 3)]:
        first, second, differ = _twin_rows(num_players, most, 20_000, seed=num_players)
        assert differ.mean() > 0.5  # the twins' states differ in scores above the lowest
        np.testing.assert_array_equal(first, second)


def test_every_policy_reads_the_lowest_only_unless_it_declares_more() -> None:
    from pagadores_env.core.policies import BasePolicy, reads_lowest_only, required_parameters

    # the players that need a file (a model, a run) and the equilibrium (a solve) left out
    assert all(reads_lowest_only(make_policy(spec)) for spec in registered_policies()
               if not required_parameters(spec) and spec != "equilibrium")

    class SeesEverything(BasePolicy):
        score_view = "all"  # a policy told the scores some other way

    assert not reads_lowest_only(SeesEverything())


# ---------------------------------------------------------------- the equilibrium player
@pytest.mark.slow
def test_two_player_equilibrium_plays_exactly_as_optimal_on_the_decision_grid(
        private_cache) -> None:
    from pagadores_env.pagadores.solver.decisions import grid_observations

    optimal, equilibrium = make_policy("optimal"), make_policy("equilibrium")
    equilibrium.check_table(2, 10)
    rows = np.concatenate([grid_observations(a, b) for a in range(1, 11)
                           for b in range(1, 11)])
    mask = np.ones((len(rows), 2), dtype=np.int8)
    expected = optimal.act_batch(rows, mask)
    assert 0 < expected.mean() < 1  # both actions occur
    np.testing.assert_array_equal(equilibrium.act_batch(rows, mask), expected)


@pytest.mark.parametrize("seat", [1, 2])
def test_three_player_equilibrium_plays_any_seat_without_being_told(seat,
                                                                   private_cache) -> None:
    """At 3 players the values are the same from every seat (``SweepPolicy``: R6.2's
    youngest rule cannot tell seats apart there), so ``seat=None`` acts as the seat's own
    player on that seat's observations."""
    anyone, mine = make_policy("equilibrium"), make_policy(f"equilibrium:seat={seat}")
    for player in (anyone, mine):
        player.check_table(3, EQ_CARDS)
    rows, _, _ = _twin_rows(3, EQ_CARDS, 20_000, seed=seat, seat=seat)
    mask = np.ones((len(rows), 2), dtype=np.int8)
    expected = mine.act_batch(rows, mask)
    assert 0.05 < expected.mean() < 0.95
    np.testing.assert_array_equal(anyone.act_batch(rows, mask), expected)


@pytest.fixture
def no_solve(monkeypatch) -> None:
    from pagadores_env.pagadores.solver.sweep import Sweep

    def run(self, progress=None) -> None:
        raise AssertionError("solved a table it then refused")

    monkeypatch.setattr(Sweep, "run", run)


def test_four_player_equilibrium_without_a_seat_is_refused_before_solving(private_cache,
                                                                          no_solve) -> None:
    """At 4 players the observation cannot say the seat (R1.2) and R6.2 needs it: seating a
    seatless equilibrium player is a one-line error asking for the seat, at once (a solve
    of 4 players with 10 cards takes many minutes)."""
    for cards in (1, 10):
        with pytest.raises(ValueError, match=r"seat=0…3") as refused:
            make_policy("equilibrium").check_table(4, cards)
        assert "\n" not in str(refused.value)


def test_four_player_observation_to_a_seatless_equilibrium_is_refused_before_solving(
        private_cache, no_solve) -> None:
    rows, _, _ = _twin_rows(4, 2, 10, seed=4)
    with pytest.raises(ValueError, match="seat"):
        make_policy("equilibrium").act_batch(rows, np.ones((len(rows), 2), dtype=np.int8))


def test_solution_action_values_agree_with_the_equilibrium_player_in_real_games(
        private_cache) -> None:
    """3 players, 3 cards: at decisions of random games through the engine, the player
    (any seat, and told its seat) takes the action ``best_action`` names, which is THROW
    exactly when ``action_values`` says throwing is worth more (ties stop)."""
    from pagadores_env.pagadores.engine import Action
    from pagadores_env.pagadores.solver import solve

    solution = solve(3, EQ_CARDS)
    anyone = solution.policy()
    seated = [solution.policy(seat) for seat in range(3)]
    rng = random.Random(11)
    decisions = throws = 0
    for _ in range(40):
        game = new_game(3, EQ_CARDS, first_insteker=rng.randrange(3))
        while not game.is_terminal():
            if game.is_decision_node():
                seat = game.current_player
                stop, throw = solution.action_values(game)
                every = solution.action_values(game, every_seat=True)
                assert every.shape == (2, 3)
                np.testing.assert_array_equal(every[:, seat], [stop, throw])
                np.testing.assert_allclose(every.sum(axis=1), 1.0, atol=1e-9)
                action = solution.best_action(game)
                assert action == (Action.THROW if throw > stop + 1e-12 else Action.STOP)
                obs = encode(game, seat)
                assert anyone.act(obs, BOTH) == seated[seat].act(obs, BOTH) == int(action)
                decisions += 1
                throws += int(action)
            random_step(game, rng, p_again=0.4)
    assert decisions > 300 and 0 < throws < decisions


def test_the_equilibrium_is_told_each_seat_by_whoever_rotates_it(private_cache, no_solve) -> None:
    """``for_seat`` gives the player at each seat (made once, sharing the solved tables), or
    refuses: a player given a fixed seat plays that seat only, and a seat the table does not
    have is named with the table's seats, 0–3 at 4 players (not every table's 0–5)."""
    anyone = make_policy("equilibrium")
    copies = [anyone.for_seat(seat, 4) for seat in range(4)]
    assert [c.seat for c in copies] == [0, 1, 2, 3]
    assert copies == [anyone.for_seat(seat, 4) for seat in range(4)]  # the same objects
    assert all(c.solutions is anyone.solutions for c in copies)
    told = make_policy("equilibrium:seat=2")
    assert told.for_seat(2, 4) is told
    with pytest.raises(ValueError, match=r"^'equilibrium:seat=2' plays seat 2 only, but here "
                                         r"it takes every seat 0–3 in turn \(seats rotate\)"):
        told.for_seat(0, 4)
    for refuse in (lambda p: p.check_table(4, 1), lambda p: p.for_seat(0, 4)):
        with pytest.raises(ValueError) as refused:
            refuse(make_policy("equilibrium:seat=9"))
        assert str(refused.value) == "equilibrium: seat must be 0–3 at 4 players, got 9"

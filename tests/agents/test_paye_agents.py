"""Paye's players (``pagadores_agents.paye``): the rules of thumb against their rules written
out here on the game itself, legal in both variants, batched as one by one; the exact players
play the yardstick's solution; all measured exactly against random."""

from __future__ import annotations

import random
from fractions import Fraction

import gymnasium
import numpy as np
import pytest

import pagadores_agents  # noqa: F401  # registers the players
from pagadores_env.core.policies import (
    Named,
    SupportsActBatch,
    SupportsCheckTable,
    SupportsReset,
    make_policy,
    registered_policies,
)
from pagadores_env.paye.engine import Game
from pagadores_env.paye.exact import exact_evaluate, exploitability, nash_conv, solve
from pagadores_env.paye.expansion import solve_expansion
from pagadores_env.paye.observation import encode

SMALL_ROUNDS = 3


def paye(spec: str, seed: int | None = None):
    return make_policy(spec, game="paye", seed=seed)


def faces_of(game: Game, action: int) -> tuple[int, ...]:
    if action == 6:
        return (1, 2, 3, 4, 5, 6)
    return game.dice[action - 7 if action >= 7 else action]


def turn_points(game: Game, red: int, blue: int | None) -> dict[int, Fraction]:
    """The points of a turn and their exact chances, by enumerating the faces (Y3.2, Y6.3)."""
    out: dict[int, Fraction] = {}
    reds = [a + b for a in faces_of(game, red) for b in faces_of(game, red)]
    blues = [a + b for a in faces_of(game, blue) for b in faces_of(game, blue)] if blue else [0]
    for r in reds:
        for b in blues:
            out[r - b] = out.get(r - b, Fraction(0)) + Fraction(1, len(reds) * len(blues))
    return out


def numbers(score: int, target: int, points: dict[int, Fraction]):
    """hit, expected score after the turn, chance to go over, most points (the docstring's),
    exactly: equal options are equal here, as the player's 1e-12 tolerance takes them."""
    hit = expected = over = Fraction(0)
    for p, chance in points.items():
        after = score + p
        if after > target:
            over += chance
        while after > target:
            after //= 2
        after = max(after, 0)
        hit += chance * (after == target)
        expected += chance * after
    return hit, expected, over, max(points)


def reference(game: Game, rule: str, hit_at: float = 0.2) -> int:
    """The player's choice, computed on the game: its options and its rule."""
    score, target = game.scores[game.mover], game.target

    def key_lookahead(option):
        h, e, _, _ = numbers(score, target, option[1])
        return (h, e)

    def choose(options):  # options: [(action, points)], ascending actions
        if rule == "lookahead":
            return max(options, key=key_lookahead)[0]  # max keeps the first of equals
        nums = {a: numbers(score, target, p) for a, p in options}
        if max(n[0] for n in nums.values()) >= hit_at:
            return max(options, key=key_lookahead)[0]
        safe = [(a, p) for a, p in options if score + nums[a][3] <= target]
        if safe:
            return max(safe, key=lambda o: nums[o[0]][1])[0]
        return max(options, key=lambda o: (-nums[o[0]][2], nums[o[0]][1]))[0]

    legal = game.legal_actions()
    if game.phase == "blue":
        return choose([(b, turn_points(game, game.red, b)) for b in legal])
    if not game.blue_due:
        return choose([(r, turn_points(game, r, None)) for r in legal])
    options = []
    for red in legal:
        blues = [b for b in range(7, 13) if b not in game.aside
                 and (red == 6 or b - 7 != red)]
        best = choose([(b, turn_points(game, red, b)) for b in blues])
        options.append((red, turn_points(game, red, best)))
    return choose(options)


def decisions(players: int, variant: str, seed: int, games: int = 3):
    """Games at their choices, from random play."""
    pick = random.Random(seed)
    for _ in range(games):
        game = Game(players, variant, rounds=6)
        while not game.is_terminal():
            if game.is_chance_node():
                game.apply_chance(pick.choice(game.faces_to_throw()))
            else:
                yield game.clone()
                game.apply_action(pick.choice(game.legal_actions()))


# ---------------------------------------------------------------- registry
def test_the_players_are_registered_in_payes_namespace():
    assert set(registered_policies("paye")) >= {"random", "sensible", "lookahead", "optimal",
                                                "equilibrium"}
    for name in ("sensible", "lookahead", "optimal", "equilibrium"):
        player = paye(name)
        assert all(isinstance(player, p) for p in (SupportsActBatch, SupportsReset, Named))
        assert player.name == name
    assert isinstance(paye("optimal"), SupportsCheckTable)
    with pytest.raises(ValueError, match=r"hit_at must be a number in \(0, 1\]") as err:
        paye("sensible:hit_at=0")
    assert "\n" not in str(err.value)


# ---------------------------------------------------------------- the rules of thumb
@pytest.mark.parametrize("spec", ["lookahead", "sensible", "sensible:hit_at=0.5"])
@pytest.mark.parametrize(("players", "variant"), [(2, "base"), (4, "base"), (3, "expansion"),
                                                  (6, "expansion")])
def test_a_rule_of_thumb_does_what_its_rule_says(spec, players, variant):
    player = paye(spec)
    hit_at = float(spec.split("=")[1]) if "=" in spec else 0.2
    rows, masks, expected = [], [], []
    for game in decisions(players, variant, seed=players):
        obs, mask = encode(game, game.current_player), game.legal_mask()
        want = reference(game, spec.split(":")[0], hit_at)
        assert player.act(obs, mask) == want, (game.scores, game.phase, game.aside)
        rows.append(obs)
        masks.append(mask)
        expected.append(want)
    assert player.act_batch(np.stack(rows), np.stack(masks)).tolist() == expected


def test_the_rules_of_thumb_beat_random_and_are_exploitable():
    for spec in ("lookahead", "sensible"):
        assert exact_evaluate([spec, "random"], 2, rounds=SMALL_ROUNDS)[0] > 0.6
        assert 0.01 < exploitability(spec, rounds=SMALL_ROUNDS) < exploitability(
            "random", rounds=SMALL_ROUNDS)


def test_lookahead_takes_the_likeliest_exact_hit():
    game = Game(2, first_player=0, scores=[40, 0])  # 10 to go: S4 hits it 3 times in 9
    assert paye("lookahead").act(encode(game, 0), game.legal_mask()) == 4
    far = Game(2, first_player=0, scores=[0, 0])  # no hit: the highest expected score
    assert paye("lookahead").act(encode(far, 0), far.legal_mask()) == 4  # S4 over S5: 10 = 10


# ---------------------------------------------------------------- the exact players
def test_optimal_plays_the_optimum_and_is_unexploitable():
    assert exploitability("optimal", rounds=SMALL_ROUNDS) == pytest.approx(0.0, abs=1e-12)
    solution = solve(2, rounds=SMALL_ROUNDS)
    player, pick = paye("optimal"), random.Random(0)
    for _ in range(200):
        first, turn = pick.randrange(2), pick.randrange(2)
        game = Game(2, first_player=first, scores=[pick.randrange(50), pick.randrange(50)],
                    round=pick.randint(1, SMALL_ROUNDS), turn=turn, rounds=SMALL_ROUNDS)
        mover = game.mover
        scores = [game.scores[(mover + k) % 2] for k in range(2)]
        assert player.act(encode(game, mover), game.legal_mask()) == \
            solution.choice(game.round, turn, scores)


def test_equilibrium_is_an_equilibrium_at_three_players():
    conv = nash_conv("equilibrium", 3, rounds=2)
    assert conv.total == pytest.approx(0.0, abs=1e-9)


def test_optimal_plays_the_expansion_legally_from_its_solution():
    solution = solve_expansion(2, rounds=2)
    table = solution.policy()
    env = gymnasium.make("Paye-v1", num_players=2, variant="expansion", rounds=2,
                         opponents="optimal", learner_seat=0).unwrapped
    player = paye("optimal")
    for seed in range(3):
        obs, info = env.reset(seed=seed)
        done = False
        while not done:
            mask = info["action_mask"]
            action = player.act(obs, mask)
            assert mask[action] and action == table.act(obs, mask)
            obs, _, done, _, info = env.step(action)


@pytest.mark.parametrize(("spec", "players", "named"), [
    ("optimal", 3, "'optimal' plays 2 players, got 3"),
    ("equilibrium", 5, "'equilibrium' plays 2–4 players, got 5"),
])
def test_an_exact_player_refuses_a_table_it_cannot_play(spec, players, named):
    with pytest.raises(ValueError, match=named) as err:
        gymnasium.make("Paye-v1", num_players=players, opponents=spec)
    assert "\n" not in str(err.value)

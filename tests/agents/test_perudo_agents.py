"""Perudo's scripted players (``probabilistic``, ``bluffer``): legal, reading only their own
view, doing what their odds say (P4.1, P5.1, P6.3), validated, seeded, and clearly better than
random."""

from __future__ import annotations

from math import comb

import gymnasium
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pagadores_env import perudo_v1
from pagadores_env.core.policies import make_policy
from pagadores_env.perudo.dice import FaceStream
from pagadores_env.perudo.engine import Game
from pagadores_env.perudo.observation import encode
from pagadores_env.perudo.rules import BIDS, DUDO, bid_action, legal_mask

SPECS = ("probabilistic", "probabilistic:dudo_below=0.2", "probabilistic:dudo_below=1",
         "bluffer", "bluffer:bluff=1,overbid=3,dudo_below=0.7")


def perudo(spec: str, seed: int | None = None):
    return make_policy(spec, game="perudo", seed=seed)


def view(game: Game) -> tuple[np.ndarray, np.ndarray]:
    seat = game.current_player
    return encode(game, seat), legal_mask(game.bid_action, game.total_dice, game.palifico)


def reference(game: Game, dudo_below: float) -> int:
    """The probabilistic bidder's rule written out on the game itself (the acting seat's
    dice, the table's dice, the bid), with its own binomial sums: not through the
    observation."""
    hand, unseen = game.hands[game.current_player], game.total_dice - len(
        game.hands[game.current_player])

    def holds(action: int) -> float:
        q, f = BIDS[action]
        wild = not game.palifico and f != 1
        mine = sum(d == f or (wild and d == 1) for d in hand)
        p = 1 / 3 if wild else 1 / 6
        return sum(comb(unseen, k) * p ** k * (1 - p) ** (unseen - k)
                   for k in range(max(q - mine, 0), unseen + 1))

    raises = [a for a in game.legal_actions() if a != DUDO]
    if game.bid is not None and (not raises or holds(game.bid_action) < dudo_below):
        return DUDO
    top = max(holds(a) for a in raises)
    return max(a for a in raises if holds(a) >= top - 1e-12)


def play_rows(players: int, dice: int, seed: int, spec: str, limit: int = 400):
    """Play a seeded game with ``spec`` at every seat; yield (game before the action, obs,
    mask, action)."""
    game, faces, policy = Game(players, dice), FaceStream(np.random.default_rng(seed)), \
        perudo(spec, seed)
    for _ in range(limit):
        if game.is_terminal():
            return
        if game.is_chance_node():
            game.apply_roll(faces.roll(game.dice_counts))
            continue
        obs, mask = view(game)
        action = policy.act(obs, mask)
        yield game.clone(), obs, mask, action
        game.apply_action(action)


@settings(max_examples=40, deadline=None)
@given(players=st.integers(2, 6), dice=st.integers(1, 5), seed=st.integers(0, 2**32 - 1),
       spec=st.sampled_from(SPECS))
def test_every_action_is_legal_and_the_batch_agrees(players, dice, seed, spec):
    rows = list(play_rows(players, dice, seed, spec))
    assert rows
    for game, _, _, action in rows:
        assert action in game.legal_actions()
    obs = np.stack([r[1] for r in rows])
    mask = np.stack([r[2] for r in rows])
    again = perudo(spec, seed).act_batch(obs, mask)
    assert again.tolist() == [r[3] for r in rows]  # one draw per decision, batch or not
    probs = perudo(spec, seed).action_probabilities(obs, mask)
    assert np.allclose(probs.sum(axis=1), 1.0)
    assert not (probs[mask == 0] > 0).any()
    assert (probs[np.arange(len(rows)), again] > 0).all()


@settings(max_examples=30, deadline=None)
@given(players=st.integers(2, 6), dice=st.integers(1, 5), seed=st.integers(0, 2**32 - 1),
       threshold=st.sampled_from([0.05, 0.3, 0.5, 0.8, 1.0]))
def test_probabilistic_bidder_matches_its_rule_written_on_the_game(players, dice, seed,
                                                                  threshold):
    for game, _, _, action in play_rows(players, dice, seed,
                                        f"probabilistic:dudo_below={threshold}"):
        assert action == reference(game, threshold)


def rolled(counts, hands, bids, palifico_first=None) -> Game:
    """A game at a chosen roll and bids (one round; ``palifico_first`` plays a round before:
    seat 0 bids it and seat 1 calls dudo)."""
    game = Game(2, counts)
    if palifico_first is not None:
        first_roll, opening = palifico_first
        game.apply_roll(first_roll)
        game.apply_action(bid_action(*opening))
        game.apply_action(DUDO)
    game.apply_roll(hands)
    for bid in bids:
        game.apply_action(bid_action(*bid))
    return game


@pytest.mark.parametrize("spec", ["probabilistic:dudo_below=0.01", "probabilistic",
                                  "bluffer:bluff=1,dudo_below=0.01"])
@pytest.mark.parametrize("game", [
    # seat 1 holds no 5 and no joker; 2 unseen dice cannot make three 5s
    pytest.param(lambda: rolled(2, ((5, 5), (2, 3)), [(3, 5)]), id="no-way-to-3-of-5"),
    # a joker bid counts the 1s only (P4.1): seat 1's 5s do not help
    pytest.param(lambda: rolled(2, ((2, 2), (5, 5)), [(1, 2), (1, 3), (3, 1)]),
                 id="joker-bid-counts-ones"),
    # palifico round (seat 0 went down to one die, P6.1): the 1s are not wild (P6.3)
    pytest.param(lambda: rolled(2, ((5,), (1, 1)), [(2, 5)],
                                palifico_first=(((2, 2), (3, 3)), (4, 6))), id="palifico"),
])
def test_the_bidder_calls_dudo_on_an_impossible_bid(spec, game):
    game = game()
    assert game.current_player == 1
    assert perudo(spec, 0).act(*view(game)) == DUDO


@pytest.mark.parametrize("spec", ["probabilistic:dudo_below=1", "probabilistic",
                                  "bluffer:bluff=1,dudo_below=1"])
@pytest.mark.parametrize("game", [
    # seat 1's 5 and joker make the two 5s (P5.1)
    pytest.param(lambda: rolled(2, ((2, 2), (5, 1)), [(2, 5)]), id="joker-counts"),
    pytest.param(lambda: rolled(2, ((2, 2), (1, 1)), [(1, 2), (1, 3), (2, 1)]),
                 id="two-jokers"),
    pytest.param(lambda: rolled(2, ((2, 2), (4, 4)), [(1, 3), (1, 5), (2, 4)]), id="own-pair"),
])
def test_the_bidder_never_calls_dudo_on_a_certain_bid(spec, game):
    game = game()
    assert game.current_player == 1
    action = perudo(spec, 0).act(*view(game))
    assert action != DUDO
    assert action in game.legal_actions()


def test_palifico_odds_differ_from_a_normal_round():
    """The same hand and bid: in a normal round the 1s make (2, 5) certain, in a palifico
    round (P6.3) impossible, so one and the same player raises once and calls once."""
    normal = rolled(2, ((2, 2), (1, 1)), [(2, 5)])
    palifico = rolled(2, ((5,), (1, 1)), [(2, 5)], palifico_first=(((2, 2), (3, 3)), (4, 6)))
    assert palifico.palifico and not normal.palifico
    bidder = perudo("probabilistic", 0)
    assert bidder.act(*view(normal)) != DUDO
    assert bidder.act(*view(palifico)) == DUDO


def test_the_opening_bid_is_the_most_likely_and_never_dudo():
    game = rolled(2, ((3, 3), (4, 6)), [])
    action = perudo("probabilistic:dudo_below=1", 0).act(*view(game))
    assert action != DUDO and BIDS[action] == (2, 3)  # both 3s: certain; the highest of them


@pytest.mark.parametrize("spec", [
    "probabilistic:dudo_below=0", "probabilistic:dudo_below=1.5", "probabilistic:dudo_below=x",
    "probabilistic:dudo_below=true", "bluffer:bluff=-0.1", "bluffer:bluff=2",
    "bluffer:overbid=0", "bluffer:overbid=1.5", "probabilistic:bluff=0.2", "bluffer:x=1",
])
def test_bad_parameters_are_refused_in_one_line(spec):
    with pytest.raises(ValueError) as err:
        perudo(spec)
    message = str(err.value)
    assert "\n" not in message
    name = spec.partition(":")[2].partition("=")[0]
    assert name in message and ("must be" in message or "allowed" in message)


def test_the_bluffer_is_seeded():
    rows = list(play_rows(3, 3, 11, "bluffer:bluff=0.5", limit=60))
    obs, mask = np.stack([r[1] for r in rows]), np.stack([r[2] for r in rows])
    same = [perudo("bluffer:bluff=0.5", 5).act_batch(obs, mask) for _ in range(2)]
    other = perudo("bluffer:bluff=0.5", 6).act_batch(obs, mask)
    assert same[0].tolist() == same[1].tolist()
    assert same[0].tolist() != other.tolist()
    honest = perudo("probabilistic").act_batch(obs, mask)
    overbid = same[0] != honest
    assert overbid.any() and (~overbid).any()
    # an overbid names more of the same face, never a dudo
    for lie, truth in zip(same[0][overbid], honest[overbid], strict=True):
        assert BIDS[lie][1] == BIDS[truth][1] and BIDS[lie][0] > BIDS[truth][0]


def win_rate(spec: str, players: int, games: int, dice: int = 3) -> float:
    """Share of ``games`` that ``spec`` at seat 0 wins against random players (AEC env)."""
    wins = 0
    for game in range(games):
        env = perudo_v1.env(num_players=players, dice=dice)
        env.reset(seed=game)
        seats = [perudo(spec, game)] + [perudo("random", 1000 * game + s)
                                        for s in range(1, players)]
        for agent in env.agent_iter():
            obs, reward, done, cut, _ = env.last()
            if done or cut:
                wins += agent == "player_0" and reward > 0
                env.step(None)
                continue
            seat = int(agent.rpartition("_")[2])
            env.step(seats[seat].act(obs["observation"], obs["action_mask"]))
    return wins / games


@pytest.mark.parametrize("spec", ["probabilistic", "bluffer"])
@pytest.mark.parametrize(("players", "games", "above"), [(2, 60, 0.8), (4, 40, 0.6)])
def test_the_bidders_beat_random_clearly(spec, players, games, above):
    # random wins 1/players of the games by symmetry; a clear edge is far above that
    assert win_rate(spec, players, games) > above


@pytest.mark.parametrize("players", [2, 4])
def test_a_random_learner_loses_to_the_bidders_in_the_gym_env(players):
    """The bidders seat as ``Perudo-v1`` opponents by name; a random learner wins far less
    than its 1/players share against them."""
    opponents = (["probabilistic", "bluffer"] * players)[:players - 1]
    env = gymnasium.make("Perudo-v1", num_players=players, dice=2, opponents=opponents,
                         learner_seat="random")
    learner = perudo("random", 0)
    wins, games = 0, 40
    obs, _ = env.reset(seed=0)
    for _ in range(games):
        done = False
        while not done:
            obs, reward, done, _, _ = env.step(learner.act(obs, env.unwrapped.action_masks()))
        wins += reward > 0
        obs, _ = env.reset()
    assert wins / games < 0.5 / players

"""Pasch's observation codec: what ``decode`` reads from ``encode`` is the game's public
state from the observer's seat (X8.2), rotated so the observer is slot 0, at every point
of random games at every table size."""

from __future__ import annotations

import random

import numpy as np
import pytest

from pagadores_env.pasch.engine import Game, Phase
from pagadores_env.pasch.observation import (
    OBS_SIZE,
    PHASES,
    Facts,
    decode,
    encode,
    facts,
    field_table,
    write,
)
from pagadores_env.pasch.rules import CARD_VALUES, ranking


@pytest.mark.parametrize("n", [2, 3, 6])
def test_decode_reads_back_the_public_state_from_every_seat(n):
    rng = random.Random(n)
    game = Game(n, hand=[-1, 0, 4, 10], blocks=[rng.randint(0, 3) for _ in range(n)])
    checked, seen_facts, encoded = 0, [], []
    while not game.is_terminal():
        rows = decode(np.stack([encode(game, seat) for seat in range(n)]))
        seen_facts.append(facts(game))
        encoded.append([encode(game, seat) for seat in range(n)])
        for seat in range(n):
            seen = type(rows)(*(field[seat] for field in rows))
            slot_of = [(seat + k) % n for k in range(n)]  # slot -> seat
            assert seen.players == n and slot_of[seen.starter] == game.starter
            assert slot_of[seen.turn] == game.turn and seen.round == game.round
            assert seen.last_round == (game.round == len(game.hand) - 1)
            assert list(seen.scores[:n]) == [game.scores[s] for s in slot_of]
            assert list(seen.blocks[:n]) == [game.blocks[s] for s in slot_of]
            for k, s in enumerate(slot_of):
                held = [v for v, c in zip(CARD_VALUES, seen.hands[k], strict=True)
                        for _ in range(c)]
                assert held == list(game.hands[s])
                assert seen.played[k] == (-2 if game.played[s] is None else game.played[s])
            discs = {s: (cls, k) for k, (s, cls) in enumerate(game.discs)}
            assert [discs.get(s, (-1, -1)) for s in slot_of] == list(
                zip(seen.disc[:n], seen.disc_order[:n], strict=True))
            best = ranking(game.discs)[0] if game.discs else None
            assert seen.best_disc == (-1 if best is None else discs[best][0])
            assert tuple(seen.dice) == (game.dice or (0,) * 5)
            assert seen.throws == game.throws
            assert seen.phase == (PHASES.index(game.phase) if game.phase in PHASES else -1)
            assert not seen.hands[n:].any() and not seen.scores[n:].any()
        checked += 1
        if game.is_chance_node():
            outcomes = game.chance_outcomes()
            game.apply_chance(outcomes[rng.randrange(len(outcomes))][0])
        else:
            game.apply_action(rng.choice(game.legal_actions()))
    assert checked > 20 * n and game.phase == Phase.OVER
    # the envs' one-row encoder and the yardstick's batch writer (every position at once):
    # the same rows, exactly
    batch = Facts(n, *(np.concatenate([getattr(f, name) for f in seen_facts])
                       for name in Facts._fields[1:]))
    for seat in range(n):
        assert np.array_equal(write(batch, seat), np.stack([row[seat] for row in encoded]))
    assert decode(encode(game, 0)).turn == -1


def test_the_observation_is_bounded_and_its_layout_is_one_table():
    game = Game(6, hand=[10] * 10, blocks=10, scores=[100, -100, 0, 0, 0, 0])
    obs = encode(game, 1)
    assert obs.shape == (OBS_SIZE,) and obs.dtype == np.float32
    assert obs.min() >= -1 and obs.max() <= 1
    assert "best_disc" in field_table() and f"{OBS_SIZE - 1}" in field_table()
    with pytest.raises(ValueError, match=f"an observation must have {OBS_SIZE} values"):
        decode(np.zeros(3))

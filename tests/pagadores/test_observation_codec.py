"""R7.1: the observation codec. ``decode(encode(game, seat))`` gives back what the game holds,
read here from the game directly, and ``encode_batch`` writes, bit for bit, the rows ``encode``
writes: over every kind of state (chance and decision nodes, kampen, game over; 2–6 players
with their padding; specials and Picaros; seats out, also the observer's)."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

from pagadores_env.pagadores.engine import Game
from pagadores_env.pagadores.observation import ObsFields, decode, encode, encode_batch
from pagadores_env.pagadores.rules import Kind
from tests.dice import (
    CELEBRO,
    F10,
    HERMANA,
    LOW,
    PICARO,
    PUERTA,
    SIXES,
    TOP,
    random_start,
    random_step,
)

SLOTS = 6
#: Close strengths and every special: ties (kampen), specials and knock-outs are common.
PALETTE = (CELEBRO, HERMANA, PUERTA, PICARO, LOW, (2, 2, 4), F10, (2, 4, 4), (3, 3, 4),
           SIXES, TOP)


def read_game(game: Game, seat: int) -> dict[str, object]:
    """What ``seat`` observes (R7.1), straight from the game's attributes; slot k is the
    k-th seat clockwise from ``seat`` (R1.2), slots past the table are padding."""
    n = game.num_players
    seats = [(seat + k) % n for k in range(n)]
    padding = [0] * (SLOTS - n)
    in_round = game.phase == "round"
    after = game.order[game.pos + 1:] if in_round else []
    return {
        "players": n,
        "cards": [game.cards[s] for s in seats] + padding,
        "insteker": -1 if game.insteker is None else seats.index(game.insteker),
        # only the score to beat shows: a higher one can never matter again (R3.5)
        "scores": [x if x == game.score_to_beat() else -1
                   for x in (game.scores[s] for s in seats)] + [-1] * (SLOTS - n),
        "to_throw": [int(s in after) for s in seats] + padding,
        "throw_limit": game.throw_limit or 0,
        "throws_used": game.throws if in_round else 0,
        "throws_left": game.max_throws - game.throws if in_round else 0,
        "my_strength": -1 if game.current is None else game.current.strength,
    }


def kinds_of(game: Game, seat: int) -> set[str]:
    """The kinds of state this observation stands for, to check the test saw them all."""
    node = ("over" if game.is_terminal() else game.phase if game.phase == "kampen"
            else "decision" if game.is_decision_node() else "chance")
    kinds = {f"{node} {game.num_players}p"}
    if game.current is not None and game.current.penalty:
        kinds.add("my special")
    if game.current is not None and game.current.kind is Kind.PICARO:
        kinds.add("my picaro")
    if 0 in game.cards:
        kinds.add("seat out")
    if game.cards[seat] == 0:
        kinds.add("observer out")
    low = game.score_to_beat()
    if low >= 0 and game.scores.count(low) > 1:
        kinds.add("tie for the lowest")
    return kinds


@pytest.mark.slow
def test_R7_1_decode_reads_the_game_back_and_encode_batch_writes_what_encode_writes() -> None:
    rng = random.Random(7)
    rows, fields, seen = [], [], Counter()
    for _ in range(250):
        game = random_start(rng)
        palette = PALETTE if rng.random() < 0.6 else ()
        while True:
            for seat in range(game.num_players):
                obs = encode(game, seat)
                want = read_game(game, seat)
                got = decode(obs)
                assert {k: np.asarray(v).tolist() for k, v in got._asdict().items()} == want
                assert got.to_beat == game.score_to_beat()  # R3.5
                low = game.score_to_beat()
                assert got.lowest.tolist() == [int(low >= 0 and s == low)
                                               for s in want["scores"]]  # type: ignore[attr-defined]
                rows.append(obs)
                fields.append(want)
                seen.update(kinds_of(game, seat))
            if game.is_terminal():
                break
            random_step(game, rng, palette=palette)
    rows_array = np.array(rows)

    # Rows of every table size at once, padded to six slots (as decode gives them) ...
    padded = ObsFields(**{k: np.array([f[k] for f in fields]) for k in ObsFields._fields})
    assert encode_batch(padded).tobytes() == rows_array.tobytes()
    assert encode_batch(decode(rows_array)).tobytes() == rows_array.tobytes()
    # ... and one table size with as many slots as seats (as the batch engine and the
    # solvers call it).
    for n in range(2, 7):
        mine = [k for k, f in enumerate(fields) if f["players"] == n]
        exact = padded._replace(**{k: getattr(padded, k)[mine][:, :n] for k in
                                   ("cards", "scores", "to_throw")})
        exact = exact._replace(players=n, **{k: getattr(exact, k)[mine] for k in
                                            ("insteker", "throw_limit", "throws_used",
                                             "throws_left", "my_strength")})
        assert encode_batch(exact).tobytes() == rows_array[mine].tobytes()

    expected = {f"{node} {n}p" for node in ("chance", "decision", "kampen", "over")
                for n in range(2, 7)}
    expected |= {"my special", "my picaro", "seat out", "observer out", "tie for the lowest"}
    assert expected <= set(seen), sorted(expected - set(seen))

"""Drive a ``Game`` with chosen dice and decisions, and read its event log.

Scenario tests write a game as a script: dice tuples are throws (chance nodes), ``STOP`` and
``AGAIN`` are decisions (decision nodes). ``play`` checks that every item fits the node it
meets and otherwise fails with a message saying what the game was waiting for, so a wrong
script reads as "script[3] = (2, 3, 4): expected a decision by seat 0 ..." rather than as a
bare engine error.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from pagadores_env.core.protocol import Event
from pagadores_env.pagadores.engine import Action, Game
from pagadores_env.pagadores.rules import THROWS

STOP = Action.STOP
AGAIN = Action.THROW

# Named throws (R2.2) so scripts read as the rulebook does.
CELEBRO = (1, 1, 1)
HERMANA = (4, 5, 6)
PUERTA = (1, 2, 3)
PICARO = (2, 2, 3)
#: Flamenco throws by points (R2.1): LOW is a lowest Flamenco (2-2-4 ties it), TOP the highest.
LOW = (2, 3, 3)  # 8
F9 = (2, 3, 4)  # 9
F10 = (2, 3, 5)  # 10, ties with (2, 4, 4) and (3, 3, 4)
F11 = (2, 4, 5)  # 11
TOP = (1, 1, 6)  # 260
SIXES = (6, 6, 6)  # the highest Cavar

ScriptItem = tuple[int, int, int] | int


def describe(game: Game) -> str:
    """One line saying what the game waits for, for failure messages."""
    if game.is_terminal():
        return f"the game is over (winner seat {game.winner}, cards {game.cards})"
    where = f"round {game.round}, {game.phase}, cards {game.cards}"
    if game.is_decision_node():
        return (f"a decision (STOP/AGAIN) by seat {game.current_player} after "
                f"{game.throws} of {game.max_throws} throws ({where})")
    return f"a throw by seat {game.current_player} ({where})"


def play(game: Game, script: Iterable[ScriptItem]) -> Game:
    """Apply each script item in turn: a dice tuple at a chance node, an action at a decision
    node. Fails with ``AssertionError`` naming the item and what the game expected."""
    for i, item in enumerate(script):
        wants_throw = isinstance(item, tuple)
        fits = game.is_chance_node() if wants_throw else game.is_decision_node()
        if not fits:
            recent = ", ".join(f"{e.kind}({e.seat}, {e.value})" for e in game.log[-4:])
            raise AssertionError(
                f"script[{i}] = {item!r} does not fit: the game expects {describe(game)}; "
                f"last events: {recent}"
            )
        if wants_throw:
            game.apply_throw(item)
        else:
            game.apply_action(item)
    return game


def new_game(num_players: int = 2, cards: int | Sequence[int] = 10, first_insteker: int = 0,
             script: Iterable[ScriptItem] = ()) -> Game:
    """A fresh game played through ``script``."""
    return play(Game(num_players, cards, first_insteker), script)


def events(game: Game, kind: str, since: int = 0) -> list[Event]:
    """The log events of one kind, from log index ``since`` on."""
    return [e for e in game.log[since:] if e.kind == kind]


def random_step(game: Game, rng: random.Random, p_again: float = 0.5,
                palette: Sequence[tuple[int, int, int]] = ()) -> None:
    """One random throw or one random decision, whichever the node wants. Throws are uniform
    over the 216 ordered outcomes (R7.2) or, given a ``palette``, uniform over its dice (a
    few dice with close strengths make ties, kampen and specials common)."""
    if game.is_chance_node():
        game.apply_throw(rng.choice(palette) if palette else THROWS[rng.randrange(len(THROWS))])
    else:
        game.apply_action(AGAIN if rng.random() < p_again else STOP)


def random_start(rng: random.Random) -> Game:
    """A random table: 2–6 seats, per-seat cards 0–10 with at least two seats holding cards,
    and a random first insteker among those with cards."""
    n = rng.randint(2, 6)
    while True:
        cards = [rng.choice((0, *range(1, 11))) for _ in range(n)]
        if sum(c > 0 for c in cards) >= 2:
            break
    first = rng.choice([s for s, c in enumerate(cards) if c])
    return Game(n, cards, first)

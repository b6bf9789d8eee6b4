"""Play any game of the table of games in the terminal (``pagadores play --game paye``, ``--game
pasch``), through its spec alone (``pagadores_env.core.games``): the table as the game renders
it, every event of its log as a sentence, and your legal actions numbered, each in words.

The dice come from a seeded generator (``GameSpec.advance``), the other seats are seated as the
environments seat them (``play.seat_players``). You answer with an action's number (as listed),
``?`` (the rules in short, ``GameSpec.summary``) or ``q`` (quit); anything else is refused in
one line naming what is allowed, and asked again. Dados de Pagadores and Perudo have terminal
play of their own (``play``, ``play_perudo``: their answers are words and bids).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from pagadores_env.core.games import GameSpec
from pagadores_env.core.policies import Policy

from .play import seat_players

PROMPT = "action number, ? rules, q quit: "


def play(spec: GameSpec, opponents: Sequence[str | Policy], num_players: int,
         options: dict[str, Any], human_seat: int = 0, seed: int | None = None,
         ask: Callable[[str], str] = input, say: Callable[[str], None] = print
         ) -> list[float] | None:
    """Play one game of ``spec``; returns its returns per seat, or None if the person quit.

    ``opponents`` holds one spec for every other seat, or one shared by all of them;
    ``options`` are the game's table options by name; ``seed`` seeds the opponents and the
    dice. ``ask``/``say`` are the terminal (replaceable for tests); end of input quits."""
    game = spec.start(num_players, **options)
    first = next(iter(spec.table_options(**options).values()))
    players, seating = seat_players(opponents, num_players, human_seat, first, seed,
                                    game=spec.name)
    rng = np.random.default_rng(seed)  # the dice
    say(f"{spec.title}, {num_players} players. Type ? at any prompt for the rules.")
    say(seating)
    shown = 0
    while True:
        spec.advance(game, rng)
        for line in spec.describe_events(game.log[shown:]):
            say(f"  {line}")
        shown = len(game.log)
        if game.is_terminal():
            break
        seat = game.current_player
        if seat != human_seat:
            mask = spec.legal_mask(game)
            game.apply_action(int(players[seat].act(spec.encode(game, seat), mask)))
            continue
        action = _ask(spec, game, ask, say)
        if action is None:
            say("You quit the game.")
            return None
        game.apply_action(action)
    say(spec.render_table(game))
    return list(game.returns())


def _ask(spec: GameSpec, game: Any, ask: Callable[[str], str], say: Callable[[str], None]
         ) -> int | None:
    """Your action, one of the legal ones by number; None means quit."""
    say(spec.render_table(game))
    legal = list(game.legal_actions())
    for action in legal:
        say(f"  {action:>3}  {spec.describe_action(game, action)}")
    while True:
        try:
            answer = ask(PROMPT).strip().lower()
        except EOFError:
            return None
        if answer in ("q", "quit"):
            return None
        if answer == "?":
            say(spec.summary)
        elif answer.isdigit() and int(answer) in legal:
            return int(answer)
        else:
            say(f"Please answer one of {', '.join(map(str, legal))}, ? or q.")

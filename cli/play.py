"""Play Dados de Pagadores in the terminal against chosen agents.

The game is ``engine.Game``; the dice come from a seeded generator, the other seats are seated as
the environments seat them (``pagadores_env.core.opponents``). Everything that happens is printed
from the game's event log with ``pagadores_env.pagadores.render`` (R7.1: every throw, special and
card count is public), and at each of your decisions the table is shown. You answer ``s`` (stop),
``t`` (throw again), ``?`` (the rules in short) or ``q`` (quit).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from pagadores_env.core.opponents import reseed_opponents, seat_opponents
from pagadores_env.core.policies import Policy
from pagadores_env.core.seats import player
from pagadores_env.pagadores.engine import Action, Game
from pagadores_env.pagadores.observation import encode
from pagadores_env.pagadores.render import SUMMARY, describe_events, render_table

RULES_SUMMARY = SUMMARY + "\nAnswer s to stop, t to throw again, ? for this text, q to quit."

PROMPT = "[s]top, [t]hrow again, ? rules, q quit: "
ANSWERS = {"s": Action.STOP, "stop": Action.STOP, "t": Action.THROW, "throw": Action.THROW}


def seat_players(opponents: Sequence[str | Policy], num_players: int, human_seat: int,
                 start: int | Sequence[int], seed: int | None,
                 game: str = "pagadores") -> tuple[dict[int, Policy], str]:
    """The opponents' policies by seat around the person at ``human_seat``, seated and
    reseeded as ``play`` says (``start``: the cards or dice each; ``game``: whose players the
    specs name), and the line naming who sits where. Raises ``ValueError`` in one line on a
    bad seat or spec. Both games' ``play`` seat their tables with it."""
    if not 0 <= human_seat < num_players:
        raise ValueError(f"seat must be 0–{num_players - 1}, got {human_seat}")
    others = [s for s in range(num_players) if s != human_seat]
    seated = seat_opponents(opponents, num_players, start, game=game)
    reseed_opponents(seated, seed)
    specs = list(opponents) * len(others) if len(opponents) == 1 else list(opponents)
    labels = {s: str(spec) for s, spec in zip(others, specs, strict=True)} | {human_seat: "YOU"}
    line = "  " + ", ".join(f"{player(s)}: {labels[s]}" for s in range(num_players))
    return dict(zip(others, seated, strict=True)), line


def play(opponents: Sequence[str | Policy], num_players: int = 2, human_seat: int = 0,
         cards: int = 10, seed: int | None = None,
         ask: Callable[[str], str] = input, say: Callable[[str], None] = print) -> int | None:
    """Play one game; returns the winner's seat, or None if the person quit.

    ``opponents`` holds one spec for every other seat, or a single spec shared by all of them
    (``opponents.seat_opponents``); ``seed`` seeds them (``opponents.reseed_opponents``) and
    the dice. ``ask``/``say`` are the terminal (replaceable for tests); end of input quits.
    """
    game = Game(num_players, cards)
    players, seating = seat_players(opponents, num_players, human_seat, cards, seed)
    rng = np.random.default_rng(seed)  # the dice
    say(f"Dados de Pagadores, {num_players} players with {cards} cards each. "
        "Type ? at any prompt for the rules.")
    say(seating)
    shown = 0
    while not game.is_terminal():
        shown = _show_new(game, shown, say)
        seat = game.current_player
        if game.is_chance_node():
            game.apply_throw(tuple(int(d) for d in rng.integers(1, 7, size=3)))
        elif seat != human_seat:
            game.apply_action(players[seat].act(encode(game, seat), np.ones(2, dtype=bool)))
        else:
            action = _ask(game, ask, say)
            if action is None:
                say("You quit the game.")
                return None
            game.apply_action(action)
    _show_new(game, shown, say)
    say(render_table(game))
    return game.winner


def _show_new(game: Game, shown: int, say: Callable[[str], None]) -> int:
    """Print the events logged since ``shown`` (a throw and the special it causes are logged
    together, so the special is named); returns the new count. Each round opens with the
    card counts."""
    for line in describe_events(game.log[shown:]):
        if line.startswith("Round"):
            cards = ", ".join(f"{player(s)} {c}" for s, c in enumerate(game.cards))
            say(f"\n{line} (cards: {cards})")
        else:
            say(f"  {line}")
    return len(game.log)


def _ask(game: Game, ask: Callable[[str], str], say: Callable[[str], None]) -> Action | None:
    """Your decision (R3.6): after a throw with throws left. None means quit."""
    say(render_table(game))
    while True:
        try:
            answer = ask(PROMPT).strip().lower()
        except EOFError:
            return None
        if answer in ANSWERS:
            return ANSWERS[answer]
        if answer in ("q", "quit"):
            return None
        say(RULES_SUMMARY if answer == "?" else "Please answer s, t, ? or q.")

"""Play Perudo in the terminal against chosen agents (``pagadores play --game perudo``).

The game is ``perudo.engine.Game``; the dice come from a seeded face stream
(``perudo.dice.FaceStream``), the other seats are seated as the environments seat them
(``pagadores_env.core.opponents``, Perudo's players). Everything public is printed from the game's
event log with ``perudo.render`` (P7.2): bids, dudos, counts, lost dice. Your own dice are
shown when a round is rolled and at each of your turns; everyone else's stay hidden until a
dudo reveals the table. You answer a bid as ``3x5`` (or ``3 5``: three dice showing 5), ``d``
(dudo), ``?`` (the rules in short) or ``q`` (quit); an answer that is no legal action is
refused in one line naming what is allowed, and asked again.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

import numpy as np

from pagadores_env.core.seats import player
from pagadores_env.perudo.aec import roll_to_decision
from pagadores_env.perudo.dice import FaceStream
from pagadores_env.perudo.engine import Game
from pagadores_env.perudo.observation import encode
from pagadores_env.perudo.policies import GAME
from pagadores_env.perudo.render import SUMMARY, describe_events, render_table
from pagadores_env.perudo.rules import (
    BIDS,
    DUDO,
    FACES,
    MAX_DICE,
    allowed_bids,
    bid_action,
    legal_mask,
)

from .play import seat_players

RULES_SUMMARY = (SUMMARY
                 + "\nAnswer a bid as 3x5 (or 3 5), d for dudo, ? for this text, q to quit.")

PROMPT = "bid as QxF (e.g. 3x5), d dudo, ? rules, q quit: "
_BID = re.compile(r"(\d+)\s*(?:x|\*|\s)\s*(\d+)")
DUDOS = ("d", "dudo")
QUITS = ("q", "quit")


def play(opponents: Sequence[str], num_players: int = 2, human_seat: int = 0,
         dice: int = MAX_DICE, seed: int | None = None,
         ask: Callable[[str], str] = input, say: Callable[[str], None] = print) -> int | None:
    """Play one game of Perudo; returns the winner's seat, or None if the person quit.

    ``opponents`` holds one spec of Perudo's players for every other seat, or a single spec
    shared by all of them (``opponents.seat_opponents``); ``seed`` seeds them and the dice.
    ``ask``/``say`` are the terminal (replaceable for tests); end of input quits. A wrong
    table, seat or spec raises ``ValueError`` in one line before anything is printed."""
    game = Game(num_players, dice)
    players, seating = seat_players(opponents, num_players, human_seat, dice, seed, game=GAME)
    faces = FaceStream(np.random.default_rng(seed))
    say(f"Perudo, {num_players} players with {dice} dice each. "
        "Type ? at any prompt for the rules.")
    say(seating)
    shown = 0
    while not game.is_terminal():
        if game.is_chance_node():
            roll_to_decision(game, faces)
        shown = _show_new(game, shown, human_seat, say)
        seat = game.current_player
        mask = legal_mask(game.bid_action, game.total_dice, game.palifico)
        if seat != human_seat:
            game.apply_action(int(players[seat].act(encode(game, seat), mask)))
            continue
        action = _ask(game, human_seat, ask, say)
        if action is None:
            say("You quit the game.")
            return None
        game.apply_action(action)
    _show_new(game, shown, human_seat, say)
    say(render_table(game))
    return game.winner


def _show_new(game: Game, shown: int, me: int, say: Callable[[str], None]) -> int:
    """Print the events logged since ``shown``; returns the new count. A roll shows only your
    own dice (P7.2); a dudo's count is followed by every hand, now revealed."""
    for event, line in zip(game.log[shown:], describe_events(game.log[shown:]), strict=True):
        if event.kind == "round":
            counts = ", ".join(f"{player(s)} {c}" for s, c in enumerate(game.dice_counts))
            say(f"\n{line} (dice: {counts})")
        elif event.kind == "roll":
            say(f"  {line}; your dice: {_faces(event.value[me])}")
        elif event.kind == "count":
            hands = "; ".join(f"{player(s)} {_faces(h)}" for s, h in enumerate(game.revealed or ())
                              if h)
            say(f"  {line} (revealed: {hands})")
        else:
            say(f"  {line}")
    return len(game.log)


def _faces(hand: Sequence[int]) -> str:
    return " ".join(map(str, sorted(hand))) or "-"


def parse_answer(answer: str) -> int | str | None:
    """An answer as an action id (dudo or a bid), ``"?"``, ``"q"``, or None if it is neither
    (the bid is not checked for legality here)."""
    answer = answer.strip().lower()
    if answer in DUDOS:
        return DUDO
    if answer in QUITS:
        return "q"
    if answer == "?":
        return "?"
    match = _BID.fullmatch(answer)
    if match is None:
        return None
    quantity, face = int(match[1]), int(match[2])
    try:
        return bid_action(quantity, face)
    except ValueError:
        return None


def _ask(game: Game, me: int, ask: Callable[[str], str],
         say: Callable[[str], None]) -> int | None:
    """Your bid or dudo (P2.3), re-asked until it is legal; None means quit."""
    say(render_table(game))
    say(f"Your dice: {_faces(game.hands[me])}")
    mask = legal_mask(game.bid_action, game.total_dice, game.palifico)
    while True:
        try:
            answer = ask(PROMPT)
        except EOFError:
            return None
        action = parse_answer(answer)
        if action == "q":
            return None
        if action == "?":
            say(RULES_SUMMARY)
        elif not isinstance(action, int):
            say(f"Please answer a bid QxF (quantity 1–{game.total_dice}, face 1–{FACES}), "
                "d for dudo, ? or q.")
        elif mask[action]:
            return action
        else:
            bid = BIDS[action]
            what = "dudo" if bid is None else f"bid {bid[0]} x {bid[1]}"
            rule = allowed_bids(game.bid_action, game.total_dice, game.palifico)
            say(f"{what} is not allowed now: {rule}.")

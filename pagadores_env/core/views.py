"""The view of a game the web page draws (``pagadores serve``), one shape for every game, and
what the page's replays need of saved games.

``game_view(spec, game, seats)`` is plain JSON data: who acts, the legal actions in words
(for a seat asked that is to act), the game's own part (``GameSpec.view``: its public table and
the private facts of the ``seats`` asked, nobody else's), the public table as text, the log as
sentences (``GameSpec.describe_events``: public facts only; a game with hidden dice says
"everyone rolls", never the faces) and, once over, every seat's returns and place. It holds no
history and no record: a game with hidden information (``GameSpec.hidden``) must not give away
its dice through them before it ends.

``load_record`` finds the game a saved record (``to_dict`` of any game) belongs to by its
``format`` and loads it with that game's ``from_dict`` (digest and replay checked);
``replay_to`` rebuilds the game after the first inputs of a loaded record, from its
``record_start``, so a replay can step forward and back.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from .games import GAME_SPECS, GameSpec


def game_view(spec: GameSpec, game: Any, seats: Sequence[int] = ()) -> dict[str, Any]:
    """``game`` as ``seats`` see it (module docstring): ``()`` a spectator, ``[seat]`` a
    player, every seat a replay of a finished record. ``ValueError`` for a game the page
    cannot show (no ``GameSpec.view``)."""
    if spec.view is None:
        raise ValueError(f"{spec.title} has no view for the web page")
    over = bool(game.is_terminal())
    deciding = not over and not game.is_chance_node()
    to_act = int(game.current_player) if deciding else -1
    legal = ([{"action": int(a), "words": spec.describe_action(game, int(a))}
              for a in game.legal_actions()] if to_act in seats else [])
    parts = spec.view(game, list(seats))
    view = {"game": spec.name, "title": spec.title, "num_players": int(game.num_players),
            "step": len(game.history), "to_act": to_act, "chance": bool(game.is_chance_node()),
            "over": over, "legal": legal, "table": parts["table"], "private": parts["private"],
            "text": spec.render_table(game), "log": spec.describe_events(game.log)}
    if over:
        view["returns"] = [float(r) for r in game.returns()]
        view["places"] = [int(p) for p in game.placements()]
    return view


@cache
def record_format(name: str) -> str:
    """The ``format`` field of the records of the registered game ``name``."""
    spec = GAME_SPECS[name]
    return str(spec.start(spec.min_players).to_dict()["format"])


def record_game(record: Any) -> GameSpec:
    """The registered game whose records have ``record``'s ``format``; ``ValueError`` in one
    line naming the formats there are."""
    formats = {record_format(name): spec for name, spec in GAME_SPECS.items()}
    found = record.get("format") if isinstance(record, dict) else None
    if not isinstance(found, str) or found not in formats:
        raise ValueError(f"a saved game has a format of {', '.join(map(repr, formats))}, got "
                         f"{found!r}")
    return formats[found]


def load_record(record: Any) -> tuple[GameSpec, Any]:
    """The game ``record`` belongs to and the game it saved, loaded by that game's
    ``from_dict`` (digest and replay checked); ``ValueError`` in one line saying what is
    wrong with it."""
    spec = record_game(record)
    return spec, type(spec.start(spec.min_players)).from_dict(record)


def replay_to(record: dict[str, Any], steps: int) -> Any:
    """The game of ``record`` (loaded by ``load_record`` before: this replays without the
    checks) after its first ``steps`` inputs: a decision's action or a chance node's dice,
    each applied where the game is at."""
    spec = record_game(record)
    game = type(spec.start(spec.min_players)).record_start(record)
    for item in record["history"][:steps]:
        if game.is_chance_node():
            game.apply_chance(item)
        else:
            game.apply_action(item)
    return game

"""Perudo as OpenSpiel Python games, so OpenSpiel's algorithms (CFR, MCTS, exploitability) run.

Importing ``pagadores_env.integrations.openspiel`` registers two games with
``pyspiel.register_game``:

- ``python_perudo``: the whole game, parameters ``players`` (2–6, default 2) and ``dice``
  (1–5 per player, default 5), as ``perudo.engine.Game(players, dice)`` (P1–P7);
- ``python_perudo_small``: 2 players with 1 die each, the one-round game that
  ``perudo.exact`` solves (its exploitability numbers are OpenSpiel's for this game); it takes
  ``{"players": 2}`` (and nothing else), as OpenSpiel's stock CFR examples pass it.

The state wraps ``perudo.engine.Game``, so every rule has one home. Chance rolls one die per chance
node, seat by seat in seat order (seats that are out roll none): chance actions 0–5 are faces
1–6, each with probability 1/6 (P7.1); once the round's dice are all rolled the engine takes
them (``apply_roll``, P2.1). Player actions are the contract's 181 ids (0 = dudo). Returns are
the engine's: +1 for the winner, -1 for everyone else (P7.3), so the 2-player game is zero-sum
and OpenSpiel's ``exploitability`` is ``(BR0 + BR1) / 2`` as in ``perudo.exact``.

Information state string (perfect recall, P7.2): the player's seat, every round's public
actions, the dice of every finished round (revealed at its dudo, P4.1) and the player's own
dice of the round in play. Observation tensor: the environments' observation vector
(``perudo.observation.encode``); observation string: the player's dice, every seat's dice count and
the bid to beat.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from ...core.checks import check_int
from ...perudo.engine import Game
from ...perudo.observation import OBS_SIZE, SLICES, encode
from ...perudo.rules import FACES, MAX_DICE, MAX_PLAYERS, NUM_ACTIONS, describe_action
from .common import Box, check_chance, game_type

SHORT_NAME = "python_perudo"
SMALL_NAME = "python_perudo_small"
DEFAULTS = {"players": 2, "dice": MAX_DICE}
#: The small game's one parameter, which OpenSpiel's stock CFR and MCCFR examples pass.
SMALL_DEFAULTS = {"players": 2}


def _perudo_type(short_name: str, long_name: str, utility: Any,
                 parameters: dict[str, int]) -> pyspiel.GameType:
    return game_type(short_name, long_name, pyspiel.GameType.Information.IMPERFECT_INFORMATION,
                     utility, MAX_PLAYERS, parameters)


def max_game_length(players: int, dice: int) -> int:
    """A bound on the actions of one game, chance included: each round rolls every die in
    play, then makes at most one bid per bid action within the quantity cap (every raise
    names a later bid, P3) and one dudo; each round takes one die (P2.4)."""
    return sum(total + FACES * total + 1 for total in range(2, players * dice + 1))


class PerudoGame(pyspiel.Game):
    """``python_perudo`` (module docstring)."""

    short_name = SHORT_NAME

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        given = {**DEFAULTS, **(params or {})}
        players = check_int("players", given["players"], 2, MAX_PLAYERS)  # P1.1
        dice = check_int("dice", given["dice"], 1, MAX_DICE)  # P1.2
        # two players: zero-sum; more: one +1 and the rest -1, a constant sum of 2 - players
        utility = (pyspiel.GameType.Utility.ZERO_SUM if players == 2
                   else pyspiel.GameType.Utility.CONSTANT_SUM)
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=FACES,
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=float(2 - players),
            max_game_length=max_game_length(players, dice))
        small = self.short_name == SMALL_NAME
        parameters = SMALL_DEFAULTS if small else DEFAULTS
        super().__init__(_perudo_type(self.short_name, f"Python Perudo ({self.short_name})",
                                    utility, parameters), info,
                         {"players": players} if small else given)
        self.players, self.dice = players, dice

    def new_initial_state(self) -> PerudoState:
        """The start: the first die of round 1 is about to be rolled."""
        state = PerudoState(self)
        state._box = Box(Game(self.players, self.dice))
        return state

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> PerudoObserver:
        """The observer of information states (perfect recall) or observations."""
        return PerudoObserver(iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False),
                              params)


class SmallPerudoGame(PerudoGame):
    """``python_perudo_small``: 2 players, 1 die each. Its one parameter is ``players``, which
    must be 2: OpenSpiel's stock CFR and MCCFR examples pass ``{"players": 2}``."""

    short_name = SMALL_NAME

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        given = {**SMALL_DEFAULTS, **(params or {})}
        if set(given) != {"players"} or given["players"] != 2:
            raise ValueError(f"{SMALL_NAME} is 2 players with 1 die each: its one parameter "
                             f"is players=2, got {dict(params or {})}")
        super().__init__({"players": 2, "dice": 1})


class PerudoState(pyspiel.State):
    """A Perudo state: the engine's game and the faces rolled so far this round. Made by
    ``PerudoGame.new_initial_state`` (and OpenSpiel's clones, which copy the attributes)."""

    _box: Box[Game]

    def __init__(self, game: PerudoGame) -> None:
        super().__init__(game)
        self.faces: tuple[int, ...] = ()  # the round's dice rolled so far, in seat order

    @property
    def engine(self) -> Game:
        """The engine's game at this state."""
        return self._box.game

    def current_player(self) -> int:
        """The seat to act, or OpenSpiel's chance or terminal id."""
        if self.engine.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        if self.engine.is_chance_node():
            return pyspiel.PlayerId.CHANCE
        return self.engine.current_player

    def _legal_actions(self, player: int) -> list[int]:
        return self.engine.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Faces 1–6 of the next die as actions 0–5, each 1/6 (P7.1)."""
        return [(face, 1.0 / FACES) for face in range(FACES)]

    def _apply_action(self, action: int) -> None:
        if not self.engine.is_chance_node():
            self.engine.apply_action(action)
            return
        faces = (*self.faces, check_chance(action, FACES) + 1)
        if len(faces) < self.engine.total_dice:
            self.faces = faces
            return
        hands, at = [], 0
        for count in self.engine.dice_counts:
            hands.append(faces[at:at + count])
            at += count
        self.engine.apply_roll(tuple(hands))
        self.faces = ()

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"roll {action + 1}"
        return describe_action(action)

    def is_terminal(self) -> bool:
        """True once one player has dice left (P1.3)."""
        return self.engine.is_terminal()

    def returns(self) -> list[float]:
        """+1 for the winner, -1 for everyone else; zeros before the end (P7.3)."""
        return self.engine.returns()

    def __str__(self) -> str:
        return f"{self.engine.history}"


class PerudoObserver:
    """OpenSpiel's observer protocol (``tensor``, ``dict``, ``set_from``, ``string_from``):
    information state strings with perfect recall, else the observation vector. Without
    private information (a public observer) the player's own dice are left out."""

    def __init__(self, iig_obs_type: Any, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"the Perudo observer takes no parameters, got {params}")
        self.perfect_recall = iig_obs_type.perfect_recall
        self.private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        size = 0 if self.perfect_recall else OBS_SIZE
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor} if size else {}

    def set_from(self, state: PerudoState, player: int) -> None:
        """The observation vector of ``player`` (nothing for perfect recall)."""
        if self.perfect_recall:
            return
        self.tensor[:] = encode(state.engine, player)
        if not self.private:
            self.tensor[SLICES["my_dice"]] = 0.0

    def string_from(self, state: PerudoState, player: int) -> str:
        """The information state or the observation of ``player``, as a string."""
        game = state.engine
        if not self.perfect_recall:
            mine = game.hands[player] if game.hands and self.private else "?"
            return (f"p{player} dice {mine} counts {game.dice_counts} bid {game.bid}"
                    f"{' palifico' if game.palifico else ''}")
        parts = [f"p{player}"]
        rolls = [i for i, item in enumerate(game.history) if isinstance(item, tuple)]
        for i, item in enumerate(game.history):
            if not isinstance(item, tuple):
                parts.append(str(item))
            elif i != rolls[-1] or not game.rolled:  # a finished round: revealed (P4.1)
                parts.append(f"dice {list(item)}")
            else:
                parts.append(f"mine {item[player] if self.private else '?'}")
        return " ".join(parts)


def efg_game(game: pyspiel.Game) -> pyspiel.Game:
    """``game``'s whole tree as OpenSpiel's native extensive-form game
    (``pyspiel.load_efg_game``, Gambit's EFG format): the same players, chance
    probabilities, information states (one per information state string), actions and
    returns. OpenSpiel's C++ algorithms on a Python game call back into Python at every
    state of every iteration (about 15 s per CFR iteration on ``python_perudo_small``);
    on this copy they run at C++ speed. The tree is walked once, so this is for small games
    (``python_perudo_small``: 294,667 states, about 10 s)."""
    players = " ".join(f'"p{i}"' for i in range(game.num_players()))
    lines = [f'EFG 2 R "{game}" {{ {players} }}']
    infosets: list[dict[str, int]] = [{} for _ in range(game.num_players())]
    terminals = chances = 0
    stack = [game.new_initial_state()]
    while stack:  # depth first, children in action order (the format's node order)
        state = stack.pop()
        if state.is_terminal():
            terminals += 1
            lines.append(f't "" {terminals} "" {{ {" ".join(map(str, state.returns()))} }}')
            continue
        player = state.current_player()
        if state.is_chance_node():
            chances += 1
            outcomes = " ".join(f'"{state.action_to_string(player, a)}" {p:.17g}'
                                for a, p in state.chance_outcomes())
            lines.append(f'c "" {chances} "" {{ {outcomes} }} 0')
        else:
            known = infosets[player]
            infoset = known.setdefault(state.information_state_string(), len(known) + 1)
            names = " ".join(f'"{state.action_to_string(player, a)}"'
                             for a in state.legal_actions())
            lines.append(f'p "" {player + 1} {infoset} "" {{ {names} }} 0')
        stack.extend(state.child(a) for a in reversed(state.legal_actions()))
    return pyspiel.load_efg_game("\n".join(lines) + "\n")


pyspiel.register_game(_perudo_type(SHORT_NAME, "Python Perudo", pyspiel.GameType.Utility
                                 .CONSTANT_SUM, DEFAULTS), PerudoGame)
pyspiel.register_game(_perudo_type(SMALL_NAME, "Python Perudo, 2 players with 1 die",
                                 pyspiel.GameType.Utility.ZERO_SUM, SMALL_DEFAULTS),
                      SmallPerudoGame)

__all__ = ["PerudoGame", "PerudoObserver", "PerudoState", "SmallPerudoGame", "efg_game"]

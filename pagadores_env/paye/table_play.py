"""Players that play a table of choices computed by the exact yardstick (``exact``), reading
the position from the observation alone (``observation.decode``): the exact players of
``pagadores_agents.paye`` and the best response of ``exact.best_response``.

A base-game table holds, per layer ``(round, turn)``, the die chosen at every position as a
flat int8 array in the layers' order (``layers``: C order over the scores of the player to
move and the seats after it clockwise, which is the observation's slot order). An expansion
table (2 players, ``expansion``) holds the red choice per ``(round, turn, aside)`` and the
blue choice per ``(round, turn, aside, red)``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from ..core.policies import BasePolicy
from .engine import Game
from .observation import OBS_SIZE, SLICES, decode, encode
from .rules import BLUE_FROM, NUM_ACTIONS, TARGETS

Layer = tuple[int, int]
AsideKey = tuple[int, int, tuple[int, ...]]
BlueKey = tuple[int, int, tuple[int, ...], int]


def position_index(scores: np.ndarray, num_players: int, target: int) -> np.ndarray:
    """The flat index of each row's position in a layer (``scores`` in slot order)."""
    powers = target ** np.arange(num_players - 1, -1, -1, dtype=np.int64)
    return scores[:, :num_players] @ powers


class _Table(BasePolicy):
    """What both table players share: the table's facts and the checks of a row."""

    variant = "base"
    #: the fields that are the same at every position of one game: the rows are checked
    #: against this table's values of them at once
    STATIC = ("present", "rounds", "expansion", "faces")

    def __init__(self, num_players: int, dice: tuple[tuple[int, ...], ...], rounds: int,
                 name: str, seed: int | None = None) -> None:
        super().__init__(seed)
        self.num_players, self.dice, self.rounds, self.name = num_players, dice, rounds, name
        self.target = TARGETS[self.variant]
        self._static = np.concatenate([np.arange(SLICES[f].start, SLICES[f].stop)
                                       for f in self.STATIC])
        game = Game(num_players, self.variant, dice, rounds, first_player=0)
        self._expected = encode(game, 0)[self._static]

    def check_table(self, num_players: int, cards: int | Sequence[int]) -> None:
        """``ValueError`` unless the table has this table's number of players."""
        if num_players != self.num_players:
            raise ValueError(f"{self.name!r} plays the {self.num_players}-player table it was "
                             f"computed for, got {num_players} players")

    def _positions(self, obs: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Each row's position in the table: its index in the layer, its round and turn;
        ``ValueError`` in one line for a row of another game or not the player to move's."""
        rows = np.asarray(obs, dtype=np.float32).reshape(-1, OBS_SIZE)
        mover = rows[:, SLICES["mover"]]
        wrong = (rows[:, self._static] != self._expected).any(axis=1) | (mover[:, 0] != 1)
        if wrong.any():
            row = int(np.argmax(wrong))
            view = decode(rows[row])
            raise ValueError(
                f"{self.name!r} plays the {self.num_players}-player {self.variant} game of "
                f"{self.rounds} rounds with the dice it was computed for, at its own turn; "
                f"row {row} is {int(view.players)} players, {int(view.rounds)} rounds, "
                f"{'expansion' if view.expansion else 'base'}, "
                f"{'its turn' if view.mover == 0 else 'not its turn'}")
        n = self.num_players
        scores = np.rint(rows[:, SLICES["scores"]][:, :n] * self.target).astype(np.int64)
        round_ = np.rint(rows[:, SLICES["round"]][:, 0] * self.rounds).astype(np.int64)
        turn = (-rows[:, SLICES["first"]].argmax(axis=1)) % n  # I am slot 0 (mover)
        return position_index(scores, n, self.target), round_, turn

    def act(self, obs: np.ndarray, mask: np.ndarray) -> int:
        """The table's action at one observation."""
        return int(self.act_batch(np.reshape(obs, (1, -1)), np.reshape(mask, (1, -1)))[0])


class TablePolicy(_Table):
    """Plays a base-game table of choices (module docstring)."""

    def __init__(self, num_players: int, dice: tuple[tuple[int, ...], ...], rounds: int,
                 choices: Mapping[Layer, np.ndarray], name: str = "table",
                 seed: int | None = None) -> None:
        super().__init__(num_players, dice, rounds, name, seed)
        self.choices = choices

    def act_batch(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """The table's actions at rows of observations."""
        index, round_, turn = self._positions(obs)
        actions = np.empty(len(index), dtype=np.int64)
        layers = round_ * self.num_players + turn
        for key in np.unique(layers):
            rows = layers == key
            layer = (int(key) // self.num_players, int(key) % self.num_players)
            actions[rows] = self.choices[layer][index[rows]]
        return actions


class ExpansionTablePolicy(_Table):
    """Plays an expansion table of red and blue choices (module docstring)."""

    variant = "expansion"

    def __init__(self, num_players: int, dice: tuple[tuple[int, ...], ...], rounds: int,
                 red: Mapping[AsideKey, np.ndarray], blue: Mapping[BlueKey, np.ndarray],
                 name: str = "table", seed: int | None = None) -> None:
        super().__init__(num_players, dice, rounds, name, seed)
        self.red, self.blue = red, blue

    def act_batch(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """The table's actions at rows of observations."""
        index, rounds, turns = self._positions(obs)
        view = decode(np.asarray(obs).reshape(-1, OBS_SIZE))
        actions = np.empty(len(index), dtype=np.int64)
        # one table per (round, turn, dice aside, red die at a blue choice): its rows at once
        bits = view.aside.astype(np.int64) @ (1 << np.arange(NUM_ACTIONS))
        red = np.where(view.blue_choice, view.chosen, -1) + 1  # 0: a red choice
        code = ((rounds * self.num_players + turns) << NUM_ACTIONS | bits) * (NUM_ACTIONS + 1) \
            + red
        keys, inverse = np.unique(code, return_inverse=True)
        for k, key in enumerate(keys.tolist()):
            layer, chosen = divmod(key, NUM_ACTIONS + 1)
            round_, turn = divmod(layer >> NUM_ACTIONS, self.num_players)
            aside = tuple(a for a in range(NUM_ACTIONS) if layer >> a & 1)
            chosen -= 1
            table = (self.blue[(round_, turn, aside, chosen)] if chosen >= 0
                     else self.red[(round_, turn, aside)])
            rows = inverse == k
            actions[rows] = table[index[rows]]
        legal = np.asarray(mask).reshape(len(index), NUM_ACTIONS)
        if not legal[np.arange(len(index)), actions].all():
            raise ValueError(f"{self.name!r} found its choice masked: the rows are not "
                             f"positions of this game (a blue die is due from {BLUE_FROM})")
        return actions

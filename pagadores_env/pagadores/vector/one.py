"""One game on the compiled rules kernel, for the envs that play one game at a time.

The PettingZoo env and the Gymnasium env take a decision at every agent step, so a step's cost
is what their users feel. ``OneGame`` keeps a single game as one row of the kernel's packed state
(``kernel``'s layout) and plays it with ``kernel.play`` and ``kernel.observe_one``: the same
transitions as ``VectorGame`` and, pinned by the differential test, as ``engine.Game``.

What the kernel does not keep — the event log (info events, human-mode news), the text table
and the picture, the saved form — ``game`` gives: an ``engine.Game`` rebuilt from the throws
and decisions this game received, replaying only the inputs that are new since it was last
read. Driving a game on both and comparing them is how the tests check the kernel here too.
"""

from __future__ import annotations

import numpy as np

from ...core.seats import placements
from ..dice import DiceStream
from ..engine import Action, Game
from ..observation import OBS_SIZE
from ..rules import THROWS
from . import kernel
from .kernel import (
    CARDS,
    ELIMINATIONS,
    OUT,
    OVER,
    PHASE,
    PLAY_NEED_DICE,
    SEAT,
    START_FIRST,
    START_WIDTH,
    WIDTH,
)


class OneGame:
    """A game of ``num_players`` seats from the start position ``start_cards`` (one count per
    seat, as ``Game.start_cards``), first insteker ``first_insteker``, thrown with ``dice``.
    The caller checks the position (``engine.Game`` does); ``play`` takes it to its first
    decision.

    The game records its throws as pieces of the stream's blocks. A new game on the same
    stream closes the previous game's record (``dice.owner``), so a game left unfinished for a
    new one keeps exactly the throws it had."""

    __slots__ = ("num_players", "state", "dice", "decider", "decisions", "_obs", "_start",
                 "_pieces", "_block", "_from", "_actions", "_game", "_replayed")

    def __init__(self, num_players: int, start_cards: tuple[int, ...], dice: DiceStream,
                 first_insteker: int = 0) -> None:
        kernel.check_caches()  # a damaged disk cache compiles again (once per process)
        self.num_players = num_players
        self.dice = dice
        self.decider = -1  # the seat to decide, -1 when no decision is pending
        self.decisions = 0  # decisions taken so far
        self._obs = np.zeros(OBS_SIZE, np.float32)  # the decider's observation
        self._start = (num_players, start_cards, first_insteker)
        self.state = np.zeros((1, WIDTH), kernel.STATE_DTYPE)
        starts = np.zeros((1, START_WIDTH), np.int64)
        starts[0, CARDS:CARDS + num_players] = start_cards
        starts[0, START_FIRST] = first_insteker
        kernel.restart(self.state, 0, starts, num_players)
        previous = dice.owner
        if previous is not None:
            previous._close()
        dice.owner = self
        # the dice thrown: the closed pieces, then _block[_from:] up to the stream's cursor
        # (_block None once closed)
        self._pieces: list[np.ndarray] = []
        self._block: np.ndarray | None = dice.outcomes
        self._from = int(dice.cursor[0])
        self._actions: list[int] = []  # the decisions, in order
        self._game: Game | None = None  # built when first read
        self._replayed = (0, 0)  # throws and decisions _game has had

    def play(self, action: int = -1, watched: int = -1) -> int:
        """Apply ``action`` (0 stop or 1 throw again, a plain ``int``: -1 for none) at a
        decision node, then throw until the game waits at a decision node, is over, or seat
        ``watched`` (if >= 0) holds no cards. Returns ``decider``."""
        dice = self.dice
        if action >= 0:
            self._actions.append(action)
            self.decisions += 1
        while True:
            seat = kernel.play(self.state, action, dice.outcomes, dice.cursor, self.num_players,
                               watched, self._obs)
            if seat != PLAY_NEED_DICE:
                self.decider = seat
                return seat
            self._pieces.append(dice.outcomes[self._from:])
            dice.refill()
            self._block = dice.outcomes
            self._from = 0
            action = -1

    def _close(self) -> None:
        """Another game throws from the stream now: keep this one's throws as they are."""
        if self._block is not None:
            self._pieces.append(self._block[self._from:int(self.dice.cursor[0])])
            self._block = None

    def observe(self, seat: int) -> np.ndarray:
        """The float32 observation of ``seat``, as ``observation.encode`` gives it."""
        if seat == self.decider:  # written by play
            return self._obs.copy()
        obs = np.zeros(OBS_SIZE, np.float32)
        kernel.observe_one(self.state, seat, self.num_players, obs)
        return obs

    @property
    def over(self) -> bool:
        """One player has cards left (R1.5)."""
        return bool(self.state[0, PHASE] == OVER)

    @property
    def eliminations(self) -> int:
        """Elimination batches so far (``Game.eliminations``)."""
        return int(self.state[0, ELIMINATIONS])

    def out(self, seat: int) -> bool:
        """``seat`` holds no cards any more (R1.4)."""
        return bool(self.state[0, OUT + seat])

    def placements(self) -> list[int]:
        """Final place per seat, as ``Game.placements``."""
        n = self.num_players
        return placements(self.state[0, OUT:OUT + n].tolist(), self.eliminations)

    def thrown(self) -> list[int]:
        """The ordered outcomes thrown so far, in order."""
        pieces = self._pieces
        if self._block is not None:
            pieces = [*pieces, self._block[self._from:int(self.dice.cursor[0])]]
        return [int(o) for piece in pieces for o in piece]

    @property
    def game(self) -> Game:
        """This game as an ``engine.Game``, with its history and event log: the one kept from
        the last read, given the inputs since; built afresh if whoever read it changed it.
        Raises ``RuntimeError`` if it and the kernel do not end in the same state (a bug in
        one of them)."""
        game = self._game
        thrown, done = self._replayed
        if game is None or len(game.history) != thrown + done:  # new, or changed by its reader
            game, thrown, done = Game(*self._start), 0, 0
        throws = self.thrown()
        actions = iter(self._actions[done:])
        try:
            for outcome in throws[thrown:]:  # a throw comes next unless a decision is pending
                while game.decision:
                    game.apply_action(Action(next(actions)))
                game.apply_throw(THROWS[outcome])
            for action in actions:
                game.apply_action(Action(action))
        except (ValueError, StopIteration):  # IllegalMoveError is a ValueError
            pass  # the check below names the disagreement
        state = self.state[0]
        n = self.num_players
        if (game.cards != state[CARDS:CARDS + n].tolist() or game.current_player != state[SEAT]
                or (self.decider >= 0) != game.decision
                or len(game.history) != len(throws) + len(self._actions)):
            if thrown + done:  # maybe its reader changed it in place: replay it all once
                self._game = None
                return self.game
            raise RuntimeError(
                f"the compiled kernel and engine.Game disagree after the same inputs: "
                f"{game!r} against the kernel's cards {state[CARDS:CARDS + n].tolist()}, "
                f"seat {state[SEAT]}")
        self._game = game
        self._replayed = (len(throws), len(self._actions))
        return game

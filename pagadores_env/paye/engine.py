"""Paye's dobbelspel as a state machine with explicit chance nodes (rule ids Y1–Y8 of the
Paye rules contract), both variants.

``Game`` follows the game protocol (``core.protocol.GameState``). Every throw of a die is a
**chance node** of its own: the start throws of the traditional die (Y2.1, one per throw, ties
thrown again among the tied) unless the first player is given, and each turn's throws (Y3.2:
the chosen die twice; in the expansion the red die twice, then the blue die twice, Y6.3,
Y6.6). ``chance_outcomes()`` lists the distinct faces of the die thrown next, each with
probability multiplicity / 6, and ``apply_chance(value)`` applies one face value. A
**decision node** is a die choice: the special die (Y3.1), in the expansion the red die and,
where due, the blue die (Y6.3), ``legal_actions()`` and ``apply_action`` (Y7). A point with a
single legal action is no decision (Y7.3): the engine applies it and logs it as ``forced``.
No randomness lives here: whoever drives the game chooses the dice.

Every input (face values and actions, plain ints: the node says which) is appended to
``history`` and every transition to ``log``, so ``to_dict``/``from_dict`` rebuild a game
exactly by replaying it (``core.records``). Illegal calls raise ``core.errors.IllegalMoveError``
in one line before anything changes.

===========  ======================  ===================================================
event        seat                    value
===========  ======================  ===================================================
start_throw  the thrower (Y2.1)      the face of the traditional die
rethrow      -1                      the seats tied for the highest throw, who throw again
first        the first player        0 (Y2.1; also when given, Y2.3)
round        the first player        the round number that starts (Y2.2)
turn         the player to move      the turn within the round, 0 … n-1
choose       the player              the action (die) chosen (Y3.1, Y6.3, Y7)
forced       the player              the only legal action, applied by the engine (Y7.3)
throw        the player              ``(action of the die, face)`` (Y3.2, Y6.3)
points       the player              the turn's points (red minus blue in the expansion)
halve        the player              ``(total, halved)`` for each halving (Y3.3)
score        the player              ``(before, after)`` (Y3.3, Y3.4)
aside        the player              the actions of the dice set aside (Y6.4)
win          each winner             how many share the win (Y4.1, Y4.3, Y4.4)
===========  ======================  ===================================================
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..core import checks
from ..core.errors import IllegalMoveError
from ..core.protocol import Event
from ..core.records import Replayable, check_record, replay_record, seal
from ..core.rewards import final_reward
from .rules import (
    BASE_ACTIONS,
    BLUE_FROM,
    NUM_ACTIONS,
    ROUNDS,
    TARGETS,
    TRADITIONAL,
    as_action,
    check_aside,
    check_dice,
    check_players,
    check_rounds,
    check_variant,
    describe_action,
    die_faces,
    legal_blue,
    legal_red,
    outcomes,
    settle,
)

FORMAT = "paye-game"
FORMAT_VERSION = 1

#: The phases of a game: who acts next.
START, CHOOSE, BLUE_CHOICE, THROW, OVER = "start", "choose", "blue", "throw", "over"


class Game(Replayable):
    """A game of Paye's dobbelspel for 2–6 players (Y1.1), ``variant`` ``"base"`` (target 50)
    or ``"expansion"`` (target 100, Y6), with the special dice ``dice`` (six lists of six
    faces; default Y1.3) and at most ``rounds`` rounds (Y2.2).

    Without ``first_player`` the game starts with the start throws (Y2.1); with it, from the
    given position (Y2.3): ``scores`` per seat (0 … target-1, default all 0), ``round``
    (1 … rounds), ``turn`` within the round (0 … n-1; the player to move is ``first_player +
    turn``) and, in the expansion, ``aside``, the dice set aside this round by action id
    (exactly ``turn`` red ones, at most ``turn`` blue ones). Anything else raises
    ``ValueError`` in one line.
    """

    __slots__ = (
        "num_players", "variant", "dice", "rounds", "target", "start", "scores", "round",
        "turn", "first", "phase", "contenders", "start_throws", "red", "blue", "blue_due",
        "thrown", "aside", "winners", "history", "log",
    )
    IDENTITY = ("num_players", "variant", "dice", "rounds", "start", "history")

    def __init__(self, num_players: int, variant: str = "base",
                 dice: Sequence[Sequence[int]] | None = None, rounds: int = ROUNDS,
                 first_player: int | None = None, scores: Sequence[int] | None = None,
                 round: int = 1, turn: int = 0,
                 aside: Sequence[int] | None = None) -> None:
        n = self.num_players = check_players(num_players)
        self.variant = check_variant(variant)
        self.dice = check_dice(dice)
        self.rounds = check_rounds(rounds)
        self.target = TARGETS[self.variant]
        first = None if first_player is None else checks.check_int("first_player",
                                                                   first_player, 0, n - 1)
        start_scores = self._check_scores(scores)
        start_round = checks.check_int("round", round, 1, self.rounds)
        start_turn = checks.check_int("turn", turn, 0, n - 1)
        if self.variant == "base":
            if aside:
                raise ValueError(f"aside is for the expansion only (Y6.4); the base game "
                                 f"sets no dice aside, got {aside!r}")
            start_aside: tuple[int, ...] = ()
        else:
            start_aside = check_aside(aside, start_turn)
        #: the start position (Y2.3): first player (None: thrown for), scores, round, turn,
        #: dice aside
        self.start = (first, start_scores, start_round, start_turn, start_aside)
        self.scores = list(start_scores)
        self.round, self.turn, self.aside = start_round, start_turn, start_aside
        self.first: int | None = None
        self.contenders: tuple[int, ...] = tuple(range(n))
        self.start_throws: tuple[int, ...] = ()
        self.red: int | None = None
        self.blue: int | None = None
        self.blue_due = False
        self.thrown: tuple[int, ...] = ()
        self.winners: tuple[int, ...] = ()
        self.history: list[int] = []
        self.log: list[Event] = []
        self.phase = START
        if first is not None:
            self._begin(first)

    def _check_scores(self, scores: Any) -> tuple[int, ...]:
        n, top = self.num_players, self.target - 1
        if scores is None:
            return (0,) * n
        allowed = f"scores must be {n} whole numbers 0–{top}, one per seat (Y2.3)"
        if isinstance(scores, str | bytes) or not isinstance(scores, Sequence | np.ndarray) \
                or len(scores) != n:
            raise ValueError(f"{allowed}, got {scores!r}")
        for score in scores:
            if isinstance(score, bool | np.bool_) or not isinstance(score, int | np.integer) \
                    or not 0 <= score <= top:
                raise ValueError(f"{allowed}, got {list(scores)!r}")
        return tuple(int(s) for s in scores)

    # ------------------------------------------------------------------ queries
    @property
    def mover(self) -> int:
        """The seat whose turn it is (Y2.2); -1 before the first player is known."""
        return -1 if self.first is None else (self.first + self.turn) % self.num_players

    @property
    def current_player(self) -> int:
        """The seat to choose a die; -1 at a chance node and once the game is over."""
        return self.mover if self.phase in (CHOOSE, BLUE_CHOICE) else -1

    def is_chance_node(self) -> bool:
        """True when a die is thrown next (a start throw, Y2.1, or a turn's throw, Y3.2)."""
        return self.phase in (START, THROW)

    def is_terminal(self) -> bool:
        """True once somebody hit the target or the last round is over (Y4)."""
        return self.phase == OVER

    def legal_actions(self) -> list[int]:
        """The sorted legal actions at a decision node (Y7); ``[]`` elsewhere."""
        if self.phase == CHOOSE:
            if self.variant == "base":
                return list(BASE_ACTIONS)  # Y7.1: every special die, every turn (Y3.1)
            return list(legal_red(self.aside, self.blue_due))
        if self.phase == BLUE_CHOICE:
            assert self.red is not None  # the red die is chosen first (Y6.6)
            return list(legal_blue(self.aside, self.red))
        return []

    def legal_mask(self) -> np.ndarray:
        """``legal_actions`` as an int8 mask of ``NUM_ACTIONS`` entries (zeros where nobody
        chooses)."""
        mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        mask[self.legal_actions()] = 1
        return mask

    def throw_die(self) -> int:
        """The action of the die thrown at this turn's chance node (Y3.2, Y6.6): the red (or
        base) die twice, then the blue die twice; -1 elsewhere."""
        if self.phase != THROW:
            return -1
        assert self.red is not None  # chosen before any throw (Y6.6)
        return self.red if len(self.thrown) < 2 else self.blue  # type: ignore[return-value]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The outcomes of the throw that comes next: the distinct faces of the die thrown,
        ascending, each with probability multiplicity / 6 (Y5.1). A decision or terminal
        node raises ``IllegalMoveError``."""
        return list(outcomes(self.faces_to_throw()))

    def faces_to_throw(self) -> tuple[int, ...]:
        """The six faces of the die thrown next (the traditional die at a start throw), for
        whoever throws it; ``IllegalMoveError`` at a decision or terminal node."""
        if self.phase == START:
            return TRADITIONAL
        if self.phase == THROW:
            return die_faces(self.dice, self.throw_die())
        if self.phase == OVER:
            raise IllegalMoveError("the game is over: no more throws (Y4)")
        what = "a blue die" if self.phase == BLUE_CHOICE else "a die"
        raise IllegalMoveError(f"seat {self.mover} chooses {what} first (a decision node): "
                               f"apply_action(one of {self.legal_actions()}), not a throw")

    def alive(self) -> list[int]:
        """Every seat: nobody is ever eliminated (Y1.1)."""
        return list(range(self.num_players))

    def placements(self) -> list[int]:
        """Place per seat by score (1 = highest), seats with equal scores sharing the best
        place they span (Y4.4); at the end the winners are first."""
        return [1 + sum(other > mine for other in self.scores) for mine in self.scores]

    def returns(self) -> list[float]:
        """Once over: 2/k - 1 for each of the k seats sharing the win, -1 for everyone else
        (Y4.4, ``core.rewards``' "win"); zeros before."""
        if self.phase != OVER:
            return [0.0] * self.num_players
        k = len(self.winners)
        return [final_reward("win", 1 if s in self.winners else 2, self.num_players, k)
                for s in range(self.num_players)]

    # ------------------------------------------------------------------ inputs
    def apply_chance(self, outcome: Any) -> None:
        """Apply one throw: ``outcome`` is a face value of the die thrown next
        (``chance_outcomes``)."""
        faces = self.faces_to_throw()
        if isinstance(outcome, bool | np.bool_) or not isinstance(outcome, int | np.integer) \
                or outcome not in faces:
            die = ("the traditional die" if self.phase == START
                   else describe_action(self.throw_die(), self.variant))
            raise IllegalMoveError(f"a throw of {die} must be one of its faces "
                                   f"{sorted(set(faces))}, got {outcome!r}")
        value = int(outcome)
        self.history.append(value)
        if self.phase == START:
            self._start_throw(value)
        else:
            self._turn_throw(value)

    def apply_action(self, action: Any) -> None:
        """Apply the current player's choice of die (Y3.1, Y6.3; encoding Y7)."""
        if self.phase not in (CHOOSE, BLUE_CHOICE):
            if self.phase == OVER:
                raise IllegalMoveError("the game is over: no more actions (Y4)")
            raise IllegalMoveError("a die is thrown next (a chance node): apply_chance(face), "
                                   "not an action")
        try:
            action = as_action(action)
        except ValueError as err:
            raise IllegalMoveError(str(err)) from None
        legal = self.legal_actions()
        if action not in legal:
            what = "blue die" if self.phase == BLUE_CHOICE else (
                "die" if self.variant == "base" else "red die")
            raise IllegalMoveError(
                f"seat {self.mover} cannot choose {describe_action(action, self.variant)} as "
                f"its {what}; allowed: {', '.join(map(str, legal))} "
                f"({', '.join(describe_action(a, self.variant) for a in legal)})")
        self.history.append(action)
        self._choose(action, "choose")

    # ------------------------------------------------------------------ transitions
    def _start_throw(self, value: int) -> None:
        """Y2.1: the contenders throw in seat order; ties for the highest throw again."""
        seat = self.contenders[len(self.start_throws)]
        self.start_throws += (value,)
        self.log.append(Event("start_throw", seat, value))
        if len(self.start_throws) < len(self.contenders):
            return
        best = max(self.start_throws)
        tied = tuple(s for s, v in zip(self.contenders, self.start_throws, strict=True)
                     if v == best)
        if len(tied) > 1:
            self.log.append(Event("rethrow", -1, tied))
            self.contenders, self.start_throws = tied, ()
            return
        self._begin(tied[0])

    def _begin(self, first: int) -> None:
        """Play starts with ``first`` as the first player of every round (Y2.2)."""
        self.first = first
        self.log.append(Event("first", first, 0))
        self.log.append(Event("round", first, self.round))
        self._start_turn()

    def _start_turn(self) -> None:
        seat = self.mover
        self.phase = CHOOSE
        self.red = self.blue = None
        self.thrown = ()
        self.blue_due = self.variant == "expansion" and self.scores[seat] >= BLUE_FROM  # Y6.3
        self.log.append(Event("turn", seat, self.turn))
        self._force()

    def _force(self) -> None:
        """Y7.3: a choice with one legal action is applied by the engine."""
        legal = self.legal_actions()
        if len(legal) == 1:
            self._choose(legal[0], "forced")

    def _choose(self, action: int, kind: str) -> None:
        self.log.append(Event(kind, self.mover, action))
        if self.phase == CHOOSE:
            self.red = action
            if self.blue_due:
                self.phase = BLUE_CHOICE  # Y6.6: the blue choice is a decision of its own
                self._force()
                return
        else:
            self.blue = action
        self.phase = THROW

    def _turn_throw(self, value: int) -> None:
        seat = self.mover
        self.log.append(Event("throw", seat, (self.throw_die(), value)))
        self.thrown += (value,)
        if len(self.thrown) < (4 if self.blue is not None else 2):
            return
        red = self.thrown[0] + self.thrown[1]
        points = red - (self.thrown[2] + self.thrown[3] if self.blue is not None else 0)
        before = self.scores[seat]
        after, halved = settle(before, points, self.target)  # Y3.3, Y3.4
        self.log.append(Event("points", seat, points))
        for total in halved:
            self.log.append(Event("halve", seat, (total, total // 2)))
        self.log.append(Event("score", seat, (before, after)))
        self.scores[seat] = after
        if self.variant == "expansion":  # Y6.4
            dice = (self.red,) if self.blue is None else (self.red, self.blue)
            self.aside = tuple(sorted(self.aside + dice))  # type: ignore[operator]
            self.log.append(Event("aside", seat, dice))
        if after == self.target:  # Y4.1: an exact hit wins at once
            self._end((seat,))
            return
        self.turn += 1
        if self.turn < self.num_players:
            self._start_turn()
            return
        if self.round == self.rounds:  # Y4.3, Y4.4: the highest score wins, ties share
            best = max(self.scores)
            self._end(tuple(s for s, v in enumerate(self.scores) if v == best))
            return
        self.round += 1
        self.turn = 0
        self.aside = ()  # Y6.4: every die returns to the middle
        self.log.append(Event("round", self.mover, self.round))  # turn 0: the first player
        self._start_turn()

    def _end(self, winners: tuple[int, ...]) -> None:
        self.phase = OVER
        self.winners = winners
        self.red = self.blue = None
        self.thrown = ()
        for seat in winners:
            self.log.append(Event("win", seat, len(winners)))

    # ------------------------------------------------------------------ copies and files
    def snapshot(self) -> dict[str, Any]:
        """The state as plain JSON data (checked by ``from_dict``)."""
        return {
            "phase": self.phase,
            "scores": list(self.scores),
            "round": self.round,
            "turn": self.turn,
            "first_player": self.first,
            "contenders": list(self.contenders),
            "start_throws": list(self.start_throws),
            "red": self.red,
            "blue": self.blue,
            "thrown": list(self.thrown),
            "aside": list(self.aside),
            "current_player": self.current_player,
            "winners": list(self.winners),
        }

    def to_dict(self) -> dict[str, Any]:
        """Exact JSON-ready form: the rules' parameters, the start position, every input so
        far, a snapshot, and a ``digest`` of all of it (``core.records.seal``), so any change
        to a saved game is detected on loading."""
        first, scores, round_, turn, aside = self.start
        record = {
            "format": FORMAT,
            "version": FORMAT_VERSION,
            "num_players": self.num_players,
            "variant": self.variant,
            "dice": [list(die) for die in self.dice],
            "rounds": self.rounds,
            "start": {"first_player": first, "scores": list(scores), "round": round_,
                      "turn": turn, "aside": list(aside)},
            "history": list(self.history),
            "state": self.snapshot(),
        }
        return seal(record)

    @classmethod
    def record_start(cls, data: Any) -> Game:
        """The game at the start of the saved game ``data``, before its first input: its
        envelope checked (``core.records.check_record``), its history not replayed (where a
        replay of it begins; ``from_dict`` replays it). ``ValueError`` as ``from_dict``."""
        check_record(data, FORMAT, (FORMAT_VERSION,),
                     lambda _: {"format", "version", "num_players", "variant", "dice",
                                "rounds", "start", "history", "state", "digest"})
        start, history = data["start"], data["history"]
        keys = {"first_player", "scores", "round", "turn", "aside"}
        if not isinstance(start, dict) or start.keys() != keys:
            raise ValueError(f"start must be a dict with keys {sorted(keys)}")
        if not isinstance(history, list):
            raise ValueError("history must be a list of face values and actions")
        return cls(data["num_players"], data["variant"], data["dice"], data["rounds"],
                   start["first_player"], start["scores"], start["round"], start["turn"],
                   start["aside"])

    @classmethod
    def from_dict(cls, data: Any) -> Game:
        """Rebuild a game from ``to_dict`` output by replaying its history.

        Raises ``ValueError`` naming the first thing that is wrong: not a saved Paye game, a
        missing or unknown key, a digest that does not match the record (any edit or
        corruption), a bad start position, an input the rules do not allow at that point,
        or a snapshot that does not match the replayed game.
        """
        game = cls.record_start(data)

        def apply(item: Any) -> None:
            if game.is_chance_node():
                game.apply_chance(item)
            else:
                game.apply_action(item)

        replay_record(data["history"], apply, data["state"], game.snapshot)
        return game

    def __repr__(self) -> str:
        return (f"paye.Game(num_players={self.num_players}, variant={self.variant!r}, "
                f"scores={self.scores}, round={self.round}, turn={self.turn}, "
                f"phase={self.phase!r}, current_player={self.current_player})")

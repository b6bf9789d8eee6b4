"""The game of Dados de Pagadores as a state machine with explicit chance nodes.

``Game`` follows OpenSpiel's shape: a state is either a **chance node** (the seat in
``current_player`` is about to throw; ``chance_outcomes()`` lists the 56 throws with their
probabilities and ``apply_throw(dice)`` applies one) or a **decision node** (the seat has just
thrown and has throws left; ``legal_actions()`` is ``[STOP, THROW]`` and ``apply_action(a)``
applies one) or **terminal**. No randomness lives here: whoever drives the game (the
PettingZoo env, a solver, a test) chooses the dice.

Rule ids (R1…R7) refer to the project's rules contract; ``docs/rules/pagadores.md`` explains
them.

Every transition appends ``core.protocol.Event`` records to ``Game.log`` so a reader can
follow what happened, and every input to ``Game.history`` so ``to_dict``/``from_dict`` can
rebuild the state exactly by replaying it (``core.records``). Illegal calls raise
``core.errors.IllegalMoveError`` (a ``ValueError``) before anything changes. ``Game`` follows
the game protocol (``core.protocol.GameState``). The events (``seat`` -1 where no single seat
is meant):

========  ======================  =============================================
kind      seat                    value
========  ======================  =============================================
round     the insteker            the round number (1-based) that starts
throw     the thrower             sorted dice ``(a, b, c)``
special   the thrower             ``((victim, cards lost), ...)`` (R4.1, R5.2)
picaro    the thrower             cards the thrower lost (R4.4)
again     the decider             throws used so far (chose to throw again)
stop      the decider             throws used (chose to stop)
limit     the insteker            the round's throw limit (R3.2)
score     the player              strength of their final throw (R3.3)
kampen    -1                      the seats in the kampen, in throwing order (R5)
loses     the round's loser       cards lost (R3.5, R5.3)
out       the eliminated seat     0 (R1.4, R6)
winner    the winner              0 (R1.5)
========  ======================  =============================================
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from enum import IntEnum
from typing import Any, cast

import numpy as np

from ..core.checks import as_int
from ..core.errors import IllegalMoveError
from ..core.protocol import Event
from ..core.records import Replayable, check_record, replay_record, seal
from ..core.seats import placements
from .rules import (
    CHANCE_OUTCOMES,
    MAX_THROWS,
    PICARO_LOSS,
    ROUND_LOSS,
    Kind,
    Throw,
    check_table,
    classify,
    next_insteker,
    special_hits,
    throw_of_strength,
    throws_allowed,
    turn_order,
)

FORMAT = "pagadores-game"
#: Version 2 adds ``digest``; version 1 files (no digest) still load, checked by replay only.
FORMAT_VERSION = 2
READABLE_VERSIONS = (1, 2)


class Action(IntEnum):
    """The only decision in the game (R3.6): after a throw with throws left."""

    STOP = 0
    THROW = 1


class Phase:
    """Where the game is. ``ROUND``: players take turns (R3); ``KAMPEN``: a tie is being
    settled by single throws (R5); ``OVER``: one player has cards left (R1.5)."""

    ROUND = "round"
    KAMPEN = "kampen"
    OVER = "over"


HistoryItem = int | tuple[int, int, int]


class Game(Replayable):
    """A game of Dados de Pagadores for 2–6 players (R1.1).

    ``cards`` is either one number of cards for everyone (1–10, default 10) or one number per
    seat (0–10, at least two seats with cards) to start from a chosen position. Seat 0 is the
    oldest (R1.3) and insteeks first unless ``first_insteker`` says otherwise (R3.1).
    """

    __slots__ = (
        "num_players", "start_cards", "first_insteker",
        "cards", "out", "insteker", "round", "phase", "order", "pos", "throw_limit",
        "throws", "current", "decision", "scores", "kampen", "kampen_pos", "kampen_scores",
        "winner", "eliminations", "history", "log", "started_at_decision",
    )
    IDENTITY = ("num_players", "start_cards", "first_insteker", "history",
                "started_at_decision")
    # Set by _start_round, not __init__, so declared here for the type checker.
    insteker: int | None
    phase: str
    order: list[int]
    pos: int
    throw_limit: int | None
    throws: int
    current: Throw | None  # the latest throw of the turn in play; None before it
    decision: bool
    scores: list[int]
    kampen: list[int]
    kampen_pos: int
    kampen_scores: list[int]

    def __init__(self, num_players: int = 2, cards: int | Sequence[int] = 10,
                 first_insteker: int = 0) -> None:
        num_players, start = check_table(num_players, cards)
        first = as_int(first_insteker, "first_insteker")
        if not 0 <= first < num_players or start[first] == 0:
            raise ValueError(
                f"first_insteker must be a seat 0–{num_players - 1} that has cards, got {first}"
            )
        self.num_players = num_players
        self.start_cards = start
        self.first_insteker = first
        self.cards = list(start)
        self.out = [0 if c else 1 for c in start]  # elimination batch (1-based), 0 = still in
        self.eliminations = 1 if 0 in start else 0
        self.round = 0
        self.winner: int | None = None
        self.history: list[HistoryItem] = []
        self.log: list[Event] = []
        #: set by ``at_decision``: the game began at a decision, its history does not replay
        self.started_at_decision = False
        self._start_round(first)

    @classmethod
    def at_decision(cls, cards: Sequence[int], insteker: int, seat: int,
                    scores: Sequence[int], throw_limit: int, throws: int, strength: int
                    ) -> Game:
        """A game at ``seat``'s decision in a round, from what that seat observes (R7.1): the
        cards, the insteker, the final scores of the seats before it this round (per seat, -1
        where none), the throw limit (0 while the insteker sets it, R3.2), its throws so far
        and its current throw's strength (any throw of it, ``rules.throw_of_strength``).
        It plays on exactly like the game that reached that decision, but it has no history
        before it, so ``to_dict`` refuses it. ``ValueError`` if that is no decision."""
        game = cls(len(cards), cards, insteker)
        role = game.order.index(seat) if seat in game.order else -1
        earlier = [s for s, score in enumerate(scores) if score >= 0]
        if role < 0 or sorted(earlier) != sorted(game.order[:role]):
            raise ValueError(f"seat {seat} is at no decision of a round insteeked by seat "
                             f"{insteker} with scores {list(scores)} (the seats before it "
                             f"this round, and only they, have scores)")
        limit = throw_limit if role else 0
        if not 1 <= throws < throws_allowed(limit) or (role and not 1 <= limit <= MAX_THROWS):
            raise ValueError(f"no decision after {throws} throws with throw limit {limit} "
                             f"(R3.2, R3.6)")
        current = throw_of_strength(strength)
        if current.kind is Kind.PICARO:
            raise ValueError("a Picaro ends the round: no decision after it (R4.4)")
        game.pos, game.throws, game.current, game.decision = role, throws, current, True
        game.throw_limit = limit or None
        game.scores = list(scores)
        game.started_at_decision = True
        return game

    # ------------------------------------------------------------------ queries
    @property
    def current_player(self) -> int:
        """The seat about to throw (chance node) or decide (decision node); -1 when over."""
        if self.phase == Phase.ROUND:
            return self.order[self.pos]
        if self.phase == Phase.KAMPEN:
            return self.kampen[self.kampen_pos]
        return -1

    def is_terminal(self) -> bool:
        """True once the game is over (one player has cards left, R1.5)."""
        return self.phase == Phase.OVER

    def is_chance_node(self) -> bool:
        """True when the dice come next (``apply_throw``)."""
        return self.phase != Phase.OVER and not self.decision

    def is_decision_node(self) -> bool:
        """True when ``current_player`` decides to stop or throw again (R3.6)."""
        return self.decision

    def legal_actions(self) -> list[Action]:
        """``[STOP, THROW]`` at a decision node (R3.6), ``[]`` elsewhere."""
        return [Action.STOP, Action.THROW] if self.decision else []

    def chance_outcomes(self) -> tuple[tuple[tuple[int, int, int], float], ...]:
        """The 56 unordered throws with their probabilities (R7.2); they sum to 1. Only a
        chance node has them: elsewhere this raises, as ``apply_throw`` would."""
        if not self.is_chance_node():
            raise IllegalMoveError(self._no_throw_reason())
        return CHANCE_OUTCOMES

    @property
    def max_throws(self) -> int:
        """Throws the current player may use this turn: 3 for the insteker (R3.2), else the
        limit (R3.4); 1 in kampen (R5.1)."""
        if self.phase == Phase.KAMPEN:
            return 1
        return throws_allowed(self.throw_limit)

    def alive(self) -> list[int]:
        """Seats that still hold cards, in seat order."""
        return [s for s, c in enumerate(self.cards) if c]

    def returns(self) -> list[float]:
        """+1 for the winner and -1 for everyone else once the game is over; zeros before."""
        if self.winner is None:
            return [0.0] * self.num_players
        return [1.0 if s == self.winner else -1.0 for s in range(self.num_players)]

    def placements(self) -> list[int]:
        """Final place per seat (1 = winner); players knocked out together share a place."""
        return placements(self.out, self.eliminations)

    def score_to_beat(self) -> int:
        """The lowest final score so far this round (R3.5), -1 when nobody has one yet."""
        scored = [s for s in self.scores if s >= 0]
        return min(scored) if scored else -1

    # ------------------------------------------------------------------ inputs
    def apply_throw(self, dice: Sequence[int] | Throw) -> None:
        """Apply the current player's throw at a chance node: in a round (R3, R4) or in a
        kampen (R5)."""
        if not self.is_chance_node():
            raise IllegalMoveError(self._no_throw_reason())
        throw = dice if isinstance(dice, Throw) else _classified(dice)
        seat = self.current_player
        self.history.append(throw.dice)
        self.log.append(Event("throw", seat, throw.dice))
        if self.phase == Phase.ROUND:
            self._round_throw(seat, throw)
        else:
            self._kampen_throw(seat, throw)

    #: The core protocol's name for the dice (``core.protocol.GameState``).
    apply_chance = apply_throw

    def apply_action(self, action: int) -> None:
        """Apply STOP (0) or THROW (1) at a decision node (R3.2, R3.4)."""
        if self.is_terminal():
            raise IllegalMoveError("the game is over: no more actions (R1.5)")
        if not self.is_decision_node():
            raise IllegalMoveError(
                f"seat {self.current_player} is about to throw (chance node): "
                "apply_throw(dice), not an action"
            )
        action = as_action(action)
        seat = self.current_player
        self.history.append(int(action))  # a plain int, as JSON saves it
        if action is Action.STOP:
            self.log.append(Event("stop", seat, self.throws))
            self._end_turn(seat)
        else:
            self.log.append(Event("again", seat, self.throws))
            self.decision = False  # the same player throws again

    def _no_throw_reason(self) -> str:
        if self.decision:
            return (f"seat {self.current_player} must first decide: legal actions are "
                    "0 (stop) and 1 (throw again), not a throw")
        return "the game is over: no more throws (R1.5)"

    # ------------------------------------------------------------------ transitions
    def _start_round(self, insteker: int) -> None:
        """A new round: everyone with cards plays, clockwise from the insteker (R1.2, R3.1)."""
        self.round += 1
        self.insteker = insteker
        self.phase = Phase.ROUND
        self.order = list(turn_order(self.cards, insteker))
        self.pos = 0
        self.throw_limit = None
        self.throws = 0
        self.current = None
        self.decision = False
        self.scores = [-1] * self.num_players
        self.kampen = []
        self.kampen_pos = 0
        self.kampen_scores = []
        self.log.append(Event("round", insteker, self.round))

    def _round_throw(self, seat: int, throw: Throw) -> None:
        """A throw in a round. A Picaro ends the round (R4.4); a special takes cards from every
        other player still in (R4.1) and stops the round if it empties one (R6.2). Otherwise the
        player decides while throws are left (R3.6), and the turn ends when none are."""
        self.throws += 1
        self.current = throw
        if throw.kind is Kind.PICARO:
            self._picaro(seat)
            return
        if throw.penalty and self._special(seat, throw.penalty, self.alive()):
            return
        if self.throws < self.max_throws:
            self.decision = True
        else:
            self._end_turn(seat)

    def _kampen_throw(self, seat: int, throw: Throw) -> None:
        if throw.kind is Kind.PICARO:  # R5.2
            self._picaro(seat)
            return
        if throw.penalty and self._special(seat, throw.penalty, self.kampen):  # R5.2
            return
        self.kampen_scores.append(throw.strength)
        self.kampen_pos += 1
        if self.kampen_pos == len(self.kampen):  # R5.3
            self._settle(self.kampen, self.kampen_scores)

    def _special(self, seat: int, penalty: int, group: list[int]) -> bool:
        """Take ``penalty`` cards from everyone in ``group`` but the thrower. True if that
        stopped the round (R6.2)."""
        hits = special_hits(self.cards, seat, group, penalty)
        for victim, lost in hits:
            self.cards[victim] -= lost
        self.log.append(Event("special", seat, tuple(hits)))
        emptied = [victim for victim, _ in hits if not self.cards[victim]]
        if not emptied:
            return False  # R4.3: the round and the thrower's turn go on
        self._eliminate(emptied)
        self._next_round(next_insteker(self.cards, emptied))  # R6.2
        return True

    def _picaro(self, seat: int) -> None:
        lost = min(PICARO_LOSS, self.cards[seat])
        self.cards[seat] -= lost
        self.log.append(Event("picaro", seat, lost))
        if not self.cards[seat]:
            self._eliminate([seat])
        self._next_round(next_insteker(self.cards, [seat]))  # R4.4 (out: R6.1)

    def _end_turn(self, seat: int) -> None:
        """The current player's last throw becomes their score (R3.3); the insteker's throws
        fix the round's throw limit (R3.2). When everyone has a score, the round settles."""
        if seat == self.insteker:
            self.throw_limit = self.throws
            self.log.append(Event("limit", seat, self.throws))
        strength = cast("Throw", self.current).strength  # a turn ends after its throw
        self.scores[seat] = strength
        self.log.append(Event("score", seat, strength))
        self.pos += 1
        self.throws = 0
        self.current = None
        self.decision = False
        if self.pos == len(self.order):
            self._settle(self.order, [self.scores[p] for p in self.order])

    def _settle(self, players: list[int], scores: list[int]) -> None:
        """Lowest score loses a card (R3.5); a shared lowest plays kampen (R5.1, R5.3)."""
        low = min(scores)
        if scores.count(low) > 1:
            losers = [p for p, s in zip(players, scores, strict=False) if s == low]
            self.phase = Phase.KAMPEN
            self.kampen = losers
            self.kampen_pos = 0
            self.kampen_scores = []
            self.log.append(Event("kampen", -1, tuple(losers)))
            return
        loser = players[scores.index(low)]
        self.cards[loser] -= ROUND_LOSS
        self.log.append(Event("loses", loser, ROUND_LOSS))
        if self.cards[loser]:
            # R3.5. No _next_round check needed: any knock-out stops a round at once (R6),
            # so everyone who started this round, two seats at least, still holds cards.
            self._start_round(loser)
        else:
            self._eliminate([loser])
            self._next_round(next_insteker(self.cards, [loser]))  # R6.1

    def _eliminate(self, seats: list[int]) -> None:
        self.eliminations += 1
        for s in seats:
            self.out[s] = self.eliminations
            self.log.append(Event("out", s, 0))

    def _next_round(self, insteker: int) -> None:
        alive = self.alive()
        if len(alive) > 1:
            self._start_round(insteker)
            return
        self.phase = Phase.OVER  # R1.5, R6.3: nobody insteeks any more
        self.insteker = None
        self.decision = False
        self.winner = alive[0]
        self.log.append(Event("winner", self.winner, 0))

    # ------------------------------------------------------------------ copies and files
    def snapshot(self) -> dict[str, Any]:
        """The observable state as plain JSON data (checked by ``from_dict``)."""
        return {
            "cards": list(self.cards),
            "round": self.round,
            "phase": self.phase,
            "insteker": self.insteker,
            "current_player": self.current_player,
            "throw_limit": self.throw_limit,
            "throws": self.throws,
            "decision": self.decision,
            "winner": self.winner,
        }

    def to_dict(self) -> dict[str, Any]:
        """Exact JSON-ready form: the start position, every input so far, a snapshot, and a
        ``digest`` of all of it, so that any change to a saved game is detected on loading —
        also a changed die that replays to the same snapshot. A game from ``at_decision``
        has no history to save: ``ValueError``."""
        if self.started_at_decision:
            raise ValueError("a game started at a decision (Game.at_decision) has no "
                             "history before it to save")
        record = {
            "format": FORMAT,
            "version": FORMAT_VERSION,
            "num_players": self.num_players,
            "start_cards": list(self.start_cards),
            "first_insteker": self.first_insteker,
            "history": [list(h) if isinstance(h, tuple) else h for h in self.history],
            "state": self.snapshot(),
        }
        return seal(record)

    @classmethod
    def record_start(cls, data: Any) -> Game:
        """The game at the start of the saved game ``data``, before its first input: its
        envelope checked (``core.records.check_record``), its history not replayed (where a
        replay of it begins; ``from_dict`` replays it). ``ValueError`` as ``from_dict``."""
        check_record(data, FORMAT, READABLE_VERSIONS,
                     lambda version: {"format", "version", "num_players", "start_cards",
                                      "first_insteker", "history", "state"}
                     | ({"digest"} if version >= 2 else set()))
        if not isinstance(data["history"], list):
            raise ValueError("history must be a list of throws [a, b, c] and actions 0/1")
        return cls(data["num_players"], data["start_cards"], data["first_insteker"])

    @classmethod
    def from_dict(cls, data: Any) -> Game:
        """Rebuild a game from ``to_dict`` output by replaying its history.

        Raises ``ValueError`` naming the first thing that is wrong: a missing or unknown key,
        a digest that does not match the record (any edit or corruption), a bad start
        position, an input the rules do not allow at that point, or a snapshot that does not
        match the replayed game.
        """
        game = cls.record_start(data)

        def apply(item: Any) -> None:
            if isinstance(item, list) and not any(isinstance(d, bool) for d in item):
                game.apply_throw(item)
            elif isinstance(item, int) and not isinstance(item, bool):
                game.apply_action(item)
            else:
                raise ValueError(f"expected a throw [a, b, c] or an action 0/1, got {item!r}")

        replay_record(data["history"], apply, data["state"], game.snapshot)
        return game

    def __repr__(self) -> str:
        return (f"Game(num_players={self.num_players}, cards={self.cards}, round={self.round}, "
                f"phase={self.phase!r}, current_player={self.current_player})")


def _classified(dice: Sequence[int]) -> Throw:
    """``rules.classify`` with its error as an ``IllegalMoveError``."""
    try:
        return classify(dice)
    except ValueError as err:
        raise IllegalMoveError(str(err)) from None


def as_action(action: Any) -> Action:
    """The one rule for what counts as an action, used by ``Game``, the PettingZoo env and the
    Gymnasium env alike: an integer 0 or 1 — a Python int, a numpy integer, or a 0-d numpy
    integer array (what a policy's ``predict`` returns for one observation). Booleans and
    floats are refused even when they equal 0 or 1, so a wrong dtype in a driver shows up at
    once instead of being silently rounded."""
    try:
        if isinstance(action, bool | np.bool_):  # ints to Python, not actions to us
            raise TypeError
        return Action(operator.index(action))
    except (ValueError, TypeError):
        raise IllegalMoveError(
            f"action must be 0 (stop) or 1 (throw again) as an integer, got {action!r} "
            f"({type(action).__name__})"
        ) from None

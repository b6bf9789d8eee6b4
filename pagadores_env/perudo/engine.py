"""Perudo as a state machine with explicit chance nodes (rule ids P1–P7 of the Perudo
rules contract).

``Game`` follows the game protocol (``core.protocol.GameState``): at the start of
every round the state is a **chance node** (``is_chance_node()``; ``apply_roll(dice)`` sets
every seat's dice, P2.1), then a sequence of **decision nodes** (``current_player`` bids or
calls dudo: ``legal_actions()``, ``apply_action(a)``) until a dudo ends the round (P2.4),
and at last **terminal**. No randomness lives here: whoever drives the game (an environment,
a test, a solver) chooses the dice.

Every transition appends ``core.protocol.Event`` records to ``Game.log`` and every input to
``Game.history``, so ``to_dict``/``from_dict`` rebuild a game exactly by replaying it
(``core.records``). Illegal calls raise ``core.errors.IllegalMoveError`` (a ``ValueError``,
the same class as Pagadores') in one line, before anything changes.

========  ======================  ================================================
event     seat                    value
========  ======================  ================================================
round     the starter (P2.2)      the round number (1-based) that starts
palifico  the starter (P6.1)      the round number: this round is palifico
roll      -1                      every seat's dice, ``((faces of seat 0), ...)``
bid       the bidder              ``(q, f)`` (P3)
dudo      the caller              the bid ``(q, f)`` called (P4.1)
count     -1                      the dice that count for that bid (P4.1)
loses     the loser (P4.2)        1
out       the eliminated seat     0 (P1.3)
winner    the winner              0 (P1.3)
========  ======================  ================================================
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from ..core.errors import IllegalMoveError
from ..core.protocol import Event
from ..core.records import Replayable, check_record, replay_record, seal
from ..core.seats import next_with_cards, placements
from .rules import (
    BIDS,
    DUDO,
    MAX_DICE,
    allowed_bids,
    as_action,
    check_roll,
    check_table,
    count_matches,
    describe_action,
    legal_actions,
    legal_mask,
)

FORMAT = "perudo-game"
FORMAT_VERSION = 1

HistoryItem = int | tuple[tuple[int, ...], ...]


class Game(Replayable):
    """A game of Perudo for 2–6 players (P1.1).

    ``dice`` is one start count for everyone (1–5, default 5, P1.2) or one count per seat
    (0–5, at least two seats with dice) to start from a chosen position; a seat dealt none is
    out from the start. Round 1 is started by seat 0 (P2.2), or by the next seat clockwise
    with dice if seat 0 has none.
    """

    __slots__ = (
        "num_players", "start_dice", "dice_counts", "hands", "round", "starter", "palifico",
        "bid_action", "bidder", "current", "rolled", "bids", "last_bids", "revealed", "out",
        "eliminations", "winner", "history", "log",
    )
    IDENTITY = ("num_players", "start_dice", "history")

    def __init__(self, num_players: int = 2, dice: int | Sequence[int] = MAX_DICE) -> None:
        self.num_players, self.start_dice = check_table(num_players, dice)
        self.dice_counts = list(self.start_dice)
        self.out = [0 if c else 1 for c in self.start_dice]  # elimination (1-based), 0 = in
        self.eliminations = 1 if 0 in self.start_dice else 0
        #: every seat's dice at the last dudo (P7.2), ``None`` before the first
        self.revealed: tuple[tuple[int, ...], ...] | None = None
        self.round = 0
        self.winner: int | None = None
        self.history: list[HistoryItem] = []
        self.log: list[Event] = []
        first = 0 if self.dice_counts[0] else next_with_cards(self.dice_counts, 0)
        self._start_round(first, palifico=False)

    # The round's fields, set by _start_round.
    hands: tuple[tuple[int, ...], ...]  # every seat's dice this round; () before the roll
    starter: int
    palifico: bool
    bid_action: int  # the current bid as an action id; DUDO (0) while there is none
    bidder: int  # who made the current bid, -1 while there is none
    current: int  # the seat to act once the dice are rolled
    rolled: bool
    bids: list[int]  # the round's bid actions in the order made (P7.2)
    last_bids: list[int]  # per seat: its latest bid action this round, 0 for none

    # ------------------------------------------------------------------ queries
    @property
    def current_player(self) -> int:
        """The seat to bid or call dudo; -1 at a chance node and once the game is over."""
        return self.current if self.rolled else -1

    @property
    def bid(self) -> tuple[int, int] | None:
        """The bid to raise or call, ``(quantity, face)``; ``None`` before the opening bid."""
        return BIDS[self.bid_action]

    @property
    def total_dice(self) -> int:
        """Dice in play on the table: the largest quantity a bid may name (P3.1)."""
        return sum(self.dice_counts)

    def is_terminal(self) -> bool:
        """True once one player has dice left (P1.3)."""
        return self.winner is not None

    def is_chance_node(self) -> bool:
        """True when the round's dice come next (``apply_roll``, P2.1)."""
        return self.winner is None and not self.rolled

    def legal_actions(self) -> list[int]:
        """The sorted legal action ids at a decision node (P2.3, P3, P4.1, P6); ``[]``
        elsewhere."""
        if not self.rolled:
            return []
        return list(legal_actions(self.bid_action, self.total_dice, self.palifico))

    def alive(self) -> list[int]:
        """Seats that still have dice, in seat order."""
        return [s for s, c in enumerate(self.dice_counts) if c]

    def returns(self) -> list[float]:
        """+1 for the winner and -1 for everyone else once the game is over (P7.3); zeros
        before."""
        if self.winner is None:
            return [0.0] * self.num_players
        return [1.0 if s == self.winner else -1.0 for s in range(self.num_players)]

    def placements(self) -> list[int]:
        """Final place per seat (1 = winner): players knocked out later place higher; seats
        dealt no dice share the last place."""
        return placements(self.out, self.eliminations)

    # ------------------------------------------------------------------ inputs
    def apply_roll(self, dice: Any) -> None:
        """Set every seat's dice for the round (P2.1): one sequence of faces 1–6 per seat,
        as many as the seat has (none for a seat that is out)."""
        if self.winner is not None:
            raise IllegalMoveError("the game is over: no more rolls (P1.3)")
        if self.rolled:
            raise IllegalMoveError(f"the dice of round {self.round} are rolled: seat "
                                   f"{self.current} must bid or call dudo, not roll")
        try:
            hands = check_roll(dice, self.dice_counts)
        except ValueError as err:
            raise IllegalMoveError(str(err)) from None
        self.hands = hands
        self.rolled = True
        self.history.append(hands)
        self.log.append(Event("roll", -1, hands))

    #: The core protocol's name for the dice (``core.protocol.GameState``).
    apply_chance = apply_roll

    def apply_action(self, action: Any) -> None:
        """Apply the current player's dudo (0) or bid (``rules.bid_action(q, f)``)."""
        if not self.rolled:
            if self.winner is not None:
                raise IllegalMoveError("the game is over: no more actions (P1.3)")
            raise IllegalMoveError(f"round {self.round} starts with the roll (chance node): "
                                   "apply_roll(dice), not an action")
        try:
            action = as_action(action)
        except ValueError as err:
            raise IllegalMoveError(str(err)) from None
        if not legal_mask(self.bid_action, self.total_dice, self.palifico)[action]:
            after = "to open the round" if self.bidder < 0 else f"on bid {self.bid}"
            raise IllegalMoveError(
                f"seat {self.current} cannot {describe_action(action)} {after} with "
                f"{self.total_dice} dice on the table; allowed: "
                f"{allowed_bids(self.bid_action, self.total_dice, self.palifico)}")
        seat = self.current
        self.history.append(action)
        if action == DUDO:
            self._dudo(seat)
            return
        self.bid_action = action
        self.bidder = seat
        self.bids.append(action)
        self.last_bids[seat] = action
        self.log.append(Event("bid", seat, BIDS[action]))
        self.current = next_with_cards(self.dice_counts, seat)  # P1.1

    # ------------------------------------------------------------------ transitions
    def _start_round(self, starter: int, palifico: bool) -> None:
        self.round += 1
        self.starter = self.current = starter
        self.palifico = palifico
        self.hands = ()
        self.rolled = False
        self.bid_action = DUDO
        self.bidder = -1
        self.bids = []
        self.last_bids = [DUDO] * self.num_players
        self.log.append(Event("round", starter, self.round))
        if palifico:
            self.log.append(Event("palifico", starter, self.round))

    def _dudo(self, caller: int) -> None:
        """Reveal and count (P4.1); the loser gives up one die (P4.2, P2.4); the next round,
        or the end (P1.3)."""
        quantity, face = cast("tuple[int, int]", BIDS[self.bid_action])  # dudo needs a bid
        count = count_matches(self.hands, face, self.palifico)
        loser = self.bidder if count < quantity else caller  # a tie goes against the caller
        log = self.log
        log.append(Event("dudo", caller, (quantity, face)))
        log.append(Event("count", -1, count))
        log.append(Event("loses", loser, 1))
        self.revealed = self.hands
        self.rolled = False
        counts = self.dice_counts
        counts[loser] -= 1
        if counts[loser]:
            self._start_round(loser, palifico=counts[loser] == 1)  # P2.2, P6.1, P6.2
            return
        self.eliminations += 1
        self.out[loser] = self.eliminations
        log.append(Event("out", loser, 0))
        alive = self.alive()
        if len(alive) > 1:
            self._start_round(next_with_cards(counts, loser), palifico=False)  # P2.2
            return
        self.winner = alive[0]
        self.current = -1
        log.append(Event("winner", self.winner, 0))

    # ------------------------------------------------------------------ copies and files
    def snapshot(self) -> dict[str, Any]:
        """The public state as plain JSON data (checked by ``from_dict``)."""
        return {
            "dice_counts": list(self.dice_counts),
            "round": self.round,
            "starter": self.starter,
            "palifico": self.palifico,
            "bid": None if self.bid is None else list(self.bid),
            "bidder": self.bidder,
            "current_player": self.current_player,
            "winner": self.winner,
        }

    def to_dict(self) -> dict[str, Any]:
        """Exact JSON-ready form: the start position, every input so far, a snapshot, and a
        ``digest`` of all of it (``core.records.seal``), so any change to a saved game is
        detected on loading — also a changed die that replays to the same snapshot."""
        record = {
            "format": FORMAT,
            "version": FORMAT_VERSION,
            "num_players": self.num_players,
            "start_dice": list(self.start_dice),
            "history": [[list(h) for h in item] if isinstance(item, tuple) else item
                        for item in self.history],
            "state": self.snapshot(),
        }
        return seal(record)

    @classmethod
    def record_start(cls, data: Any) -> Game:
        """The game at the start of the saved game ``data``, before its first input: its
        envelope checked (``core.records.check_record``), its history not replayed (where a
        replay of it begins; ``from_dict`` replays it). ``ValueError`` as ``from_dict``."""
        check_record(data, FORMAT, (FORMAT_VERSION,),
                     lambda _: {"format", "version", "num_players", "start_dice", "history",
                                "state", "digest"})
        if not isinstance(data["history"], list):
            raise ValueError("history must be a list of rolls [[faces], ...] and actions")
        return cls(data["num_players"], data["start_dice"])

    @classmethod
    def from_dict(cls, data: Any) -> Game:
        """Rebuild a game from ``to_dict`` output by replaying its history.

        Raises ``ValueError`` naming the first thing that is wrong: not a saved Perudo game,
        a missing or unknown key, a digest that does not match the record (any edit or
        corruption), a bad start position, an input the rules do not allow at that point, or
        a snapshot that does not match the replayed game.
        """
        game = cls.record_start(data)

        def apply(item: Any) -> None:
            if isinstance(item, list):
                game.apply_roll(item)
            else:
                game.apply_action(item)

        replay_record(data["history"], apply, data["state"], game.snapshot)
        return game

    def __repr__(self) -> str:
        return (f"perudo.Game(num_players={self.num_players}, dice={self.dice_counts}, "
                f"round={self.round}, bid={self.bid}, current_player={self.current_player})")

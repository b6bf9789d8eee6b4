"""Pasch as a state machine with explicit chance nodes (rule ids X1–X9 of the Pasch rules
contract).

``Game`` follows the game protocol (``core.protocol.GameState``). A round (X2) goes seat by
seat from its starter: the seat plays a card (X5; a **decision node**), throws all five dice
(a **chance node**), after throws 1 and 2 stops or names the dice to throw again (X3.2),
after the throws spends action blocks or places its disc (X4, X6). When every seat has
placed, the round's cards are shared out (X7.2) and the board is cleared; after the last
round the game is **terminal** (X1.4).

A chance node's outcome is the sorted tuple of the dice thrown: five at a turn's first throw,
as many as the seat names again at a later throw, one for a block's rethrow.
``chance_outcomes()`` lists them with their multinomial probabilities (X8.2). The thrown dice
replace the ones named: the kept dice stay, the new ones join them, and the five are sorted
again (X3.3), so positions always name the sorted dice. No randomness lives here: whoever
drives the game chooses the dice.

A decision node with one legal action only (the last card in the hand, a placement without
choice and without blocks left) is no decision (X8.3): the engine applies that action itself
and logs it (``forced``). Every input is appended to ``history`` (forced actions are not
inputs) and every transition to ``log``, so ``to_dict``/``from_dict`` rebuild a game exactly
by replaying it (``core.records``). Illegal calls raise ``core.errors.IllegalMoveError`` in
one line before anything changes.

========  ======================  ====================================================
event     seat                    value
========  ======================  ====================================================
round     the starter (X2.1)      the round number (1-based) that starts
forced    the seat                the action the engine applies for it (X8.3)
card      the seat                the card played (X5.1)
throw     the seat                ``(thrown dice, the five dice after it)``, sorted
again     the seat                the sorted positions it throws again (X3.2)
stop      the seat                the throws used
block     the seat                ``(kind, position)``: ``"throw"``, ``"raise"``,
                                  ``"lower"`` (X4.1)
place     the seat                its field ``(row, column)``, ``None`` beside (X6)
share     -1                      the cards each seat takes, per seat (X7.2)
winner    a winner (X1.4)         its final score; one event per tied winner
========  ======================  ====================================================
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..core.errors import IllegalMoveError
from ..core.protocol import Event
from ..core.records import Replayable, check_record, replay_record, seal
from .rules import (
    DEFAULT_BLOCKS,
    DEFAULT_HAND,
    DICE,
    MAX_THROWS,
    OUTCOMES,
    REL_LOWER,
    REL_PLACE,
    REL_PLACE_LOW,
    REL_RAISE,
    REL_REROLL,
    REL_STOP,
    SUBSETS,
    Actions,
    Hand,
    check_blocks,
    check_dice,
    check_hand,
    check_players,
    class_field,
    dice_actions,
    placement_classes,
    ranking,
    share_out,
    subset_positions,
)

FORMAT = "pasch-game"
FORMAT_VERSION = 1
MAX_SCORE = 100  # |score| of a start position: 10 rounds of at most 10 points (X1.3)

HistoryItem = int | tuple[int, ...]


class Phase:
    """Where the seat to move is in its turn. ``CARD``: play a card (X5); ``THROW``: the
    dice of a throw come next (chance, X3); ``CHOOSE``: stop or throw again (X3.2);
    ``BLOCKS``: spend a block or place (X4, X6); ``REROLL``: a block's die comes next
    (chance, X4.1); ``OVER``: the game has ended (X1.4)."""

    CARD = "card"
    THROW = "throw"
    CHOOSE = "choose"
    BLOCKS = "blocks"
    REROLL = "reroll"
    OVER = "over"


CHANCE_PHASES = (Phase.THROW, Phase.REROLL)


class Game(Replayable):
    """A game of Pasch for 2–6 players (X1.1) with ``hand`` (every seat's cards, X1.3) and
    ``blocks`` (one count for everyone or one per seat, X1.3).

    A chosen start position (the exact yardstick's last rounds, tests): ``hands`` are the
    cards each seat still holds (drawn from ``hand``, as many for every seat; the rounds
    already played are the difference), ``scores`` the points so far (X7.3), ``starter`` the
    seat that starts the first round played (later rounds go clockwise from it; by default
    round r is started by seat r mod n, X2.1).
    """

    __slots__ = (
        "num_players", "hand", "actions", "start_blocks", "start_hands", "start_scores",
        "first_starter", "hands", "blocks", "scores", "round", "starter", "pos", "phase",
        "played", "discs", "dice", "throws", "kept", "to_throw", "history", "log",
    )
    IDENTITY = ("num_players", "hand", "start_blocks", "start_hands", "start_scores",
                "first_starter", "history")

    def __init__(self, num_players: int = 2, hand: Sequence[int] = DEFAULT_HAND,
                 blocks: int | Sequence[int] = DEFAULT_BLOCKS, *,
                 hands: Sequence[Sequence[int]] | None = None,
                 scores: Sequence[int] | None = None, starter: int | None = None) -> None:
        n = self.num_players = check_players(num_players)
        self.hand = check_hand(hand)
        self.actions = Actions.of(self.hand)
        self.start_blocks = check_blocks(blocks, n)
        self.start_hands = _check_hands(hands, self.hand, n)
        self.start_scores = _check_scores(scores, n)
        played = len(self.hand) - len(self.start_hands[0])
        self.first_starter = (played % n if starter is None
                              else _checked_seat(starter, n))
        self.hands = list(self.start_hands)
        self.blocks = list(self.start_blocks)
        self.scores = list(self.start_scores)
        self.round = played - 1  # _start_round counts it up
        self.history: list[HistoryItem] = []
        self.log: list[Event] = []
        self._start_round()
        self._apply_forced()

    # The round's and the turn's fields, set by _start_round and _start_turn.
    starter: int
    pos: int  # the turn's place in the round's order (0 = the starter)
    phase: str
    played: list[int | None]  # per seat: its card this round, None before it plays (X5.1)
    discs: list[tuple[int, int]]  # (seat, class) in the order placed this round (X6.4)
    dice: Hand  # the seat's five dice, sorted (X3.3); () before its first throw
    throws: int  # throws used this turn (X3.2)
    kept: Hand  # at a chance node: the dice that stay
    to_throw: int  # at a chance node: how many dice are thrown

    # ------------------------------------------------------------------ queries
    @property
    def turn(self) -> int:
        """The seat whose turn it is (also at a chance node); -1 once the game is over."""
        if self.phase == Phase.OVER:
            return -1
        return (self.starter + self.pos) % self.num_players

    @property
    def current_player(self) -> int:
        """The seat to act at a decision node; -1 at a chance node and once over."""
        return -1 if self.phase in (*CHANCE_PHASES, Phase.OVER) else self.turn

    @property
    def rounds(self) -> int:
        """Rounds in the game: as many as the hand has cards (X1.4)."""
        return len(self.hand)

    def is_terminal(self) -> bool:
        """True once the last round is shared out (X1.4)."""
        return self.phase == Phase.OVER

    def is_chance_node(self) -> bool:
        """True when dice come next (``apply_chance``)."""
        return self.phase in CHANCE_PHASES

    def legal_actions(self) -> list[int]:
        """The sorted legal action ids at a decision node (X8.1); ``[]`` elsewhere."""
        if self.phase == Phase.CARD:
            held = self.hands[self.turn]
            return [i for i, value in enumerate(self.actions.cards) if value in held]
        if self.phase in (Phase.CHOOSE, Phase.BLOCKS):
            first = self.actions.dice
            return [first + r for r in dice_actions(self.dice, self.blocks[self.turn],
                                                    self.phase == Phase.CHOOSE)]
        return []

    def legal_mask(self) -> np.ndarray:
        """``legal_actions`` as an int8 mask of ``actions.size`` entries."""
        mask = np.zeros(self.actions.size, dtype=np.int8)
        mask[self.legal_actions()] = 1
        return mask

    def chance_outcomes(self) -> tuple[tuple[Hand, float], ...]:
        """The sorted throws of the dice being thrown with their probabilities (X8.2), summing
        to 1; ``IllegalMoveError`` away from a chance node."""
        if not self.is_chance_node():
            raise IllegalMoveError(self._no_chance_reason())
        return OUTCOMES[self.to_throw]

    def alive(self) -> list[int]:
        """Every seat: nobody leaves a game of Pasch."""
        return list(range(self.num_players))

    def winners(self) -> list[int]:
        """The seats with the most points once over (X1.4; tied seats share the win)."""
        if self.phase != Phase.OVER:
            return []
        best = max(self.scores)
        return [s for s, score in enumerate(self.scores) if score == best]

    def returns(self) -> list[float]:
        """Once over, 2/k - 1 for each of k seats sharing the most points and -1 for everyone
        else (X1.4, ``core.rewards``); zeros before."""
        won = self.winners()
        if not won:
            return [0.0] * self.num_players
        return [2.0 / len(won) - 1.0 if s in won else -1.0 for s in range(self.num_players)]

    def placements(self) -> list[int]:
        """Place per seat (1 = most points): seats with equal points share the best place of
        their group (X1.4)."""
        return [1 + sum(other > mine for other in self.scores) for mine in self.scores]

    # ------------------------------------------------------------------ inputs
    def apply_chance(self, outcome: Any) -> None:
        """The dice thrown at a chance node: ``to_throw`` faces 1–6 (in any order). They join
        the kept dice and the five are sorted again (module docstring)."""
        if not self.is_chance_node():
            raise IllegalMoveError(self._no_chance_reason())
        try:
            thrown = check_dice(outcome, self.to_throw, "the thrown dice")
        except ValueError as err:
            raise IllegalMoveError(f"seat {self.turn} throws {self.to_throw} "
                                   f"{'die' if self.to_throw == 1 else 'dice'}: {err}") from None
        seat = self.turn
        self.history.append(thrown)
        self.dice = tuple(sorted(self.kept + thrown))
        self.kept, self.to_throw = (), 0
        self.log.append(Event("throw", seat, (thrown, self.dice)))
        if self.phase == Phase.THROW:
            self.throws += 1
            self.phase = Phase.CHOOSE if self.throws < MAX_THROWS else Phase.BLOCKS
        else:
            self.phase = Phase.BLOCKS
        self._apply_forced()

    def apply_action(self, action: Any) -> None:
        """Apply the current player's action (X8.1; ``actions`` names them)."""
        if self.phase == Phase.OVER:
            raise IllegalMoveError(f"the game is over after {self.rounds} rounds: no more "
                                   "actions (X1.4)")
        if self.is_chance_node():
            raise IllegalMoveError(f"{self._no_chance_reason(False)}: apply_chance(dice), not "
                                   "an action")
        try:
            action = self.actions.as_action(action)
        except ValueError as err:
            raise IllegalMoveError(str(err)) from None
        legal = self.legal_actions()
        if action not in legal:
            raise IllegalMoveError(self._refusal(action, legal))
        self.history.append(action)
        self._act(action)
        self._apply_forced()

    # ------------------------------------------------------------------ transitions
    def _act(self, action: int) -> None:
        seat, log = self.turn, self.log
        if self.phase == Phase.CARD:
            value = self.actions.cards[action]
            held = list(self.hands[seat])
            held.remove(value)
            self.hands[seat] = tuple(held)
            self.played[seat] = value
            log.append(Event("card", seat, value))
            self._throw((), DICE)  # X3.1: all five dice
            return
        rel = action - self.actions.dice
        if rel < SUBSETS:
            positions = subset_positions(rel + 1)
            log.append(Event("again", seat, positions))
            self._throw(tuple(d for i, d in enumerate(self.dice) if i not in positions),
                        len(positions))
        elif rel == REL_STOP:
            log.append(Event("stop", seat, self.throws))
            self.phase = Phase.BLOCKS
        elif rel >= REL_PLACE:
            self._place(seat, placement_classes(self.dice)[rel - REL_PLACE])
        else:
            kind, position = ("throw", "raise", "lower")[(rel - REL_REROLL) // DICE], \
                (rel - REL_REROLL) % DICE
            self.blocks[seat] -= 1
            log.append(Event("block", seat, (kind, position)))
            rest = self.dice[:position] + self.dice[position + 1:]
            if kind == "throw":
                self._throw(rest, 1)
                self.phase = Phase.REROLL
            else:
                step = 1 if kind == "raise" else -1
                self.dice = tuple(sorted((*rest, self.dice[position] + step)))

    def _throw(self, kept: Hand, count: int) -> None:
        self.kept, self.to_throw, self.phase = kept, count, Phase.THROW

    def _place(self, seat: int, cls: int) -> None:
        self.discs.append((seat, cls))
        self.log.append(Event("place", seat, class_field(cls)))
        if self.pos + 1 < self.num_players:
            self.pos += 1
            self._start_turn()
            return
        ranked = ranking(self.discs)  # X7.1
        taken = share_out(ranked, [self.played[s] for s in ranked])  # type: ignore[misc]
        for other, cards in taken.items():
            self.scores[other] += sum(cards)  # X7.3
        self.log.append(Event("share", -1, tuple(tuple(taken[s])
                                                 for s in range(self.num_players))))
        if self.hands[0]:
            self._start_round()
            return
        self.phase = Phase.OVER
        for won in self.winners():
            self.log.append(Event("winner", won, self.scores[won]))

    def _start_round(self) -> None:
        self.round += 1
        played = self.round - (len(self.hand) - len(self.start_hands[0]))
        self.starter = (self.first_starter + played) % self.num_players  # X2.1
        self.pos = 0
        self.played = [None] * self.num_players
        self.discs = []
        self.log.append(Event("round", self.starter, self.round + 1))
        self._start_turn()

    def _start_turn(self) -> None:
        self.phase = Phase.CARD
        self.dice, self.throws, self.kept, self.to_throw = (), 0, (), 0

    def _apply_forced(self) -> None:
        """X8.3: apply every decision that has one legal action only, logging each."""
        while self.phase in (Phase.CARD, Phase.CHOOSE, Phase.BLOCKS):
            legal = self.legal_actions()
            if len(legal) != 1:
                return
            self.log.append(Event("forced", self.turn, legal[0]))
            self._act(legal[0])

    # ------------------------------------------------------------------ messages
    def _no_chance_reason(self, at_chance: bool = True) -> str:
        if self.phase == Phase.OVER:
            return f"the game is over after {self.rounds} rounds: no more dice (X1.4)"
        if at_chance:
            return (f"seat {self.turn} must act ({self._phase_words()}), not throw: "
                    "apply_action, not apply_chance")
        return f"seat {self.turn} is about to throw {self.to_throw} dice (chance node)"

    def _phase_words(self) -> str:
        return {Phase.CARD: "play a card (X2.3)",
                Phase.CHOOSE: f"stop or throw again after throw {self.throws} (X3.2)",
                Phase.BLOCKS: "spend a block or place (X4, X6)"}[self.phase]

    def _refusal(self, action: int, legal: list[int]) -> str:
        """Why ``action`` is illegal now, in one line with the rule and what is allowed."""
        seat, rel = self.turn, action - self.actions.dice
        describe = self.actions.describe
        why = f"cannot {describe(action)} now"
        if action < self.actions.dice:
            why = ("has played its card this round (X2.2)" if self.phase != Phase.CARD
                   else f"holds no card {self.actions.cards[action]} (X5.1)")
        elif self.phase == Phase.CARD:
            why = f"cannot {describe(action)}: it plays a card first (X2.3)"
        elif self.phase == Phase.CHOOSE:
            why = f"cannot {describe(action)} after throw {self.throws}: the throws go on (X4.2)"
        elif rel <= REL_STOP:
            why = f"cannot {describe(action)}: its throws are over (X3.2)"
        elif rel < REL_PLACE and not self.blocks[seat]:
            why = "has no action blocks left (X4.1)"
        elif REL_RAISE <= rel < REL_LOWER:
            why = "cannot raise a 6: there is no 7 (X4.1)"
        elif REL_LOWER <= rel < REL_PLACE:
            why = "cannot lower a 1: there is no 0 (X4.1)"
        elif rel == REL_PLACE_LOW:
            why = "cannot choose a column: only two pairs give a choice (X6.2)"
        allowed = ("stop, or throw again one to five dice named by their sorted positions "
                   "0–4 (X3.2)" if self.phase == Phase.CHOOSE
                   else "; ".join(describe(a) for a in legal))
        return f"seat {seat} {why}; allowed: {allowed}"

    # ------------------------------------------------------------------ copies and files
    def snapshot(self) -> dict[str, Any]:
        """The state as plain JSON data (checked by ``from_dict``)."""
        return {
            "round": self.round,
            "phase": self.phase,
            "turn": self.turn,
            "hands": [list(h) for h in self.hands],
            "blocks": list(self.blocks),
            "scores": list(self.scores),
            "played": list(self.played),
            "discs": [list(d) for d in self.discs],
            "dice": list(self.dice),
            "throws": self.throws,
        }

    def to_dict(self) -> dict[str, Any]:
        """Exact JSON-ready form: the start position, every input so far, a snapshot, and a
        ``digest`` of all of it (``core.records.seal``)."""
        return seal({
            "format": FORMAT,
            "version": FORMAT_VERSION,
            "num_players": self.num_players,
            "hand": list(self.hand),
            "blocks": list(self.start_blocks),
            "hands": [list(h) for h in self.start_hands],
            "scores": list(self.start_scores),
            "starter": self.first_starter,
            "history": [list(h) if isinstance(h, tuple) else h for h in self.history],
            "state": self.snapshot(),
        })

    @classmethod
    def record_start(cls, data: Any) -> Game:
        """The game at the start of the saved game ``data``, before its first input: its
        envelope checked (``core.records.check_record``), its history not replayed (where a
        replay of it begins; ``from_dict`` replays it). ``ValueError`` as ``from_dict``."""
        check_record(data, FORMAT, (FORMAT_VERSION,),
                     lambda _: {"format", "version", "num_players", "hand", "blocks", "hands",
                                "scores", "starter", "history", "state", "digest"})
        if not isinstance(data["history"], list):
            raise ValueError("history must be a list of throws [faces] and actions")
        return cls(data["num_players"], data["hand"], data["blocks"], hands=data["hands"],
                   scores=data["scores"], starter=data["starter"])

    @classmethod
    def from_dict(cls, data: Any) -> Game:
        """Rebuild a game from ``to_dict`` output by replaying its history; ``ValueError``
        naming the first thing that is wrong (not a saved Pasch game, a key, the digest, the
        start position, an input the rules refuse, a snapshot that differs)."""
        game = cls.record_start(data)

        def apply(item: Any) -> None:
            if isinstance(item, list):
                game.apply_chance(item)
            else:
                game.apply_action(item)

        replay_record(data["history"], apply, data["state"], game.snapshot)
        return game

    def __repr__(self) -> str:
        return (f"pasch.Game(num_players={self.num_players}, round={self.round + 1}/"
                f"{self.rounds}, turn={self.turn}, phase={self.phase!r}, dice={self.dice}, "
                f"scores={self.scores})")


def _checked_seat(seat: Any, n: int) -> int:
    if isinstance(seat, bool) or not isinstance(seat, int | np.integer) or not 0 <= seat < n:
        raise ValueError(f"starter must be a seat 0–{n - 1}, got {seat!r}")
    return int(seat)


def _check_hands(hands: Any, hand: tuple[int, ...], n: int) -> tuple[tuple[int, ...], ...]:
    """Each seat's cards left: by default the whole ``hand``; else n hands of one size ≥ 1,
    each drawn from ``hand`` (X1.3: every seat starts with the same cards)."""
    if hands is None:
        return (hand,) * n
    error = ValueError(f"hands must be {n} lists of the same number (≥ 1) of cards, each "
                       f"drawn from the hand {list(hand)}, got {hands!r}")
    if isinstance(hands, str | bytes) or not isinstance(hands, Sequence) or len(hands) != n:
        raise error
    full = Counter(hand)
    checked = []
    for held in hands:
        try:
            cards = check_hand(held)
        except ValueError:
            raise error from None
        if Counter(cards) - full:
            raise error
        checked.append(cards)
    if len({len(c) for c in checked}) != 1:
        raise error
    return tuple(checked)


def _check_scores(scores: Any, n: int) -> tuple[int, ...]:
    if scores is None:
        return (0,) * n
    if (isinstance(scores, str | bytes) or not isinstance(scores, Sequence)
            or len(scores) != n or not all(
                not isinstance(s, bool) and isinstance(s, int | np.integer)
                and -MAX_SCORE <= s <= MAX_SCORE for s in scores)):
        raise ValueError(f"scores must be {n} whole numbers from {-MAX_SCORE} to {MAX_SCORE}, "
                         f"got {scores!r}")
    return tuple(int(s) for s in scores)


"""Every Pasch rule fact and pure rule helper, in one place (rule ids X1–X9 of the Pasch rules
contract): the engine, the observation, the exact yardstick and the environments import them
from here.

- Table sizes, the default hand and blocks, and their checks (X1.1–X1.3).
- The dice: the 252 sorted outcomes of five dice, the multinomial probability of a sorted
  throw of k dice (X3, X8.2), checking a throw.
- The board (X6): ``classify(dice)`` gives the legal placements of five dice; a placement's
  **class** is one number per field of the board in the order of X7.1 (``BESIDE`` = 0 for no
  Pasch, then ``1 + row * 6 + column - 1``), so comparing classes compares fields.
- The ranking (X7.1) and the share-out of the round's cards (X7.2), as pure functions.
- The action encoding (X8.1): with C distinct card values in the hand, action ``i < C`` plays
  a card of the i-th smallest of those values (legal while the seat still holds one); the
  dice actions follow at fixed offsets from C (``Actions``), C + 49 actions in all.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..core import checks

MIN_PLAYERS, MAX_PLAYERS = 2, 6  # X1.1
DICE, FACES = 5, 6  # X1.2
MAX_THROWS = 3  # X3.2
DEFAULT_HAND = (-1, 1, 2, 3, 4, 5)  # X1.3
MAX_HAND = 10  # X1.3: at most 10 cards
LOWEST_CARD, HIGHEST_CARD = -1, 10  # X1.3: a card is a whole number -1 … 10
#: Every card value there can be, lowest first: the observation's card slots.
CARD_VALUES = tuple(range(LOWEST_CARD, HIGHEST_CARD + 1))
MINUS_ONE = -1  # X7.2: the cards the lowest Pasch takes
DEFAULT_BLOCKS, MAX_BLOCKS = 3, 10  # X1.3

#: X6.1: the board's rows, lowest first.
ROWS = ("pair", "two pairs", "triple", "full house", "four", "five")
BESIDE = 0  # the class of a disc beside the board (no Pasch, X6.2)
CLASSES = 1 + len(ROWS) * FACES  # beside + 36 fields

Field = tuple[str, int]  # (row name, column 1–6)
Hand = tuple[int, ...]  # five sorted dice


# ---------------------------------------------------------------------- checks (X1)
def check_players(num_players: Any) -> int:
    """``num_players`` as an int 2–6 (X1.1)."""
    return checks.check_int("num_players", num_players, MIN_PLAYERS, MAX_PLAYERS)


def check_hand(hand: Any) -> tuple[int, ...]:
    """``hand`` as a sorted tuple if it is 1–10 cards, each a whole number -1 … 10 (X1.3,
    duplicates allowed); else ``ValueError`` in one line."""
    ok = (isinstance(hand, Sequence) and not isinstance(hand, str | bytes)
          and 1 <= len(hand) <= MAX_HAND
          and all(not isinstance(c, bool) and isinstance(c, int | np.integer)
                  and LOWEST_CARD <= c <= HIGHEST_CARD for c in hand))
    if not ok:
        raise ValueError(f"hand must be 1–{MAX_HAND} cards, each a whole number from "
                         f"{LOWEST_CARD} to {HIGHEST_CARD} (X1.3), got {hand!r}")
    return tuple(sorted(int(c) for c in hand))


def check_blocks(blocks: Any, num_players: int) -> tuple[int, ...]:
    """``blocks`` as one count per seat: one count 0–10 for everyone (X1.3) or one per
    seat; else ``ValueError`` in one line."""
    per_seat = isinstance(blocks, Sequence) and not isinstance(blocks, str | bytes)
    counts = list(blocks) if per_seat else [blocks] * num_players
    if len(counts) != num_players or not all(
            not isinstance(b, bool) and isinstance(b, int | np.integer)
            and 0 <= b <= MAX_BLOCKS for b in counts):
        raise ValueError(f"blocks must be a whole number 0–{MAX_BLOCKS} (X1.3), or one per "
                         f"seat ({num_players} of them), got {blocks!r}")
    return tuple(int(b) for b in counts)


def check_dice(dice: Any, count: int = DICE, name: str = "dice") -> Hand:
    """``dice`` as a sorted tuple if they are ``count`` faces 1–6; else ``ValueError`` in one
    line."""
    ok = (isinstance(dice, Sequence | np.ndarray) and not isinstance(dice, str | bytes)
          and len(dice) == count
          and all(not isinstance(d, bool | np.bool_) and isinstance(d, int | np.integer)
                  and 1 <= d <= FACES for d in dice))
    if not ok:
        what = "one face" if count == 1 else f"{count} faces"
        raise ValueError(f"{name} must be {what} 1–{FACES}, got {dice!r}")
    return tuple(sorted(int(d) for d in dice))


# ---------------------------------------------------------------------- dice (X3, X8.2)
def multinomial(dice: Sequence[int]) -> float:
    """The probability of throwing exactly the sorted faces ``dice`` with ``len(dice)`` fair
    dice (X8.2): ``k! / (m_1! … m_6!) / 6**k``."""
    ways = math.factorial(len(dice))
    for count in Counter(dice).values():
        ways //= math.factorial(count)
    return ways / FACES ** len(dice)


#: OUTCOMES[k]: every sorted throw of k dice with its probability (k = 1 … 5).
OUTCOMES: dict[int, tuple[tuple[Hand, float], ...]] = {
    k: tuple((t, multinomial(t))
             for t in itertools.combinations_with_replacement(range(1, FACES + 1), k))
    for k in range(1, DICE + 1)}
#: The 252 sorted outcomes of five dice, in ``OUTCOMES[5]``'s order, and their indices.
HANDS: tuple[Hand, ...] = tuple(t for t, _ in OUTCOMES[DICE])
HAND_INDEX = {hand: i for i, hand in enumerate(HANDS)}
_KEY_WEIGHTS = (FACES + 1) ** np.arange(DICE)
_HAND_OF_KEY = np.full((FACES + 1) ** DICE, -1)
_HAND_OF_KEY[np.array(HANDS) @ _KEY_WEIGHTS] = np.arange(len(HANDS))


def hand_indices(dice: np.ndarray) -> np.ndarray:
    """The ``HANDS`` index of rows of sorted dice ``(..., 5)``; -1 for a row of zeros (no
    dice yet)."""
    return _HAND_OF_KEY[np.asarray(dice, dtype=np.int64) @ _KEY_WEIGHTS]


# ---------------------------------------------------------------------- the board (X6, X7)
def field_class(row: str, column: int) -> int:
    """The class of the field (``row``, ``column``): its place in the order of X7.1."""
    return 1 + ROWS.index(row) * FACES + column - 1


def class_field(cls: int) -> Field | None:
    """The field of a class; ``None`` for ``BESIDE``."""
    if cls == BESIDE:
        return None
    row, column = divmod(cls - 1, FACES)
    return ROWS[row], column + 1


def check_field(field: Any, name: str = "goal") -> int:
    """The class of ``field`` if it is a (row, column) pair of the board (rows by name, X6.1;
    columns 1–6); else ``ValueError`` in one line."""
    ok = (isinstance(field, Sequence) and not isinstance(field, str) and len(field) == 2
          and field[0] in ROWS and not isinstance(field[1], bool)
          and isinstance(field[1], int | np.integer) and 1 <= field[1] <= FACES)
    if not ok:
        raise ValueError(f"{name} must be a field (row, column) with row one of "
                         f"{', '.join(map(repr, ROWS))} and column 1–{FACES}, got {field!r}")
    return field_class(field[0], int(field[1]))


@functools.cache
def _placements(hand: Hand) -> tuple[Field, ...]:
    counts = Counter(hand)
    by_count = sorted(counts.items(), key=lambda vc: (vc[1], vc[0]), reverse=True)
    (top, most), second = by_count[0], by_count[1][1] if len(by_count) > 1 else 0
    if most == 5:
        return (("five", top),)
    if most == 4:
        return (("four", top),)
    if most == 3:
        return (("full house" if second == 2 else "triple", top),)  # X6.2: the triple's column
    pairs = sorted((v for v, c in counts.items() if c == 2), reverse=True)
    if len(pairs) == 2:
        return tuple(("two pairs", v) for v in pairs)  # X6.2: either pair, the higher first
    if pairs:
        return (("pair", pairs[0]),)
    return ()  # five distinct values: beside the board


def classify(dice: Any) -> list[Field]:
    """The legal board placements of five dice as ``(row, column)`` pairs (X6.1, X6.2): the
    highest row they make; two pairs give both columns (the higher first); ``[]`` for no
    Pasch (the disc goes beside the board). ``ValueError`` unless five faces 1–6."""
    return list(_placements(check_dice(dice)))


def placement_classes(hand: Hand) -> tuple[int, ...]:
    """The classes a sorted hand may be placed at: ``(BESIDE,)`` for no Pasch, two for two
    pairs (the higher first), else one."""
    return tuple(field_class(*f) for f in _placements(hand)) or (BESIDE,)


def ranking(discs: Sequence[tuple[int, int]]) -> list[int]:
    """The round's seats from the best Pasch to the lowest (X7.1), from their discs
    ``(seat, class)`` in the order they were placed: a higher class beats a lower one, and on
    one field (or beside the board) the disc placed later lies on top and beats the ones
    below."""
    order = sorted(range(len(discs)), key=lambda i: (discs[i][1], i), reverse=True)
    return [discs[i][0] for i in order]


def share_out(ranked: Sequence[int], played: Sequence[int]) -> dict[int, list[int]]:
    """The cards each seat takes (X7.2), from the seats ``ranked`` best first and the cards
    ``played`` this round: the lowest Pasch takes every -1 card; the other cards go by rank,
    the highest to the best, the next to the second, … until none is left."""
    if len(ranked) != len(played):
        raise ValueError(f"share_out needs one played card per ranked seat, got {len(ranked)} "
                         f"seats and {len(played)} cards")
    taken: dict[int, list[int]] = {seat: [] for seat in ranked}
    taken[ranked[-1]] += [c for c in played if c == MINUS_ONE]
    for seat, card in zip(ranked, sorted((c for c in played if c != MINUS_ONE), reverse=True),
                          strict=False):
        taken[seat].append(card)
    return taken


# ---------------------------------------------------------------------- actions (X8.1)
SUBSETS = (1 << DICE) - 1  # 31 non-empty subsets of the five sorted positions
REL_STOP = SUBSETS  # relative to the first dice action
REL_REROLL, REL_RAISE, REL_LOWER = REL_STOP + 1, REL_STOP + 1 + DICE, REL_STOP + 1 + 2 * DICE
REL_PLACE = REL_LOWER + DICE  # 47
REL_PLACE_LOW = REL_PLACE + 1  # 48
DICE_ACTIONS = REL_PLACE_LOW + 1  # 49


def subset_positions(mask: int) -> tuple[int, ...]:
    """The sorted positions whose bits are set in ``mask`` (bit i = position i, X8.1)."""
    return tuple(i for i in range(DICE) if mask >> i & 1)


@dataclass(frozen=True)
class Actions:
    """The action ids of one hand (X8.1): ``cards`` are its distinct card values, lowest
    first (C of them); ``size`` = C + 49 (55 for the default hand)."""

    cards: tuple[int, ...]

    @classmethod
    def of(cls, hand: Sequence[int]) -> Actions:
        """The actions of the hand ``hand`` (checked, X1.3)."""
        return cls(tuple(sorted(set(check_hand(hand)))))

    @property
    def dice(self) -> int:
        """The first dice action (C): action ``dice + r`` is the relative dice action r."""
        return len(self.cards)

    @property
    def size(self) -> int:
        """Actions in all: C + 49."""
        return len(self.cards) + DICE_ACTIONS

    def card(self, value: int) -> int:
        """The action that plays a card of ``value``."""
        if value not in self.cards:
            raise ValueError(f"the hand has no card {value!r}; its values are "
                             f"{', '.join(map(str, self.cards))}")
        return self.cards.index(value)

    def rethrow(self, positions: Iterable[int]) -> int:
        """The action that throws the dice at the sorted ``positions`` again (X3.2, X8.1)."""
        chosen = list(positions)
        if not chosen or len(set(chosen)) != len(chosen) or not all(
                isinstance(p, int | np.integer) and not isinstance(p, bool) and 0 <= p < DICE
                for p in chosen):
            raise ValueError(f"name one or more different dice to throw again by their sorted "
                             f"positions 0–{DICE - 1} (X3.2), got {chosen!r}")
        return self.dice + sum(1 << int(p) for p in chosen) - 1

    def describe(self, action: int) -> str:
        """The action in words, for messages and the log's readers."""
        if action < self.dice:
            return f"play card {self.cards[action]}"
        rel = action - self.dice
        if rel < SUBSETS:
            return f"throw again dice {list(subset_positions(rel + 1))}"
        if rel == REL_STOP:
            return "stop"
        if rel == REL_PLACE:
            return "place"
        if rel == REL_PLACE_LOW:
            return "place in the lower pair's column"
        verb = ("throw again with a block", "raise with a block", "lower with a block")[
            (rel - REL_REROLL) // DICE]
        return f"{verb} die {(rel - REL_REROLL) % DICE}"

    def as_action(self, action: Any) -> int:
        """The one rule for what counts as a Pasch action, used by ``Game`` and both
        environments: an integer 0 … size - 1 (a Python int, a numpy integer or a 0-d
        integer array; ``core.checks.check_action``); booleans and floats are refused even
        when whole. ``ValueError`` in one line."""
        return checks.check_action(action, self.size, "X8.1")


@functools.cache
def dice_actions(dice: Hand, blocks: int, choosing: bool) -> tuple[int, ...]:
    """The legal relative dice actions with the sorted ``dice``: after throws 1 and 2
    (``choosing``) every subset and stop (X3.2); after the throws, with blocks left, a rethrow
    of any die, a raise of any die below 6, a lower of any die above 1 (X4.1), and placing,
    in the lower pair's column too with two pairs (X6.2)."""
    if choosing:
        return tuple(range(SUBSETS + 1))
    moves: list[int] = []
    if blocks:
        moves += [REL_REROLL + i for i in range(DICE)]
        moves += [REL_RAISE + i for i in range(DICE) if dice[i] < FACES]
        moves += [REL_LOWER + i for i in range(DICE) if dice[i] > 1]
    moves.append(REL_PLACE)
    if len(placement_classes(dice)) == 2:
        moves.append(REL_PLACE_LOW)
    return tuple(moves)

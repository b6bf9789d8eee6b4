"""Every rule fact and pure rule helper of Paye's dobbelspel, in one place (rule ids Y1–Y8 of
the Paye rules contract): the engine, the observation, the exact yardstick and the players
import them from here.

- Table sizes (Y1.1), the default special dice (Y1.3) and the traditional die (Y1.2), the
  variants and their targets (Y3.3, Y6.1), the expansion's blue-die threshold (Y6.3), the
  default number of rounds (Y2.2); checks of every argument, each a one-line ``ValueError``
  naming what is wrong and what is allowed.
- Scoring (Y3.3, Y3.4): ``settle`` adds a turn's points, halves while above the target and
  never goes below 0.
- Chance (Y5.1): a die's outcomes (``outcomes``: its distinct faces, each with probability
  multiplicity / 6) and the sum of a die thrown twice (``twice``, Y3.2).
- The action encoding (Y7, binding for the environments): one action space of
  ``NUM_ACTIONS`` = 13 for both variants. 0–5 the special dice S0 … S5 (red in the
  expansion), 6 the traditional red die, 7–12 the blue special dice S0 … S5. The base game
  uses 0–5 only and masks 6–12 (decision: one space, so one network plays both variants).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..core import checks

MIN_PLAYERS, MAX_PLAYERS = 2, 6  # Y1.1
DEFAULT_PLAYERS = 6  # Y1.1: the sheet is written for six
SPECIAL_DICE = 6  # Y1.2: S0 … S5
FACES = 6  # Y1.2: faces of every die
#: Y1.3: the default special dice S0 … S5 (the sheet does not give them).
DEFAULT_DICE: tuple[tuple[int, ...], ...] = (
    (0, 0, 1, 1, 1, 2),
    (2, 2, 2, 3, 3, 3),
    (1, 2, 3, 4, 5, 6),
    (0, 0, 0, 7, 7, 7),
    (4, 4, 5, 5, 6, 6),
    (0, 0, 0, 0, 10, 20),
)
TRADITIONAL: tuple[int, ...] = (1, 2, 3, 4, 5, 6)  # Y1.2; Y2.1 decides who starts with it
VARIANTS = ("base", "expansion")
TARGETS = {"base": 50, "expansion": 100}  # Y3.3, Y6.1
BLUE_FROM = 50  # Y6.3: from this score at the start of a turn a blue die is thrown too
ROUNDS = 10  # Y2.2
THROWS = 2  # Y3.2: every chosen die is thrown twice

# ---------------------------------------------------------------- Y7 actions
NUM_ACTIONS = 13
TRADITIONAL_RED = 6  # Y7.2
BLUE = 7  # Y7.2: the action of blue S0; blue S_d is BLUE + d
BASE_ACTIONS = tuple(range(SPECIAL_DICE))  # Y7.1
RED_ACTIONS = tuple(range(TRADITIONAL_RED + 1))  # Y7.2
BLUE_ACTIONS = tuple(range(BLUE, NUM_ACTIONS))  # Y7.2


def check_players(num_players: Any) -> int:
    """``num_players`` as an int if it is 2–6 (Y1.1)."""
    return checks.check_int("num_players", num_players, MIN_PLAYERS, MAX_PLAYERS)


def check_variant(variant: Any) -> str:
    """``variant`` if it is ``"base"`` or ``"expansion"`` (Y6)."""
    return str(checks.check_choice("variant", variant, VARIANTS))


def check_rounds(rounds: Any) -> int:
    """``rounds`` as an int if it is a whole number ≥ 1 (Y2.2)."""
    return checks.check_int("rounds", rounds, 1)


def check_dice(dice: Any) -> tuple[tuple[int, ...], ...]:
    """The special dice S0 … S5 as six tuples of six ints (Y1.2): ``None`` gives the default
    dice (Y1.3); anything but six lists of six whole numbers ≥ 0 raises ``ValueError`` in
    one line naming what is wrong."""
    if dice is None:
        return DEFAULT_DICE
    allowed = "dice must be six lists of six whole numbers ≥ 0 (the faces of S0 … S5)"
    if isinstance(dice, str | bytes) or not isinstance(dice, Sequence | np.ndarray) \
            or len(dice) != SPECIAL_DICE:
        raise ValueError(f"{allowed}, got {_short(dice)}")
    faces = []
    for index, die in enumerate(dice):
        if isinstance(die, str | bytes) or not isinstance(die, Sequence | np.ndarray) \
                or len(die) != FACES:
            raise ValueError(f"{allowed}; S{index} is {_short(die)}")
        for face in die:
            if isinstance(face, bool | np.bool_) or not isinstance(face, int | np.integer) \
                    or face < 0:
                raise ValueError(f"{allowed}; S{index} has the face {face!r}")
        faces.append(tuple(int(face) for face in die))
    return tuple(faces)


def _short(value: Any) -> str:
    """``repr(value)`` cut to one short line for an error message."""
    text = " ".join(repr(value).split())
    return text if len(text) <= 80 else text[:77] + "..."


# ---------------------------------------------------------------- dice and chance
def die_faces(dice: Sequence[Sequence[int]], action: int) -> tuple[int, ...]:
    """The faces of the die an action names (Y7): a special die of ``dice`` (red or blue,
    the same designs, Y6.2) or the traditional red die."""
    if action == TRADITIONAL_RED:
        return TRADITIONAL
    return tuple(dice[design(action)])


def design(action: int) -> int:
    """The design S0 … S5 of the die an action names (0–5 red or base, 7–12 blue); -1 for
    the traditional red die, which shares no design (Y6.3)."""
    if action == TRADITIONAL_RED:
        return -1
    return action - BLUE if action >= BLUE else action


def outcomes(faces: Sequence[int]) -> tuple[tuple[int, float], ...]:
    """One throw of a die (Y5.1): its distinct face values ascending, each with probability
    multiplicity / 6, as ``(value, probability)`` pairs."""
    counts = Counter(faces)
    return tuple((value, counts[value] / FACES) for value in sorted(counts))


def twice(faces: Sequence[int]) -> tuple[tuple[int, int], ...]:
    """The sum of a die thrown twice (Y3.2): every sum ascending with the number of its 36
    equally likely ordered pairs of faces."""
    counts = Counter(a + b for a in faces for b in faces)
    return tuple((total, counts[total]) for total in sorted(counts))


# ---------------------------------------------------------------- scoring
def settle(score: int, points: int, target: int) -> tuple[int, tuple[int, ...]]:
    """The score after a turn (Y3.3, Y3.4): ``score + points``; while above ``target`` it is
    halved, rounding down; below 0 it is 0. Returns the new score and the totals that were
    halved, in order (``45 + 12``: ``(28, (57,))``)."""
    total = score + points
    halved = []
    while total > target:
        halved.append(total)
        total //= 2
    return max(total, 0), tuple(halved)


# ---------------------------------------------------------------- actions
def as_action(action: Any) -> int:
    """The one rule for what counts as a Paye action, used by ``Game`` and both
    environments: an integer 0–12 (Y7) — a Python int, a numpy integer or a 0-d integer
    array (``core.checks.check_action``). Booleans and floats are refused even when whole.
    Raises ``ValueError`` in one line."""
    return checks.check_action(action, NUM_ACTIONS, "0–5 the special dice S0 … S5, 6 the "
                               "traditional red die, 7–12 the blue S0 … S5")


def describe_action(action: int, variant: str = "base") -> str:
    """The die an action names, for messages: ``"S3"`` in the base game, ``"red S3"``,
    ``"the traditional red die"`` or ``"blue S3"`` in the expansion."""
    if action == TRADITIONAL_RED:
        return "the traditional red die"
    if variant == "base":
        return f"S{action}"
    return f"{'blue' if action >= BLUE else 'red'} S{design(action)}"


def legal_red(aside: Sequence[int], blue_due: bool) -> tuple[int, ...]:
    """The red dice a player may choose (Y6.3–Y6.5): those still in the middle, and where a
    blue die will be needed only those for which a blue die of another design is still in
    the middle (no dead ends)."""
    blues = [b for b in BLUE_ACTIONS if b not in aside]
    return tuple(r for r in RED_ACTIONS if r not in aside
                 and (not blue_due or any(design(b) != design(r) for b in blues)))


def legal_blue(aside: Sequence[int], red: int) -> tuple[int, ...]:
    """The blue dice a player who chose ``red`` may choose (Y6.3): still in the middle and
    not of the red die's design."""
    return tuple(b for b in BLUE_ACTIONS if b not in aside and design(b) != design(red))


def check_aside(aside: Any, turn: int) -> tuple[int, ...]:
    """The expansion's dice set aside this round (Y2.3, Y6.4) as sorted action ids: distinct
    ids, exactly ``turn`` red ones (0–6) and at most ``turn`` blue ones (7–12). ``ValueError``
    in one line otherwise."""
    allowed = (f"aside must name the dice set aside this round by action id: exactly {turn} "
               f"red (0–6) and at most {turn} blue (7–12), all different")
    if aside is None:
        aside = ()
    if isinstance(aside, str | bytes) or not isinstance(aside, Sequence | np.ndarray | set
                                                        | frozenset):
        raise ValueError(f"{allowed}, got {_short(aside)}")
    try:
        ids = [as_action(a) for a in aside]
    except ValueError:
        raise ValueError(f"{allowed}, got {_short(aside)}") from None
    red = [a for a in ids if a in RED_ACTIONS]
    if len(set(ids)) != len(ids) or len(red) != turn or len(ids) - len(red) > turn:
        raise ValueError(f"{allowed}, got {_short(list(aside))}")
    return tuple(sorted(ids))

"""What every game's engine is: the game protocol the envs, solvers and tests drive, and the
``Event`` records of its log.

A game follows OpenSpiel's shape. A state is a **chance node** (``is_chance_node()``: the dice
come next, applied by ``apply_chance(outcome)``, whatever form a game's outcome has — a throw
of three dice in Pagadores, every seat's hand in Perudo; where the outcomes can be listed,
``chance_outcomes()`` gives them as ``(outcome, probability)`` pairs, ``SupportsChanceOutcomes``,
so generic code such as OpenSpiel's games or the web page drives any game by it),
a **decision node** (``current_player`` picks one of ``legal_actions()`` by
``apply_action``) or **terminal** (``returns()``, ``placements()``). No randomness lives in
an engine: whoever drives the game chooses the dice. Every input is appended to ``history``
and every transition to ``log``, so ``to_dict`` / ``from_dict`` rebuild a game exactly by
replaying it (``records``). Illegal calls raise ``errors.IllegalMoveError`` before anything
changes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple, Protocol, runtime_checkable


class Event(NamedTuple):
    """One thing that happened in a game. ``seat`` is -1 where no single seat is meant; each
    game's engine documents its kinds and values."""

    kind: str
    seat: int
    value: Any


@runtime_checkable
class GameState(Protocol):
    """A game in progress (module docstring)."""

    num_players: int
    history: list[Any]
    log: list[Event]

    @property
    def current_player(self) -> int:
        """The seat to act; -1 where nobody does (the game's engine says where)."""

    def is_chance_node(self) -> bool:
        """True when the dice come next."""

    def is_terminal(self) -> bool:
        """True once the game is over."""

    def legal_actions(self) -> Sequence[int]:
        """The legal actions at a decision node, sorted; ``[]`` elsewhere."""

    def apply_action(self, action: Any) -> None:
        """Apply the current player's action, or raise ``IllegalMoveError``."""

    def apply_chance(self, outcome: Any) -> None:
        """Apply the dice at a chance node, or raise ``IllegalMoveError``."""

    def alive(self) -> list[int]:
        """Seats still in the game, in seat order."""

    def returns(self) -> list[float]:
        """+1 for the winner and -1 for everyone else once over; zeros before."""

    def placements(self) -> list[int]:
        """Final place per seat (1 = winner)."""

    def clone(self) -> Any:
        """An independent copy."""

    def snapshot(self) -> dict[str, Any]:
        """The observable state as plain JSON data."""

    def to_dict(self) -> dict[str, Any]:
        """The game as a saved record (``records``)."""


@runtime_checkable
class SupportsChanceOutcomes(Protocol):
    """A game whose chance nodes list their outcomes: required of every game whose outcomes
    are few enough to list (Pagadores, Paye, Pasch), optional where they are not (Perudo's
    hands)."""

    def chance_outcomes(self) -> Sequence[tuple[Any, float]]:
        """The outcomes of this chance node with their probabilities (summing to 1); a
        decision or terminal node raises ``IllegalMoveError``."""

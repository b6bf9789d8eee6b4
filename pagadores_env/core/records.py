"""Saved games: every game's ``to_dict`` writes a record (its format and version, its start
position, every input so far, a snapshot) sealed with a ``digest`` (``seal``), and its
``from_dict`` checks the envelope (``check_record``) and replays the inputs (``replay_record``),
so any change to a saved game is detected on loading — also a changed die that replays to the
same snapshot. ``Replayable`` is the games' shared base: a game is fixed by its start and its
inputs, which makes copying and comparing games the same for every game.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

_G = TypeVar("_G", bound="Replayable")


class Replayable:
    """A game whose state is fixed by ``IDENTITY`` (its start position and ``history``): the
    rules are deterministic, so games that started alike and received the same inputs are
    equal (``from_dict(g.to_dict()) == g``). A subclass lists its fields in ``__slots__``."""

    __slots__: tuple[str, ...] = ()
    #: the fields that fix a game: its start position and its inputs
    IDENTITY: tuple[str, ...] = ()

    def clone(self: _G) -> _G:
        """An independent copy: playing on it leaves this game as it is."""
        cls = type(self)
        other = cls.__new__(cls)
        for name in cls.__slots__:
            value = getattr(self, name)
            setattr(other, name, value.copy() if isinstance(value, list) else value)
        return other

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, type(self)):
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name in self.IDENTITY)

    __hash__ = None  # type: ignore[assignment]  # mutable: equal now, different after a move


def seal(record: dict[str, Any]) -> dict[str, Any]:
    """``record`` with its ``digest`` (``record_digest``) added: what ``to_dict`` returns."""
    return record | {"digest": record_digest(record)}


def record_digest(record: dict[str, Any]) -> str:
    """The ``digest`` field of a saved game: SHA-256 of the rest of the record as canonical
    JSON (sorted keys, no spaces). A tool that edits saved games on purpose re-seals them
    with it; anything else that changes a record is refused by ``from_dict``."""
    text = json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode()).hexdigest()


def replay_record(history: list[Any], apply: Callable[[Any], None], state: Any,
                  snapshot: Callable[[], dict[str, Any]]) -> None:
    """Replay a saved game's ``history`` by ``apply`` (one input each), then check its
    ``state`` against ``snapshot()`` of the replayed game, for every game's ``from_dict``.
    Raises ``ValueError`` naming the first input that cannot be replayed, or the first
    field of ``state`` that is missing or differs (also in type: ``True`` is not ``1``)."""
    for i, item in enumerate(history):
        try:
            apply(item)
        except ValueError as err:
            raise ValueError(f"history[{i}] cannot be replayed: {err}") from None
    expected = snapshot()
    if not isinstance(state, dict) or state.keys() != expected.keys():
        raise ValueError(f"state must be a dict with keys {sorted(expected)}")
    for key, value in expected.items():
        if state[key] != value or type(state[key]) is not type(value):
            raise ValueError(
                f"state.{key} is {state[key]!r} but replaying the history gives {value!r}"
            )


def check_record(data: Any, fmt: str, versions: Sequence[int],
                 keys: Callable[[int], set[str]]) -> None:
    """Check a saved game's envelope, for every game's ``from_dict``: a dict of format ``fmt``
    and an int version in ``versions``, holding exactly ``keys(version)``, whose ``digest``
    (if it has one) matches the rest (``record_digest``). Raises ``ValueError`` naming the
    first thing that is wrong."""
    if not isinstance(data, dict):
        raise ValueError(f"a saved game must be a dict, got {type(data).__name__}")
    version = data.get("version")
    if data.get("format") != fmt or type(version) is not int or version not in versions:
        raise ValueError(
            f"saved game must be format {fmt!r} version {' or '.join(map(str, versions))}, "
            f"got {data.get('format')!r} version {version!r}"
        )
    wanted = keys(version)
    missing, unknown = wanted - data.keys(), data.keys() - wanted
    if missing or unknown:
        raise ValueError(
            f"saved game keys must be {sorted(wanted)}; missing {sorted(missing)}, "
            f"unknown {sorted(map(str, unknown))}"
        )
    if "digest" in data:
        record = {k: v for k, v in data.items() if k != "digest"}
        try:
            intact = data["digest"] == record_digest(record)
        except (TypeError, ValueError):  # not JSON data at all
            intact = False
        if not intact:
            raise ValueError(
                "saved game is damaged or was edited: its digest does not match its "
                "contents; only records written by Game.to_dict, unchanged, can be loaded"
            )

"""What the search players of one process may keep: their solved positions, all searches
together, within a quarter of the memory a solve may use (``solver.memory_limit``: the
machine's, or ``ulimit -v``).

Why one budget for the process and not one per search: several searches live side by side —
a best response's learner, its player and the profile's own search player in an approximate
NashConv, a ``depth=2`` player's two levels — and at 6 players, where a position's tables
take about 3 MB, three searches each holding a quarter of the machine were killed for want
of memory. So ``Ledger`` keeps every live search's positions in one least-recently-used
order and, past the budget, asks the owner of the oldest to drop it (a search solves again
what it dropped: slower, never wrong).
"""

from __future__ import annotations

import time
import weakref
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Protocol

from pagadores_env.pagadores.solver import memory_limit
from pagadores_env.pagadores.solver.sweep import layout

#: Positions the ledger never takes away, however small the budget: the newest, which a
#: position being solved may still read (what its specials land on).
FLOOR = 16
#: Seconds the ledger trusts the budget it last read: reading it (``memory_limit``: files
#: under /proc and /sys) at every kept position was 3% of an exact pass of a search player.
REFRESH = 1.0


class Owner(Protocol):
    """What the ledger asks of a search (``RoundSearch``)."""

    def drop(self, key: Hashable) -> None:
        """Forget the kept position ``key``."""


def position_bytes(num_players: int) -> int:
    """About what one kept position costs at ``num_players`` seats: its round tables
    (``sweep.layout``) and the after-throw values at the three special strengths (measured
    at 6 players: 2.3 MB a position; this says 3.0)."""
    return 4 * layout(num_players, False)[1] * num_players * 8


def budget() -> int:
    """Bytes every search of the process may keep together."""
    return memory_limit() // 4


class Ledger:
    """Every live search's kept positions in one least-recently-used order, within
    ``budget()`` bytes together (module docstring). A search tells it what it ``keep``s and
    ``touch``es; the ledger calls its ``drop(key)`` to take one back."""

    def __init__(self, limit: Callable[[], int] = budget) -> None:
        self.limit = limit
        self._limit, self._read_at = 0, -REFRESH
        self.order: OrderedDict[tuple[int, Hashable], int] = OrderedDict()  # → bytes
        self.owners: weakref.WeakValueDictionary[int, Owner] = weakref.WeakValueDictionary()
        self.bytes = 0

    def keep(self, owner: Owner, key: Hashable, size: int) -> None:
        """``owner`` keeps ``key`` (``size`` bytes): the newest entry. Older ones, any
        search's, are dropped while all of them together exceed the budget."""
        entry = (id(owner), key)
        if id(owner) not in self.owners:
            self.owners[id(owner)] = owner
            weakref.finalize(owner, self.forget, id(owner))
        self.bytes += size - self.order.pop(entry, 0)
        self.order[entry] = size
        limit = self.budget()
        while self.bytes > limit and len(self.order) > FLOOR:
            (ident, old), freed = self.order.popitem(last=False)
            self.bytes -= freed
            found = self.owners.get(ident)
            if found is not None:
                found.drop(old)

    def budget(self) -> int:
        """``limit()``, read again once ``REFRESH`` seconds have passed since the last read."""
        now = time.monotonic()
        if now - self._read_at >= REFRESH:
            self._limit, self._read_at = self.limit(), now
        return self._limit

    def touch(self, owner: Owner, key: Hashable) -> None:
        """``owner`` read ``key``: it is the newest entry again."""
        self.order.move_to_end((id(owner), key))

    def release(self, owner: Owner, key: Hashable) -> None:
        """``owner`` dropped ``key`` itself (its own ``cache`` bound)."""
        self.bytes -= self.order.pop((id(owner), key), 0)

    def forget(self, ident: int) -> None:
        """A search is gone: its entries with it."""
        for entry in [e for e in self.order if e[0] == ident]:
            self.bytes -= self.order.pop(entry)


#: The process's ledger, which every ``RoundSearch`` reports to.
LEDGER = Ledger()

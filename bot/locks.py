"""Per-key asyncio locks whose memory is bounded by what is in use, not by every key ever seen."""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Hashable


class KeyedLocks:
    """``locks(key)`` is the one :class:`asyncio.Lock` of ``key`` while anybody holds it, waits for it or keeps a
    reference to it; after that the entry goes (a :class:`weakref.WeakValueDictionary`), so a process that has
    seen a million games keeps only the locks of the games it is working on. A held lock never vanishes: its
    holder's ``async with`` keeps it referenced, and so does every waiter, so they all get the same lock."""

    def __init__(self) -> None:
        self._locks: weakref.WeakValueDictionary[Hashable, asyncio.Lock] = weakref.WeakValueDictionary()

    def __call__(self, key: Hashable) -> asyncio.Lock:
        lock = self._locks.get(key)
        if lock is None:
            lock = self._locks[key] = asyncio.Lock()
        return lock

    def __len__(self) -> int:
        """How many locks are alive now (held, awaited or referenced)."""
        return len(self._locks)

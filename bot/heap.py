"""The process's heap once it serves: what start-up made (imported modules, pydantic schemas, SQLAlchemy's
compiled statements, the catalogues, the servers, channels and members Discord sent at connect) is moved out of
reach of Python's cyclic garbage collector, so its full collections scan only what came after.

Measured before this (``bench_latency --stages``, six busy channels): the bot process held about 213,000 objects
once ready, and each full collection of the heap took 100-137 ms of the event loop at once, a whole p99's worth of
every move in flight; it ran every 10-15 s under load. Objects frozen here are never collected: garbage start-up
left in a reference cycle is collected once before (:func:`gc.collect`), so only what was alive at ready stays,
which the process holds for its life anyway (CPython's ``gc.freeze`` recipe for long-lived servers).
"""

from __future__ import annotations

import gc
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

log = logging.getLogger(__name__)

_settled = False


class Listening(Protocol):
    """What :func:`settle_at_ready` registers on: a discord.py client (``Client.add_listener``)."""

    def add_listener(self, func: Callable[..., Awaitable[Any]], /, name: str = ...) -> None: ...


def settle() -> tuple[int, float]:
    """Collect start-up's garbage, then freeze what is left (:func:`gc.freeze`); once per process, later calls do
    nothing. Returns (objects frozen by this call, seconds it took; ``(0, 0.0)`` after the first)."""
    global _settled
    if _settled:
        return 0, 0.0
    _settled = True
    started = time.perf_counter()
    gc.collect()
    before = gc.get_freeze_count()
    gc.freeze()
    return gc.get_freeze_count() - before, time.perf_counter() - started


def settle_at_ready(bot: Listening) -> None:
    """Have ``bot``'s first ``on_ready`` settle the heap (:func:`on_ready`): every process that serves calls this
    once (:func:`bot.bot.run_bot`, the crash test's bot); a test process running bots in its own heap does not."""
    bot.add_listener(on_ready, "on_ready")


async def on_ready() -> None:
    """The listener :func:`settle_at_ready` registers for ``on_ready``: :func:`settle`, logged at DEBUG."""
    frozen, seconds = settle()
    if frozen:
        log.debug("heap settled: %d objects frozen in %.0f ms", frozen, seconds * 1000)

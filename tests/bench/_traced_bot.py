"""The crash test's bot (``tests.crash._bot``) with a stage trace, for ``bench_latency --stages`` (measurement only:
it plays the same). Every line of the file ``COR_TRACE`` is ``<t> <kind> <detail>``, ``t`` being
``time.perf_counter()`` (Linux ``CLOCK_MONOTONIC``, the same clock the benchmark process reads), so a click's
stages line up with the benchmark's own stamps:

- ``ws``: an interaction's gateway message arrives; ``ix <id>``: a pass's interaction reaches its handler, then
  ``deferred``, ``acted``, ``answered`` (its ``ok`` follow-up);
- ``sql <seconds> <hop|loop> <first|-> <verb table>``: a statement, ending at ``t``, run in aiosqlite's thread
  (``hop``) or the event loop's, ``first``: the transaction's first write (the one that may wait for the lock);
- ``commit <seconds>``, ``txn <seconds>`` (a move's transaction, ``TableService._act``), ``deliver <seconds>`` (one
  step's delivery, its marking included);
- ``timers <seconds>`` (one pass of the timer loop's claim), ``sweep <seconds>``;
- ``gc <seconds> <generation> <collected>`` (a full collection adds ``heap <objects>`` after it), ``heap`` once
  ready; ``slow <seconds> <callback>``: one event loop callback that ran 3 ms or more.
"""

from __future__ import annotations

import asyncio
import gc
import os
import time
from typing import Any

import discord

from bot.db import sqlite_driver
from bot.tables import outbox
from bot.tables.service import TableService
from bot.timers import TimerRunner
from tests.crash._bot import OK, CrashPotatoUI, serve

SLOW = 0.003
_out = open(os.environ["COR_TRACE"], "a", buffering=1)  # noqa: SIM115 (open for the process's life)


def note(kind: str, detail: Any = "", at: float | None = None) -> None:
    _out.write(f"{time.perf_counter() if at is None else at:.6f} {kind} {detail}\n")


def _timed(owner: Any, name: str, kind: str) -> None:
    original = getattr(owner, name)

    async def wrapper(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return await original(*args, **kwargs)
        finally:
            note(kind, f"{time.perf_counter() - started:.6f}")

    setattr(owner, name, wrapper)


def install() -> None:
    original_one = sqlite_driver.OneHopCursor._one

    async def one(self: Any, operation: Any, parameters: Any, *, many: bool) -> None:
        adapt = self._adapt_connection
        hop = not adapt.cannot_wait(operation)
        first = hop and sqlite_driver._writes(operation) and not adapt._writing
        started = time.perf_counter()
        try:
            await original_one(self, operation, parameters, many=many)
        finally:
            words = " ".join(str(operation).split()[:3])[:40]
            note("sql", f"{time.perf_counter() - started:.6f} {'hop' if hop else 'loop'} "
                        f"{'first' if first else '-'} {words}")

    sqlite_driver.OneHopCursor._one = one  # type: ignore[method-assign]
    original_commit = sqlite_driver.OneHopConnection.commit

    def commit(self: Any) -> None:
        started = time.perf_counter()
        open_ = not self._idle()
        try:
            original_commit(self)
        finally:
            if open_:
                note("commit", f"{time.perf_counter() - started:.6f}")

    sqlite_driver.OneHopConnection.commit = commit  # type: ignore[method-assign]
    _timed(outbox.Deliverer, "_one", "deliver")
    _timed(TimerRunner, "run_due", "timers")
    _timed(outbox.Deliverer, "sweep", "sweep")
    _timed(TableService, "_act", "txn")

    gc_started: list[float] = []

    def on_gc(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            gc_started.append(time.perf_counter())
        elif gc_started:
            spent = time.perf_counter() - gc_started.pop()
            generation = info.get("generation")
            heap = f" heap {len(gc.get_objects())}" if generation == 2 else ""  # (counted after the stamp)
            note("gc", f"{spent:.6f} {generation} {info.get('collected')}{heap}")

    gc.callbacks.append(on_gc)
    run = asyncio.events.Handle._run

    def timed_run(self: asyncio.events.Handle) -> None:
        started = time.perf_counter()
        run(self)
        spent = time.perf_counter() - started
        if spent >= SLOW:
            callback = getattr(self._callback, "__qualname__", repr(self._callback))
            task = getattr(self._callback, "__self__", None)
            coro = getattr(task, "get_coro", lambda: None)() if task is not None else None
            note("slow", f"{spent:.6f} {callback} {getattr(coro, '__qualname__', '')}")

    asyncio.events.Handle._run = timed_run  # type: ignore[method-assign]
    received = discord.gateway.DiscordWebSocket.received_message

    async def received_message(self: Any, msg: Any) -> None:
        if isinstance(msg, str) and "INTERACTION_CREATE" in msg[:200]:
            note("ws")
        await received(self, msg)

    discord.gateway.DiscordWebSocket.received_message = received_message  # type: ignore[method-assign]


class TracedPotatoUI(CrashPotatoUI):
    async def on_component(self, interaction: discord.Interaction, table: Any, name: str, arg: str,
                           version: int, values: list[str]) -> None:
        note("ix", interaction.id)
        bot: Any = interaction.client
        await interaction.response.defer(ephemeral=True, thinking=True)
        note("deferred", interaction.id)
        await bot.tables.act(table.id, interaction.user.id, {"type": "pass", "to": int(arg)},
                             expected_version=version)
        note("acted", interaction.id)
        await interaction.followup.send(OK, ephemeral=True)
        note("answered", interaction.id)


async def main() -> None:
    install()
    await serve(TracedPotatoUI(), lambda: note("heap", f"{len(gc.get_objects())} {gc.get_count()} "
                                                       f"{gc.get_threshold()}"))


if __name__ == "__main__":
    asyncio.run(main())

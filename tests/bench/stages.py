"""Where a click's time goes (``bench_latency --stages``; measurement only, it plays what ``bench_latency`` plays):
the bot runs as :mod:`tests.bench._traced_bot`, which writes its stage stamps to a trace file, and this side stamps
the click, the Discord double's answers to the bot's requests and the moment the table shows the step, on the same
clock (``time.perf_counter``, Linux ``CLOCK_MONOTONIC``).

A move's stages: ``gateway`` (click -> the interaction's gateway message reaches the bot), ``dispatch`` (-> its
handler runs), ``defer`` (-> the deferral's callback answered), ``txn`` (the move's transaction, its first write's
wait for the lock and commit included), ``deliver`` (-> the double answered the table's edit), ``notice`` (-> this
side saw the table). :func:`report` prints the median of each over all moves and over the slowest 2 %, then the
slowest moves one by one with what else ran in the bot meanwhile (SQL statements of 5 ms or more, commits, garbage
collections, event-loop callbacks of 3 ms or more, the timer loop).
"""

from __future__ import annotations

import asyncio
import re
import statistics
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.bench.bench_scale import ScaleRun
from tests.crash._bot import OK
from tests.discord_double import Channel
from tests.e2e.conftest import mark

SLOW = 0.003  # seconds: an event-loop callback this long is listed
STAGES = ("gateway", "dispatch", "defer", "txn", "deliver", "notice")


class Stamped(list):  # type: ignore[type-arg]
    """The double's request log, with the time (``perf_counter``) each record was appended: answered."""

    def __init__(self, records: list[Any]) -> None:
        super().__init__(records)
        self.at: list[float] = [0.0] * len(records)

    def append(self, record: Any) -> None:
        super().append(record)
        self.at.append(time.perf_counter())


@dataclass
class Move:
    channel_id: int
    interaction: int
    token: str
    clicked: float
    shown: float = 0.0
    stages: dict[str, float] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    @property
    def total(self) -> float:
        return self.shown - self.clicked


class StagedRun(ScaleRun):
    """:class:`ScaleRun` with the traced bot, stamping each pass."""

    command = ("-m", "tests.bench._traced_bot")

    def __init__(self, *, trace: Path, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.trace = trace
        trace.unlink(missing_ok=True)  # (the bot appends: a restart keeps what it wrote before)
        self.bot_env = {**ScaleRun.bot_env, "COR_TRACE": str(trace)}
        self.moves: list[Move] = []
        self.refused: list[str] = []  # the answers of passes the bot did not accept

    async def world(self, shards: int) -> None:
        await super().world(shards)
        self.double.requests = Stamped(self.double.requests)
        answer = self.double._answer
        self.arrivals: list[tuple[float, str, str]] = []  # (when the double began answering, method, path)

        async def stamped(request: Any, handler: Any, method: str, path: str, body: Any) -> Any:
            self.arrivals.append((time.perf_counter(), method, path))
            return await answer(request, handler, method, path, body)

        self.double._answer = stamped  # type: ignore[method-assign]
        self.stalls: list[tuple[float, float, str]] = []  # this process's event-loop callbacks of 3 ms or more
        run = self._run = asyncio.events.Handle._run

        def timed_run(handle: asyncio.events.Handle) -> None:
            started = time.perf_counter()
            run(handle)
            if (spent := time.perf_counter() - started) >= SLOW:
                task = getattr(handle._callback, "__self__", None)
                coro = getattr(task, "get_coro", lambda: None)() if task is not None else None
                self.stalls.append((time.perf_counter(), spent, getattr(coro, "__qualname__", repr(handle._callback))))

        asyncio.events.Handle._run = timed_run  # type: ignore[method-assign]

    async def close(self) -> None:
        asyncio.events.Handle._run = self._run  # type: ignore[method-assign]
        await super().close()

    async def move(self, channel: Channel, table: Any) -> None:
        user, status, custom_id, click = self.aim(channel, table)
        before = mark(self.bot_messages(channel))
        started = time.perf_counter()
        handle = await user.click(status, custom_id)
        (answer, *_) = await handle.wait_followups(1, timeout=3.0)
        if answer.content != OK:
            self.refused.append(answer.content[:80])
            return
        self.accepted.append(click)
        await self.double.wait_for(lambda: mark(self.bot_messages(channel)) != before, 10, "the table")
        shown = time.perf_counter()
        self.latencies.append(shown - started)
        self.moves.append(Move(channel.id, handle.id, handle.token, started, shown))


_TRACE = re.compile(r"^(\S+) (\S+) ?(.*)$")


def read_trace(path: Path) -> list[tuple[float, str, str]]:
    found = []
    for line in path.read_text().splitlines():
        if (m := _TRACE.match(line)) is not None:
            found.append((float(m[1]), m[2], m[3]))
    return found


def attribute(run: StagedRun, measured: int) -> list[Move]:
    """The stages of the last ``measured`` moves (those of the measured window), from the trace and the stamps."""
    trace = read_trace(run.trace)
    requests: Stamped = run.double.requests  # type: ignore[assignment]
    by_id: dict[str, dict[str, float]] = {}
    ws: list[float] = []
    for at, kind, detail in trace:
        if kind == "ws":
            ws.append(at)
        elif kind in ("ix", "deferred", "acted", "answered"):
            by_id.setdefault(detail, {})[kind] = at
    moves = run.moves[len(run.moves) - measured:]
    for move in moves:
        stamps = by_id.get(str(move.interaction), {})
        got_ws = next((t for t in ws if move.clicked <= t <= stamps.get("ix", 0)), None)
        callback = next((at for r, at in zip(requests, requests.at, strict=True)
                         if at >= move.clicked and f"/interactions/{move.interaction}/" in r.path), None)
        patch = next((at for r, at in zip(requests, requests.at, strict=True)
                      if at >= stamps.get("deferred", move.clicked) and r.method == "PATCH"
                      and r.path.startswith(f"/channels/{move.channel_id}/messages/")), None)
        points = [("gateway", got_ws), ("dispatch", stamps.get("ix")), ("defer", callback),
                  ("deliver", patch), ("notice", move.shown)]
        last = move.clicked
        for name, at in points:
            if at is not None:
                move.stages[name] = at - last
                last = at
        window = [(at, kind, detail) for at, kind, detail in trace if move.clicked <= at <= move.shown]
        txn = [float(d.split()[0]) for _, k, d in window if k == "txn"]
        if txn:
            move.stages["txn"] = txn[0]
        for r, at in zip(requests, requests.at, strict=True):
            if move.clicked <= at <= move.shown:
                window.append((at, "rest", f"0 {r.method} {r.path[:60]} {r.status}"))
        for at, spent, what in run.stalls:
            if move.clicked <= at <= move.shown:
                window.append((at, "bench-slow", f"{spent} {what[:60]}"))
        for at, method, path in run.arrivals:
            if move.clicked <= at <= move.shown:
                window.append((at, "arrives", f"0 {method} {path[:60]}"))
        window.sort()
        for at, kind, detail in window:
            seconds = float(detail.split()[0]) if kind not in ("ix", "deferred", "acted", "answered", "ws") else 0
            if _worth_noting(kind, seconds):
                move.notes.append(f"+{(at - move.clicked) * 1000:6.1f} ms {kind} {seconds * 1000:.1f} ms "
                                  f"{' '.join(detail.split()[1:])}")
    return moves


def _worth_noting(kind: str, seconds: float) -> bool:
    if kind in ("rest", "arrives"):
        return True
    if kind == "sql":
        return seconds >= 0.005
    return kind in ("gc", "slow", "bench-slow", "timers", "sweep", "commit", "deliver") and seconds >= 0.002


def report(moves: list[Move], slowest: int = 8) -> list[str]:
    if not moves:
        return ["(no moves)"]
    ranked = sorted(moves, key=lambda m: m.total)
    tail = ranked[-max(1, len(ranked) // 50):]

    def median(group: list[Move], stage: str) -> str:
        values = [m.stages[stage] for m in group if stage in m.stages]
        return f"{statistics.median(values) * 1000:.1f}" if values else "-"

    lines = [f"{len(moves)} moves; stage medians in ms (txn is inside deliver's span):",
             "| moves | total | " + " | ".join(STAGES) + " |", "|---|---|" + "---|" * len(STAGES)]
    for name, group in (("all", ranked), (f"slowest {len(tail)}", tail)):
        lines.append(f"| {name} | {statistics.median(m.total for m in group) * 1000:.1f} | "
                     + " | ".join(median(group, s) for s in STAGES) + " |")
    for move in ranked[-slowest:]:
        lines.append(f"\nmove {move.interaction}: {move.total * 1000:.1f} ms; "
                     + ", ".join(f"{s} {v * 1000:.1f}" for s, v in move.stages.items()))
        lines += [f"    {n}" for n in move.notes]
    return lines

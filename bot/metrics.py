"""Prometheus metrics of one bot process (the official ``prometheus-client``), served at ``/metrics`` on
``METRICS_PORT`` (off when unset) and labelled with the process's shard set (``shards="0,1"``; ``all`` when it
holds every shard), so a sick process stands out in a fleet.

Counted where they happen: moves accepted and refused per game and the click-to-table latency
(:meth:`bot.ui.GameUI.play`), every REST call to Discord by route and status with the 429s and the retries and
the interaction callbacks Discord refused as late (an aiohttp trace on discord.py's HTTP session), failed DMs
(:meth:`bot.delivery.Delivery.dm`), how late each timer fired and the timer claims taken over from a process whose
lease ran out (:class:`bot.timers.TimerRunner`), and the games' delivery leases taken over likewise
(:class:`bot.tables.outbox.Deliverer`, ``kind="delivery"``), and the SQL statements and commits the process's
database engine runs (SQLAlchemy's cursor and transaction events, :meth:`Metrics.count_sql`), beside the process's
own CPU seconds and memory (``process_*``, prometheus-client's process collector, Linux). Read from the database
at each scrape, for this process's servers: live games and lobbies, the outbox backlog and its oldest step's age,
and the timers due but not fired and how late the oldest is (:mod:`bot.db.repos.monitoring`).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Sequence
from datetime import datetime
from types import SimpleNamespace
from typing import Any

import aiohttp
from aiohttp import web
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    ProcessCollector,
    generate_latest,
)
from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from bot.db.repos import monitoring

log = logging.getLogger(__name__)
#: the statuses discord.py retries a request after (its HTTPClient.request: 429, and these server errors)
RETRIED = frozenset({429, 500, 502, 504, 524})
#: Discord's answer to an interaction callback after its deadline (10062 Unknown interaction)
LATE_CALLBACK = 404
LATENCY_BUCKETS = (0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0)
_ID = re.compile(r"^\d+$")


def route_of(path: str) -> str:
    """The REST route of a request ``path`` with its ids and tokens as placeholders, e.g.
    ``/channels/{id}/messages/{id}``, ``/interactions/{id}/{token}/callback``: few enough values for a label."""
    parts = path.split("/api/v10", 1)[-1].strip("/").split("/")
    out: list[str] = []
    for index, part in enumerate(parts):
        before = parts[index - 2] if index >= 2 else ""
        if before in ("interactions", "webhooks") and _ID.match(parts[index - 1]):
            out.append("{token}")
        elif index and parts[index - 1] == "reactions":
            out.append("{emoji}")
        else:
            out.append("{id}" if _ID.match(part) else part)
    return "/" + "/".join(out)


def shard_label(shard_ids: Sequence[int] | None) -> str:
    return ",".join(map(str, sorted(shard_ids))) if shard_ids else "all"


class Metrics:
    """The process's metrics in a registry of its own (several bots in one test process do not mix).
    ``shard_ids``/``shard_count``: the shards this process holds (None: all), which also choose the servers whose
    games the database gauges count."""

    def __init__(self, shard_ids: Sequence[int] | None = None, shard_count: int | None = None) -> None:
        self.registry = CollectorRegistry()
        self.shards = shard_label(shard_ids)
        self._shard_ids = frozenset(shard_ids or ())
        self._shard_count = shard_count or 1
        r = self.registry

        def counter(name: str, doc: str, *labels: str) -> Counter:
            return Counter(name, doc, ["shards", *labels], registry=r)

        def gauge(name: str, doc: str, *labels: str) -> Gauge:
            return Gauge(name, doc, ["shards", *labels], registry=r)

        self.moves = counter("coroner_moves", "Moves played through the table service, by game and result "
                             "(accepted, refused: a rule or the table refused it)", "game", "result")
        self.click_to_table = Histogram(
            "coroner_click_to_table_seconds", "From a click or modal submit (the interaction's creation) to its "
            "move shown on the table, by game", ["shards", "game"], buckets=LATENCY_BUCKETS, registry=r)
        self.rest = counter("coroner_rest_requests", "REST requests to Discord by method, route and status "
                            "(every attempt: a retried request counts once per try; status error: no answer)",
                            "method", "route", "status")
        self.rest_retries = counter("coroner_rest_retries", "REST answers discord.py retries after (429 rate "
                                    "limits and 500, 502, 504, 524), by route and status", "route", "status")
        self.late_callbacks = counter("coroner_interaction_callbacks_late", "Interaction callbacks Discord refused "
                                      "because its deadline had passed (404 Unknown interaction)")
        self.failed_dms = counter("coroner_dms_failed", "DMs that did not reach their player, by reason (closed: "
                                  "the player's DMs are closed; error: Discord or the network failed)", "reason")
        self.timer_lateness = Histogram(
            "coroner_timer_lateness_seconds", "How long after its due time each timer's handler started",
            ["shards"], buckets=LATENCY_BUCKETS, registry=r)
        self.takeovers = counter("coroner_lease_takeovers", "Leases this process took over from another whose lease "
                                 "had run out (a process that died or hung): timer claims by timer kind, and games' "
                                 "delivery leases (kind delivery)", "kind")
        self.sql_statements = counter("coroner_sql_statements", "SQL statements the process sent to its database "
                                      "(every cursor execution, reads and writes)")
        self.sql_commits = counter("coroner_sql_commits", "Transactions the process committed in its database")
        ProcessCollector(registry=r)  # process_cpu_seconds_total, process_resident_memory_bytes...
        self.games = gauge("coroner_games", "Games of this process's servers, by status (lobby, active)", "status")
        self.outbox_backlog = gauge("coroner_outbox_backlog", "Steps committed but not shown yet (this process's "
                                    "servers)")
        self.outbox_age = gauge("coroner_outbox_oldest_seconds", "Age of the oldest step not shown yet (0: none)")
        self.timers_overdue = gauge("coroner_timers_overdue", "Timers due but not fired yet (this process's "
                                    "servers)")
        self.timers_overdue_seconds = gauge("coroner_timers_overdue_seconds", "How late the most overdue timer "
                                            "not fired yet is (0: none)")
        for status in ("lobby", "active"):
            self.games.labels(self.shards, status).set(0)
        for metric in (self.outbox_backlog, self.outbox_age, self.timers_overdue, self.timers_overdue_seconds,
                       self.late_callbacks, self.sql_statements, self.sql_commits):
            metric.labels(self.shards)
        self._runner: web.AppRunner | None = None
        self._listeners: list[Callable[[int | None], None]] = []

    # --- counted where they happen -------------------------------------------------------------------------
    def move(self, game: str, *, accepted: bool) -> None:
        self.moves.labels(self.shards, game, "accepted" if accepted else "refused").inc()

    def clicked_to_table(self, game: str, seconds: float) -> None:
        self.click_to_table.labels(self.shards, game).observe(max(seconds, 0.0))

    def dm_failed(self, *, closed: bool) -> None:
        self.failed_dms.labels(self.shards, "closed" if closed else "error").inc()

    def timer_started(self, late: float) -> None:
        self.timer_lateness.labels(self.shards).observe(max(late, 0.0))

    def taken_over(self, kind: str) -> None:
        """A lease ran out and this process took it: a timer's claim (``kind``: the timer's kind) or a game's
        delivery lease (``kind``: ``delivery``)."""
        self.takeovers.labels(self.shards, kind).inc()

    def count_sql(self, engine: AsyncEngine) -> None:
        """Count every statement and commit of ``engine`` from now on (``coroner_sql_statements_total``,
        ``coroner_sql_commits_total``): with ``coroner_moves_total``, what a move costs the database."""
        statements, commits = self.sql_statements.labels(self.shards), self.sql_commits.labels(self.shards)
        event.listen(engine.sync_engine, "before_cursor_execute", lambda *_: statements.inc())
        event.listen(engine.sync_engine, "commit", lambda *_: commits.inc())

    def on_answer(self, listener: Callable[[int | None], None]) -> None:
        """Call ``listener(status)`` after each REST answer counted (None: no answer), e.g.
        :meth:`bot.outage.Outage.answered`."""
        self._listeners.append(listener)

    def rest_answered(self, method: str, path: str, status: int | None) -> None:
        if "/api/v" not in path:  # not a REST call: the gateway's websocket, an attachment's download
            return
        route = route_of(path)
        self.rest.labels(self.shards, method, route, "error" if status is None else str(status)).inc()
        if status in RETRIED:
            self.rest_retries.labels(self.shards, route, str(status)).inc()
        if status == LATE_CALLBACK and route.endswith("/callback") and route.startswith("/interactions/"):
            self.late_callbacks.labels(self.shards).inc()
        for listener in self._listeners:
            listener(status)

    def http_trace(self) -> aiohttp.TraceConfig:
        """An aiohttp trace for discord.py's HTTP session (``Client(http_trace=...)``): each REST answer counted."""
        trace = aiohttp.TraceConfig()

        async def on_end(_: aiohttp.ClientSession, __: SimpleNamespace, params: aiohttp.TraceRequestEndParams) -> None:
            self.rest_answered(params.method, params.url.path, params.response.status)

        async def on_error(_: aiohttp.ClientSession, __: SimpleNamespace,
                           params: aiohttp.TraceRequestExceptionParams) -> None:
            self.rest_answered(params.method, params.url.path, None)

        trace.on_request_end.append(on_end)
        trace.on_request_exception.append(on_error)
        return trace

    # --- read from the database at each scrape --------------------------------------------------------------
    def _mine(self, guild_id: int | None) -> bool:
        """Whether this process holds the shard of server ``guild_id`` (as Discord routes: ``(id >> 22) % count``)."""
        return not self._shard_ids or (guild_id is not None and (guild_id >> 22) % self._shard_count in
                                       self._shard_ids)

    async def refresh(self, sessions: async_sessionmaker[AsyncSession], now: datetime) -> None:
        """Set the database gauges for this process's servers, as of ``now``."""
        async with sessions() as session:
            snapshot = await monitoring.snapshot(session, now)
        counts = {"lobby": 0, "active": 0}
        for guild_id, status in snapshot.games:
            if self._mine(guild_id) and status in counts:
                counts[status] += 1
        for status, count in counts.items():
            self.games.labels(self.shards, status).set(count)
        steps = [created for guild_id, created in snapshot.pending_steps if self._mine(guild_id)]
        self.outbox_backlog.labels(self.shards).set(len(steps))
        self.outbox_age.labels(self.shards).set((now - min(steps)).total_seconds() if steps else 0)
        due = [due_at for guild_id, due_at in snapshot.overdue_timers if self._mine(guild_id)]
        self.timers_overdue.labels(self.shards).set(len(due))
        self.timers_overdue_seconds.labels(self.shards).set((now - min(due)).total_seconds() if due else 0)

    def exposition(self) -> bytes:
        return generate_latest(self.registry)

    # --- serving --------------------------------------------------------------------------------------------
    async def serve(self, port: int, sessions: async_sessionmaker[AsyncSession], clock: Callable[[], datetime],
                    host: str = "0.0.0.0") -> None:  # noqa: S104 - a container's metrics are scraped from outside
        """Serve ``GET /metrics`` on ``host:port`` until :meth:`stop` (every other path: 404)."""

        async def metrics(_: web.Request) -> web.Response:
            try:
                await self.refresh(sessions, clock())
            except Exception:  # the database may be away for a moment: the counters are still worth a scrape
                log.exception("reading the database for /metrics failed")
            return web.Response(body=self.exposition(), headers={"Content-Type": CONTENT_TYPE_LATEST})

        app = web.Application()
        app.router.add_get("/metrics", metrics)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        await web.TCPSite(self._runner, host, port).start()

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None


def sample(metrics: Metrics, name: str, **labels: Any) -> float:
    """The current value of sample ``name`` (e.g. ``coroner_moves_total``) with ``labels`` (the ``shards`` label
    added), 0 when it has none yet: for tests and for a process reading its own numbers."""
    value = metrics.registry.get_sample_value(name, {"shards": metrics.shards, **labels})
    return 0.0 if value is None else value

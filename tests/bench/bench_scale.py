"""Scale benchmark (not part of the test run; prints one table, asserts nothing): Coroner as separate OS processes
(the crash test's bot: ``coroner`` with the test game Hot Potato) against the loopback Discord, on a SQLite file and
on a private PostgreSQL database.

- Throughput: the crash test's scripted players keep Hot Potato games going (20 passes a game, then the next game
  is opened, filled and started) in ``--channels`` channels spread over every shard, for ``--seconds``, with one
  process and, on PostgreSQL, two (one shard each; SQLite serves one process only). Accepted moves per second
  (passes answered "ok"), p50/p99 from a pass's click to the table showing its step, and REST calls per move
  outside interaction callbacks (the bot's real budget) and callbacks per move, lobbies and deals included; the
  bot processes' CPU per move (``/proc``) and the SQL statements and commits per move they counted themselves.
- Live games: one real game played through Discord, then ``N`` copies of its rows (game, seats, a turn timer a day
  away) seeded directly; the process is SIGKILLed and started again: its resident memory once serving (goal: under
  1 GiB at 10,000), the time from spawning it to its ready line and to the first pass accepted (goal: under 2 s),
  and whether every game is still there at its version ("none lost").
- Each engine's random legal moves per second (``coroner simulate``'s driver, no database).

Run: ``.venv/bin/python -m tests.bench.bench_scale`` (default size about 2 minutes on 2 cores;
``--seconds``, ``--channels``, ``--live 1000,10000``, ``--no-postgres``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

from sqlalchemy import insert, make_url, select, update

from bot.db.check import open_database
from bot.db.models import Game, OutboxEntry, Seat, Timer
from bot.db.session import create_engine, make_sessionmaker
from bot.simulate.driver import play
from bot.simulate.uis import load_uis
from bot.tables import Table, TableService
from games.core import all_games, register
from tests.bench._db import private_postgres
from tests.bench._spent import Throughput, Window
from tests.crash.run import CrashRun, Report
from tests.db.backends import _admin
from tests.discord_double import Channel, DiscordDouble, StoredMessage
from tests.discord_double.ratelimits import INTERACTION_ROUTES
from tests.discord_double.schema import SPEC_PATH
from tests.discord_double.server import TOKEN
from tests.e2e.conftest import mark
from tests.support.processes import BotProcess, Cluster, free_port
from tests.support.tiny_game import ENGINE

CRASH_BOT = ("-m", "tests.crash._bot")
FAKE_IDS = 10**15  # seeded games' channels and players: ids no real snowflake of the run reaches


@dataclass
class Live:
    """A restart with ``games`` live games: resident memory once serving (bytes), seconds from spawning the process
    to its ready line and to its first accepted pass, and how many games went missing or back in version."""

    games: int
    rss: int
    to_ready: float
    to_serving: float
    lost: int


@dataclass
class Backend:
    """Every measure on one database kind: throughput by number of processes, then the live-game restarts."""

    name: str
    throughput: dict[int, Throughput] = field(default_factory=dict)
    live: list[Live] = field(default_factory=list)


class ScaleRun(CrashRun):
    """The crash test's players and checks, with any number of bot processes and no kills; ``command`` and
    ``bot_env``: how the bot processes are started (a traced bot, say)."""

    command: tuple[str, ...] = CRASH_BOT
    bot_env: dict[str, str] = {"LOG_LEVEL": "WARNING"}  # noqa: RUF012 (read only)
    #: the double's global limit (requests a second outside interactions; None: Discord's 50)
    global_limit: int | None = None
    #: whether the double checks every request and answer against Discord's OpenAPI spec (as the tests do)
    spec: bool = True

    def __init__(self, *, channels: int, db_url: str, workdir: Path) -> None:
        super().__init__(moves=10**9, games=channels, kills=0, seed=1, db_url=db_url, workdir=workdir)
        self.latencies: list[float] = []

    async def world(self, shards: int) -> None:
        register(ENGINE)
        self.double = await DiscordDouble(shard_count=shards, spec_path=SPEC_PATH if self.spec else Path("/")).start()
        self.double.strict = False
        if self.global_limit is not None:
            self.double.rate_limits.global_limit = self.global_limit
        guilds = [self.double.add_guild(f"shard {k}", shard=k) for k in range(shards)]
        self.channels: list[Channel] = [guilds[n % shards].add_text_channel(f"game-{n}")
                                        for n in range(self.channels_count)]
        self.players = [self.double.add_user(n, display_name=n.title()) for n in ("ann", "ben", "cat")]
        for guild in guilds:
            for user in self.players:
                guild.add_member(user)
        self.engine = create_engine(self.db_url)
        self.sessions = make_sessionmaker(self.engine)
        self.tables = TableService(self.sessions)
        self.report = Report()

    async def close(self) -> None:
        await self.engine.dispose()
        await self.double.stop()

    async def move(self, channel: Channel, table: Table) -> None:
        """The crash test's pass, timed from the click to the table showing the step."""
        before = mark(self.bot_messages(channel))
        accepted = len(self.accepted)
        started = time.perf_counter()
        await super().move(channel, table)
        if len(self.accepted) > accepted:
            await self.double.wait_for(lambda: mark(self.bot_messages(channel)) != before, 10, "the table")
            self.latencies.append(time.perf_counter() - started)

    def bot_messages(self, channel: Channel) -> list[StoredMessage]:
        return [m for m in self.double.messages(channel) if m.author.bot]

    # --- throughput ----------------------------------------------------------------------------------------------
    async def throughput(self, processes: int, seconds: float, *,
                         during: Callable[[list[int], float], Awaitable[None]] | None = None) -> Throughput:
        """``processes`` bot processes (one shard each) while the players keep a game going in every channel: a
        ``seconds`` long window after every channel's first accepted pass. ``during(pids, seconds)`` runs beside
        the window (a profiler, say)."""
        await self.world(processes)
        try:
            cluster = Cluster(self.double.api_base, self.db_url, self.workdir, [[k] for k in range(processes)],
                              command=self.command, env=self.bot_env)
            ports = [free_port() for _ in range(processes)]
            for process, port in zip(cluster.processes, ports, strict=True):
                process.env["METRICS_PORT"] = str(port)
            async with cluster:
                self.running.set()
                players = [asyncio.create_task(self.play(c)) for c in self.channels]
                async with asyncio.timeout(120):  # warm up: a game runs in every channel
                    while len({c.game_id for c in self.accepted}) < len(self.channels):
                        await asyncio.sleep(0.05)
                accepted, latencies, requests = len(self.accepted), len(self.latencies), len(self.double.requests)
                spent, started = await Window.read(cluster, ports), time.perf_counter()
                pids = [p.pid for p in cluster.processes if p.pid is not None]
                beside = asyncio.create_task(during(pids, seconds)) if during is not None else None
                await asyncio.sleep(seconds)  # a benchmark measures real time
                elapsed, spent = time.perf_counter() - started, await Window.read(cluster, ports) - spent
                window = self.double.requests[requests:]
                done = len(self.accepted) - accepted
                sample = self.latencies[latencies:]
                self.finished = True
                if beside is not None:
                    await beside
                await asyncio.gather(*players, return_exceptions=True)
            callbacks = sum(1 for r in window if INTERACTION_ROUTES.match(r.path))
            return Throughput(done, elapsed, sample, len(window) - callbacks, callbacks, spent.cpu, spent.main,
                              spent.statements, spent.commits)
        finally:
            await self.close()

    # --- live games ----------------------------------------------------------------------------------------------
    async def live_games(self, counts: list[int]) -> list[Live]:
        await self.world(1)
        bot = BotProcess("live", {"DISCORD_TOKEN": TOKEN, "DATABASE_URL": self.db_url,
                                  "DISCORD_API_BASE": self.double.api_base, "LOG_LEVEL": "WARNING"},
                         self.workdir / "live.log", CRASH_BOT)
        results: list[Live] = []
        try:
            engine = await open_database(self.db_url)
            await engine.dispose()
            await bot.start()
            channel = self.channels[0]
            real = await self.active_game(channel)
            bot.env["SYNC_COMMANDS"] = "false"  # registered once; a restart at scale does not register them again
            seeded = 0
            for count in counts:
                await bot.kill()
                await self.seed(real.id, count - seeded, seeded)
                seeded = count
                before = await self.versions()
                spawned = time.perf_counter()
                starting = asyncio.create_task(bot.start())
                ready_at: list[float] = []
                starting.add_done_callback(lambda _, at=ready_at: at.append(time.perf_counter()))
                sessions = set(self.double.gateway.sessions)
                await self.double.wait_for(lambda old=sessions: any(s.session_id not in old for s in
                                                                   self.double.gateway.connected()),
                                           60, "a new session")
                await self.serve_one(channel)
                serving = time.perf_counter() - spawned
                await starting
                ready = ready_at[0] - spawned
                after = await self.versions()
                lost = sum(1 for game_id, version in before.items() if after.get(game_id, -1) < version)
                results.append(Live(count, bot.rss(), ready, serving, lost))
        finally:
            await bot.kill()
            await self.close()
        return results

    async def active_game(self, channel: Channel) -> Table:
        """Open, fill and start a game in ``channel`` through Discord; one pass is played."""
        while (table := await self.tables.table_in_channel(channel.id)) is None or table.status != "active":
            try:
                await (self.open_game(channel) if table is None else self.fill_and_start(table))
            except (AssertionError, TimeoutError, LookupError):
                await asyncio.sleep(0.02)
        await self.serve_one(channel)
        return await self.tables.load(table.id)

    async def serve_one(self, channel: Channel) -> None:
        """Pass once in ``channel``'s game, retrying until the bot accepts it."""
        accepted = len(self.accepted)
        while len(self.accepted) == accepted:
            table = await self.tables.table_in_channel(channel.id)
            try:
                assert table is not None
                await self.move(channel, table)
            except (AssertionError, TimeoutError, LookupError, RuntimeError):
                await asyncio.sleep(0.02)

    async def seed(self, template_id: int, count: int, offset: int) -> None:
        """``count`` copies of game ``template_id`` (its row, seats with players of their own, a turn timer a day
        away), in channels of their own; the template's outbox is left as it is (everything delivered)."""
        async with self.sessions.begin() as session:
            game = await session.get(Game, template_id)
            assert game is not None
            seats = (await session.scalars(select(Seat).where(Seat.game_id == template_id))).all()
            columns = {c.key: getattr(game, c.key) for c in Game.__table__.columns if c.key != "id"}
            rows = [{**columns, "channel_id": FAKE_IDS + offset + n, "table_message_id": None}
                    for n in range(count)]
            ids = (await session.scalars(insert(Game).returning(Game.id), rows)).all()
            await session.execute(insert(Seat), [
                {"game_id": gid, "seat": s.seat, "user_id": FAKE_IDS + (offset + n) * 10 + s.seat, "names": s.names,
                 "dm_ok": True} for n, gid in enumerate(ids) for s in seats])
            due = datetime.now(UTC) + timedelta(days=1)
            await session.execute(insert(Timer), [
                {"game_id": gid, "kind": "turn_timeout", "due_at": due, "payload": {"version": game.version},
                 "version_at_schedule": game.version} for gid in ids])
            await session.execute(update(OutboxEntry).where(OutboxEntry.delivered_at.is_(None))
                                  .values(delivered_at=datetime.now(UTC)))

    async def versions(self) -> dict[int, int]:
        async with self.sessions() as session:
            return dict((await session.execute(select(Game.id, Game.version).where(Game.status == "active"))).all())


async def backend(name: str, fresh: Callable[[str], Awaitable[str]], args: argparse.Namespace,
                  workdir: Path) -> Backend:
    """Every measure on one database kind; ``fresh(tag)`` gives the URL of an empty database for each run."""
    result = Backend(name)
    for processes in ([1, 2] if name == "PostgreSQL" else [1]):
        run = ScaleRun(channels=args.channels, db_url=await fresh(f"t{processes}"), workdir=workdir)
        result.throughput[processes] = await run.throughput(processes, args.seconds)
    run = ScaleRun(channels=1, db_url=await fresh("live"), workdir=workdir)
    result.live = await run.live_games(args.live)
    return result


def engine_rates(seconds: float = 1.0) -> list[tuple[str, float]]:
    """Random legal moves per second of every registered mode (whole seeded games, as ``coroner simulate``)."""
    load_uis()
    rates = []
    for info in all_games():
        for mode in info.modes:
            if info.id == "potato":
                continue
            players = max(mode.min_players, min(4, mode.max_players))
            moves, seed, started = 0, 0, time.perf_counter()
            while time.perf_counter() - started < seconds:
                moves += len(play(info.id, mode.id, players, seed).moves)
                seed += 1
            rates.append((f"{info.id} {mode.id}, {players} seats", moves / (time.perf_counter() - started)))
    return rates


def table(backends: list[Backend], engines: list[tuple[str, float]]) -> list[str]:
    def cell(b: Backend, processes: int, index: int) -> str:
        t = b.throughput.get(processes)
        return (*t.cells(), *t.costs())[index] if t else "n/a (one process only)"

    lines = ["| measure | " + " | ".join(b.name for b in backends) + " | goal |",
             "|---|" + "---|" * len(backends) + "---|"]
    for processes in (1, 2):
        for index, what in enumerate(("accepted moves/s", "click -> table p50 / p99", "REST calls / move",
                                      "bot CPU / move", "SQL statements / commits per move")):
            lines.append(f"| {what}, {processes} process{'es' if processes > 1 else ''} | "
                         + " | ".join(cell(b, processes, index) for b in backends) + " | |")
    for index in range(max(len(b.live) for b in backends)):
        games = backends[0].live[index].games
        lines.append(f"| RSS of one process, {games:,} live games | "
                     + " | ".join(f"{b.live[index].rss / 2**20:.0f} MiB" for b in backends) + " | < 1 GiB at 10,000 |")
        lines.append(f"| start -> ready / first move accepted, {games:,} live games (lost) | "
                     + " | ".join(f"{b.live[index].to_ready:.2f} s / {b.live[index].to_serving:.2f} s "
                                  f"({b.live[index].lost} lost)" for b in backends) + " | < 2 s, none lost |")
    for name, rate in engines:
        lines.append(f"| random legal moves/s: {name} | {rate:,.0f} (no database) |" + " |" * len(backends))
    return lines


async def measure(args: argparse.Namespace, workdir: Path, pg: str | None) -> list[str]:
    async def sqlite(tag: str) -> str:
        return f"sqlite+aiosqlite:///{workdir / tag}.db"

    async def postgres(tag: str) -> str:  # the private database, emptied for each run
        assert pg is not None
        user, database = make_url(pg).username, make_url(pg).database
        await _admin(str(user), "DROP SCHEMA IF EXISTS public CASCADE; CREATE SCHEMA public", database=str(database))
        return pg

    backends = [await backend("SQLite", sqlite, args, workdir)]
    if pg is not None:
        backends.append(await backend("PostgreSQL", postgres, args, workdir))
    return table(backends, engine_rates())


def main(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory(prefix="coroner-scale-") as tmp, \
            (contextlib.nullcontext(None) if args.no_postgres else private_postgres()) as pg:
        print("\n".join(asyncio.run(measure(args, Path(tmp), pg))))


def parse() -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m tests.bench.bench_scale", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=10.0, help="measured play per configuration (default 10)")
    parser.add_argument("--channels", type=int, default=6, help="channels playing at once (default 6)")
    parser.add_argument("--live", type=lambda v: [int(x) for x in v.split(",")], default=[1000, 10000],
                        help="live games seeded, increasing (default 1000,10000)")
    parser.add_argument("--no-postgres", action="store_true", help="SQLite only")
    return parser.parse_args()


if __name__ == "__main__":
    main(parse())

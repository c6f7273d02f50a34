"""End-to-end fixtures: the real CoronerBot (discord.py) against the loopback Discord double, a fake clock, and a
fresh database: every end-to-end test runs once on a SQLite file and once on PostgreSQL (skipped, saying why, when
the server at 127.0.0.1:5432 is not reachable)."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import shutil
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from sqlalchemy import make_url, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.bot import INTERACTION_TASKS, CoronerBot
from bot.clock import FakeClock
from bot.db.check import open_database
from bot.db.models import OutboxEntry
from bot.db.session import create_engine, make_sessionmaker
from bot.settings import Settings
from bot.tables import TableService
from games.core import register
from tests.db.backends import (  # noqa: F401 - SQLite, PostgreSQL, multi-process
    MigratedPostgres,
    migrated_postgres,
    pg_database,
    pg_sessions,
    pg_url,
)
from tests.discord_double import Channel, DiscordDouble, DoubleTimeout, Guild, StoredMessage, User
from tests.discord_double.fixtures import RUNNING, double, running_bot  # noqa: F401
from tests.discord_double.server import TOKEN
from tests.e2e.latency import env_sql_latency, slow_sql  # noqa: F401 - COR_SQL_LATENCY_MS slows every e2e test's SQL
from tests.support import potato as potato_game
from tests.support.newgame import older_shape
from tests.support.tiny_game import ENGINE

#: how many times the double's wait a bot's start may take before the test fails (10 s was hit under load)
START_TIMEOUTS = 6


@dataclass
class World:
    """A server with a game channel, an official medium channel, an admin and five players."""

    double: DiscordDouble
    guild: Guild
    games: Channel
    medium: Channel
    admin: User
    players: list[User]
    db_url: str
    clock: FakeClock
    sessions: async_sessionmaker[AsyncSession]  # the test's own view of the bot's database

    @property
    def tables(self) -> TableService:
        """A table service over the bot's database, to read (or, rarely, act on) what the bot stored."""
        return TableService(self.sessions)

    def bot(self) -> CoronerBot:
        settings = Settings(_env_file=None, discord_token=TOKEN, database_url=self.db_url,
                            discord_api_base=self.double.api_base)
        return CoronerBot(settings, clock=self.clock, guild_ready_timeout=0.05)

    def running(self, bot: CoronerBot | None = None) -> contextlib.AbstractAsyncContextManager[None]:
        """Run the bot until the block ends (its start upgrades a fresh database: slow with SQL latency). The start
        may take :data:`START_TIMEOUTS` times the double's wait: a guard against a start that hangs, not a measure
        (a start costs ~0.4 s of CPU, and a machine shared by many test runs gives it a fraction of a core)."""
        return running_bot(bot or self.bot(), timeout=START_TIMEOUTS * self.double.wait_timeout)

    def bot_messages(self, channel: Channel | None = None) -> list:
        return [m for m in self.double.messages(channel or self.games) if m.author.id == self.double.bot_user.id]


@pytest.fixture
def potato() -> None:
    """The test-only Hot Potato game, its UI and messages."""
    register(ENGINE)
    potato_game.install()


@pytest.fixture
def social_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every game gets the social tests' known deal (``tests.e2e.social.SEED``)."""
    from tests.e2e.social import SEED

    monkeypatch.setattr(TableService, "new_seed", staticmethod(lambda: SEED))


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def db_url(request: pytest.FixtureRequest, tmp_path: Path, migrated_postgres: MigratedPostgres) -> str:  # noqa: F811
    """A URL of a database at the newest schema with nothing in it: a SQLite file to copy the migrated template to
    (:func:`world`), or the private PostgreSQL database emptied (:class:`~tests.db.backends.MigratedPostgres`), so
    a bot's start finds its schema up to date instead of running every migration again."""
    if request.param == "sqlite":
        return f"sqlite+aiosqlite:///{tmp_path / 'coroner.db'}"
    return migrated_postgres.fresh()


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file upgraded to the newest schema once per test process (each e2e test on SQLite starts from a
    copy: the bot's start then finds the schema up to date instead of running every migration again)."""
    path = tmp_path_factory.mktemp("schema") / "coroner.db"

    async def upgrade() -> None:
        await (await open_database(f"sqlite+aiosqlite:///{path}")).dispose()

    asyncio.run(upgrade())
    return path


@pytest.fixture
async def world(double: DiscordDouble, db_url: str, sqlite_template: Path) -> AsyncIterator[World]:  # noqa: F811
    guild = double.add_guild("Coroner Test")
    games = guild.add_text_channel("games")
    medium = guild.add_text_channel("official-medium")
    admin = double.add_user("admin", display_name="Admin")
    guild.add_member(admin, manage_guild=True)
    names = ["alice", "bob", "carol", "dave", "erin"]
    players = [double.add_user(n, display_name=n.title()) for n in names]
    for user in players:
        guild.add_member(user)
    # with injected latency (the README's latency command) a step costs dozens of slow statements and requests: the
    # conditions are waited for longer (Discord's 3 s for an interaction's answer hold exactly, as always)
    latency = env_sql_latency() + double.latency
    if latency:
        double.wait_timeout = 5.0 * (1 + 10 * latency)
    double.slash_call_shape = older_shape  # tests written before typed /newgame options keep working
    url = db_url
    database = make_url(url).database
    if url.startswith("sqlite") and database and not Path(database).exists():
        shutil.copyfile(sqlite_template, database)  # the schema a bot's start makes, without the migrations' cost
    engine = create_engine(url)
    double.idle = flush_marks  # (a bot's held marks are written once nothing happened for a moment: FLUSH_AFTER)
    yield World(double, guild, games, medium, admin, players, url, FakeClock(), make_sessionmaker(engine))
    await engine.dispose()


WaitFor = Callable[..., object]


async def stored(world: World, check: Callable[[], Awaitable[object]], what: str, timeout: float | None = None, *,
                 flush: bool = True) -> None:
    """Wait (polling, like ``double.wait_for``) until ``check()`` - a read of the bot's database - is truthy: what the
    bot stores after a REST answer can lag behind what the double shows, more so with ``COR_DOUBLE_LATENCY_MS``.
    While it is not, the running bots write the marks they hold (``flush``: as :data:`bot.tables.marks.FLUSH_AFTER`
    on a clock that moves would; False: a count of a move's cost, whose marks the next move writes)."""
    timeout = world.double.wait_timeout if timeout is None else timeout
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not await check():
        if flush:
            await flush_marks()
        if loop.time() > deadline:
            raise DoubleTimeout(f"timed out after {timeout}s waiting for {what}")
        await asyncio.sleep(0.02)


async def until_version(world: World, game_id: int, version: int) -> None:
    """Wait (polling the database) until the game reached ``version``."""

    async def reached() -> bool:
        return (await world.tables.load(game_id)).version >= version

    await stored(world, reached, f"game {game_id} at version {version}")


def held(game_id: int, version: int) -> bool:
    """Whether a running bot holds the "delivered" mark of the step of ``game_id`` that made ``version`` for the
    game's next move (:mod:`bot.tables.marks`): the step is shown, its mark not written yet."""
    return any(getattr(bot, "tables", None) is not None and bot.tables.deliverer.marks.held(game_id) == version
               for bot in RUNNING)


async def flush_marks() -> None:
    """Write the "delivered" marks the running bots hold for a next move (:mod:`bot.tables.marks`), as their flush
    would :data:`~bot.tables.marks.FLUSH_AFTER` later on a clock that moves."""
    for bot in list(RUNNING):
        tables = getattr(bot, "tables", None)
        if tables is not None:
            await tables.deliverer.marks.flush()


async def until_delivered(world: World) -> None:
    """Wait (polling the database) until every committed step is marked shown."""

    async def delivered() -> bool:
        await flush_marks()
        async with world.sessions() as session:
            return await session.scalar(select(OutboxEntry.id).where(OutboxEntry.delivered_at.is_(None))) is None

    await stored(world, delivered, "every committed step shown")


def handling() -> list[asyncio.Task[object]]:
    """The bot's tasks that run an interaction's handler (slash commands, components, modals) and are not done."""
    return [task for task in asyncio.all_tasks() if not task.done() and task.get_name().startswith(INTERACTION_TASKS)]


async def settled(world: World) -> None:
    """Wait until the bot handles no interaction any more and every committed step is shown: what the channel
    shows then stays so until the next move or timer (a condition, instead of giving pending edits some time)."""
    await world.double.wait_for(lambda: not handling(), what="the bot's interaction handlers to finish")
    await until_delivered(world)


async def refusal(handle) -> str:  # type: ignore[no-untyped-def]
    """The ephemeral refusal the bot answered ``handle`` with: the callback itself, or (after a deferral) the
    first follow-up. Fails if the answer was public."""
    response = await handle.response()
    if response.deferred:
        (first, *_) = await handle.wait_followups(1)
        assert first.ephemeral, first.content
        return first.content
    assert response.ephemeral, response.content
    return response.content


async def answer(handle) -> StoredMessage:  # type: ignore[no-untyped-def]
    """The private message the bot answered ``handle`` with (the callback's message, or after a deferral its first
    follow-up), to click on. Fails if the answer was public."""
    response = await handle.response()
    if response.deferred:
        (first, *_) = await handle.wait_followups(1)
    else:
        first = response.message
    assert first is not None and first.ephemeral, first
    return first


async def confirm_cancel(world: World, user: User, handle, *, label: str = "Yes, cancel it") -> str:  # type: ignore[no-untyped-def]
    """Answer the private "Cancel this game?" the bot asked ``user`` in answer to ``handle`` (``/cancel``, the
    lobby's Cancel, the host's panel) with the button ``label``; the question's text once it was answered (the
    question becomes the answer)."""
    question = await answer(handle)
    before = question.content
    await (await user.click(question, label=label)).response()
    return await world.double.wait_for(lambda: question.content if question.content != before else None,
                                       what="the question to become its answer")


def mark(messages: list[StoredMessage]) -> tuple[int, int]:
    """Where the living table is and how often it was edited: changes with every step the table shows (an edit
    in place, or a new table message when it was posted again)."""
    if not messages:
        return (0, 0)
    return (messages[-1].id, len(messages[-1].history))


def as_drawn_before(message: StoredMessage) -> StoredMessage:
    """``message`` as a client that has not seen its last edit still shows it (its previous components): clicking
    it sends what a player looking at an outdated table would send."""
    return dataclasses.replace(message, components=message.history[-1]["components"])


def table_log(messages: list[StoredMessage]) -> str:
    """Every text the table messages ever showed (each earlier version in ``history`` and the current one): the
    "last moves" log keeps only the last few steps, so a whole game's public lines are read across its edits."""
    texts: list[str] = []
    for message in messages:
        for version in [*message.history, message.snapshot()]:
            texts.append(version["content"] or "")
            for embed in version["embeds"]:
                texts += [embed.get("description") or ""] + [f.get("value", "") for f in embed.get("fields", [])]
    return "\n".join(texts)


def _log_lines(version: dict) -> list[str]:
    fields = [f for e in version["embeds"][:1] for f in e.get("fields", []) if f.get("name") in LAST_MOVES]
    return fields[-1]["value"].split("\n") if fields else []


LAST_MOVES = ("Last moves", "Últimas jugadas")


def shown_lines(messages: list[StoredMessage]) -> list[str]:
    """Every public line the tables showed, each once, in order: each version of a table's "last moves" log is
    the previous one without its oldest steps plus the new step's lines."""
    lines: list[str] = []
    for message in messages:
        previous: list[str] = []
        for version in [*message.history, message.snapshot()]:
            current = _log_lines(version)
            kept = next(len(previous) - j for j in range(len(previous) + 1)
                        if previous[j:] == current[:len(previous) - j])
            lines += current[kept:]
            previous = current
    return lines

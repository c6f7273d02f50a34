"""The crash test's harness: the Discord double in this process, the bot (``tests.crash._bot``) in another,
killed with SIGKILL at random points while scripted players open, fill and start Hot Potato games and pass the
potato, one game at a time in each of several channels. Every second kill waits for the bot to be in the middle of
a delivery (it has just sent one of a step's requests: a DM, the table's edit), and half the restarts (the 2nd and
3rd of every four, so the 2nd kill is both) come after Discord has forgotten the message nonces (the double's clock is
moved past its nonce memory), so a resumed delivery
that sends again what it already sent shows up as a duplicated send. After every restart it checks that each table
shows its latest version with buttons and an armed turn timer; at the end, that every move that got a success reply
is stored exactly once (lost and duplicated moves) and that no message was sent twice (duplicated sends: one
message's nonce twice in a channel; duplicated tables: a game shown on more than its one living table)."""

from __future__ import annotations

import asyncio
import contextlib
import random
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.db.models import GameAction, OutboxEntry, Timer
from bot.db.session import create_engine, make_sessionmaker
from bot.tables import Table, TableService
from games.core import register
from tests.crash._bot import OK
from tests.discord_double import Channel, DiscordDouble, StoredMessage, User
from tests.discord_double.clock import ManualClock
from tests.discord_double.server import TOKEN
from tests.support.newgame import newgame
from tests.support.processes import BotProcess
from tests.support.tiny_game import ENGINE

WAIT = 3.0  # seconds a scripted player waits for an answer before looking again (the bot may be down)


@dataclass
class Report:
    """What the run did and found. ``problems`` lists every broken invariant (empty: the bot held up)."""

    sent: int = 0
    accepted: int = 0
    lost: int = 0
    duplicated: int = 0
    duplicated_sends: int = 0
    duplicated_tables: int = 0
    kills: int = 0
    kills_in_delivery: int = 0
    restarts_after_nonce_expiry: int = 0
    games: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def duplicated_messages(self) -> int:
        return self.duplicated_sends + self.duplicated_tables

    def lines(self) -> list[str]:
        return [f"moves sent {self.sent}, accepted {self.accepted}, lost {self.lost}, duplicated {self.duplicated}",
                f"sends duplicated {self.duplicated_sends}, tables duplicated {self.duplicated_tables}",
                f"kills {self.kills} ({self.kills_in_delivery} during a delivery, "
                f"{self.restarts_after_nonce_expiry} restarts after the nonce memory expired), games {self.games}",
                *(f"problem: {p}" for p in self.problems)]

    @property
    def ok(self) -> bool:
        return not (self.lost or self.duplicated or self.duplicated_messages or self.problems)


@dataclass(frozen=True)
class Click:
    game_id: int
    version: int
    seat: int
    to: int


def drawn_at(components: list[dict[str, Any]]) -> tuple[int, int] | None:
    """(game id, table version) a table's ``components`` were drawn at (None without pass buttons)."""
    for row in components:
        for item in row.get("components", []):
            parts = str(item.get("custom_id", "")).split(":")
            if len(parts) >= 5 and parts[1] == "g" and parts[4] == "pass":
                return int(parts[2]), int(parts[3])
    return None


def games_shown(message: StoredMessage) -> set[int]:
    """The games whose table ``message`` ever showed (any of its versions)."""
    forms = [*(snapshot["components"] for snapshot in message.history), message.components]
    return {at[0] for components in forms if (at := drawn_at(components)) is not None}


class CrashRun:
    def __init__(self, *, moves: int, games: int, kills: int, seed: int, db_url: str | None, workdir: Path) -> None:
        self.target, self.channels_count, self.kills_planned = moves, games, kills
        self.rng = random.Random(seed)
        self.db_url = db_url or f"sqlite+aiosqlite:///{workdir / 'crash.db'}"
        self.workdir = workdir
        self.report = Report()
        self.clicks: list[Click] = []
        self.accepted: list[Click] = []
        self.running = asyncio.Event()  # set while the players may act (cleared for a kill and its checks)
        self.finished = False
        self.think = 0.0  # mean seconds a player waits after a pass is accepted before the next (0: at once)

    # --- setup --------------------------------------------------------------------------------------------------
    async def run(self) -> Report:
        register(ENGINE)
        self.double = DiscordDouble()
        self.clock = ManualClock()  # moved only past the nonce memory, between a kill and its restart
        self.double.use_clock(self.clock)
        await self.double.start()
        self.double.strict = False
        guild = self.double.add_guild("Crash")
        self.channels: list[Channel] = [guild.add_text_channel(f"game-{n}") for n in range(self.channels_count)]
        self.players: list[User] = [self.double.add_user(n, display_name=n.title()) for n in ("ann", "ben", "cat")]
        for user in self.players:
            guild.add_member(user)
        engine = create_engine(self.db_url)
        self.sessions: async_sessionmaker[AsyncSession] = make_sessionmaker(engine)
        self.tables = TableService(self.sessions)
        self.bot = BotProcess("bot", {"DISCORD_TOKEN": TOKEN, "DATABASE_URL": self.db_url, "LOG_LEVEL": "WARNING",
                                      "DISCORD_API_BASE": self.double.api_base, "SYNC_COMMANDS": "true"},
                              self.workdir / "bot.log", command=("-m", "tests.crash._bot"))
        try:
            await self.bot.start()
            self.running.set()
            players = [asyncio.create_task(self.play(channel)) for channel in self.channels]
            await self.kill_at_random()
            self.finished = True
            self.running.set()
            await asyncio.gather(*players)
            await self.check_tables("at the end")
            await self.count()
        finally:
            await self.bot.kill()
            await engine.dispose()
            await self.double.stop()
        return self.report

    # --- the killer -------------------------------------------------------------------------------------------
    async def kill_at_random(self) -> None:
        """Kill the bot ``kills`` times at random points of the stream, restart it and check every table."""
        marks = sorted(self.rng.sample(range(1, max(self.target, self.kills_planned + 1)), self.kills_planned))
        for n, mark in enumerate(marks):
            await self.until(lambda m=mark: len(self.accepted) >= m or self.finished_moves())
            if n % 2 == 1:
                seen = self._deliveries()
                with contextlib.suppress(TimeoutError):  # (a delivery it sent meanwhile: any will do)
                    await self.until(lambda s=seen: self._deliveries() > s, timeout=10, poll=0.001)
                    self.report.kills_in_delivery += 1
            else:
                await asyncio.sleep(self.rng.uniform(0, 0.05))  # somewhere inside the next moves
            self.running.clear()
            await self.bot.kill()
            self.report.kills += 1
            if n % 4 in (1, 2):  # Discord forgot the nonces of what was sent before the kill
                self.clock.advance(self.double.nonce_memory + 1)
                self.report.restarts_after_nonce_expiry += 1
            await self.bot.start()
            await self.check_tables(f"after kill {self.report.kills}")
            self.running.set()
        await self.until(self.finished_moves)

    def finished_moves(self) -> bool:
        return len(self.accepted) >= self.target

    def _deliveries(self) -> int:
        """How many requests of a step's delivery (a message sent or edited in a channel or DM) the bot made."""
        return sum(1 for r in self.double.requests if r.method in ("POST", "PATCH")
                   and r.path.startswith("/channels/") and "/messages" in r.path)

    @staticmethod
    async def until(condition: Any, timeout: float = 600.0, poll: float = 0.01) -> None:
        async with asyncio.timeout(timeout):
            while not condition():
                await asyncio.sleep(poll)

    # --- the players ------------------------------------------------------------------------------------------
    async def play(self, channel: Channel) -> None:
        while not self.finished_moves():
            await self.running.wait()
            if self.finished:
                return
            table = await self.tables.table_in_channel(channel.id)
            try:
                if table is None:
                    await self.open_game(channel)
                elif table.status == "lobby":
                    await self.fill_and_start(table)
                else:
                    await self.move(channel, table)
                    if self.think:  # a benchmark's paced player (tests keep 0): Poisson clicks, not in lockstep
                        await asyncio.sleep(self.rng.expovariate(1 / self.think))
            except (AssertionError, TimeoutError, LookupError):
                await asyncio.sleep(0.02)  # the bot is down or behind: look again

    async def open_game(self, channel: Channel) -> None:
        handle = await newgame(self.players[0], channel, "potato", "classic", passes=20)
        await handle.response(timeout=WAIT)
        await handle.wait_original(timeout=WAIT)

    async def fill_and_start(self, table: Table) -> None:
        lobby = self.double.message(table.lobby_message_id) if table.lobby_message_id else None
        if lobby is None:
            raise LookupError("no lobby message (yet)")
        for user in self.players:
            if table.seat_of(user.id) is None:
                await (await user.click(lobby, label="Join")).response(timeout=WAIT)
                return
        await (await self.players[0].click(lobby, label="Start")).response(timeout=WAIT)

    def aim(self, channel: Channel, table: Table) -> tuple[User, StoredMessage, str, Click]:
        """The pass the potato's holder clicks next: who, on which status message, which button's custom id, and
        the click, recorded as sent. Raises ``LookupError`` while the channel shows no status of the table's
        current version."""
        status = next((m for m in reversed(self.double.messages(channel)) if m.author.bot
                       and drawn_at(m.components) == (table.id, table.version)), None)
        if status is None:
            raise LookupError("no status of the current version (yet)")
        holder = table.state.holder
        user = next(u for u in self.players if u.id == table.user_of(holder))
        button = self.rng.choice([b for b in status.buttons() if ":pass:" in b["custom_id"]])
        click = Click(table.id, table.version, holder, int(button["custom_id"].rsplit(":", 1)[1]))
        self.clicks.append(click)
        self.report.sent += 1
        return user, status, button["custom_id"], click

    async def move(self, channel: Channel, table: Table) -> None:
        user, status, custom_id, click = self.aim(channel, table)
        handle = await user.click(status, custom_id)
        (answer, *_) = await handle.wait_followups(1, timeout=WAIT)
        if answer.content == OK:
            self.accepted.append(click)

    # --- checks ----------------------------------------------------------------------------------------------
    async def check_tables(self, when: str) -> None:
        """Every step delivered; each running table's last status shows its version with buttons, and its turn
        timer is armed for that version; each lobby has its message."""
        async with asyncio.timeout(30):
            while await self._undelivered():
                await asyncio.sleep(0.02)
        for channel in self.channels:
            table = await self.tables.table_in_channel(channel.id)
            if table is None:
                continue
            if table.status == "lobby":
                if not table.lobby_message_id or self.double.message(table.lobby_message_id) is None:
                    self.report.problems.append(f"{when}: lobby {table.id} has no message")
                continue
            last = next((m for m in reversed(self.double.messages(channel)) if m.author.bot
                         and table.id in games_shown(m)), None)
            if last is None or drawn_at(last.components) != (table.id, table.version):
                self.report.problems.append(f"{when}: game {table.id} v{table.version} is not shown with buttons")
            async with self.sessions() as session:
                armed = (await session.scalars(select(Timer.payload).where(
                    Timer.game_id == table.id, Timer.kind == "turn_timeout", Timer.fired_at.is_(None)))).all()
            if not any(p.get("version") == table.version for p in armed):
                self.report.problems.append(f"{when}: game {table.id} v{table.version} has no turn timer")

    async def _undelivered(self) -> int:
        async with self.sessions() as session:
            return await session.scalar(select(func.count()).select_from(OutboxEntry)
                                        .where(OutboxEntry.delivered_at.is_(None))) or 0

    async def count(self) -> None:
        """Lost: an accepted move missing from the log; duplicated: a stored move no click accounts for;
        duplicated sends: one nonce sent twice in a channel; duplicated tables: a game shown on more than its one
        living table."""
        async with self.sessions() as session:
            log = (await session.scalars(select(GameAction).order_by(GameAction.game_id, GameAction.seq))).all()
        by_game: dict[int, list[GameAction]] = {}
        for action in log:
            by_game.setdefault(action.game_id, []).append(action)
        start: dict[int, int] = {}
        for game_id, actions in by_game.items():
            start[game_id] = (await self.tables.load(game_id)).version - len(actions)

        def stored(click: Click) -> GameAction | None:
            actions = by_game.get(click.game_id, [])
            index = click.version - start.get(click.game_id, 0)
            action = actions[index] if 0 <= index < len(actions) else None
            if action is None or (action.seat, action.action.get("to")) != (click.seat, click.to):
                return None
            return action

        self.report.accepted = len(self.accepted)
        self.report.lost = sum(1 for c in self.accepted if stored(c) is None)
        # the version guard lets a click count at most once, at its version: a move stored twice would be a
        # stored move no click accounts for
        matched = {id(a) for c in set(self.clicks) if (a := stored(c)) is not None}
        self.report.duplicated = len(log) - len(matched)
        self.report.games = len(by_game)
        messages = self.double.all_messages()
        nonces = Counter((m.channel_id, m.nonce) for m in messages if m.nonce)
        shown = Counter(game for m in messages if m.author.bot for game in games_shown(m))  # one living table
        self.report.duplicated_sends = sum(n - 1 for n in nonces.values())
        for (channel_id, nonce), n in nonces.items():
            if n > 1:
                texts = [m.text[:80] for m in messages if m.channel_id == channel_id and m.nonce == nonce]
                self.report.problems.append(f"nonce {nonce} sent {n} times in channel {channel_id}: {texts}")
        self.report.duplicated_tables = sum(n - 1 for n in shown.values())


async def crash_test(*, moves: int, games: int, kills: int, seed: int, db_url: str | None = None) -> Report:
    with tempfile.TemporaryDirectory(prefix="coroner-crash-") as tmp:
        run = CrashRun(moves=moves, games=games, kills=kills, seed=seed, db_url=db_url, workdir=Path(tmp))
        try:
            return await run.run()
        finally:
            log = Path(tmp) / "bot.log"
            if log.exists() and not run.report.ok:
                with contextlib.suppress(OSError):
                    sys.stderr.write(log.read_text()[-4000:])

"""The game's private threads, made, filled and archived by the bot where the server lets it (issue 24).

* The dead and the watchers (kind ``dead``): made when the first player is out or the first onlooker presses Watch
  on the living table; every player out (:func:`bot.threads.members.out_seats`) and every watcher holding no seat
  is in it, a Verdugo prisoner back in play for a new round is taken out. The bot posts only a welcome there:
  nothing that is not on the public table (watchers and the dead see what the channel sees).
* The social mode's Killer and Accomplice (``pair``), made at the recruitment; their secret actions stay where
  they are today (the bot's DMs and the My actions panel), the thread is for their plans.
* A Journalist's interview (``interview:<day>``): the two sides, and a "Say…" button whose text is the engine's
  ``interview_say`` action as a DM is today (logged, in the history); what one side says is posted in the thread
  instead of the other side's DMs. Archived once the interview is over (the day ended, a side died).

Every step resyncs each thread's members from the table, so a change of who holds a seat (``/replace``, the
computer taking a seat over, I'm back) moves the threads with it: the new holder of a seat that belongs in a thread
is added, the old one taken out, and a watcher handed a living seat leaves the thread of the dead (and stops being
a watcher). A person whose seat the computer plays while they are away still holds it, and stays. A thread that
the new holder of a seat could read anyway (Administrator, Manage Threads) is deleted: the DMs go on.

Every thread is archived and locked when the game ends or is cancelled. Without Create Private Threads, Send
Messages in Threads and Manage Threads in the game's channel (or when Discord refuses anyway: 50013), nothing is
made and everything goes by DM as it does without threads: nothing is lost. Nor is a thread made when a seated
player outside it could read it anyway (the server's owner, Administrator or Manage Threads: Discord shows them
every private thread), so a thread never tells a player what the game hides from them. Thread ids and members are stored
(:class:`bot.db.models.GameThread`), so a restarted bot, or another process, goes on with the same threads.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import aiohttp
import discord
from sqlalchemy.exc import IntegrityError

from bot.components import game_button, view_of
from bot.db.models import GameThread
from bot.db.repos import threads as repo
from bot.locks import KeyedLocks
from bot.threads.members import INTERVIEW_TALK, opened_interview, out_seats, plotters, recruited_pair
from bot.ui import Outgoing, RenderContext, ui_for
from games.asesino.social.rules import interview_pair
from games.core import Event

if TYPE_CHECKING:
    from bot.app import Coroner
    from bot.tables import Table

log = logging.getLogger(__name__)

DEAD, PAIR, INTERVIEW = "dead", "pair", "interview"
PRIVATE_THREAD = 12
#: the public event of a seat handed to a person (:func:`games.core.seats.seat_change_key`)
HANDED_TO_PERSON = "seat.replaced.person"
#: a week: the longest auto-archive Discord offers; the bot archives the thread itself at the game's end
AUTO_ARCHIVE_MINUTES = 10080
NAME_LIMIT = 100
#: the ``thread_id`` of a game's record of a thread it will not have (refused, or readable by another player)
NONE = 0
#: Discord's refusals that mean "no thread here": missing permission or access, an archived thread, a thread gone
REFUSED = (discord.Forbidden, discord.NotFound)
Send = Callable[[discord.abc.Messageable, Outgoing, str], Awaitable[discord.Message]]


class GameThreads:
    """The threads of every game this process shows (see the module docstring); ``send`` posts an
    :class:`~bot.ui.Outgoing` with the step's nonce (:meth:`bot.delivery.Delivery.send`)."""

    def __init__(self, bot: Coroner, send: Send) -> None:
        self.bot = bot
        self._send = send
        #: one writer of a game's thread records at a time in this process (a Watch click and a step's delivery
        #: would otherwise each write the members they read before the other's change)
        self._locks = KeyedLocks()

    # --- permissions ----------------------------------------------------------------------------------------
    def allowed(self, channel_id: int) -> bool | None:
        """Whether the bot holds Create Private Threads, Send Messages in Threads and Manage Threads in
        ``channel_id`` (from the cache; None when this process does not have the channel: Discord then says)."""
        channel = self.bot.get_channel(channel_id)
        if not isinstance(channel, discord.TextChannel):
            return None
        perms = channel.permissions_for(channel.guild.me)
        return perms.create_private_threads and perms.send_messages_in_threads and perms.manage_threads

    def offers_watch(self, table: Table) -> bool:
        """A running game in a channel where the bot may make threads shows the Watch button."""
        return table.status == "active" and self.allowed(table.channel_id) is True

    # --- after every step -----------------------------------------------------------------------------------
    async def after_step(self, table: Table, events: list[Event]) -> None:
        """Make, fill and archive the game's threads after a committed step; never raises for Discord."""
        if table.status in ("finished", "cancelled"):
            await self.archive_all(table)
            return
        if table.status != "active" or self.allowed(table.channel_id) is False:
            return
        async with self._locks(table.id):
            await self._after_step(table, events)

    async def _after_step(self, table: Table, events: list[Event]) -> None:
        """Every step (a seat changing hands included: ``/replace``, the computer taking a seat over, I'm back)
        makes each thread's members those the table says now: whoever holds a seat that belongs in it is added,
        whoever no longer does is taken out. A watcher who now holds a living seat leaves the thread of the dead
        and watchers and is no longer stored as a watcher (hidden information: the dead talk freely there)."""
        rows = await self._rows(table.id)
        public = table.engine.view(table.state, None)
        dead = {u for s in out_seats(public) if (u := table.user_of(s)) is not None}
        row = rows.get(DEAD)
        if dead or row is not None:
            watchers = {w for w in (row.watchers if row else ()) if table.seat_of(w) is None}
            await self.sync(table, DEAD, dead | watchers, row, watchers)
        if table.game == "asesino" and table.mode == "social":
            await self._social(table, events, rows)
        if any(e.key == HANDED_TO_PERSON for e in events):
            await self._drop_readable(table)

    async def _drop_readable(self, table: Table) -> None:
        """After a seat was handed to a person: delete each of the game's threads (archived ones too) that a seated
        person outside it could read anyway (:meth:`_readers`: Discord shows them every private thread) and record
        that the game has none of that kind, so everything goes on by DM as without threads, as when such a
        player was seated from the start; kept when this process cannot tell."""
        for row in (await self._rows(table.id)).values():
            if row.thread_id == NONE or not await self._readers(table, set(row.members)):
                continue
            log.info("deleting the %s thread of game %s: a new seat's holder could read it", row.kind, table.id)
            if await self._call(self.bot.http.delete_channel(row.thread_id, reason=f"Coroner: game {table.id}"),
                                "delete"):
                async with self.bot.sessions() as session, session.begin():
                    await repo.forgotten(session, row.id)

    async def _social(self, table: Table, events: list[Event], rows: dict[str, GameThread]) -> None:
        pair, row = recruited_pair(events), rows.get(PAIR)
        if row is not None:  # whoever holds the Killer's and the Accomplice's seats now
            await self.sync(table, PAIR, self._users(table, plotters(table.state)), row)
        elif pair is not None:
            await self.sync(table, PAIR, self._users(table, pair), None)
        interview = opened_interview(events)
        kind = f"{INTERVIEW}:{table.state.day}"
        if interview is not None and kind not in rows:
            await self.sync(table, kind, self._users(table, interview), None)
        talking = interview_pair(table.state)
        for other, row in rows.items():  # an interview that is over (its day ended, a side died) is archived
            if not other.startswith(INTERVIEW) or row.archived_at is not None or row.thread_id == NONE:
                continue
            if other != kind or not talking:
                await self.archive(table, row)
            else:  # still open: whoever holds the Journalist's and the interviewee's seats now
                await self.sync(table, other, self._users(table, talking), row)

    async def divert(self, table: Table, events: list[Event]) -> list[Event]:
        """``events`` without the interview's talk posted in today's interview thread (the other side reads it
        there instead of in their DMs); a post that fails keeps its event for the DMs."""
        talk = [e for e in events if e.key in INTERVIEW_TALK]
        if not talk:
            return events
        row = (await self._rows(table.id)).get(f"{INTERVIEW}:{table.state.day}")
        if row is None or row.thread_id == NONE or row.archived_at is not None:
            return events
        ctx = RenderContext(table, table.language)
        ui = ui_for(table.game, table.mode)
        posted = set()
        for event in talk:
            out = ui.private_event(ctx, event.audience.seats[0], event)
            if await self._post(row.thread_id, out, "t"):
                posted.add(id(event))
        return [e for e in events if id(e) not in posted]

    # --- the threads ----------------------------------------------------------------------------------------
    async def sync(self, table: Table, kind: str, wanted: set[int], row: GameThread | None,
                   watchers: set[int] | None = None) -> GameThread | None:
        """Make the game's ``kind`` thread if it has none (with its welcome) and make its members ``wanted``:
        add the missing, take out the others (``watchers``: the watchers to store, unchanged when None). None
        when the thread cannot be made (no permission: the DMs go on as without threads)."""
        if row is None:
            row = await self._create(table, kind, wanted)
            if row is None:
                return None
        if row.thread_id == NONE:
            return None
        if row.archived_at is not None:
            return row
        members, keep = set(row.members), set(row.watchers) if watchers is None else watchers
        for user_id in sorted(wanted - members):
            if await self._call(self.bot.http.add_user_to_thread(row.thread_id, user_id), "add a member to"):
                members.add(user_id)
        for user_id in sorted(members - wanted):
            if await self._call(self.bot.http.remove_user_from_thread(row.thread_id, user_id), "remove a member of"):
                members.discard(user_id)
        if members != set(row.members) or keep != set(row.watchers):
            async with self.bot.sessions() as session, session.begin():
                await repo.set_members(session, row.id, members, keep)
            row.members, row.watchers = sorted(members), sorted(keep)
        return row

    async def watch(self, table: Table, user_id: int) -> int | None:
        """Add the onlooker ``user_id`` to the game's thread of the dead and watchers (made if needed); the
        thread's id, or None when the bot may not make it."""
        async with self._locks(table.id):
            row = (await self._rows(table.id)).get(DEAD)
            watchers = set(row.watchers if row else ()) | {user_id}
            wanted = set(row.members if row else ()) | {user_id}
            row = await self.sync(table, DEAD, wanted, row, watchers)
        return None if row is None or user_id not in row.members else row.thread_id

    async def thread_with(self, table: Table, user_id: int) -> int | None:
        """The game's open thread of the dead and watchers when ``user_id`` is in it and does not hold a living
        seat (a seat the public view shows out, or none), else None."""
        seat = table.seat_of(user_id)
        if seat is not None and seat not in out_seats(table.engine.view(table.state, None)):
            return None
        row = (await self._rows(table.id)).get(DEAD)
        ok = row is not None and row.thread_id != NONE and row.archived_at is None and user_id in row.members
        return row.thread_id if ok and row is not None else None

    async def archive_all(self, table: Table) -> None:
        """Archive and lock every open thread of the game (it ended or was cancelled)."""
        async with self._locks(table.id):
            for row in (await self._rows(table.id)).values():
                if row.archived_at is None and row.thread_id != NONE:
                    await self.archive(table, row)

    async def archive(self, table: Table, row: GameThread) -> None:
        ctx = RenderContext(table, table.language)
        await self._post(row.thread_id, Outgoing(content=ctx.t("threads.closed"), language=table.language), "x")
        if await self._call(self.bot.http.edit_channel(row.thread_id, archived=True, locked=True,
                                                       reason="Coroner: the game is over"), "archive"):
            async with self.bot.sessions() as session, session.begin():
                await repo.archived(session, row.id, self.bot.clock.now())
            row.archived_at = self.bot.clock.now()

    async def _create(self, table: Table, kind: str, wanted: set[int]) -> GameThread | None:
        """Make the ``kind`` thread and record it; or, when Discord refuses it or a seated player outside it could
        read it anyway (:meth:`_readers`), record that the game has none of that kind (``thread_id`` 0: asked once,
        the DMs go on); None then, and when the row could not be written."""
        if self.allowed(table.channel_id) is False:
            return None
        ctx = RenderContext(table, table.language)
        base = kind.partition(":")[0]
        thread_id = NONE
        readers = await self._readers(table, wanted)
        if readers is None:  # this process cannot tell (the server is on another shard): the next step will
            return None
        if readers:
            log.info("no %s thread for game %s: seats %s could read it (falling back to DMs)", kind, table.id,
                     sorted(readers))
        else:
            try:
                made = await self.bot.http.start_thread_without_message(
                    table.channel_id, name=ctx.t(f"threads.name.{base}", game=table.id)[:NAME_LIMIT],
                    auto_archive_duration=AUTO_ARCHIVE_MINUTES, type=PRIVATE_THREAD, invitable=False,
                    reason=f"Coroner: game {table.id}")
                thread_id = int(made["id"])
            except REFUSED as exc:
                log.info("no %s thread for game %s (falling back to DMs): %s", kind, table.id, exc)
            except (discord.HTTPException, aiohttp.ClientError, OSError):  # not recorded: tried again next step
                log.warning("could not make the %s thread of game %s", kind, table.id, exc_info=True)
                return None
        try:
            async with self.bot.sessions() as session, session.begin():
                row = await repo.add(session, table.id, kind, thread_id, self.bot.clock.now())
        except IntegrityError:  # another process made the game's thread first: use that one
            if thread_id != NONE:
                await self._call(self.bot.http.delete_channel(thread_id), "delete a duplicate")
            return (await self._rows(table.id)).get(kind)
        if thread_id == NONE:
            return None
        await self._post(thread_id, self._welcome(table, ctx, base), "w")
        return row

    async def _readers(self, table: Table, wanted: set[int]) -> set[int] | None:
        """The seats outside ``wanted`` whose people could read a private thread of the channel anyway (server
        owner, Administrator or Manage Threads there: Discord shows them every private thread), as Discord computes
        it from their roles (one member lookup per seated person); None when this process does not have the
        channel's server."""
        channel = self.bot.get_channel(table.channel_id)
        if not isinstance(channel, discord.TextChannel):
            return None
        readers: set[int] = set()
        for seat in table.seats:
            if seat.user_id is None or seat.user_id in wanted:
                continue
            try:
                member = await channel.guild.fetch_member(seat.user_id)  # its roles now, not a cached copy
            except discord.NotFound:
                continue
            except (discord.HTTPException, aiohttp.ClientError, OSError):
                return None
            perms = channel.permissions_for(member)
            if perms.administrator or perms.manage_threads:
                readers.add(seat.seat)
        return readers

    @staticmethod
    def _welcome(table: Table, ctx: RenderContext, base: str) -> Outgoing:
        out = Outgoing(content=ctx.t(f"threads.welcome.{base}", channel=f"<#{table.channel_id}>"),
                       language=table.language)
        if base == INTERVIEW:  # the social UI's text modal for the engine's interview_say
            out.view = view_of(game_button(table.id, 0, "social_write", "interview_say",
                                           label=ctx.t("threads.interview.say"), emoji="🎙️"))
        return out

    # --- plumbing -------------------------------------------------------------------------------------------
    async def _rows(self, game_id: int) -> dict[str, GameThread]:
        async with self.bot.sessions() as session:
            return {row.kind: row for row in await repo.of_game(session, game_id)}

    @staticmethod
    def _users(table: Table, seats: tuple[int, ...]) -> set[int]:
        return {u for s in seats if (u := table.user_of(s)) is not None}

    async def _post(self, thread_id: int, out: Outgoing, purpose: str) -> bool:
        try:
            await self._send(self.bot.get_partial_messageable(thread_id), out, f"{purpose}{thread_id % 1000}")
        except (discord.HTTPException, aiohttp.ClientError, OSError) as exc:
            log.info("could not post in thread %s: %s", thread_id, exc)
            return False
        return True

    @staticmethod
    async def _call(request: Awaitable[Any], what: str) -> bool:
        try:
            await request
        except (discord.HTTPException, aiohttp.ClientError, OSError) as exc:
            log.info("could not %s a game thread: %s", what, exc)
            return False
        return True

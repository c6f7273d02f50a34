"""One living table message per game: the lobby message becomes the table when the game starts and the result when
it ends, edited in place.

* A step edits the table: through the interaction that made the move when it came from the table message (a
  component on it, or a modal one opened: ``interaction.response.edit_message``, callback type 7, or, when the
  move was slow and :func:`bot.deadline.in_time` deferred it (type 6), the deferred response's edit; no cost to
  the bot's REST budget), or through the table click that opened the private panel it was made on
  (:mod:`bot.panels`), else with one PATCH (moves made by DM, by a timer, or on a panel whose click expired).
  :meth:`bot.ui.GameUI.play` sets the interaction (:data:`bot.ui.ANSWERING`).
* The table is posted again (and the old one stripped of its buttons) only when it has scrolled out of sight:
  more than ``table_repost_after`` messages (a ``/config`` setting) arrived in the channel after it, counted from
  the gateway's MESSAGE_CREATE events (no message content needed; those under the lobby before the start are
  counted from what this process's gateway saw, and those posted while the bot was stopped, or that no gateway of
  this process saw, are read from the channel's history the first time a process shows a table it did not show
  itself: a lobby the chat scrolled away starts its table at the bottom), or when the game
  declares a step worth a new message (:meth:`bot.ui.GameUI.fresh_table`).
* The public lines of the last few steps live in the table embed ("Last moves"), not in new messages.
* The turn ping ("▶ your move, @player") is the only other message: sent by a persisted timer when the awaited
  player has not moved within ``turn_ping_seconds``, and deleted on the next step, so the channel holds at most one.

Where the table is, how far the channel has scrolled past it, its "last moves" log and its ping live in the
database (:class:`bot.db.models.LiveTableState`, one row per running game, each change one locked row update), so
a restart keeps them and any bot process may count a channel's messages or show a game's step. The process keeps
only a bounded cache of channels known to hold no game (their messages are not counted).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from datetime import timedelta
from functools import partial
from typing import TYPE_CHECKING, Any

import discord
from cachetools import TTLCache

from bot.db.repos import games, live, timers
from bot.deadline import answer_lock
from bot.panels import Panels
from bot.seen import SeenMessages
from bot.table_log import appended, kept, shown
from bot.tables.model import TimerPlan
from bot.tables.outbox import StepInfo, current_step
from bot.ui import ANSWERING, Outgoing, RenderContext

if TYPE_CHECKING:
    from sqlalchemy.ext.asyncio import AsyncSession

    from bot.app import Coroner
    from bot.db.models import LiveTableState
    from bot.tables import Table

log = logging.getLogger(__name__)

PING_TIMER = "turn_ping"
QUIET_CHANNELS = 10_000  # channels remembered as holding no game (the least recently seen are forgotten first)
QUIET_FOR = timedelta(minutes=5)  # and for how long, should a game start there unseen by this process


async def _nothing() -> None:
    """Nothing to do once a write committed."""


def edit_kwargs(out: Outgoing) -> dict[str, Any]:
    """Keyword arguments for ``Message.edit`` / ``response.edit_message``: ``out`` replaces everything (content,
    embeds, components, attachments), budgeted like every message (:meth:`bot.ui.Outgoing.kwargs`)."""
    return out.kwargs(edit=True)


class LiveTable:
    """Shows each step on its game's table message and keeps, in the database, how far that message scrolled."""

    def __init__(self, bot: Coroner) -> None:
        self.bot = bot
        #: channel id -> True: no game there when last looked (bounded, and expiring on the bot's clock)
        self._quiet: TTLCache[int, bool] = TTLCache(maxsize=QUIET_CHANNELS, ttl=QUIET_FOR.total_seconds(),
                                                    timer=lambda: bot.clock.now().timestamp())
        #: games whose table this process has counted the channel's messages under (see :meth:`_catch_up`)
        self._caught_up: set[int] = set()
        #: table messages this process just posted, until the gateway says they were created: none is counted under
        #: a table (its game's table row moves to it, its count starting at zero), so none costs a statement
        self._posted: TTLCache[int, bool] = TTLCache(maxsize=QUIET_CHANNELS, ttl=QUIET_FOR.total_seconds(),
                                                     timer=lambda: bot.clock.now().timestamp())
        #: the latest messages this process's gateway saw per channel (:meth:`_catch_up` counts on them first)
        self._seen = SeenMessages()
        #: the table clicks private panels were opened from: a move made on one edits the table through it
        self.panels = Panels()
        bot.add_listener(self.on_message, "on_message")
        bot.add_listener(self.on_disconnect, "on_disconnect")

    # --- counting what scrolls the table away -----------------------------------------------------------------
    async def on_message(self, message: discord.Message) -> None:
        """MESSAGE_CREATE in a server channel: one more message after the tables of that channel (content is not
        read). A channel found without a game (after a message of someone else's: the bot's own one may be a lobby
        just opened) is not looked at again for a while, unless the bot itself posts there (a lobby, a table: a
        game may live there now)."""
        if message.guild is None:
            return
        channel_id = message.channel.id
        self._seen.saw(channel_id, message.id)  # (every channel's: a quiet one may hold a lobby any moment)
        own = self.bot.user is not None and message.author.id == self.bot.user.id
        if own:
            self._quiet.pop(channel_id, None)
            if self._posted.pop(message.id, None):  # a table this process posted: nothing to count it under
                return
        elif channel_id in self._quiet:
            return
        async with self.bot.sessions() as session, session.begin():
            # the bot's own message (a lobby, say) is not looked into: a game may live there now, and the next
            # message of someone else finds out whether the channel is quiet
            if not await live.count_message(session, channel_id, message.id) and not own and (
                    await games.active_game_in_channel(session, channel_id) is None):
                self._quiet[channel_id] = True

    async def on_disconnect(self) -> None:
        """The gateway disconnected: the messages seen so far may not be followed by all that come next."""
        self._seen.forget()

    # --- showing --------------------------------------------------------------------------------------------
    async def show(self, table: Table, lines: list[str], render: Callable[[list[str]], Outgoing], *,
                   fresh: bool = False, ping: TimerPlan | None = None) -> None:
        """Show a step with public ``lines`` on the game's table message; ``render(log)`` draws the table around
        the "last moves" ``log``. The interaction's own edit or a PATCH; a new message (stripping the old one of
        its buttons, its log starting with this step) when more than ``table_repost_after`` messages came after
        the table, it was never shown or is gone, or the step is ``fresh``. The log is stored while the message
        is edited, or once it is posted (only a read comes before the click's answer), keyed by the step, so a
        step shown again after a crash is neither lost nor repeated (one deliverer per game at a time writes
        it: :class:`bot.tables.outbox.Deliverer`). ``ping``: the turn ping's timer this step arms
        (:meth:`ping_plan`), written with the log, in its transaction."""
        message_id = table.table_message_id or table.lobby_message_id
        step = current_step()
        key = step.entry_id if step is not None else None
        if ping is not None and step is not None and ping.kind in step.deadlines:
            ping = None  # armed by the step itself, in its transaction
        lobby = False  # the lobby message is about to become the table (it never showed it)
        if message_id and not fresh:
            config = await self.bot.config(table.guild_id)
            row: LiveTableState | live.Snapshot | None
            if step is not None and step.table_row is not None and step.table_row.message_id == message_id:
                row = step.table_row  # read with the step's delivery lease (only its holder writes the log)
            else:
                async with self.bot.sessions() as session:
                    row = await live.get(session, table.id)
            same = row is not None and row.message_id == message_id
            after = row.messages_after if same and row is not None else 0
            lobby = row is None and message_id == table.lobby_message_id
            if (same or lobby) and table.id not in self._caught_up:
                after = await self._catch_up(table, message_id, after, config.table_repost_after)
            if after <= config.table_repost_after and not (same and row is not None and kept(row.log)):
                steps = appended(row.log if same and row is not None else [], key, lines)
                known = row if same and table.table_message_id == message_id else None
                counted = after if lobby else 0  # the chat under the lobby counts under the table it became
                early = None
                if step is not None:  # written with the step's "delivered" mark
                    early = self._record_with(step, table, message_id, steps, ping, known, counted)
                    record = None
                else:
                    record = asyncio.create_task(self._record(table, message_id, steps, ping, known, counted))
                ping = None  # armed with that record, whatever the edit does
                try:
                    await self._edit(table, message_id, render(shown(steps)))
                except discord.NotFound:
                    log.info("the table message of game %s is gone: posting a new one", table.id)
                    if record is None and step is not None:
                        step.discard()
                else:
                    if early is not None:
                        await early()
                    return
                finally:
                    if record is not None:
                        await record
        steps = appended([], key, lines, anew=True, keep=fresh)
        channel = await self.bot.delivery.channel(table.channel_id)
        message = await self.bot.delivery.send(channel, render(shown(steps)), "t")  # a nonce while a step is shown
        self._posted[message.id] = True
        if step is not None:  # with the step's "delivered" mark: shown again, its nonce (or its record) finds it
            # (the row as the lease's claim read it, when it stands: one UPDATE moves it to the new message)
            early = self._record_with(step, table, message.id, steps, ping, step.table_row)
        else:
            early = None
            await self._record(table, message.id, steps, ping)
        if message_id and message.id != message_id:  # (the same id: this step shown again, its nonce returned it)
            await self.strip(table.channel_id, message_id, render(shown(steps)) if lobby else None)
        if early is not None:
            await early()

    async def _catch_up(self, table: Table, message_id: int, counted: int, repost_after: int) -> int:
        """How many messages are under the table message ``message_id``, at least ``counted``: the first time this
        process shows a game another process (or this bot before a restart) showed last, or the lobby message that
        becomes the table at the start (the chat while players gathered), the messages after it are counted and
        stored, so messages no process counted (posted while the bot was stopped, or under a lobby) count too:
        from what this process's gateway saw when it saw ``message_id`` posted (:class:`bot.seen.SeenMessages`: no
        request, the usual case at a start), else from the channel's history (up to one more than
        ``repost_after``, one request). Unreadable history leaves ``counted``."""
        self._caught_up.add(table.id)
        if counted > repost_after:
            return counted
        seen = self._seen.after(table.channel_id, message_id)  # this process saw it posted: no request
        if seen is None:
            channel = await self.bot.delivery.channel(table.channel_id)
            try:
                seen = len([m async for m in channel.history(  # type: ignore[attr-defined]
                    limit=repost_after + 1, after=discord.Object(id=message_id))])
            except discord.HTTPException:
                log.debug("could not read the messages under the table of game %s", table.id)
                return counted
        if seen <= counted:
            return counted
        async with self.bot.sessions() as session, session.begin():
            await live.count_at_least(session, table.id, message_id, seen)
        return seen

    async def _record(self, table: Table, message_id: int, steps: list[Any], ping: TimerPlan | None = None,
                      known: LiveTableState | live.Snapshot | None = None, counted: int = 0) -> None:
        """Store what ``message_id`` now shows, take the turn ping away (it asked for the move just shown) and arm
        the next one's timer (``ping``), in one transaction of its own (a table shown outside a step's delivery);
        see :meth:`_write`."""
        self._caught_up.add(table.id)
        async with self.bot.sessions() as session, session.begin():
            old, moved = await self._write(session, table, message_id, steps, ping, known, counted)
        await self._recorded(table, message_id, old, moved, ping)

    def _record_with(self, step: StepInfo, table: Table, message_id: int, steps: list[Any],
                     ping: TimerPlan | None = None, known: LiveTableState | live.Snapshot | None = None,
                     counted: int = 0) -> Callable[[], Awaitable[None]]:
        """:meth:`_record`, written in the transaction that marks ``step`` delivered (:meth:`StepInfo.record`): one
        transaction for the step's delivery. Returns what to call once the step is shown: it deletes the turn ping
        the record takes away (``known``'s) at once, not when the mark is written (it may be held for the next
        move: :mod:`bot.tables.marks`), and only once."""
        self._caught_up.add(table.id)
        written: list[tuple[int | None, bool]] = []
        if table.table_message_id != message_id:
            # the table moves to ``message_id`` (the lobby message becomes the table, or a new one is posted): written
            # with the step's mark at once, never held for the next move (:mod:`bot.tables.marks`), so that whoever
            # reads the game finds its table where it is
            step.write_at_once()

        async def write(session: AsyncSession) -> None:
            old, moved = await self._write(session, table, message_id, steps, ping, known, counted)
            if moved and message_id == table.lobby_message_id:
                # the lobby message became the table: every table read before names that message all the same
                # (as its lobby's), so the table this process remembers is told (before the commit: a move made
                # on it meanwhile finds the message guard stale and reads again) and no step's table is read anew
                self.bot.tables.shown_in(table.id, message_id)
                moved = False
            written[:] = [(old, moved)]

        gone: list[int] = []

        async def after() -> None:
            if written:
                old, moved = written[0]
                await self._recorded(table, message_id, None if old in gone else old, moved, ping)

        async def early() -> None:
            if known is not None and known.ping_message_id is not None:
                gone.append(known.ping_message_id)
                await self._delete(table, known.ping_message_id)

        step.write_with(write, after)
        return early

    async def _write(self, session: AsyncSession, table: Table, message_id: int, steps: list[Any],
                     ping: TimerPlan | None, known: LiveTableState | live.Snapshot | None,
                     counted: int) -> tuple[int | None, bool]:
        """Store what ``message_id`` now shows (its log ``steps``, and ``counted`` messages under it at least: the
        chat under a lobby that became the table), take the turn ping away and arm ``ping``, in ``session``;
        ``known``: the game's row as read before, showing ``message_id`` (then one statement records it while the
        row is unchanged). Returns the ping to delete and whether ``games.table_message_id`` may have moved. From
        now on this process's gateway counts the messages under it (no :meth:`_catch_up`)."""
        now = self.bot.clock.now()
        if known is not None and known.message_id == message_id and await live.show_again(session, known, steps,
                                                                                            now):
            old, moved = known.ping_message_id, False
        elif known is not None and known.message_id != message_id and await live.show_anew(
                session, known, message_id, steps, now):  # a new table message, in place of the one read
            old, moved = known.ping_message_id, True
        else:  # (this may move games.table_message_id: a table read before no longer says where the table is)
            row = await live.show(session, table.id, table.channel_id, message_id, steps, now)
            # the ping taken away on the row show locked and returned (no read of it again)
            old, row.ping_message_id, moved = row.ping_message_id, None, True
        if counted:
            await live.count_at_least(session, table.id, message_id, counted)
        if ping is not None:
            await timers.schedule(session, table.id, ping.kind, ping.due_at, ping.payload, table.version)
        return old, moved

    async def _recorded(self, table: Table, message_id: int, old: int | None, moved: bool,
                        ping: TimerPlan | None) -> None:
        """After the commit of what :meth:`_write` recorded: the table service is told where the table is when it
        may have moved (:meth:`bot.tables.TableService.moved_to`: the table it remembers holds on), the ping's
        timer wakes the timer loop, the old ping goes."""
        if moved:
            self.bot.tables.moved_to(table.id, message_id)
        if ping is not None:
            self.bot.timers.wake(ping.due_at)
        await self._delete(table, old)

    async def forget(self, table: Table) -> None:
        """The game ended: its table message stays as the result; its row goes (no count, no ping left). During a
        step's delivery, in the transaction that marks it delivered, after what its table's record writes there
        (which would otherwise write the row anew)."""
        self._caught_up.discard(table.id)
        step = current_step()
        if step is not None:
            step.write_with(partial(live.forget, game_id=table.id), _nothing)
            return
        async with self.bot.sessions() as session, session.begin():
            await live.forget(session, table.id)

    async def _edit(self, table: Table, message_id: int, out: Outgoing) -> None:
        interaction = ANSWERING.get()
        if interaction is not None and (interaction.message is None or interaction.message.id != message_id):
            interaction = self.panels.opener(interaction) or interaction  # a move made on a private panel
        if interaction is not None and interaction.message is not None and interaction.message.id == message_id:
            ANSWERING.set(None)  # one answer per interaction
            try:
                async with answer_lock(interaction):  # bot.deadline.in_time may be deferring it right now
                    if not interaction.response.is_done():
                        await interaction.response.edit_message(**edit_kwargs(out))
                        return
                    if interaction.response.type == discord.InteractionResponseType.deferred_message_update:
                        await interaction.edit_original_response(**edit_kwargs(out))
                        return
            except discord.HTTPException:  # the interaction expired: the table is edited like any other message
                log.warning("could not answer interaction %s with the table; editing it", interaction.id)
        channel = await self.bot.delivery.channel(table.channel_id)
        await channel.get_partial_message(message_id).edit(**edit_kwargs(out))  # type: ignore[attr-defined]

    async def strip(self, channel_id: int, message_id: int | None, table: Outgoing | None = None) -> None:
        """Take the buttons and the "Waiting on" line (the message's text) off an earlier table message: nothing
        waits on it any more (best effort: it may be gone); ``table``: draw that table there instead, without its
        buttons (the lobby message, which never showed the table)."""
        if not message_id:
            return
        channel = await self.bot.delivery.channel(channel_id)
        if table is not None:
            table.view = None
        try:
            await channel.get_partial_message(message_id).edit(  # type: ignore[attr-defined]
                **(edit_kwargs(table) if table is not None else {"view": None, "content": None}))
        except discord.HTTPException:
            log.debug("could not clear the components of %s", message_id)

    # --- the turn ping ----------------------------------------------------------------------------------------
    async def ping_plan(self, table: Table) -> TimerPlan | None:
        """The turn ping's timer a step shown on the table arms (:meth:`show` writes it with the table's log, and
        takes the earlier ping away): due when the awaited players have not moved within the grace period; None
        when nobody is awaited."""
        if table.status != "active" or not awaited(table):
            return None
        config = await self.bot.config(table.guild_id)
        due = self.bot.clock.now() + timedelta(seconds=config.turn_ping_seconds)
        return TimerPlan(PING_TIMER, due, {"version": table.version})

    async def unping(self, table: Table) -> None:
        """Delete the game's turn ping, if it has one (best effort: it may be gone)."""
        async with self.bot.sessions() as session, session.begin():
            ping = await live.set_ping(session, table.id, None)
        await self._delete(table, ping)

    async def _delete(self, table: Table, message_id: int | None) -> None:
        if message_id is None:
            return
        channel = await self.bot.delivery.channel(table.channel_id)
        try:
            await channel.get_partial_message(message_id).delete()  # type: ignore[attr-defined]
        except discord.HTTPException:
            log.debug("could not delete the turn ping %s", message_id)

    async def ping(self, table: Table, key: str = "turn.ping") -> None:
        """Post the ping ``key`` (``{seats}``: mentions of the awaited players), replacing an earlier one; none for
        a game whose table was never shown. Should the game move on while it is posted, it goes again."""
        seats = awaited(table)
        if not seats:
            return
        async with self.bot.sessions() as session:
            if await live.get(session, table.id) is None:
                return
        await self.unping(table)  # first, so that the channel never holds two
        ctx = RenderContext(table, table.language)
        text = ctx.t(key, seats=", ".join(ctx.mention(s) for s in seats))
        channel = await self.bot.delivery.channel(table.channel_id)
        message = await channel.send(**Outgoing(content=text, mentions=True).kwargs())
        async with self.bot.sessions() as session, session.begin():
            replaced = await live.set_ping(session, table.id, message.id)
        await self._delete(table, replaced)  # (one another process posted meanwhile)
        if (await self.bot.tables.load(table.id)).version != table.version:  # a step came meanwhile
            await self.unping(table)

    async def on_ping_timer(self, timer: Any) -> None:
        """The grace period ran out: ping unless the game moved on."""
        table = await self.bot.tables.load(timer.game_id)
        if table.status == "active" and table.version == timer.payload.get("version"):
            await self.ping(table)


def awaited(table: Table) -> list[int]:
    """The seats a ping names: those the game waits on, when the game says they are pinged (not in a real-time
    game where everyone acts at once) and not hidden (e.g. the Prosecutor asked to accuse); never a seat the
    computer plays (it moves on its own, :mod:`bot.ai_seats`); nobody while the host has paused the game."""
    waiting = table.engine.waiting(table.state) if table.state is not None and not table.paused else None
    if waiting is None or not waiting.pings or waiting.hidden:
        return []
    computer = set(table.ai_seats())
    return [seat for seat in waiting.seats if seat not in computer]

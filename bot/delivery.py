"""Delivering a step's events: public lines into the game's living table (:mod:`bot.live_table`), seat events by DM
(with the "My secrets" fallback when a DM is refused), medium events to the server's official medium channel.

Everything public is rendered from public events and ``engine.view(state, None)`` only. A seat event the game's UI
calls an echo (:meth:`bot.ui.GameUI.echoes`: one that only repeats the move its player just made) is not sent: DMs
go out only when a seat's private information changed. What the events become for their audiences is
:mod:`bot.step_events` (pure rendering, shared with the history and the simulator).
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import TYPE_CHECKING, Any

import aiohttp
import discord

from bot.ai_seats import ai_timers
from bot.components import HistoryButton, host_button, secrets_button, view_of, watch_button
from bot.live_table import LiveTable
from bot.reach import UNKNOWN_CHANNEL
from bot.seat_controls import away_notices, back_button
from bot.step_events import merged, outcome_embed, split_events
from bot.tables.model import ROUND_FINISHED, TimerPlan
from bot.tables.outbox import current_step
from bot.threads import GameThreads
from bot.ui import MAX_FIELDS, Outgoing, RenderContext, text_name, ui_for
from games.core import Event

if TYPE_CHECKING:
    from bot.app import Coroner
    from bot.tables import Table

log = logging.getLogger(__name__)
DM_CLOSED = 50007
#: a message's component slots: 5 rows of 5 (a select fills a row)
MAX_COMPONENTS = 25
#: how far back a resumed delivery looks for a message its crashed predecessor was creating (the anchor is the
#: bot's clock less this, as a snowflake) and among how many of the channel's messages after it
CLOCK_SKEW = timedelta(seconds=5)
LOOKBACK = 20


def _looks(content: str | None, embeds: list[discord.Embed]) -> tuple[str, tuple[tuple[str, str], ...]]:
    """What tells two of the bot's messages apart: the text and each embed's title and description."""
    return content or "", tuple((e.title or "", e.description or "") for e in embeds)


class Delivery:
    """The table service's ``deliver`` callback (called after each commit)."""

    def __init__(self, bot: Coroner) -> None:
        self.bot = bot
        self.live = LiveTable(bot)
        self.threads = GameThreads(bot, self.send)

    async def __call__(self, table: Table, events: list[Event]) -> None:
        """Show a committed step: the table first (it may be the answer to the click that made the move), then
        one DM per seat whose private information changed, then the official medium's posts."""
        ctx = RenderContext(table, table.language)
        ui = ui_for(table.game, table.mode)
        events = await self.threads.divert(table, events)  # an interview's talk, posted in its thread
        lines, private, medium = split_events(ctx, ui, events)
        # a computer player's private events go nowhere: it has no DMs to read them in
        private = {seat: outs for seat, outs in private.items() if table.user_of(seat) is not None}
        public = table.engine.view(table.state, None)
        step = current_step()
        changed = step is None or step.public_changed(public)  # outside a step's delivery: unknown, so changed
        gone = False  # the game's channel was deleted: nothing more is said there
        if table.status in ("active", "finished", "cancelled") and (lines or changed):
            # a step with no public event and no change to the public view shows nothing: a changed table after
            # a secret action (a social-mode night action, say) would tell the channel that someone just acted
            try:
                await self.live.show(table, lines, lambda log_lines: self.status_message(table, log_lines, public),
                                     fresh=ui.fresh_table(table, events), ping=await self.live.ping_plan(table))
            except discord.NotFound as exc:
                if exc.code != UNKNOWN_CHANNEL:
                    raise
                gone = True
                # its channel was deleted: nothing can be shown there again, and the game ends for it (bot.gone);
                # the step's DMs still go out (trying it again would fail the same way)
                log.info("the channel of game %s is gone: its step is shown by DM only", table.id)
        await self.threads.after_step(table, events)
        if table.status in ("finished", "cancelled"):
            await self.live.forget(table)
            if not gone:
                await self.close_notices(table)
        for seat, outs in private.items():
            for out in merged(outs):
                await self.dm(table, seat, out)
        for seat, out in away_notices(table, events):  # "the computer plays for you", with I'm back
            await self.dm(table, seat, out)
        if step is not None and step.kind == "start":  # every seat's DMs are tried when the game starts
            await self._probe_dms(table, private)
        for out in merged(medium):  # one message per step where Discord's limits allow (issue 20)
            await self.post_medium(table, out)
        if not gone and (lines or (step is not None and step.kind == "start")):
            await self._report_closed_dms(table)

    # --- channels -------------------------------------------------------------------------------------------
    async def send(self, channel: discord.abc.Messageable, out: Outgoing,
                   purpose: str) -> discord.Message | discord.PartialMessage:
        """Send ``out``; during a step's delivery, once per step whatever crashes come between (issue 22): each
        message's creation is recorded in the step's ``outbox.sent`` (:meth:`~bot.tables.outbox.StepInfo.creating`;
        with the step itself, for the whole delivery, when its transaction recorded the plan's intent) and goes
        with the step's nonce for ``purpose`` (``enforce_nonce``: Discord returns the message already created for
        a nonce it remembers, a few minutes). A delivery resumed after a crash does not send again a
        message recorded as created (a partial message comes back), nor one whose creation was under way when it
        crashed and that the channel's latest messages show (:meth:`_already_there`; never one this delivery took
        for another of its messages)."""
        step = current_step()
        kwargs = out.kwargs()
        if step is None:
            return await channel.send(**kwargs)
        nonce = kwargs["nonce"] = step.nonce(purpose)  # discord.py sets enforce_nonce with every nonce
        known = step.created(nonce)
        if known is not None and known > 0:
            return channel.get_partial_message(known)  # type: ignore[attr-defined,no-any-return]
        if known is not None and (there := await self._already_there(channel, kwargs, -known,
                                                                     step.taken())) is not None:
            step.made(nonce, there.id)
            return there
        await step.creating(nonce, discord.utils.time_snowflake(self.bot.clock.now() - CLOCK_SKEW))
        message = await channel.send(**kwargs)
        step.made(nonce, message.id)
        return message

    async def _already_there(self, channel: discord.abc.Messageable, kwargs: dict[str, Any],
                             anchor: int, taken: set[int]) -> discord.Message | None:
        """The bot's message like ``kwargs`` (same text, same embeds' titles and descriptions) among the channel's
        :data:`LOOKBACK` first messages after ``anchor`` (a snowflake), if any: one a crashed delivery created
        without recording it (Discord's history carries no nonce), and not one of ``taken`` (ids this delivery took
        for its other messages). None when there is none or the history cannot be read (then it is sent again)."""
        want = _looks(kwargs.get("content"), kwargs.get("embeds") or [])
        try:
            async for message in channel.history(  # type: ignore[attr-defined]
                    limit=LOOKBACK, after=discord.Object(id=anchor), oldest_first=True):
                if (self.bot.user is not None and message.author.id == self.bot.user.id
                        and message.id not in taken and _looks(message.content, message.embeds) == want):
                    return message  # type: ignore[no-any-return]
        except discord.HTTPException:
            log.warning("could not look for a message a crashed delivery may have sent")
        return None

    async def channel(self, channel_id: int) -> discord.abc.Messageable:
        """Where to send into or edit in a game's channel: the cached channel when this process holds the shard of
        its server, else a :class:`discord.PartialMessageable` (no REST lookup): a process applies moves of games
        on any shard (a DM, which only shard 0 receives; a timer, which any process claims) and shows them in
        their channel all the same."""
        channel = self.bot.get_channel(channel_id)
        return channel or self.bot.get_partial_messageable(channel_id)  # type: ignore[return-value]

    async def post_medium(self, table: Table, out: Outgoing) -> None:
        """Post ``out`` in the server's official medium (none set: the game's channel). A medium Discord refuses
        (403: the bot may no longer post there; 404: deleted) gets it in the game's channel instead, so no post
        is lost (``/config medium`` and the social game's start refuse such a channel:
        :func:`bot.reach.cannot_post`)."""
        config = await self.bot.config(table.guild_id)
        target = config.medium_channel_id or table.channel_id
        out.language = table.language
        try:
            await self.send(await self.channel(target), out, "m")
        except (discord.Forbidden, discord.NotFound):
            if target == table.channel_id:
                raise
            log.warning("the official medium %s refused game %s's post: posted in its channel", target, table.id)
            await self.send(await self.channel(table.channel_id), out, "M")

    async def dm(self, table: Table, seat: int, out: Outgoing) -> bool:
        """DM ``seat``; ``False`` when it failed (closed DMs: Discord's error 50007), recorded for the channel's
        closed-DM notice (:meth:`_report_closed_dms`) — the game goes on."""
        user_id = table.user_of(seat)
        if user_id is None:
            return True
        try:
            # create_dm takes a bare snowflake and caches the DM channel: no user lookup per message
            channel = await self.bot.create_dm(discord.Object(id=user_id))
            out.language = table.language
            await self.send(channel, out, f"d{seat}")
        except discord.Forbidden as exc:
            if exc.code != DM_CLOSED:
                log.warning("DM to %s refused: %s", user_id, exc)
            self.bot.metrics.dm_failed(closed=True)
            await self.bot.tables.dm_refused(table.id, user_id, closed=True)
            return False
        except (discord.HTTPException, aiohttp.ClientError, OSError):  # one lost DM must not stop the table
            log.warning("DM to %s failed", user_id, exc_info=True)
            self.bot.metrics.dm_failed(closed=False)
            await self.bot.tables.dm_refused(table.id, user_id, closed=False)
            return False
        return True

    async def _probe_dms(self, table: Table, reached: dict[int, list[Outgoing]]) -> None:
        """DM every person the start's own events did not ``reach`` a short "the game started" note (computer
        players have no DMs)."""
        ctx = RenderContext(table, table.language)
        note = Outgoing(content=ctx.t("dm.started", channel=f"<#{table.channel_id}>"))
        for seat in table.seats:
            if seat.seat not in reached and not seat.is_ai:
                await self.dm(table, seat.seat, note)

    async def _report_closed_dms(self, table: Table) -> None:
        """Say in the channel whose DMs failed; called at the start and afterwards only with a step that has
        public lines, so the notice never follows, and so points at, the secret action whose DM failed. The seats
        waiting for it are in the database (``seats.dm_notice_due``), so whichever process shows the game's next
        public step says it; a seat whose DMs are closed is said once (its ``dm_ok`` stays False). Said, then
        marked said: a crash between says it again on the step's redelivery, which the step's nonce folds into
        the message already sent."""
        seats = await self.bot.tables.dm_notices_due(table.id)
        if seats:
            await self.dm_fallback(table, seats)
            await self.bot.tables.dm_notices_said(table.id, seats)

    async def dm_fallback(self, table: Table, seats: list[int]) -> None:
        ctx = RenderContext(table, table.language)
        text = ctx.t("dm.closed", seats=", ".join(ctx.mention(s) for s in seats))
        view = view_of(secrets_button(table.id, ctx.t("secrets.button")))
        out = Outgoing(content=text, view=view, mentions=True, language=table.language)
        await self.send(await self.channel(table.channel_id), out, "f")

    async def close_notices(self, table: Table) -> None:
        """The game is over (finished or cancelled): its closed-DM notices (:meth:`dm_fallback`) lose their
        "My secrets" button, which has nothing left to act on. Only for a game where some seat's DMs were closed;
        the channel's messages since the game's first message are read once (at most 100, best effort)."""
        if all(seat.dm_ok for seat in table.seats):
            return
        since = table.lobby_message_id or table.table_message_id
        wanted = secrets_button(table.id, "").custom_id
        channel = await self.channel(table.channel_id)
        try:
            async for message in channel.history(  # type: ignore[attr-defined]
                    limit=100, after=discord.Object(id=since) if since else None):
                if self.bot.user is not None and message.author.id != self.bot.user.id:
                    continue
                ids = {getattr(child, "custom_id", None) for row in message.components
                       for child in getattr(row, "children", [])}
                if wanted in ids:
                    await message.edit(view=None)
        except discord.HTTPException:
            log.debug("could not take the My secrets buttons off game %s's notices", table.id)

    # --- the table status -----------------------------------------------------------------------------------
    def status_message(self, table: Table, lines: list[str], public: dict[str, Any] | None = None, *,
                       full: bool = False) -> Outgoing:
        """The public table: the table embed with ``lines`` (the "last moves" log) as its last field, who the game
        waits on, and the components, all from ``public`` (``engine.view(state, None)``, computed here when not
        given); once finished, the result with a History button (the timeline, see :mod:`bot.cogs.history`); once
        cancelled (the view then reveals what a finished game does), only the History button; while paused, who
        paused it instead of who the game waits on, and no move's controls. A running table has the host's button
        (:func:`bot.components.host_button`). ``full`` (``/status``): the UI's
        :meth:`~bot.ui.GameUI.status_embeds` follow the table."""
        ctx = RenderContext(table, table.language)
        ui = ui_for(table.game, table.mode)
        if public is None:
            public = table.engine.view(table.state, None)
        embed = ui.table_embed(ctx, public)
        files = ui.table_files(ctx, public)
        if lines and len(embed.fields) < MAX_FIELDS:  # the budget cuts a long log with "…and N more"
            embed.add_field(name=ctx.t("table.last_moves"), value="\n".join(lines), inline=False)
        content = None
        embeds = [embed, *(ui.status_embeds(ctx, public) if full else [])]
        items: list[discord.ui.Item[Any]] = []
        mentions = False
        paused = table.engine.paused(table.state) if table.paused else None
        if table.status in ("finished", "cancelled"):
            if table.status == "finished":
                embeds.append(outcome_embed(ctx, table))
            items = [HistoryButton("game", table.id, 0, label=ctx.t("history.button"), emoji="📜")]
        elif paused is not None:
            content = ctx.t("host.paused_by", by=text_name(paused.by))
            items = [secrets_button(table.id, ctx.t("secrets.button")), host_button(table.id, ctx.t("host.button"))]
        else:
            waiting = table.engine.waiting(table.state) if table.status == "active" else None
            if waiting is not None and waiting.pings and not waiting.hidden:
                content = ctx.t("turn.waiting_on", seats=", ".join(ctx.mention(s) for s in waiting.seats))
                mentions = True
            items = [*ui.turn_items(ctx, public), secrets_button(table.id, ctx.t("secrets.button")),
                     host_button(table.id, ctx.t("host.button"))]
            away = [s.seat for s in table.seats if s.away] if table.status == "active" else []
            if away:  # the computer plays for them until they press "I'm back"
                items.append(back_button(table, ctx.t("seat.button.back")))
                if len(embed.fields) < MAX_FIELDS:
                    embed.add_field(name="\u200b", inline=False,
                                    value=ctx.t("seat.playing", seats=", ".join(ctx.shown_name(s) for s in away)))
            if self.threads.offers_watch(table) and sum(item.width for item in items) < MAX_COMPONENTS:  # room
                items.append(watch_button(table.id, ctx.t("threads.watch.button")))
        return Outgoing(content=content, embeds=embeds, files=files,
                        view=view_of(*items) if items else None, mentions=mentions, language=table.language)

    async def show_table(self, table: Table) -> None:
        """Show the table as it is now (e.g. a game whose start produced no event)."""
        await self.live.show(table, [], lambda log_lines: self.status_message(table, log_lines))

    # --- turn timers ----------------------------------------------------------------------------------------
    async def timers_for(self, table: Table) -> list[TimerPlan]:
        """The timers the step that produced ``table`` arms (the table service's ``plan``, recorded in the step's
        transaction): for engines that define ``timeout_action``, while the game waits on seats it pings, a
        warning at half the turn time and the bot's move at the time limit, both carrying the version they were
        armed at (they do nothing once the game moved on), and the UI's own :meth:`~bot.ui.GameUI.step_timers`;
        none when the step leaves open a decision whose timers were armed before
        (:attr:`bot.tables.Table.decision_opened`, from the engine's ``Waiting.open_for``); the ``ai_move`` of a
        computer player whenever the step waits on one
        (:mod:`bot.ai_seats`); the game's own clock's (:meth:`~bot.ui.GameUI.clock_timers`); when a round of a
        series ends, the timer that opens the next round."""
        if table.status == "finished":
            series = table.series_id is not None and not table.abandoned  # (an abandoned round ends nothing)
            return [TimerPlan(ROUND_FINISHED, self.bot.clock.now())] if series else []
        if table.paused:  # nothing runs while paused (the resume gives the held timers the time they had left)
            return []
        now = self.bot.clock.now()
        ui = ui_for(table.game, table.mode)
        # a computer player's move, at every step that waits on one; the game's own clock (a day's end)
        ai = [*ai_timers(table, now), *ui.clock_timers(table)]
        waiting = table.engine.waiting(table.state)
        if not table.engine.features.timeouts or waiting is None or not waiting.pings:
            return ai
        if table.decision_opened != table.version:
            return ai
        config = await self.bot.config(table.guild_id)
        timeout = timedelta(seconds=ui.move_timeout(table, config))
        payload = {"version": table.version}
        return [TimerPlan("turn_warning", now + timeout / 2, payload),
                TimerPlan("turn_timeout", now + timeout, payload), *ui.step_timers(table, now + timeout), *ai]

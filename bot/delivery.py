"""Delivering a step's events: public lines and the table status to the game channel, seat events by DM (with the
"My secrets" fallback when a DM is refused), medium events to the server's official medium channel.

Everything public is rendered from public events and ``engine.view(state, None)`` only.
"""

from __future__ import annotations

import json
import logging
from datetime import timedelta
from typing import TYPE_CHECKING, Any

import discord

from bot.components import secrets_button, view_of
from bot.tables.model import TimerPlan
from bot.tables.outbox import current_step
from bot.ui import Outgoing, RenderContext, ui_for
from games.core import Event

if TYPE_CHECKING:
    from bot.bot import CoronerBot
    from bot.tables import Table

log = logging.getLogger(__name__)
DM_CLOSED = 50007
MAX_CONTENT = 1900


class Delivery:
    """The table service's ``deliver`` callback (called after each commit)."""

    def __init__(self, bot: CoronerBot) -> None:
        self.bot = bot
        self._shown: dict[int, str] = {}  # game id -> the public view its last status showed (this process)
        self._unreported: dict[int, set[int]] = {}  # game id -> seats whose DMs failed, not yet said in public

    def _public_changed(self, game_id: int, public: dict[str, Any]) -> bool:
        """Whether ``public`` (the public view) differs from the one the last status of this process showed
        (unknown after a restart: then it counts as changed)."""
        shown = json.dumps(public, sort_keys=True, default=str)
        changed = self._shown.get(game_id) != shown
        self._shown[game_id] = shown
        return changed

    async def __call__(self, table: Table, events: list[Event]) -> None:
        ctx = RenderContext(table, table.language)
        ui = ui_for(table.game, table.mode)
        lines: list[str] = []
        refused: list[int] = []
        for event in events:
            if event.audience.kind == "public":
                line = ui.public_event(ctx, event)
                if line:
                    lines.append(line)
            elif event.audience.kind == "medium":
                await self.post_medium(table, ui.medium_event(ctx, event))
            else:
                for seat in event.audience.seats:
                    if not await self.dm(table, seat, ui.private_event(ctx, seat, event)) and seat not in refused:
                        refused.append(seat)
        step = current_step()
        if step is not None and step.kind == "start":  # every seat's DMs are tried when the game starts
            refused += await self._probe_dms(table, events)
        public = table.engine.view(table.state, None)
        changed = self._public_changed(table.id, public)
        if table.status in ("active", "finished") and (lines or changed):
            # a step with no public event and no change to the public view posts nothing: a fresh status after a
            # secret action (a social-mode night action, say) would tell the channel that someone just acted
            await self.post_status(table, lines, public)
        await self._report_closed_dms(table, refused, now=bool(lines) or (step is not None and step.kind == "start"))

    # --- channels -------------------------------------------------------------------------------------------
    @staticmethod
    async def send(channel: discord.abc.Messageable, out: Outgoing, purpose: str) -> discord.Message:
        """Send ``out``; during a step's delivery with a nonce for ``purpose`` (``enforce_nonce``), so delivering
        the step again after a crash returns the message already created instead of a duplicate."""
        step = current_step()
        kwargs = out.kwargs()
        if step is not None:
            kwargs["nonce"] = step.nonce(purpose)  # discord.py sets enforce_nonce with every nonce
        return await channel.send(**kwargs)

    async def channel(self, channel_id: int) -> discord.abc.Messageable:
        channel = self.bot.get_channel(channel_id)
        if channel is None:
            channel = await self.bot.fetch_channel(channel_id)
        return channel  # type: ignore[return-value]

    async def post_medium(self, table: Table, out: Outgoing) -> None:
        config = await self.bot.config(table.guild_id)
        target = config.medium_channel_id or table.channel_id
        await self.send(await self.channel(target), out, "m")

    async def dm(self, table: Table, seat: int, out: Outgoing) -> bool:
        """DM ``seat``; ``False`` when Discord refuses (closed DMs, error 50007) — the game goes on."""
        user_id = table.user_of(seat)
        if user_id is None:
            return True
        try:
            # create_dm takes a bare snowflake and caches the DM channel: no user lookup per message
            channel = await self.bot.create_dm(discord.Object(id=user_id))
            await self.send(channel, out, f"d{seat}")
        except discord.Forbidden as exc:
            if exc.code != DM_CLOSED:
                log.warning("DM to %s refused: %s", user_id, exc)
            await self.bot.tables.set_dm_ok(table.id, user_id, False)
            return False
        except discord.HTTPException:
            log.warning("DM to %s failed", user_id, exc_info=True)
            return False
        return True

    async def _probe_dms(self, table: Table, events: list[Event]) -> list[int]:
        """DM every seat the start's own events did not reach a short "the game started" note; the seats that
        refused it."""
        reached = {seat for event in events if event.audience.kind == "seats" for seat in event.audience.seats}
        ctx = RenderContext(table, table.language)
        note = Outgoing(content=ctx.t("dm.started", channel=f"<#{table.channel_id}>"))
        return [s.seat for s in table.seats if s.seat not in reached and not await self.dm(table, s.seat, note)]

    async def _report_closed_dms(self, table: Table, refused: list[int], *, now: bool) -> None:
        """Say in the channel whose DMs are closed: at the start (``now``), and afterwards only together with a
        step that has public lines (``now``), so the notice never follows, and so points at, the secret action
        whose DM failed. A seat is reported once (its ``dm_ok`` stays False)."""
        waiting = self._unreported.setdefault(table.id, set())
        waiting.update(s.seat for s in table.seats if s.seat in refused and s.dm_ok)
        if now and waiting:
            await self.dm_fallback(table, sorted(waiting))
            del self._unreported[table.id]

    async def dm_fallback(self, table: Table, seats: list[int]) -> None:
        ctx = RenderContext(table, table.language)
        text = ctx.t("dm.closed", seats=", ".join(ctx.mention(s) for s in seats))
        view = view_of(secrets_button(table.id, ctx.t("secrets.button")))
        out = Outgoing(content=text, view=view, mentions=True)
        await self.send(await self.channel(table.channel_id), out, "f")

    async def announce_cancel(self, table: Table, by_user_id: int) -> None:
        """A running game was cancelled: say so publicly and take the buttons off the last status message."""
        ctx = RenderContext(table, table.language)
        channel = await self.channel(table.channel_id)
        await channel.send(**Outgoing(content=ctx.t("game.cancelled", user=f"<@{by_user_id}>")).kwargs())
        await self._clear_components(channel, table.table_message_id)

    @staticmethod
    async def _clear_components(channel: discord.abc.Messageable, message_id: int | None) -> None:
        """Take the buttons off an earlier status message (best effort: it may be gone)."""
        if not message_id:
            return
        try:
            await channel.get_partial_message(message_id).edit(view=None)  # type: ignore[attr-defined]
        except discord.HTTPException:
            log.debug("could not clear the components of %s", message_id)

    # --- the table status -----------------------------------------------------------------------------------
    def status_message(self, table: Table, lines: list[str], public: dict[str, Any] | None = None) -> Outgoing:
        """The public status: the step's public lines, the table embed and the components, all from ``public``
        (``engine.view(state, None)``, computed here when not given)."""
        ctx = RenderContext(table, table.language)
        ui = ui_for(table.game, table.mode)
        if public is None:
            public = table.engine.view(table.state, None)
        embed = ui.table_embed(ctx, public)
        files = ui.table_files(ctx, public)
        content = "\n".join(lines)
        if len(content) > MAX_CONTENT:
            content = content[: MAX_CONTENT - 1] + "…"
        embeds = [embed]
        items: list[discord.ui.Item[Any]] = []
        mentions = False
        if table.status == "finished":
            embeds.append(self.outcome_embed(ctx, table))
        else:
            waiting = table.engine.waiting(table.state)
            if waiting is not None and waiting.pings:
                content = (content + "\n" if content else "") + ctx.t(
                    "turn.waiting_on", seats=", ".join(ctx.mention(s) for s in waiting.seats))
                mentions = True
            items = [*ui.turn_items(ctx, public), secrets_button(table.id, ctx.t("secrets.button"))]
        return Outgoing(content=content or None, embeds=embeds, files=files,
                        view=view_of(*items) if items else None, mentions=mentions)

    def outcome_embed(self, ctx: RenderContext, table: Table) -> discord.Embed:
        outcome = table.engine.outcome(table.state)
        embed = discord.Embed(title=ctx.t("outcome.title"), colour=discord.Colour.gold())
        if outcome is not None:
            words = ui_for(table.game, table.mode).words(ctx, outcome.params, outcome.seat_params)
            embed.description = ctx.t(outcome.reason, **words)
            winners = ", ".join(ctx.name(s) for s in outcome.winners) or ctx.t("outcome.nobody")
            embed.add_field(name=ctx.t("outcome.winners"), value=winners, inline=False)
            if outcome.scores:
                scores = "\n".join(f"{ctx.name(s)}: {p:g}" for s, p in sorted(outcome.scores.items(),
                                                                                key=lambda kv: -kv[1]))
                embed.add_field(name=ctx.t("outcome.points"), value=scores, inline=False)
        return embed

    async def post_status(self, table: Table, lines: list[str], public: dict[str, Any]) -> None:
        """Post a new status (from the public view ``public``) and take the buttons off the previous one."""
        channel = await self.channel(table.channel_id)
        message = await self.send(channel, self.status_message(table, lines, public), "s")
        if message.id == table.table_message_id:  # this step again after a crash: the nonce returned its status
            return
        await self.bot.tables.set_table_message(table.id, message.id)
        await self._clear_components(channel, table.table_message_id)

    # --- turn timers ----------------------------------------------------------------------------------------
    async def timers_for(self, table: Table) -> list[TimerPlan]:
        """The timers the step that produced ``table`` arms (the table service's ``plan``, recorded in the step's
        transaction): for engines that define ``timeout_action``, while the game waits on seats it pings, a
        warning at half the turn time and the bot's move at the time limit, both carrying the version they were
        armed at (they do nothing once the game moved on), and the UI's ``step_timers(table, timeout_at)`` if it
        has any; when a round of a series ends, the timer that opens the next round."""
        if table.status == "finished":
            return [TimerPlan("series_round_finished", self.bot.clock.now())] if table.series_id is not None else []
        waiting = table.engine.waiting(table.state)
        if not hasattr(table.engine, "timeout_action") or waiting is None or not waiting.pings:
            return []
        config = await self.bot.config(table.guild_id)
        timeout = timedelta(seconds=ui_for(table.game, table.mode).move_timeout(table, config))
        now = self.bot.clock.now()
        payload = {"version": table.version}
        extra = getattr(ui_for(table.game, table.mode), "step_timers", None)  # e.g. a prompt's own deadline
        return [TimerPlan("turn_warning", now + timeout / 2, payload),
                TimerPlan("turn_timeout", now + timeout, payload), *(extra(table, now + timeout) if extra else [])]

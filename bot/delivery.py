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
from bot.ui import Outgoing, RenderContext, ui_for
from games.core import Event

if TYPE_CHECKING:
    from bot.bot import CoronerBot
    from bot.tables import Table

log = logging.getLogger(__name__)
DM_CLOSED = 50007


class Delivery:
    """The table service's ``deliver`` callback (called after each commit)."""

    def __init__(self, bot: CoronerBot) -> None:
        self.bot = bot
        self._shown: dict[int, str] = {}  # game id -> the public view its last status showed (this process)

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
        if table.status == "active":
            await self.arm_turn_timers(table)  # before anything is shown, so a visible turn always has its timer
        public = table.engine.view(table.state, None)
        changed = self._public_changed(table.id, public)
        if table.status in ("active", "finished") and (lines or changed):
            # a step with no public event and no change to the public view posts nothing: a fresh status after a
            # secret action (a social-mode night action, say) would tell the channel that someone just acted
            await self.post_status(table, lines, public)
        if refused:
            await self.dm_fallback(table, refused)
        if table.status == "finished" and table.series_id is not None:
            # a persisted timer, not a task: the next round opens even if the bot restarts right now
            await self.bot.timers.schedule(table.id, "series_round_finished", self.bot.clock.now(), {})

    # --- channels -------------------------------------------------------------------------------------------
    async def channel(self, channel_id: int) -> discord.abc.Messageable:
        channel = self.bot.get_channel(channel_id)
        if channel is None:
            channel = await self.bot.fetch_channel(channel_id)
        return channel  # type: ignore[return-value]

    async def post_medium(self, table: Table, out: Outgoing) -> None:
        config = await self.bot.config(table.guild_id)
        target = config.medium_channel_id or table.channel_id
        out.language = table.language
        await (await self.channel(target)).send(**out.kwargs())

    async def dm(self, table: Table, seat: int, out: Outgoing) -> bool:
        """DM ``seat``; ``False`` when Discord refuses (closed DMs, error 50007) — the game goes on."""
        user_id = table.user_of(seat)
        if user_id is None:
            return True
        try:
            # create_dm takes a bare snowflake and caches the DM channel: no user lookup per message
            channel = await self.bot.create_dm(discord.Object(id=user_id))
            out.language = table.language
            await channel.send(**out.kwargs())
        except discord.Forbidden as exc:
            if exc.code != DM_CLOSED:
                log.warning("DM to %s refused: %s", user_id, exc)
            await self.bot.tables.set_dm_ok(table.id, user_id, False)
            return False
        except discord.HTTPException:
            log.warning("DM to %s failed", user_id, exc_info=True)
            return False
        return True

    async def dm_fallback(self, table: Table, seats: list[int]) -> None:
        ctx = RenderContext(table, table.language)
        text = ctx.t("dm.closed", seats=", ".join(ctx.mention(s) for s in seats))
        view = view_of(secrets_button(table.id, ctx.t("secrets.button")))
        out = Outgoing(content=text, view=view, mentions=True, language=table.language)
        await (await self.channel(table.channel_id)).send(**out.kwargs())

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
        embeds = [embed]
        items: list[discord.ui.Item[Any]] = []
        mentions = False
        notice = None
        if table.status == "finished":
            embeds.append(self.outcome_embed(ctx, table))
        else:
            waiting = table.engine.waiting(table.state)
            if waiting is not None and waiting.pings:
                # the budget keeps this line whole and cuts the public lines above it
                notice = ctx.t("turn.waiting_on", seats=", ".join(ctx.mention(s) for s in waiting.seats))
                mentions = True
            items = [*ui.turn_items(ctx, public), secrets_button(table.id, ctx.t("secrets.button"))]
        return Outgoing(content=content or None, embeds=embeds, files=files,
                        view=view_of(*items) if items else None, mentions=mentions, notice=notice,
                        language=table.language)

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
        message = await channel.send(**self.status_message(table, lines, public).kwargs())
        await self.bot.tables.set_table_message(table.id, message.id)
        await self._clear_components(channel, table.table_message_id)

    # --- turn timers ----------------------------------------------------------------------------------------
    async def arm_turn_timers(self, table: Table) -> None:
        """A warning at half the turn timeout, then the bot's move at the timeout, for engines that define
        ``timeout_action``. Timers carry the version they were armed at and do nothing if the game moved on."""
        waiting = table.engine.waiting(table.state)
        if not hasattr(table.engine, "timeout_action") or waiting is None or not waiting.pings:
            return
        config = await self.bot.config(table.guild_id)
        timeout = timedelta(seconds=ui_for(table.game, table.mode).move_timeout(table, config))
        now = self.bot.clock.now()
        payload = {"version": table.version}
        await self.bot.timers.schedule(table.id, "turn_warning", now + timeout / 2, payload)
        await self.bot.timers.schedule(table.id, "turn_timeout", now + timeout, payload)


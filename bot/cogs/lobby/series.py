"""Points series in the lobby cog: when a round of a series ends (its ``series_round_finished`` timer, armed by the
delivery of the round's last step), the standings are posted and the next round's lobby opens in the same channel
with the same players in the same order (the host presses Start); the series itself is the table service's
(:meth:`bot.tables.TableService.series_rounds`)."""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import TYPE_CHECKING, Any

import discord

from bot.cogs.lobby.render import lobby_embed, lobby_view
from bot.i18n import t
from bot.tables.model import ROUND_FINISHED
from bot.ui import SILENT, Outgoing, RenderContext, ui_for

if TYPE_CHECKING:
    from bot.app import Coroner
    from bot.db.repos.scores import SeriesRounds as Rounds
    from bot.tables import Table

log = logging.getLogger(__name__)


class SeriesRounds:
    """The series half of :class:`bot.cogs.lobby.cog.Lobby` (which provides the methods below)."""

    bot: Coroner

    if TYPE_CHECKING:
        async def _send_lobby(self, table: Table, kwargs: dict[str, Any]) -> discord.Message: ...
        async def _record_lobby(self, table: Table, message_id: int) -> None: ...

    def arm_series(self) -> None:
        self.bot.timers.on(ROUND_FINISHED, lambda timer: self.series_round_finished(timer.game_id))

    async def series_round_finished(self, game_id: int) -> None:
        """A round of a series ended: post the standings (the UI's ``series_embed``, budgeted; a refused post
        is logged and skipped) and, unless it was the last round, open the next round's lobby in the same channel
        with the same players seated in the same order (the host presses Start). Runs from a timer the delivery
        of the round's last step arms; run again (a process died before marking that timer fired), it posts and
        opens nothing twice."""
        table = await self.bot.tables.load(game_id)
        if table.series_id is None or table.status != "finished":
            return
        following = await self.bot.tables.table_in_channel(table.channel_id)
        if following is not None and following.series_id == table.series_id and following.id > table.id:
            return  # run already (this timer taken over from a process that died before marking it fired)
        series = await self.bot.tables.series_rounds(table.series_id)
        if series is None:
            return
        rounds = [series.points[r] for r in sorted(series.points)]
        ui = ui_for(table.game, table.mode)
        channel = await self.bot.delivery.channel(table.channel_id)
        embed = ui.series_embed(RenderContext(table, table.language), rounds, await self._names(table, series),
                                series.series_id, series.rounds_played, series.rounds_total)
        if embed is not None:
            # a nonce: the same standings again (a run taken over after a crash) return the message already posted;
            # within Discord's limits as every message is; refused, the standings are lost but the series goes on
            out = Outgoing(embeds=[embed], language=table.language)
            try:
                await channel.send(**out.kwargs(), nonce=f"series{table.id}")
            except discord.HTTPException:
                log.warning("could not post the standings of series %s", series.series_id, exc_info=True)
        if series.rounds_played >= series.rounds_total:
            return
        await self._next_round(table, series.rounds_played + 1, series.rounds_total)

    async def _names(self, table: Table, series: Rounds) -> dict[int, str]:
        """Every scored player's name for message text, by user id, as the last round they sat named them (``table``:
        the round just finished; an earlier round's table is read only for who did not sit this one: they left it,
        or their seat was handed over)."""
        rounds = {table.id: table}
        for game_id, _ in series.seats.values():
            if game_id not in rounds:
                rounds[game_id] = await self.bot.tables.load(game_id)
        return {user: RenderContext(rounds[game_id], table.language).shown_name(seat)
                for user, (game_id, seat) in series.seats.items()}

    async def _next_round(self, table: Table, round_no: int, total: int) -> None:
        tables = self.bot.tables
        config = await self.bot.config(table.guild_id)
        expires = self.bot.clock.now() + timedelta(minutes=config.lobby_timeout_minutes)
        lobby = await tables.open_lobby(table.guild_id, table.channel_id, table.host_id, table.game, table.mode,
                                        table.options, language=table.language, series_id=table.series_id,
                                        expires_at=expires)
        for seat in table.seats:  # the same players in the same order (a crash here: its message comes at start)
            lobby = (await tables.join(lobby.id, seat.user_id, list(seat.names)) if seat.user_id is not None
                     else await tables.add_ai(lobby.id, table.host_id))
        message = await self._send_lobby(lobby, {
            "content": t(f"{table.game}.series.next_round", table.language, round=round_no, total=total),
            "embed": lobby_embed(lobby, lobby.language, int(expires.timestamp())),
            "view": lobby_view(lobby, lobby.language), "allowed_mentions": SILENT})
        await self._record_lobby(lobby, message.id)

"""``/stats [member] [game]``: a member's statistics (theirs in one game with ``game``), or with ``game`` alone the
server's statistics of that game; a chart image where it says more than the numbers. Roles count only from games
in channels the member asking can view (:func:`bot.cogs.stats.records.unrevealing`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands
from sqlalchemy import select

from bot.cogs.stats._render import game_embed, player_embed
from bot.cogs.stats.compute import game_stats, player_stats
from bot.cogs.stats.records import Record, records, unrevealing
from bot.db.models import Achievement, Game
from bot.errors import UserError
from bot.members import viewable
from bot.plugins import game_choices
from bot.ui import Outgoing, text_name
from games.core import get_game

if TYPE_CHECKING:
    from bot.bot import CoronerBot


class Stats(commands.Cog):
    """Per-member and per-game statistics of a server's finished games."""

    def __init__(self, bot: CoronerBot) -> None:
        self.bot = bot

    async def game_autocomplete(self, interaction: discord.Interaction,
                                current: str) -> list[app_commands.Choice[str]]:
        return game_choices(await self.bot.language(interaction.guild_id), current)

    @app_commands.command(name="stats", description=_("Statistics: yours or a member's, or a game's in this server"))
    @app_commands.describe(member=_("Whose statistics (default: yours)"),
                           game=_("One game; without a member, the server's statistics of that game"))
    @app_commands.autocomplete(game=game_autocomplete)
    @app_commands.guild_only()
    async def stats(self, interaction: discord.Interaction, member: discord.Member | None = None,
                    game: str | None = None) -> None:
        """Raises ``UserError("rules.unknown_game")`` for a game that is not there and ``UserError("stats.bot")``
        for a bot ``member`` (bots never hold a seat: ``bot/seat_controls.py`` refuses them)."""
        assert interaction.guild_id is not None
        if member is not None and member.bot:
            raise UserError("stats.bot")
        language = await self.bot.language(interaction.guild_id)
        if game is not None:
            try:
                game = get_game(game).id
            except KeyError:
                raise UserError("rules.unknown_game", game=game) from None
        await interaction.response.defer()
        async with self.bot.sessions() as session:
            if member is None and game is not None:
                rows = await self._unrevealing(interaction, await records(session, interaction.guild_id, game=game))
                embed, files = game_embed(game, game_stats(rows), language)
            else:
                user = member or interaction.user
                rows = await self._unrevealing(interaction, await records(session, interaction.guild_id,
                                                                          user_id=user.id, game=game))
                stmt = (select(Achievement.game, Achievement.achievement, Game.channel_id)
                        .outerjoin(Game, Game.id == Achievement.game_id)
                        .where(Achievement.guild_id == interaction.guild_id, Achievement.user_id == user.id)
                        .order_by(Achievement.at, Achievement.id))
                if game is not None:
                    stmt = stmt.where(Achievement.game == game)
                found = (await session.execute(stmt)).all()
                seen = await viewable(interaction.user, interaction.guild, {c for *_, c in found if c is not None})
                # an achievement names a role ("a first win as the Killer"): only those of games the asker could
                # have watched are listed, as with the per-role tallies
                earned = [(g, a) for g, a, c in found if c is None or c in seen]
                embed, files = player_embed(text_name(user.display_name), player_stats(rows), earned,
                                            language)
        await interaction.followup.send(**Outgoing(embeds=[embed], files=files, language=language).kwargs())

    @staticmethod
    async def _unrevealing(interaction: discord.Interaction, rows: list[Record]) -> list[Record]:
        """``rows`` without the roles of games played in a channel the member asking cannot view (their per-role
        tallies, favourite role and sides count only the games they could have watched; a private thread only its
        members: :func:`bot.members.viewable`)."""
        return unrevealing(rows, await viewable(interaction.user, interaction.guild, {r.channel_id for r in rows}))

"""``/status`` (public view), ``/hand`` (private view, ephemeral: :func:`bot.private_view.show_secrets`),
``/rules``, ``/games`` and ``/leaderboard``."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.budget import FIELD_VALUE, clip, more, size
from bot.cogs.lobby.options import mode_options
from bot.cogs.lobby.render import lobby_embed, lobby_expires_at
from bot.cogs.reference._render import cards_page
from bot.db.base import MAX_ROW_ID
from bot.deadline import acknowledge_if_slow, respond
from bot.errors import UserError
from bot.i18n import t
from bot.i18n.catalog import plain_number
from bot.members import can_view
from bot.plugins import game_choices
from bot.private_view import show_secrets
from bot.ui import COLOUR, SILENT, Outgoing, ui_for
from games.core import GameInfo, get_game

if TYPE_CHECKING:
    from bot.app import Coroner
    from bot.tables import Table


#: players a /leaderboard lists by name (the rest are counted; the one asking is shown wherever they rank)
LEADERBOARD_ROWS = 20


def known_game(game: str) -> GameInfo:
    """The registered game ``game``. Raises ``UserError("rules.unknown_game")``."""
    try:
        return get_game(game)
    except KeyError:
        raise UserError("rules.unknown_game", game=game) from None


def _mode_rules(info: GameInfo, mode: str, language: str) -> list[str]:
    """A mode's /rules fields: its player counts, our summary and the /newgame options it accepts, as few field
    values as fit (each at most the 1024 UTF-16 units of an embed field, :data:`bot.budget.FIELD_VALUE`), split
    only between sentences, so no rule is cut off (a single sentence longer than a field, which no summary has,
    would be clipped)."""
    limits = info.mode(mode)
    players = t("rules.players", language, min=limits.min_players, max=limits.max_players)
    shown = [option.shown(language) for option in mode_options(info, mode)]
    options = clip(t("rules.options", language, options=", ".join(shown)), 300) if shown else ""
    sentences = [players, *SENTENCE_END.split(t(f"rules.{info.id}.{mode}", language).strip()), options]
    values: list[str] = []
    for n, sentence in ((n, clip(s, FIELD_VALUE)) for n, s in enumerate(sentences) if s):
        joiner = "\n" if n in (1, len(sentences) - 1) else " "  # players, summary and options on lines of their own
        if values and size(values[-1]) + size(joiner) + size(sentence) <= FIELD_VALUE:
            values[-1] += joiner + sentence
        else:
            values.append(sentence)
    return values


#: where a summary may be split between fields: after a sentence's full stop (or ! ?) and its space
SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


class Core(commands.Cog):
    """Status, secrets, rules, active games and the leaderboard."""

    def __init__(self, bot: Coroner) -> None:
        self.bot = bot

    async def _game_here(self, interaction: discord.Interaction, table: Table | None = None) -> Table:
        """The channel's started game (``table``: the channel's table, already read). Raises
        ``UserError("status.no_game_here")``."""
        table = table or await self.bot.tables.table_in_channel(interaction.channel_id or 0)
        if table is None or table.state is None:
            raise UserError("status.no_game_here")
        return table

    @app_commands.command(name="status", description=_("Show the public state of this channel's game"))
    @app_commands.guild_only()
    async def status(self, interaction: discord.Interaction) -> None:
        """The public view of the channel's game, or of its open lobby (who joined, the Start it waits for, its
        expiry), ephemeral and without buttons. Raises ``UserError("status.no_game_here")`` when there is none.
        Deferred before its first query while the database is slow (:func:`bot.deadline.acknowledge_if_slow`)."""
        await acknowledge_if_slow(interaction, ephemeral=True, thinking=True)
        here = await self.bot.tables.table_in_channel(interaction.channel_id or 0)
        if here is not None and here.state is None and here.status == "lobby":
            embed = lobby_embed(here, here.language, await lobby_expires_at(self.bot.tables, here))
            await respond(interaction, embed=embed, ephemeral=True, allowed_mentions=SILENT)
            return
        table = await self._game_here(interaction, here)
        out = self.bot.delivery.status_message(table, [], full=True)
        out.view = None
        await respond(interaction, ephemeral=True, **out.kwargs())

    @app_commands.command(name="hand", description=_("Show your role, hand and private information (only to you)"))
    @app_commands.guild_only()
    async def hand(self, interaction: discord.Interaction) -> None:
        await acknowledge_if_slow(interaction, ephemeral=True, thinking=True)
        await show_secrets(interaction, await self._game_here(interaction))

    async def game_autocomplete(self, interaction: discord.Interaction,
                                current: str) -> list[app_commands.Choice[str]]:
        """Every registered game (the games are discovered plugins, so the choices are not a fixed list)."""
        return game_choices(await self.bot.language(interaction.guild_id), current)

    @app_commands.command(name="rules", description=_("A short summary of a game's rules"))
    @app_commands.describe(game=_("The game"), cards=_("Show what each card, role or question does instead"))
    @app_commands.autocomplete(game=game_autocomplete)
    async def rules(self, interaction: discord.Interaction, game: str, cards: bool = False) -> None:
        await acknowledge_if_slow(interaction, ephemeral=True, thinking=True)
        language = await self.bot.language(interaction.guild_id)
        info = known_game(game)
        if cards:
            out = Outgoing(embeds=[cards_page(info.id, language)], language=language)
            await respond(interaction, ephemeral=True, **out.kwargs())
            return
        embed = discord.Embed(title=t(f"game.{info.id}", language), description=t(f"rules.{info.id}", language),
                              colour=COLOUR)
        for mode in info.modes:
            for n, value in enumerate(_mode_rules(info, mode.id, language)):  # a long summary goes on below
                embed.add_field(name=t(f"mode.{info.id}.{mode.id}", language) if n == 0 else "\u200b",
                                value=value, inline=False)
        await respond(interaction, embed=embed, ephemeral=True)

    @app_commands.command(name="games", description=_("List the games running in this server"))
    @app_commands.guild_only()
    async def games(self, interaction: discord.Interaction) -> None:
        """The server's lobbies and running games, each only to a member who can view its channel
        (:func:`bot.members.can_view`: a private channel's game is not even named elsewhere)."""
        assert interaction.guild_id is not None
        await acknowledge_if_slow(interaction, ephemeral=True, thinking=True)
        language = await self.bot.language(interaction.guild_id)
        tables = [x for x in await self.bot.tables.tables_in_guild(interaction.guild_id)
                  if can_view(interaction.user, interaction.guild, x.channel_id)]
        lines = [t("games.line", language, game=t(f"game.{x.game}", language), mode=t(f"mode.{x.game}.{x.mode}",
                   language), channel=f"<#{x.channel_id}>", status=t(f"lobby.status.{x.status}", language),
                   players=len(x.seats), count=len(x.seats)) for x in tables]
        embed = discord.Embed(title=t("games.title", language), description="\n".join(lines) or t("games.none",
                              language), colour=COLOUR)
        await respond(interaction, ephemeral=True, **Outgoing(embeds=[embed], language=language).kwargs())

    @app_commands.command(name="leaderboard", description=_("Points in this server: all time, or one series"))
    @app_commands.describe(game=_("The game"), series=_("A series number (leave empty for all time)"))
    @app_commands.autocomplete(game=game_autocomplete)
    @app_commands.guild_only()
    async def leaderboard(self, interaction: discord.Interaction, game: str,
                          series: app_commands.Range[int, 1, MAX_ROW_ID] | None = None) -> None:
        assert interaction.guild_id is not None
        await acknowledge_if_slow(interaction, thinking=True)  # the leaderboard is public
        language = await self.bot.language(interaction.guild_id)
        game = known_game(game).id
        no_such_series = series is not None and not 1 <= series <= MAX_ROW_ID  # (past what the column holds)
        rows = [] if no_such_series else await self.bot.tables.leaderboard(interaction.guild_id, game,
                                                                          series_id=series)
        unit = ui_for(game).score_key  # the game's own unit (Verdugo: Crowns), as its results say

        def line(rank: int, row: Any) -> str:
            return t("leaderboard.line", language, rank=rank, user=f"<@{row.user_id}>",
                     points=t(unit, language, count=plain_number(row.points)),
                     wins=t("leaderboard.wins", language, count=row.wins),
                     games=t("leaderboard.games", language, count=row.games))

        lines = [line(i + 1, row) for i, row in enumerate(rows[:LEADERBOARD_ROWS])]
        if len(rows) > LEADERBOARD_ROWS:  # the rest is counted, and whoever asked still sees their own place
            lines.append(more(len(rows) - LEADERBOARD_ROWS, language))
            lines += [line(i + 1, row) for i, row in enumerate(rows)
                      if i >= LEADERBOARD_ROWS and row.user_id == interaction.user.id]
        title = t("leaderboard.series" if series else "leaderboard.all_time", language,
                  game=t(f"game.{game}", language), series=series)
        embed = discord.Embed(title=title, description="\n".join(lines) or t("leaderboard.empty", language),
                              colour=COLOUR)
        await respond(interaction, embed=embed, ephemeral=False, allowed_mentions=SILENT)

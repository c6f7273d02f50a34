"""Slash commands and buttons of the lobby. Rules live in the table service and the engines; this only parses,
calls and renders."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.cogs.lobby.render import lobby_embed, lobby_view
from bot.errors import UserError, send_error
from bot.i18n import t
from bot.plugins import game_choices
from bot.tables import TableError
from bot.ui import SILENT, RenderContext, answering, ui_for
from games.core import all_games, get_engine

if TYPE_CHECKING:
    from bot.bot import CoronerBot
    from bot.tables import Table

MAX_ROUNDS = 10


def parse_options(text: str | None) -> dict[str, Any]:
    """``key=value, key=value`` (values parsed as JSON when they can be: numbers, true/false) -> dict.
    Raises :class:`UserError` ``lobby.bad_options`` on malformed text."""
    options: dict[str, Any] = {}
    for part in (text or "").replace(";", ",").split(","):
        if not part.strip():
            continue
        key, sep, value = part.partition("=")
        if not sep or not key.strip():
            raise UserError("lobby.bad_options", text=part.strip())
        value = value.strip()
        try:
            options[key.strip()] = json.loads(value)
        except ValueError:
            options[key.strip()] = value
    return options


def user_names(user: discord.abc.User) -> list[str]:
    """The names a player goes by here, the one the server shows first (nickname, else display name: the name the
    table calls the seat by), then the user name and global display name (no duplicates)."""
    names = [user.display_name, user.name, getattr(user, "global_name", None), getattr(user, "nick", None)]
    return list(dict.fromkeys(n for n in names if n))


class Lobby(commands.Cog):
    """``/newgame``, ``/join``, ``/start``, ``/cancel`` and the lobby buttons."""

    def __init__(self, bot: CoronerBot) -> None:
        self.bot = bot
        bot.timers.on("lobby_expire", self.on_lobby_expire)
        bot.timers.on("series_round_finished", lambda timer: self.series_round_finished(timer.game_id))

    # --- autocomplete -----------------------------------------------------------------------------------------
    async def game_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return game_choices(await self.bot.language(interaction.guild_id), current)

    async def mode_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        language = await self.bot.language(interaction.guild_id)
        game = getattr(interaction.namespace, "game", None)
        choices = []
        for info in all_games():
            if game and info.id != game:
                continue
            for mode in info.modes:
                label = f"{t(f'mode.{info.id}.{mode.id}', language)} ({mode.min_players}-{mode.max_players})"
                if current.lower() in label.lower():
                    choices.append(app_commands.Choice(name=label[:100], value=mode.id))
        return choices[:25]

    # --- commands ---------------------------------------------------------------------------------------------
    @app_commands.command(name="newgame", description=_("Open a lobby for a new game in this channel"))
    @app_commands.describe(game=_("The game to play"), mode=_("The game's mode"),
                           options=_("Optional settings, e.g. rounds=3 or side=B"))
    @app_commands.autocomplete(game=game_autocomplete, mode=mode_autocomplete)
    @app_commands.guild_only()
    async def newgame(self, interaction: discord.Interaction, game: str, mode: str,
                      options: str | None = None) -> None:
        assert interaction.guild_id is not None and interaction.channel_id is not None
        config = await self.bot.config(interaction.guild_id)
        if not config.allows_channel(interaction.channel_id):
            raise UserError("lobby.wrong_channel", channels=" ".join(f"<#{c}>" for c in config.game_channel_ids))
        try:
            get_engine(game, mode)
        except KeyError:
            raise UserError("lobby.unknown_game", game=game, mode=mode) from None
        settings = parse_options(options)
        rounds = self._series_rounds(game, mode, settings)
        series_id = None
        if rounds is not None:
            if await self.bot.tables.table_in_channel(interaction.channel_id) is not None:
                raise UserError("table.channel_busy", channel_id=interaction.channel_id)
            series_id = await self.bot.tables.open_series(interaction.guild_id, interaction.channel_id, game, mode,
                                                          rounds)
        table = await self.bot.tables.open_lobby(interaction.guild_id, interaction.channel_id, interaction.user.id,
                                                 game, mode, settings, language=config.language, series_id=series_id)
        table = await self.bot.tables.join(table.id, interaction.user.id, user_names(interaction.user))
        expires = self.bot.clock.now() + timedelta(minutes=config.lobby_timeout_minutes)
        await self.bot.timers.schedule(table.id, "lobby_expire", expires, {})
        note = (t(f"{game}.series.first_round", table.language, total=rounds, count=rounds)
                if rounds is not None else None)
        await interaction.response.send_message(content=note,
                                                embed=lobby_embed(table, table.language, int(expires.timestamp())),
                                                view=lobby_view(table, table.language))
        message = await interaction.original_response()
        await self.bot.tables.set_lobby_message(table.id, message.id)

    @staticmethod
    def _series_rounds(game: str, mode: str, settings: dict[str, Any]) -> int | None:
        """Take ``rounds`` out of the options when the mode's UI plays points series (``supports_series``):
        the rounds belong to the series, not to the engine. Raises ``lobby.bad_rounds`` (naming the limit) for a
        bad count."""
        if "rounds" not in settings or not getattr(ui_for(game, mode), "supports_series", False):
            return None
        rounds = settings.pop("rounds")
        if not isinstance(rounds, int) or isinstance(rounds, bool) or not 1 <= rounds <= MAX_ROUNDS:
            raise UserError("lobby.bad_rounds", text=f"rounds={rounds}", max=MAX_ROUNDS)
        return rounds

    async def _lobby_here(self, interaction: discord.Interaction) -> Table:
        table = await self.bot.tables.table_in_channel(interaction.channel_id or 0)
        if table is None:
            raise UserError("lobby.no_game_here")
        return table

    @app_commands.command(name="join", description=_("Join the lobby in this channel"))
    @app_commands.guild_only()
    async def join(self, interaction: discord.Interaction) -> None:
        await self.on_lobby_button(interaction, (await self._lobby_here(interaction)).id, "join", edit=False)

    @app_commands.command(name="start", description=_("Start the game in this channel (host only)"))
    @app_commands.guild_only()
    async def start(self, interaction: discord.Interaction) -> None:
        await self.on_lobby_button(interaction, (await self._lobby_here(interaction)).id, "start", edit=False)

    @app_commands.command(name="cancel", description=_("Cancel the game in this channel (host or Manage Server)"))
    @app_commands.guild_only()
    async def cancel(self, interaction: discord.Interaction) -> None:
        await self.on_lobby_button(interaction, (await self._lobby_here(interaction)).id, "cancel", edit=False)

    # --- buttons ----------------------------------------------------------------------------------------------
    async def on_lobby_button(self, interaction: discord.Interaction, game_id: int, action: str, *,
                              edit: bool = True) -> None:
        """Join / Leave / Start / Cancel. ``edit``: the interaction came from the lobby message itself."""
        try:
            await self._lobby_action(interaction, game_id, action, edit)
        except Exception as exc:  # noqa: BLE001
            await send_error(self.bot, interaction, exc)

    async def _lobby_action(self, interaction: discord.Interaction, game_id: int, action: str, edit: bool) -> None:
        tables = self.bot.tables
        user = interaction.user
        if action == "join":
            table = await tables.join(game_id, user.id, user_names(user))
        elif action == "leave":
            table = await tables.leave(game_id, user.id)
        elif action == "cancel":
            manager = isinstance(user, discord.Member) and user.guild_permissions.manage_guild
            running = (await tables.load(game_id)).status == "active"
            table = await tables.cancel(game_id, user.id, is_manager=manager)
            if running:
                await self.bot.delivery.announce_cancel(table, user.id)
                await ui_for(table.game, table.mode).on_cancelled(self.bot, table)
        elif action == "start":
            await interaction.response.defer(ephemeral=not edit, thinking=not edit)
            table = await tables.load(game_id)
            if table.host_id != user.id:  # before the game's own checks, which may have side effects
                raise TableError("table.host_only")
            await self._prepare_start(table)
            with answering(interaction):  # the lobby message becomes the table, answering the Start click
                table = await tables.start(game_id, user.id)
                if (await tables.load(game_id)).table_message_id is None:  # a game whose start said nothing
                    await self.bot.delivery.show_table(table)
            if not edit:
                await interaction.followup.send(await self.bot.t(interaction.guild_id, "lobby.started"),
                                                ephemeral=True)
            return
        else:
            raise UserError("lobby.unknown_action")
        if edit:
            await interaction.response.edit_message(embed=lobby_embed(table, table.language,
                                                                      await self._expires_at(table)),
                                                    view=lobby_view(table, table.language))
        else:
            await self._refresh_lobby(table)
            await interaction.response.send_message(await self.bot.t(interaction.guild_id, f"lobby.done.{action}"),
                                                    ephemeral=True)

    async def _prepare_start(self, table: Table) -> None:
        """Let the game's UI refuse the start (e.g. no official medium) or add options from the server config."""
        config = await self.bot.config(table.guild_id)
        extra = await ui_for(table.game, table.mode).prepare_start(self.bot, table, config)
        if extra:
            await self.bot.tables.update_options(table.id, {**table.options, **extra})

    async def _expires_at(self, table: Table) -> int | None:
        """When the lobby expires (a Unix timestamp), from its pending ``lobby_expire`` timer."""
        due = next((t.due_at for t in await self.bot.tables.pending_timers(table.id) if t.kind == "lobby_expire"),
                   None)
        return int(due.timestamp()) if due is not None else None

    async def _refresh_lobby(self, table: Table, *, expired: bool = False) -> None:
        if not table.lobby_message_id or table.table_message_id:  # the lobby message is the table now
            return
        channel = await self.bot.delivery.channel(table.channel_id)
        expires = None if expired else await self._expires_at(table)
        try:
            await channel.get_partial_message(table.lobby_message_id).edit(  # type: ignore[attr-defined]
                embed=lobby_embed(table, table.language, expires, expired=expired),
                view=lobby_view(table, table.language))
        except discord.HTTPException:
            pass

    async def on_lobby_expire(self, timer: Any) -> None:
        table = await self.bot.tables.load(timer.game_id)
        if table.status != "lobby":
            return
        table = await self.bot.tables.expire(table.id)
        await self._refresh_lobby(table, expired=True)

    # --- series -----------------------------------------------------------------------------------------------
    async def series_round_finished(self, game_id: int) -> None:
        """A round of a series ended: post the standings (the UI's ``series_embed``) and, unless it was the
        last round, open the next round's lobby in the same channel with the same players seated in the same
        order (the host presses Start). Runs from a timer the delivery of the round's last step arms."""
        table = await self.bot.tables.load(game_id)
        if table.series_id is None or table.status != "finished":
            return
        series = await self.bot.tables.series_rounds(table.series_id)
        if series is None:
            return
        rounds = [{seat: points for user, points in series.points[r].items() if (seat := table.seat_of(user))
                   is not None} for r in sorted(series.points)]
        ui = ui_for(table.game, table.mode)
        channel = await self.bot.delivery.channel(table.channel_id)
        if hasattr(ui, "series_embed"):
            embed = ui.series_embed(RenderContext(table, table.language), rounds, series.series_id,
                                    series.rounds_played, series.rounds_total)
            await channel.send(embed=embed, allowed_mentions=SILENT)
        if series.rounds_played >= series.rounds_total:
            return
        await self._next_round(table, series.rounds_played + 1, series.rounds_total)

    async def _next_round(self, table: Table, round_no: int, total: int) -> None:
        tables = self.bot.tables
        config = await self.bot.config(table.guild_id)
        lobby = await tables.open_lobby(table.guild_id, table.channel_id, table.host_id, table.game, table.mode,
                                        table.options, language=table.language, series_id=table.series_id)
        for seat in table.seats:
            lobby = await tables.join(lobby.id, seat.user_id, list(seat.names))
        expires = self.bot.clock.now() + timedelta(minutes=config.lobby_timeout_minutes)
        await self.bot.timers.schedule(lobby.id, "lobby_expire", expires, {})
        channel = await self.bot.delivery.channel(table.channel_id)
        message = await channel.send(content=t(f"{table.game}.series.next_round", table.language, round=round_no,
                                               total=total),
                                     embed=lobby_embed(lobby, lobby.language, int(expires.timestamp())),
                                     view=lobby_view(lobby, lobby.language), allowed_mentions=SILENT)
        await tables.set_lobby_message(lobby.id, message.id)

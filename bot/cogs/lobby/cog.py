"""Slash commands and buttons of the lobby. Rules live in the table service and the engines; this only parses,
calls and renders."""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.cogs.lobby.newgame import newgame_group
from bot.cogs.lobby.options import chosen_options
from bot.cogs.lobby.options_form import form_options, options_modal, submitted_options
from bot.cogs.lobby.ping import with_ping
from bot.cogs.lobby.render import cancel_confirmation, lobby_embed, lobby_expires_at, lobby_heading, lobby_view
from bot.cogs.lobby.scheduled import STARTS_IN, ScheduledLobbies
from bot.cogs.lobby.series import SeriesRounds
from bot.deadline import acknowledge_if_slow, drop_public_wait, edit_answer, in_time, respond
from bot.errors import ABOUT, UserError, about, error_text, send_error
from bot.guild_config import GuildConfig
from bot.i18n import t
from bot.locks import KeyedLocks
from bot.members import is_manager, user_names
from bot.tables import TableError
from bot.tables.lobby import check_cancel
from bot.ui import SILENT, answering, ui_for
from games.core import get_game

if TYPE_CHECKING:
    from bot.app import Coroner
    from bot.tables import Table

log = logging.getLogger(__name__)
#: edits of the lobby message one refresh makes at most, following changes committed meanwhile
LOBBY_EDITS = 3


class Lobby(ScheduledLobbies, SeriesRounds, commands.Cog):
    """``/newgame``, ``/join``, ``/leave``, ``/start``, ``/cancel`` and the lobby buttons."""

    def __init__(self, bot: Coroner) -> None:
        self.bot = bot
        self._lobby_locks = KeyedLocks()
        bot.timers.on("lobby_expire", self.on_lobby_expire)
        self.arm_schedule()
        self.arm_series()

    # --- /newgame ---------------------------------------------------------------------------------------------
    def plugins_loaded(self) -> None:
        """Every game and its UI is registered now: add ``/newgame`` with a subcommand per game (see
        :mod:`bot.cogs.lobby.newgame`)."""
        self.bot.tree.add_command(newgame_group(self.open_game), override=True)

    async def cog_unload(self) -> None:
        self.bot.tree.remove_command("newgame")

    async def open_game(self, interaction: discord.Interaction, game: str, mode: str, given: dict[str, Any]) -> None:
        """``/newgame <game> mode ...``: open a lobby (and, with ``rounds``, a points series) with the options
        ``given`` (by name; those left empty keep the engine's defaults), posted as the command's answer; with
        ``starts_in`` (minutes), book it to open then instead (:mod:`bot.cogs.lobby.scheduled`)."""
        assert interaction.guild_id is not None and interaction.channel_id is not None
        given = dict(given)
        minutes = given.pop(STARTS_IN, None)
        if minutes is not None:
            await self.schedule_game(interaction, game, mode, given, minutes)
            return
        try:
            table, expires, rounds = await in_time(interaction, self._open(interaction, game, mode, given),
                                                   thinking=True)
        except (UserError, TableError):  # refused (a slow database deferred it publicly first): privately
            await drop_public_wait(interaction)
            raise
        note = (t(f"{game}.series.first_round", table.language, total=rounds, count=rounds)
                if rounds is not None else None)
        ping = (await self.bot.config(interaction.guild_id)).lobby_role_id
        await self._post_lobby(interaction, table, note, int(expires.timestamp()), ping=ping)

    async def _open(self, interaction: discord.Interaction, game: str, mode: str,
                    given: dict[str, Any]) -> tuple[Table, datetime, int | None]:
        """The options checked, then the lobby row, the host's seat, the expiry timer and (with ``rounds``) the
        series in one transaction (the slow part of /newgame). Returns the lobby, its expiry and the series length
        (``None``: one game)."""
        assert interaction.guild_id is not None and interaction.channel_id is not None
        config, settings, rounds = await self._checked(interaction, game, mode, given)
        expires = self.bot.clock.now() + timedelta(minutes=config.lobby_timeout_minutes)
        table = await self.bot.tables.open_lobby(interaction.guild_id, interaction.channel_id, interaction.user.id,
                                                 game, mode, settings, language=config.language, rounds=rounds,
                                                 host_names=user_names(interaction.user), expires_at=expires)
        return table, expires, rounds

    async def _checked(self, interaction: discord.Interaction, game: str, mode: str,
                       given: dict[str, Any]) -> tuple[GuildConfig, dict[str, Any], int | None]:
        """The server's settings, then the options ``given`` checked for ``game``/``mode`` (the engine's, the series
        length or ``None``). Raises ``UserError`` ``lobby.unknown_game``, ``lobby.wrong_channel`` (a channel games
        may not be opened in) and the refusals of :func:`~bot.cogs.lobby.options.chosen_options` and of the mode's
        :meth:`~bot.ui.GameUI.check_open` (the social mode without an official medium)."""
        assert interaction.guild_id is not None and interaction.channel_id is not None
        config = await self.bot.config(interaction.guild_id)
        try:
            info = get_game(game)
            info.mode(mode)
        except KeyError:
            raise UserError("lobby.unknown_game", game=game, mode=mode) from None
        settings, rounds = chosen_options(info, mode, given, config.language)
        if not config.allows_channel(interaction.channel_id):
            raise UserError("lobby.wrong_channel", channels=" ".join(f"<#{c}>" for c in config.game_channel_ids))
        ui_for(game, mode).check_open(config)
        return config, settings, rounds

    async def _post_lobby(self, interaction: discord.Interaction, table: Table, note: str | None,
                          expires_ts: int, *, ping: int | None = None) -> None:
        """Show a new lobby as the answer to /newgame (or, when that answer fails, as a channel message), pinging
        the role ``ping`` (the server's lobby role, :mod:`bot.cogs.lobby.ping`); a lobby nobody can see is closed
        again, so it never blocks the channel."""
        content, mentions = with_ping(note, ping, table.game, table.language)
        kwargs: dict[str, Any] = {"content": content, "embed": lobby_embed(table, table.language, expires_ts),
                                  "view": lobby_view(table, table.language), "allowed_mentions": SILENT, **mentions}
        try:
            if interaction.response.is_done():
                message: discord.abc.Snowflake = await interaction.edit_original_response(**kwargs)
            else:
                await interaction.response.send_message(**kwargs)
                message = await interaction.original_response()
        except discord.HTTPException:
            try:
                message = await self._send_lobby(table, kwargs)
            except discord.HTTPException:
                await self.bot.tables.expire(table.id)
                raise
        await self._record_lobby(table, message.id)

    async def _record_lobby(self, table: Table, message_id: int) -> None:
        """Record ``message_id`` as ``table``'s lobby message; when the lobby changed while the message was being
        posted (a join or the Options form meanwhile: their refresh found no message to edit), edit it to the
        latest lobby."""
        if await self.bot.tables.set_lobby_message(table.id, message_id) != table.version:
            await self._refresh_lobby(table, shown=table.version)

    async def _send_lobby(self, table: Table, kwargs: dict[str, Any]) -> discord.Message:
        """Post the lobby as a channel message (nonce: posting it again returns the same message)."""
        channel = await self.bot.delivery.channel(table.channel_id)
        return await channel.send(**kwargs, nonce=f"lobby{table.id}")

    async def _lobby_here(self, interaction: discord.Interaction) -> Table:
        await acknowledge_if_slow(interaction, ephemeral=True, thinking=True)  # before the first query
        table = await self.bot.tables.table_in_channel(interaction.channel_id or 0)
        if table is None:
            raise UserError("lobby.no_game_here")
        return about(interaction, table)  # (its refusals in the game's language)

    @app_commands.command(name="join", description=_("Join the lobby in this channel"))
    @app_commands.guild_only()
    async def join(self, interaction: discord.Interaction) -> None:
        await self.on_lobby_button(interaction, (await self._lobby_here(interaction)).id, "join", edit=False)

    @app_commands.command(name="leave", description=_("Leave the lobby in this channel"))
    @app_commands.guild_only()
    async def leave(self, interaction: discord.Interaction) -> None:
        await self.on_lobby_button(interaction, (await self._lobby_here(interaction)).id, "leave", edit=False)

    @app_commands.command(name="start", description=_("Start the game in this channel (host only)"))
    @app_commands.guild_only()
    async def start(self, interaction: discord.Interaction) -> None:
        await self.on_lobby_button(interaction, (await self._lobby_here(interaction)).id, "start", edit=False)

    @app_commands.command(name="cancel", description=_("Cancel the game in this channel (host or Manage Server)"))
    @app_commands.guild_only()
    async def cancel(self, interaction: discord.Interaction) -> None:
        """The channel's lobby or game; in a channel with neither, the lobby booked here (``starts_in``)."""
        await acknowledge_if_slow(interaction, ephemeral=True, thinking=True)  # before the first query
        table = await self.bot.tables.table_in_channel(interaction.channel_id or 0)
        if table is None:
            await self.cancel_booking(interaction)
            return
        await self.on_lobby_button(interaction, table.id, "cancel", edit=False)

    # --- buttons ----------------------------------------------------------------------------------------------
    async def on_lobby_button(self, interaction: discord.Interaction, game_id: int, action: str, *,
                              edit: bool = True, values: list[str] | None = None) -> None:
        """Join / Leave / Start / Cancel / Add AI / Remove AI / Options / the host's "Remove a player" select
        (``kick``, its ``values`` the picked user id). ``edit``: the interaction came from the lobby message itself.
        Cancel (the button, ``/cancel``, the host's panel) first asks, privately (:func:`cancel_confirmation`):
        ``cancel_yes`` cancels, ``cancel_no`` changes nothing; a ``cancel_yes`` refused (the game ended meanwhile)
        turns the question into the refusal, without its buttons."""
        try:
            await self._lobby_action(interaction, game_id, action, edit, values or [])
        except Exception as exc:  # noqa: BLE001
            if ABOUT not in interaction.extras:
                await self._about(interaction, game_id)
            await send_error(self.bot, interaction, exc)

    async def _about(self, interaction: discord.Interaction, game_id: int) -> None:
        """Record the game a refused lobby action was about, so its refusal comes in the game's language
        (:func:`bot.errors.about`); a game that is gone leaves the server's language."""
        try:
            about(interaction, await self.bot.tables.load(game_id))
        except Exception:  # noqa: BLE001 - no such game (or no database): the server's language then
            log.debug("no game %s for the language of a refusal", game_id, exc_info=True)

    async def _lobby_action(self, interaction: discord.Interaction, game_id: int, action: str, edit: bool,
                            values: list[str]) -> None:
        tables = self.bot.tables
        user = interaction.user
        if action == "cancel":  # the question first, to the host (or a manager) alone
            table = await tables.load(game_id)
            check_cancel(table, user.id, is_manager=is_manager(user))
            await respond(interaction, ephemeral=True, **cancel_confirmation(table))
            return
        if action == "cancel_no":
            await edit_answer(interaction, content=t("lobby.cancel.kept", (await tables.load(game_id)).language),
                              embed=None, view=None)
            return
        if action == "cancel_yes":
            try:
                await self._cancel(interaction, game_id)
            except (TableError, UserError) as exc:  # over meanwhile (or no longer theirs): the question is moot
                language = (await tables.load(game_id)).language
                moot = error_text(language, exc)  # (a lost race's refusal already says nothing was cancelled)
                moot += "" if exc.code == "lobby.cancel.stale" else f"\n{t('lobby.cancel.moot', language)}"
                await edit_answer(interaction, content=moot, embed=None, view=None)
            return
        if action == "start":
            if not interaction.response.is_done():  # (the /start command may have deferred already)
                await interaction.response.defer(ephemeral=not edit, thinking=not edit)
            table = await tables.load(game_id)
            if table.host_id != user.id:  # before the game's own checks, which may have side effects
                raise TableError("table.host_only")
            await self._prepare_start(table)
            # after any lobby answer in flight has landed (each holds the lock until Discord took it), so that an
            # answer drawn from the open lobby never lands over the table; a later one reads the started game
            async with self._shown(game_id):
                with answering(interaction):  # the lobby message becomes the table, answering the Start click
                    table = await tables.start(game_id, user.id)
                    # a game whose start said nothing (the table this process remembers once the deal was shown
                    # here says where it is: no read)
                    shown = await tables.at(game_id, table.version)
                    if shown.table_message_id is None:
                        await self.bot.delivery.show_table(table)
            if not edit:
                await interaction.followup.send(t("lobby.started", table.language), ephemeral=True)
            return
        if action == "options":  # the host's form; its submit is :meth:`on_options_form`
            table = await tables.load(game_id)
            if table.status != "lobby":
                raise TableError("table.already_started" if table.status == "active" else "table.not_active")
            if table.host_id != user.id or not table.user_ids():
                raise TableError("table.host_only")
            await interaction.response.send_modal(options_modal(table, table.language))
            return
        if action not in ("join", "leave", "add_ai", "remove_ai", "kick"):
            raise UserError("lobby.unknown_action")
        table = await in_time(interaction, self._change(interaction, game_id, action, values), ephemeral=not edit,
                              thinking=not edit)
        async with self._shown(game_id):  # the answer renders the lobby as committed when it is sent
            shown = await self._answer_with_lobby(interaction, game_id) if edit else None
            await self._refresh_lobby(table, locked=True, shown=shown)
            if shown is not None:
                return
        if not edit:
            text = t(f"lobby.done.{action}", table.language)
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)

    async def on_options_form(self, interaction: discord.Interaction, table: Table, values: dict[str, Any]) -> None:
        """The host submitted the lobby's Options form: the options change (refused like ``/newgame``, naming the
        option as Discord shows it), the lobby shows them and the host is told, privately."""
        options = submitted_options(table, values, table.language)
        offered = {o.name: o for o in form_options(table)}
        try:
            changed = await self.bot.tables.change_options(table.id, interaction.user.id, options)
        except TableError as exc:
            if (name := exc.params.get("name")) in offered:
                exc.params["name"] = offered[str(name)].label(table.language)
            raise
        await interaction.response.send_message(t("lobby.options_saved", changed.language), ephemeral=True)
        await self._refresh_lobby(changed)

    async def _cancel(self, interaction: discord.Interaction, game_id: int) -> None:
        """The host confirmed the cancel (on the private question): a lobby closes (its message says so), a running
        game ends by the game's own cancel (the table, edited by its delivery, says who cancelled it and reveals);
        the question becomes the answer."""
        user = interaction.user
        try:
            table = await in_time(interaction, self.bot.tables.cancel(game_id, user.id, is_manager=is_manager(user),
                                                                      by_name=user.display_name))
        except TableError as exc:  # it started, or a move landed, while the host confirmed: nothing was cancelled
            if exc.code == "table.stale":
                raise TableError("lobby.cancel.stale", game_id=game_id) from exc
            raise
        if table.state is None:
            await self._refresh_lobby(table)
        else:
            await ui_for(table.game, table.mode).on_cancelled(self.bot, table)
        await edit_answer(interaction, content=t("lobby.done.cancel", table.language), embed=None, view=None)

    async def _change(self, interaction: discord.Interaction, game_id: int, action: str,
                      values: list[str] | None = None) -> Table:
        tables, user = self.bot.tables, interaction.user
        if action == "kick":
            if not values or not values[0].isdigit():
                raise UserError("lobby.unknown_action")
            try:
                return await tables.kick(game_id, user.id, int(values[0]), is_manager=is_manager(user))
            except TableError as exc:  # (said to the clicker, not as if they were the one not playing)
                if exc.code == "table.not_a_player":
                    raise UserError("lobby.kick.gone", player=f"<@{values[0]}>") from exc
                raise
        if action == "join":
            return await tables.join(game_id, user.id, user_names(user))
        if action == "leave":
            return await tables.leave(game_id, user.id)
        if action == "add_ai":
            return await tables.add_ai(game_id, user.id)
        return await tables.remove_ai(game_id, user.id)

    def _shown(self, game_id: int) -> asyncio.Lock:
        """Serialises the edits of one lobby message, each rendering the latest committed lobby when it is sent and
        holding the lock until Discord took it, and the start (which turns the message into the table): a late
        answer never puts an open lobby over a started game. Held only around rendering and sending, never
        around a change's own commit."""
        return self._lobby_locks(game_id)

    async def _answer_with_lobby(self, interaction: discord.Interaction, game_id: int) -> int | None:
        """Answer a click on the lobby message by editing it to the latest lobby (not at all once the message
        became the game's table); the version of the lobby it shows, or None if that answer failed (the caller
        then edits the message through the channel, so the lobby always shows what was committed). The latest
        lobby this process knows, with no read (the refresh after the answer reads it: another process's change)."""
        table = self.bot.tables.remembered(game_id) or await self.bot.tables.load(game_id)
        try:
            if table.state is not None:  # started meanwhile: the message is (about to be) the table, and stays so
                if not interaction.response.is_done():
                    await interaction.response.defer()
                return table.version
            kwargs = await self._lobby_message(table)
            if interaction.response.is_done():
                await interaction.edit_original_response(**kwargs)
            else:
                await interaction.response.edit_message(**kwargs)
        except discord.HTTPException:
            log.warning("could not answer lobby click %s; editing the lobby message instead", interaction.id)
            return None
        return table.version

    async def _prepare_start(self, table: Table) -> None:
        """Let the game's UI refuse the start (e.g. no official medium) or add options from the server config."""
        config = await self.bot.config(table.guild_id)
        extra = await ui_for(table.game, table.mode).prepare_start(self.bot, table, config)
        if extra:
            await self.bot.tables.update_options(table.id, {**table.options, **extra})

    async def _expires_at(self, table: Table) -> int | None:
        """When the lobby expires (see :func:`~bot.cogs.lobby.render.lobby_expires_at`)."""
        return await lobby_expires_at(self.bot.tables, table)

    async def _lobby_message(self, table: Table) -> dict[str, Any]:
        """The lobby message's embed and buttons for ``table`` (closed by its expiry: said so)."""
        expired = table.status == "cancelled" and await self.bot.tables.lobby_expired(table.id)
        expires = None if expired else await self._expires_at(table)
        return {"embed": lobby_embed(table, table.language, expires, expired=expired),
                "view": lobby_view(table, table.language), **lobby_heading(table)}

    async def _refresh_lobby(self, table: Table, *, locked: bool = False, shown: int | None = None) -> None:
        """Edit the lobby message to the latest committed lobby (``table`` only names it), unless it became the
        game's table. ``shown``: the version the message shows already (the answer to a click).

        Across processes the later state wins: an edit from one process (a click) and one from another (the
        expiry timer) may reach Discord in either order, so after its edit a process reads the lobby again and
        edits once more when it changed meanwhile; whichever edit lands last is followed by such a check, and
        the message ends on the latest committed lobby (at most :data:`LOBBY_EDITS` edits per call: each later
        change refreshes the message itself)."""
        if not locked:
            async with self._shown(table.id):
                await self._refresh_lobby(table, locked=True, shown=shown)
            return
        for _attempt in range(LOBBY_EDITS):
            table = await self.bot.tables.load(table.id)
            if not table.lobby_message_id or table.table_message_id or table.state is not None:  # the table now
                return
            if table.version == shown:  # what the message shows is still the latest lobby
                return
            channel = await self.bot.delivery.channel(table.channel_id)
            try:
                await channel.get_partial_message(table.lobby_message_id).edit(  # type: ignore[attr-defined]
                    **await self._lobby_message(table))
            except discord.HTTPException:
                return
            shown = table.version

    async def on_lobby_expire(self, timer: Any) -> None:
        table = await self.bot.tables.load(timer.game_id)
        if table.status != "lobby":
            return
        await self._refresh_lobby(await self.bot.tables.expire(table.id))

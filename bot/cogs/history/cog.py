"""``/history [game] [export]`` and the history's buttons (persistent: :class:`bot.components.HistoryButton`).

Everything is ephemeral and in the server's language. Only the server's own games are shown, only those played in a
channel the member asking can view (:mod:`bot.members`; ``history.not_visible``), and a game's
timeline only once it is finished: a running game's would give its secrets away (``history.running``). A timeline is a
replay of the stored record (:mod:`bot.history`), so it is computed after deferring the interaction, and kept for
the next page clicks (a finished game never changes).
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands
from pydantic import ValidationError

from bot.budget import OPTION_TEXT, clip
from bot.cogs.history._render import PER_PAGE, choice_label, export_files, list_message, timeline_message
from bot.db.base import MAX_ROW_ID
from bot.errors import UserError, send_error
from bot.history.record import GameRecord
from bot.history.store import kept, load_record, played_in, recent, search
from bot.history.timeline import Entry, discord_stamp, pages, stamped, timeline
from bot.i18n import t
from bot.members import can_view, viewable
from bot.tables import TableError
from bot.ui import Outgoing
from games.core import IllegalAction

if TYPE_CHECKING:
    from bot.app import Coroner

#: timelines kept for page clicks, by (game id, language)
CACHED = 16
#: the largest game number (``games.id`` is a 32-bit integer column)
MAX_GAME_ID = MAX_ROW_ID

Timeline = tuple[GameRecord, list[Entry], list[str]]


def _check_visible(interaction: discord.Interaction, record: GameRecord) -> None:
    """Raises ``UserError("history.not_visible")`` unless the member asking may see the game of ``record``
    (:func:`bot.members.can_view`: every secret of a private channel's game stays among who can
    view that channel)."""
    if not can_view(interaction.user, interaction.guild, record.table.channel_id):
        raise UserError("history.not_visible", id=record.table.id)


class History(commands.Cog):
    """The server's finished games and their timelines."""

    def __init__(self, bot: Coroner) -> None:
        self.bot = bot
        self._timelines: OrderedDict[tuple[int, str], Timeline] = OrderedDict()

    async def _record(self, interaction: discord.Interaction, game_id: int) -> GameRecord:
        """The record of a finished game of the interaction's server. Raises ``UserError``: ``history.not_here``
        (no such game in this server), ``history.not_visible`` (played in a channel the member cannot view:
        :func:`_check_visible`), ``history.running`` (a lobby or a game in play), ``history.not_finished``
        (cancelled)."""
        if not 1 <= game_id <= MAX_GAME_ID:  # never a game (and past what the id column holds)
            raise UserError("history.not_here", id=game_id)
        try:
            record = await load_record(self.bot.sessions, game_id)
        except (TableError, KeyError):  # no such game, or one of a game this bot no longer has
            raise UserError("history.not_here", id=game_id) from None
        if record.table.guild_id != interaction.guild_id:
            raise UserError("history.not_here", id=game_id)
        _check_visible(interaction, record)
        if record.table.is_open:
            raise UserError("history.running", id=game_id)
        if not kept(record.table):
            raise UserError("history.not_finished", id=game_id)
        return record

    async def _timeline(self, interaction: discord.Interaction, game_id: int, language: str) -> Timeline:
        """The record, timeline and pages of a finished game of the interaction's server (see :meth:`_record`);
        raises ``UserError("history.broken")`` when the record no longer replays."""
        cached = self._timelines.get((game_id, language))
        if cached is not None and cached[0].table.guild_id == interaction.guild_id:
            _check_visible(interaction, cached[0])
            self._timelines.move_to_end((game_id, language))
            return cached
        record = await self._record(interaction, game_id)
        try:  # a replay: CPU work, kept off the event loop
            entries = await asyncio.to_thread(timeline, record, language)
        except (IllegalAction, ValidationError):
            raise UserError("history.broken", id=game_id) from None
        found = self._timelines[(game_id, language)] = (record, entries, pages(stamped(entries, discord_stamp)))
        while len(self._timelines) > CACHED:
            self._timelines.popitem(last=False)
        return found

    async def _viewable(self, interaction: discord.Interaction) -> set[int]:
        """The channels of the server's kept games whose games the member asking may see (:func:`viewable`)."""
        assert interaction.guild_id is not None
        played = await played_in(self.bot.sessions, interaction.guild_id)
        return viewable(interaction.user, interaction.guild, played)

    async def _export(self, interaction: discord.Interaction, game_id: int, language: str) -> None:
        """Follow up (after a deferral) with the game's record as files, each within the upload limit of the
        interaction (``history.too_large`` when none fits)."""
        record, entries, _ = await self._timeline(interaction, game_id, language)
        files = export_files(record, entries)
        fitting = [f for f in files if len(f.data) <= interaction.filesize_limit]
        if not fitting:
            raise UserError("history.too_large", id=game_id, size=max(len(f.data) for f in files))
        out = Outgoing(content=t("history.exported", language, id=game_id), files=fitting, language=language)
        await interaction.followup.send(ephemeral=True, **out.kwargs())

    async def game_autocomplete(self, interaction: discord.Interaction,
                                current: str) -> list[app_commands.Choice[int]]:
        """At most 25 of the server's finished games, newest first, whose number starts with ``current`` or whose
        game's name contains it (searched in the database: :func:`bot.history.store.search`)."""
        if interaction.guild_id is None:
            return []
        language = await self.bot.language(interaction.guild_id)
        tables = await search(self.bot.sessions, interaction.guild_id, await self._viewable(interaction), current,
                              language, limit=25)
        return [app_commands.Choice(name=clip(choice_label(x, language), OPTION_TEXT), value=x.id) for x in tables]

    @app_commands.command(name="history",
                          description=_("Finished games of this server, or one game's timeline with every secret "
                                        "revealed"))
    @app_commands.describe(game=_("A finished game's number: its whole timeline"),
                           export=_("Attach the game's full record as files (text and JSON)"))
    @app_commands.autocomplete(game=game_autocomplete)
    @app_commands.guild_only()
    async def history(self, interaction: discord.Interaction,
                      game: app_commands.Range[int, 1, MAX_GAME_ID] | None = None, export: bool = False) -> None:
        assert interaction.guild_id is not None
        language = await self.bot.language(interaction.guild_id)
        if game is None:
            tables, total = await recent(self.bot.sessions, interaction.guild_id, await self._viewable(interaction),
                                         limit=PER_PAGE)
            await interaction.response.send_message(ephemeral=True, **list_message(tables, total, 0, language).kwargs())
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        if export:
            await self._export(interaction, game, language)
            return
        record, _, texts = await self._timeline(interaction, game, language)
        await interaction.followup.send(ephemeral=True, **timeline_message(record.table, texts, 0, language).kwargs())

    async def on_history_button(self, interaction: discord.Interaction, what: str, game_id: int, page: int) -> None:
        """A click on a :class:`~bot.components.HistoryButton`: another page of the list (edited in place), a
        timeline page (edited in place on the ephemeral timeline; from the finished table, a new ephemeral one) or
        the export. Refusals are ephemeral replies."""
        try:
            if interaction.guild_id is None:
                raise UserError("error.guild_only")
            language = await self.bot.language(interaction.guild_id)
            if what == "list":
                channels = await self._viewable(interaction)
                tables, total = await recent(self.bot.sessions, interaction.guild_id, channels,
                                             offset=page * PER_PAGE, limit=PER_PAGE)
                if not tables and total:  # the list shrank since it was drawn: show its last page
                    page = (total - 1) // PER_PAGE
                    tables, total = await recent(self.bot.sessions, interaction.guild_id, channels,
                                                 offset=page * PER_PAGE, limit=PER_PAGE)
                out = list_message(tables, total, page, language)
                await interaction.response.edit_message(**out.kwargs(edit=True))
                return
            in_place = what == "game" and interaction.message is not None and interaction.message.flags.ephemeral
            if in_place:
                await interaction.response.defer()
            else:
                await interaction.response.defer(ephemeral=True, thinking=True)
            if what == "file":
                await self._export(interaction, game_id, language)
                return
            record, _, texts = await self._timeline(interaction, game_id, language)
            out = timeline_message(record.table, texts, page, language)
            if in_place:
                await interaction.edit_original_response(**out.kwargs(edit=True))
            else:
                await interaction.followup.send(ephemeral=True, **out.kwargs())
        except Exception as exc:  # noqa: BLE001 - every failure becomes a clear ephemeral reply
            await send_error(self.bot, interaction, exc)

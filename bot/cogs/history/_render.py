"""The messages of ``/history``: a page of the server's finished games, a page of one game's timeline with its
buttons, and the export's files. Every one is an :class:`~bot.ui.Outgoing`, budgeted as a whole."""

from __future__ import annotations

import json
from typing import Any

import discord

from bot.budget import EMBED_DESCRIPTION, clip, size
from bot.components import HistoryButton, view_of
from bot.history.record import GameRecord
from bot.history.timeline import Entry, export_text
from bot.i18n import t
from bot.tables import Table
from bot.ui import COLOUR, Attachment, Outgoing, RenderContext

#: finished games per page of the list
PER_PAGE = 10


def players(table: Table, *, plain: bool = False) -> str:
    """The players' names in seat order (markdown escaped for message text; as typed when ``plain``)."""
    ctx = RenderContext(table, table.language)
    return ", ".join(ctx.name(s.seat) if plain else ctx.shown_name(s.seat) for s in table.seats)


def winners(table: Table, language: str) -> str:
    """The winners' names, or "nobody"."""
    ctx = RenderContext(table, language)
    won = table.outcome.winners if table.outcome is not None else []
    return ", ".join(ctx.shown_name(s) for s in won) or t("outcome.nobody", language)


def game_words(table: Table, language: str) -> dict[str, Any]:
    """The game's number, name and mode in words."""
    return {"id": table.id, "game": t(f"game.{table.game}", language),
            "mode": t(f"mode.{table.game}.{table.mode}", language)}


def choice_label(table: Table, language: str) -> str:
    """An autocomplete choice for ``table`` (plain text: Discord shows no markup or time tags there)."""
    when = table.finished_at or table.updated_at
    return t("history.choice", language, **game_words(table, language), date=when.strftime("%Y-%m-%d"),
             players=players(table, plain=True))


def _nav(what: str, game_id: int, page: int, pages: int, language: str) -> list[HistoryButton]:
    """Previous and Next, each only where it leads somewhere (page ``page`` of ``pages``, from 0)."""
    buttons = []
    if page > 0:
        buttons.append(HistoryButton(what, game_id, page - 1, label=t("history.previous", language), emoji="◀️"))
    if page < pages - 1:
        buttons.append(HistoryButton(what, game_id, page + 1, label=t("history.next", language), emoji="▶️"))
    return buttons


def list_line(table: Table, language: str, room: int) -> str:
    """``table``'s line in the list in at most ``room`` UTF-16 units: the players' and winners' names are shortened
    when long (a full page of 12-seat games of 32-character names would not fit the embed otherwise). A game its host
    cancelled says so in place of its winners (it has none: "won: cancelled" read as if someone had)."""
    words = {**game_words(table, language), "date": f"<t:{int((table.finished_at or table.updated_at).timestamp())}:d>"}
    if table.status == "cancelled":
        names = room - size(t("history.line_cancelled", language, **words, players=""))
        return t("history.line_cancelled", language, **words, players=clip(players(table), max(names, 1)))
    names = room - size(t("history.line", language, **words, players="", winners=""))
    won = clip(winners(table, language), max(names // 3, 1))
    return t("history.line", language, **words, players=clip(players(table), max(names - size(won), 1)), winners=won)


def list_message(tables: list[Table], total: int, page: int, language: str) -> Outgoing:
    """Page ``page`` (from 0) of the server's finished games, newest first: number, game, mode, date, players and
    winners each (every game of the page within the embed's description: :func:`list_line`)."""
    pages = max(1, -(-total // PER_PAGE))
    hint = t("history.open_hint", language)
    room = (EMBED_DESCRIPTION - size(hint) - 2) // PER_PAGE - 1  # a newline after each line
    lines = [list_line(x, language, room) for x in tables]
    embed = discord.Embed(title=t("history.title", language), colour=COLOUR,
                          description="\n".join(lines) + "\n\n" + hint if lines else t("history.none", language))
    if pages > 1:
        embed.set_footer(text=t("history.page", language, page=page + 1, pages=pages))
    buttons = _nav("list", 0, page, pages, language)
    return Outgoing(embeds=[embed], view=view_of(*buttons) if buttons else None, language=language)


def timeline_message(table: Table, texts: list[str], page: int, language: str) -> Outgoing:
    """Page ``page`` (from 0) of a game's timeline ``texts`` (see :func:`bot.history.timeline.pages`), with the
    page buttons and Export."""
    page = min(max(page, 0), len(texts) - 1)
    embed = discord.Embed(title=t("history.game_title", language, **game_words(table, language)),
                          description=texts[page], colour=COLOUR)
    embed.set_footer(text=t("history.page", language, page=page + 1, pages=len(texts)))
    items = [*_nav("game", table.id, page, len(texts), language),
             HistoryButton("file", table.id, 0, label=t("history.export", language), emoji="📄")]
    return Outgoing(embeds=[embed], view=view_of(*items), language=language)


def export_files(record: GameRecord, entries: list[Entry]) -> list[Attachment]:
    """The game's record as files: ``game-<id>.txt`` (the timeline to read) and ``game-<id>.json`` (seed, options,
    seats and every action: it replays the game)."""
    game_id = record.table.id
    data = json.dumps(record.to_json(), ensure_ascii=False, indent=1).encode()
    return [Attachment(f"game-{game_id}.txt", export_text(entries).encode()), Attachment(f"game-{game_id}.json", data)]

"""A page of ``/history``'s list shows each of its games, whatever the players' names: ten 12-seat games of
32-character names (markdown to escape) stay within the embed's 4096 units by shortening the names, not by
dropping games (a game dropped from a page is on no page)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.budget import EMBED_DESCRIPTION, size
from bot.cogs.history._render import PER_PAGE, list_message
from bot.history.store import load_record
from bot.i18n import t
from bot.tables.model import TableSeat
from tests.history.conftest import store_game


@pytest.mark.parametrize("language", ["en", "es"])
async def test_every_game_of_a_page_is_listed_with_long_names(sessions: async_sessionmaker[AsyncSession],
                                                              language: str) -> None:
    game_id, _ = await store_game(sessions, "asesino", "social", 12, 7)
    table = (await load_record(sessions, game_id)).table
    name = "*_~`|>" * 5 + "ab"  # 32 characters, each of the first 30 escaped
    table = replace(table, state=None, seats=tuple(TableSeat(s.seat, s.user_id, (name,)) for s in table.seats))
    tables = [replace(table, id=1000 + i) for i in range(PER_PAGE)]
    description = list_message(tables, 25, 0, language).kwargs()["embeds"][0].description
    assert size(description) <= EMBED_DESCRIPTION
    lines = description.split("\n")
    assert [line.split("**")[1] for line in lines[:PER_PAGE]] == [f"#{1000 + i}" for i in range(PER_PAGE)]
    assert lines[-1] == t("history.open_hint", language)  # the hint is kept


@pytest.mark.parametrize(("language", "tail"), [("en", " · cancelled by the host"),
                                                ("es", " · cancelada por el anfitrión")])
async def test_a_cancelled_game_is_listed_as_cancelled_not_as_won(sessions: async_sessionmaker[AsyncSession],
                                                                  language: str, tail: str) -> None:
    """A cancelled game's line ends saying its host cancelled it, with no "won:" before it (nobody won), even with
    long names; a finished game's line keeps its winners."""
    game_id, _ = await store_game(sessions, "asesino", "social", 12, 7)
    table = (await load_record(sessions, game_id)).table
    name = "*_~`|>" * 5 + "ab"
    table = replace(table, state=None, seats=tuple(TableSeat(s.seat, s.user_id, (name,)) for s in table.seats))
    cancelled = replace(table, id=2000, status="cancelled")
    lines = list_message([cancelled, table], 2, 0, language).kwargs()["embeds"][0].description.split("\n")
    won = t("history.line", language, id="", game="", mode="", date="", players="", winners="").split("· ")[-1]
    assert lines[0].startswith("**#2000** ") and lines[0].endswith(tail) and won not in lines[0]
    assert won in lines[1]

"""``/history``'s ``game`` autocomplete searches all of a server's finished games in the database (not only the 25
newest): by number prefix or game name, newest first, at most 25."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.db.models import Game as GameRow
from bot.history.store import played_in, search
from tests.history.conftest import GUILD

START = datetime(2026, 11, 1, tzinfo=UTC)
#: the channel every stored game was played in (the one the member searching can view)
HERE = {1}


async def store_rows(sessions: async_sessionmaker[AsyncSession], count: int) -> list[int]:
    """``count`` finished games of ``GUILD`` (Verdugo, every fifth Asesino), each ending an hour after the last,
    then one of another server and one still in its lobby: the ids of the finished ones, oldest first."""
    ids = []
    async with sessions() as session, session.begin():
        for n in range(count + 2):
            end = START + timedelta(hours=n)
            game, mode = ("asesino", "small") if n % 5 == 0 else ("verdugo", "classic")
            row = GameRow(game=game, mode=mode, channel_id=1, host_id=101,
                          guild_id=GUILD + 1 if n == count else GUILD,
                          status="lobby" if n == count + 1 else "finished", options={}, state=None,
                          created_at=START, updated_at=end, started_at=START, finished_at=end)
            session.add(row)
            await session.flush()
            if n < count:
                ids.append(row.id)
    return ids


async def test_a_number_prefix_finds_old_games_newest_first(sessions: async_sessionmaker[AsyncSession]) -> None:
    ids = await store_rows(sessions, 40)
    assert ids == list(range(1, 41))
    found = await search(sessions, GUILD, HERE, "#3", "en")
    assert [x.id for x in found] == [39, 38, 37, 36, 35, 34, 33, 32, 31, 30, 3]  # game #3 is the 3rd oldest
    assert [x.id for x in await search(sessions, GUILD, HERE, " 41", "en")] == []  # another server's
    assert [x.id for x in await search(sessions, GUILD, HERE, "42", "en")] == []  # a lobby
    assert [x.id for x in await search(sessions, GUILD, HERE, "", "en")] == list(range(40, 15, -1))  # the 25 newest


async def test_a_game_name_finds_that_game_in_the_server_language(
        sessions: async_sessionmaker[AsyncSession]) -> None:
    await store_rows(sessions, 40)
    assert [x.id for x in await search(sessions, GUILD, HERE, "asesino en", "en")] == [36, 31, 26, 21, 16, 11, 6, 1]
    assert len(await search(sessions, GUILD, HERE, "VERDU", "es")) == 25
    assert await search(sessions, GUILD, HERE, "nothing like it", "en") == []


async def test_only_games_of_the_channels_given_are_found(sessions: async_sessionmaker[AsyncSession]) -> None:
    """The channels are those the member searching can view (:mod:`bot.members`)."""
    await store_rows(sessions, 3)
    assert await played_in(sessions, GUILD) == [1]
    assert [x.id for x in await search(sessions, GUILD, HERE, "", "en")] == [3, 2, 1]
    assert await search(sessions, GUILD, {2}, "", "en") == []
    assert await search(sessions, GUILD, set(), "", "en") == []

"""Achievements from seeded random games played through the table service match a recount made from the logged
``game_actions`` (each finished game replayed from its seed and judged against its game's book) and the stored
outcomes: computer seats never earn, a cancelled game earns nothing, and a ``once`` achievement (a first win per
role) is kept only the first time a player meets it in the server."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.db.models import Achievement
from bot.history.store import load_record
from bot.tables import TableService
from games.core import SeatInfo, get_engine
from games.core.achievements import book_of, earned
from tests.bot.stats.test_recount import GUILD, Clock, _nothing, _play
from tests.db.backends import db_url, engine, pg_database, sessions

__all__ = ["db_url", "engine", "pg_database", "sessions"]

USERS = (100, 101, 102, 103)
#: (game, mode, people, computer seats, the seeds played): a Let's Kill! game is long, one of it does
TABLES = [("asesino", "tabletop", 4, 1, (3, 5, 8)), ("asesino", "small", 3, 0, (3, 5, 8)),
          ("cereal_killer", "classic", 2, 1, (3, 5, 8)), ("verdugo", "classic", 3, 1, (3, 5, 8)),
          ("lets_kill", "classic", 3, 0, (3,))]


async def _recount(sessions: async_sessionmaker[AsyncSession], game_ids: list[int]) -> tuple[set, int]:
    """``(game_id, user_id, achievement)`` as the logs say they were earned, oldest game first, keeping a ``once``
    one only for its first (server, user, game); and how many ``once`` ones were met again and not kept."""
    kept, seen, again = set(), set(), 0
    for game_id in sorted(game_ids):
        record = await load_record(sessions, game_id)
        table = record.table
        if table.status != "finished":
            continue
        eng = get_engine(table.game, table.mode)
        judged = earned(eng, eng.Options.model_validate(table.options), [SeatInfo(names=s.names) for s in table.seats],
                        table.seed, [(a.seat, a.action) for a in record.actions])
        for seat in table.seats:
            for name in judged.get(seat.seat, []):
                if seat.user_id is None:
                    continue
                if book_of(table.game).spec(name).once:
                    if (table.game, seat.user_id, name) in seen:
                        again += 1
                        continue
                    seen.add((table.game, seat.user_id, name))
                kept.add((game_id, seat.user_id, name))
    return kept, again


async def test_achievements_match_a_recount_of_the_logged_games(sessions) -> None:
    """Seeded games of each game and mode (computer seats at some), one of each cancelled midway: every stored
    achievement, and only those, is one the replayed logs earn; the results carry them too."""
    clock = Clock()
    service = TableService(sessions, deliver=_nothing, clock=clock)
    ids, cancelled = [], []
    channel = 500
    for game, mode, people, ai, seeds in TABLES:
        for n, seed in enumerate(seeds):
            users = (USERS[n % people:] + USERS[:n % people])[:people]  # the seats change hands over the games
            channel += 1
            ids.append(await _play(service, clock, channel, game, mode, users, seed, ai=ai))
        channel += 1
        cancelled.append(await _play(service, clock, channel, game, mode, USERS[:people], 21, ai=ai, cancel_after=2))
    expected, again = await _recount(sessions, ids + cancelled)
    async with sessions() as session:
        rows = (await session.execute(select(Achievement.game_id, Achievement.user_id, Achievement.achievement,
                                             Achievement.guild_id, Achievement.game))).all()
    stored = {(g, u, a) for g, u, a, _, _ in rows}
    assert len(rows) == len(stored)  # one row per earned achievement
    assert stored == expected
    assert {guild for *_, guild, _ in rows} == {GUILD}
    assert not {g for g, _, _ in stored} & set(cancelled) and None not in {u for _, u, _ in stored}
    assert len({name for _, _, name in stored}) >= 8 and again > 0  # many kinds earned, and some first wins withheld
    for game_id in ids:  # the stored outcome (what the result message shows) says the same, by seat
        table = await service.load(game_id)
        shown = {(game_id, table.user_of(seat), name) for seat, names in table.outcome.achievements.items()
                 for name in names}
        assert shown == {row for row in stored if row[0] == game_id}

"""Reading finished games back from the store: a server's recent games (newest first), a search of them, and one
game's record."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from sqlalchemy import ColumnElement, Select, String, and_, cast, false, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from sqlalchemy.orm import defer

from bot.db.models import Game, Seat
from bot.db.repos import games
from bot.history.record import GameRecord, LoggedAction
from bot.history.verdict import options_problem
from bot.i18n import t
from bot.tables import Table, TableError, to_table
from games.core import all_games, get_engine

FINISHED = "finished"
CANCELLED = "cancelled"


def kept(table: Table) -> bool:
    """Whether the history keeps ``table``: a finished game, or a game its host cancelled after the start (a
    lobby cancelled before it has nothing to tell)."""
    return table.status == FINISHED or (table.status == CANCELLED and table.seed is not None)


def _finished_of(guild_id: int, channels: Collection[int]) -> Select[tuple[Game]]:
    """The games of ``guild_id`` played in one of ``channels`` that the history keeps (:func:`kept`) and whose game
    this bot still has (an engine to read them with)."""
    return select(Game).where(Game.guild_id == guild_id, Game.channel_id.in_(channels), _kept(),
                              Game.game.in_([g.id for g in all_games()]))


def _kept() -> ColumnElement[bool]:
    """:func:`kept` as a condition on ``games``."""
    return or_(Game.status == FINISHED, and_(Game.status == CANCELLED, Game.seed.is_not(None)))


async def _newest(session: AsyncSession, stmt: Select[tuple[Game]]) -> list[Table]:
    """The games ``stmt`` selects, newest first (by end, then id), as tables without state (a list does not need
    it, and states are large): two queries, the games and then all their seats."""
    stmt = stmt.options(defer(Game.state, raiseload=True)).order_by(Game.finished_at.desc(), Game.id.desc())
    rows = (await session.scalars(stmt)).all()
    seats: dict[int, list[Seat]] = {row.id: [] for row in rows}
    if rows:  # every listed game's seats in one query (not one per game)
        for seat in await session.scalars(select(Seat).where(Seat.game_id.in_(seats)).order_by(Seat.seat)):
            seats[seat.game_id].append(seat)
    return [to_table(row, seats[row.id], with_state=False) for row in rows]


async def played_in(sessions: async_sessionmaker[AsyncSession], guild_id: int) -> Sequence[int]:
    """The channels (ids, each once) the games of ``guild_id`` the history keeps were played in: what to ask
    :func:`bot.members.viewable` about before :func:`recent` or :func:`search`."""
    async with sessions() as session:
        return (await session.scalars(select(Game.channel_id).distinct().where(Game.guild_id == guild_id, _kept()))
                ).all()


async def recent(sessions: async_sessionmaker[AsyncSession], guild_id: int, channels: Collection[int], *,
                 offset: int = 0, limit: int = 10) -> tuple[list[Table], int]:
    """The finished games of ``guild_id`` played in one of ``channels`` (those the member asking can view) from
    ``offset``, newest first (by end, then id), at most ``limit``, and how many there are in all. Their tables carry
    no state (:func:`_newest`)."""
    async with sessions() as session:
        total = await session.scalar(select(func.count()).select_from(_finished_of(guild_id, channels).subquery()))
        return await _newest(session, _finished_of(guild_id, channels).offset(offset).limit(limit)), int(total or 0)


async def search(sessions: async_sessionmaker[AsyncSession], guild_id: int, channels: Collection[int], text: str,
                 language: str, *, limit: int = 25) -> list[Table]:
    """The finished games of ``guild_id`` played in one of ``channels`` matching ``text`` (case and a leading ``#``
    ignored), newest first (by end, then id), at most ``limit``, without state: digits match the start of a game's
    number, other text a part of its game's name in ``language`` (or its id); empty text matches every game."""
    needle = text.strip().lstrip("#").strip().lower()
    stmt = _finished_of(guild_id, channels)
    if needle:
        match: ColumnElement[bool] = false()
        if needle.isascii() and needle.isdigit():
            match = cast(Game.id, String).like(f"{needle}%")
        named = [g.id for g in all_games() if needle in g.id or needle in t(f"game.{g.id}", language).lower()]
        stmt = stmt.where(or_(match, Game.game.in_(named)))
    async with sessions() as session:
        return await _newest(session, stmt.limit(limit))


async def finished_ids(sessions: async_sessionmaker[AsyncSession]) -> Sequence[int]:
    """Every game the history keeps (:func:`kept`: finished, or cancelled after the start) of every server, oldest
    first (for ``coroner replay``)."""
    async with sessions() as session:
        return (await session.scalars(select(Game.id).where(_kept()).order_by(Game.id))).all()


async def load_record(sessions: async_sessionmaker[AsyncSession], game_id: int) -> GameRecord:
    """The record of ``game_id``, whatever its status. Raises ``TableError("table.not_found")``, ``KeyError`` for a
    game this bot no longer has, ``ValueError`` (in words: :func:`bot.history.verdict.options_problem`) for stored
    options that are no object."""
    async with sessions() as session:
        row = await games.get_game(session, game_id)
        if row is None:
            raise TableError("table.not_found", game_id=game_id)
        if not isinstance(row.options, dict):  # (no table is made of it)
            raise ValueError(options_problem(get_engine(row.game, row.mode), row.options))
        table = to_table(row, await games.seats_of(session, game_id))
        log = await games.actions_of(session, game_id)
        actions = tuple(LoggedAction(seq=a.seq, seat=a.seat, user_id=a.user_id, action=dict(a.action),
                                     timed_out=a.timed_out, at=a.at) for a in log)
        return GameRecord(table=table, started_at=row.started_at, actions=actions)

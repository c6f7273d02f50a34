"""The rows statistics are counted from: one :class:`Record` per person's seat in a finished game of a server.

Only finished games count: a cancelled or abandoned game never reaches a result, so it has no ``scores`` rows, and
computer seats are never scored (:func:`bot.db.repos.scores.record_outcome`). A seat's role is read from the
finished game's public view, where every game shows its roles once it is over (Asesino's ``roles``, Cereal
Killer's ``roles``); games whose roles change every round (Verdugo) or have none (Let's Kill!) have ``None``.

A role says what only the game's channel saw: :func:`unrevealing` drops it from the records of games played in a
channel the member asking cannot view (:func:`bot.members.viewable`, as ``/history`` shows games), so a private
channel's game still counts (played, won, points) but never tells whose role it was.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.models import Game, GameAction, Score
from games.core import get_engine


@dataclass(frozen=True, slots=True)
class Record:
    """One person's seat in one finished game: ``points`` in the game's unit (Crowns for Verdugo), ``minutes`` from
    start to finish (``None`` when a time is missing), ``moves`` the accepted actions of the whole game."""

    game_id: int
    game: str
    mode: str
    channel_id: int
    user_id: int
    seat: int
    role: str | None
    won: bool
    points: float
    at: datetime
    minutes: float | None
    moves: int


def role_of(view: dict[str, Any], seat: int) -> str | None:
    """The role of ``seat`` in a finished game's public ``view`` (see the module docstring), or ``None``."""
    roles = view.get("roles")
    if isinstance(roles, dict):
        return roles.get(str(seat), roles.get(seat))  # type: ignore[call-overload]
    if isinstance(roles, list):
        for index, item in enumerate(roles):
            if isinstance(item, dict) and item.get("seat") == seat:
                return item.get("role")
            if isinstance(item, str) and index == seat:
                return item
    return None


def final_roles(game: str, mode: str, state: dict[str, Any] | None, seats: set[int]) -> dict[int, str | None]:
    """``seat -> role`` for ``seats`` of a finished game's stored ``state`` (``None`` throughout without one)."""
    if state is None:
        return dict.fromkeys(seats)
    engine = get_engine(game, mode)
    view = engine.view(engine.State.model_validate(state), None)
    return {seat: role_of(view, seat) for seat in seats}


async def records(session: AsyncSession, guild_id: int, *, user_id: int | None = None,
                  game: str | None = None) -> list[Record]:
    """Every scored seat of the finished games of ``guild_id`` (optionally one member's, one game's), oldest
    first."""
    moves = (select(GameAction.game_id, func.count(GameAction.id).label("moves"))
             .group_by(GameAction.game_id).subquery())
    stmt = (select(Score, Game, func.coalesce(moves.c.moves, 0))
            .join(Game, Game.id == Score.game_id).outerjoin(moves, moves.c.game_id == Game.id)
            .where(Score.guild_id == guild_id, Game.status == "finished"))
    if user_id is not None:
        stmt = stmt.where(Score.user_id == user_id)
    if game is not None:
        stmt = stmt.where(Score.game == game)
    rows = (await session.execute(stmt.order_by(Score.at, Score.game_id, Score.seat))).all()
    seats: dict[int, set[int]] = {}
    games: dict[int, Game] = {}
    for score, row, _ in rows:
        seats.setdefault(row.id, set()).add(score.seat)
        games[row.id] = row
    roles = {gid: final_roles(g.game, g.mode, g.state, seats[gid]) for gid, g in games.items()}
    out = []
    for score, row, count in rows:
        minutes = None
        if row.started_at is not None and row.finished_at is not None:
            minutes = (row.finished_at - row.started_at).total_seconds() / 60
        out.append(Record(game_id=row.id, game=row.game, mode=row.mode, channel_id=row.channel_id,
                          user_id=score.user_id, seat=score.seat,
                          role=roles[row.id][score.seat], won=score.won, points=score.points, at=score.at,
                          minutes=minutes, moves=int(count)))
    return out


def unrevealing(records: list[Record], channels: Collection[int]) -> list[Record]:
    """``records`` with the role left out (``None``) of each whose game was played in a channel not among
    ``channels`` (those the member asking may view): its game still counts, its role does not (see the
    module)."""
    return [r if r.channel_id in channels or r.role is None else replace(r, role=None) for r in records]

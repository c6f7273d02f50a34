"""Statistics from seeded random games played through the table service match a recount made from the logged
``game_actions`` (each finished game replayed from its seed) and the stored outcomes; computer seats and a
cancelled game are not counted."""

from __future__ import annotations

import random
from collections import Counter
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.cogs.stats.compute import game_stats, player_stats, side_of
from bot.cogs.stats.records import records, role_of
from bot.history.store import load_record
from bot.tables import TableService
from games.core import SeatInfo, get_engine
from games.core.replay import replay
from tests.db.backends import db_url, engine, pg_database, sessions

__all__ = ["db_url", "engine", "pg_database", "sessions"]

GUILD = 10
USERS = (100, 101, 102)


class Clock:
    """A clock the test moves on (a minute per move), so games have lengths."""

    def __init__(self) -> None:
        self.now = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


async def _nothing(*_: object) -> None:
    return None


async def _play(service: TableService, clock: Clock, channel: int, game: str, mode: str, users: tuple[int, ...],
                seed: int, *, ai: int = 0, cancel_after: int | None = None, guild: int = GUILD) -> int:
    """Open, fill, start and play one game with random legal moves (AI seats moved by seat); with
    ``cancel_after`` the host cancels it after that many moves. Returns the game id."""
    table = await service.open_lobby(guild, channel, users[0], game, mode, {})
    for user in users:
        table = await service.join(table.id, user, [f"u{user}"])
    for _ in range(ai):
        table = await service.add_ai(table.id, users[0])
    table = await service.start(table.id, users[0], seed=seed)
    rng = random.Random(seed)
    moves = 0
    while table.status == "active":
        if cancel_after is not None and moves >= cancel_after:
            await service.cancel(table.id, users[0], is_manager=True)
            break
        legal = [(s.seat, s.user_id, a) for s in table.seats
                 for a in table.engine.legal_actions(table.state, s.seat)]
        assert legal, "an active game always waits on someone"
        seat, user, action = rng.choice(legal)
        data = action.model_dump(mode="json")
        result = await service.act(table.id, user, data, seat=None if user is not None else seat)
        table = result.table
        moves += 1
        clock.now += timedelta(minutes=1)
    return table.id


async def _recount(sessions: async_sessionmaker[AsyncSession], game_ids: list[int]):
    """Per finished game, from its logged actions replayed from the seed: ``(game, user, role, won)`` of every
    person's seat, and the number of moves."""
    seats, moves = [], {}
    for game_id in game_ids:
        record = await load_record(sessions, game_id)
        table = record.table
        if table.status != "finished":
            continue
        eng = get_engine(table.game, table.mode)
        state = replay(eng, eng.Options.model_validate(table.options), [SeatInfo(names=s.names) for s in table.seats],
                       table.seed, [(a.seat, a.action) for a in record.actions])
        outcome = eng.outcome(state)
        assert outcome is not None and outcome.winners == table.outcome.winners
        view = eng.view(state, None)
        moves[game_id] = len(record.actions)
        seats += [(table.game, s.user_id, role_of(view, s.seat), s.seat in outcome.winners)
                  for s in table.seats if s.user_id is not None]
    return seats, moves


@pytest.mark.parametrize("game,mode,players", [("cereal_killer", "classic", 3), ("asesino", "small", 3)])
async def test_statistics_match_a_recount_of_the_logged_games(sessions, game: str, mode: str, players: int) -> None:
    """Four seeded games (one with a computer seat), one cancelled: the counts agree with the replayed logs."""
    clock = Clock()
    service = TableService(sessions, deliver=_nothing, clock=clock)
    ids = []
    for n, seed in enumerate((3, 5, 8, 13)):
        users = USERS[n % 3:] + USERS[:n % 3]  # each user plays every seat over the games
        ai = 1 if n == 3 else 0
        ids.append(await _play(service, clock, 20 + n, game, mode, users[:players - ai], seed, ai=ai))
    ids.append(await _play(service, clock, 30, game, mode, USERS[:players], 21, cancel_after=2))
    seats, moves = await _recount(sessions, ids)
    async with sessions() as session:
        rows = await records(session, GUILD, game=game)
        assert {r.game_id for r in rows} == set(moves)  # the cancelled game is not there
        assert None not in {r.user_id for r in rows}  # nor the computer seat
        assert sorted((r.game, r.user_id, r.role, r.won) for r in rows) == sorted(seats)
        for user in USERS:
            stats = player_stats(await records(session, GUILD, user_id=user))
            mine = [s for s in seats if s[1] == user]
            assert stats.total.played == len(mine) and stats.total.won == sum(s[3] for s in mine)
            assert {role: n.played for (_, role), n in stats.by_role.items()} == dict(Counter(s[2] for s in mine))
    server = game_stats(rows)
    assert server.games == len(moves) == 4
    assert server.moves == sum(moves.values()) / len(moves)
    assert {role: (n.played, n.won) for role, n in server.by_role.items()} == {
        role: (sum(1 for s in seats if s[2] == role), sum(1 for s in seats if s[2] == role and s[3]))
        for role in {s[2] for s in seats}}
    sides = {side_of(game, s[2]) for s in seats}
    assert set(server.by_side) == sides and sum(n.won for n in server.by_side.values()) >= 4
    assert server.active[0][1] == max(Counter(s[1] for s in seats).values())

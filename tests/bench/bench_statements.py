"""What one SQL statement costs the bot's process (not part of the test run; prints numbers, asserts nothing): the
version bump's UPDATE and the table's SELECT (a game and its four seats), each run ``--statements`` times in one
transaction on a SQLite file through :func:`bot.db.create_engine`, built per call or built once with bound parameters
(as :mod:`bot.db.repos.games` builds them), and with or without the hop to aiosqlite's worker thread
(:meth:`bot.db.sqlite_driver.OneHopConnection.cannot_wait`). CPU time of the process (``time.process_time``: both
threads), in µs per statement, one column per round (``--rounds``): the machine's load moves every number, so compare
within a round.

Run: ``.venv/bin/python -m tests.bench.bench_statements [--statements N] [--rounds R]``.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from sqlalchemy import bindparam, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.db import Base, create_engine
from bot.db.base import utcnow
from bot.db.models import Game, Seat
from bot.db.sqlite_driver import OneHopConnection

GAMES, SEATS = Game.__table__, Seat.__table__
BUMP = (update(GAMES).where(GAMES.c.id == bindparam("game_id"), GAMES.c.version == bindparam("expected"))
        .values(version=bindparam("v_version"), updated_at=bindparam("v_updated_at"), state=bindparam("v_state")))
READ = (select(GAMES, SEATS.c.seat.label("seat_seat")).outerjoin(SEATS, SEATS.c.game_id == GAMES.c.id)
        .where(GAMES.c.id == bindparam("game_id")).order_by(SEATS.c.seat))

Statement = Callable[[AsyncConnection, int, int], Awaitable[Any]]


async def bump_built(conn: AsyncConnection, game_id: int, version: int) -> None:
    await conn.execute(update(GAMES).where(GAMES.c.id == game_id, GAMES.c.version == version)
                       .values(version=version + 1, updated_at=utcnow(), state={"n": version}))


async def bump_once(conn: AsyncConnection, game_id: int, version: int) -> None:
    await conn.execute(BUMP, {"game_id": game_id, "expected": version, "v_version": version + 1,
                              "v_updated_at": utcnow(), "v_state": {"n": version}})


async def read_built(conn: AsyncConnection, game_id: int, _: int) -> None:
    (await conn.execute(select(GAMES, SEATS.c.seat.label("seat_seat")).outerjoin(SEATS, SEATS.c.game_id == GAMES.c.id)
                        .where(GAMES.c.id == game_id).order_by(SEATS.c.seat))).all()


async def read_once(conn: AsyncConnection, game_id: int, _: int) -> None:
    (await conn.execute(READ, {"game_id": game_id})).all()


CASES: list[tuple[str, Statement]] = [("UPDATE built per call", bump_built), ("UPDATE built once", bump_once),
                                      ("SELECT built per call", read_built), ("SELECT built once", read_once)]


async def run(statements: int, rounds: int) -> None:
    engine = create_engine(f"sqlite+aiosqlite:///{Path(tempfile.mkdtemp()) / 'bench.db'}")
    async with engine.begin() as conn:
        await conn.run_sync(Base.metadata.create_all)
        game_id = (await conn.execute(GAMES.insert().returning(GAMES.c.id), dict(
            game="potato", mode="classic", guild_id=1, channel_id=2, host_id=3, options={}, state={},
            version=0, seat_steps=0, decision_opened=0, language="en", status="active"))).scalar_one()
        await conn.execute(SEATS.insert(), [dict(game_id=game_id, seat=n, user_id=10 + n, names=[f"p{n}"])
                                            for n in range(4)])
    hop = OneHopConnection.cannot_wait
    results: dict[str, list[float]] = {}
    for _ in range(rounds):
        for hops in (True, False):
            OneHopConnection.cannot_wait = (lambda *_: False) if hops else hop  # type: ignore[method-assign]
            for name, statement in CASES:
                async with engine.begin() as conn:
                    version = (await conn.execute(select(GAMES.c.version))).scalar_one()
                    started = time.process_time()
                    for n in range(statements):
                        await statement(conn, game_id, version + n)
                    spent = time.process_time() - started
                label = f"{name}, {'with the hop' if hops else 'in the loop (as the bot runs it)'}"
                results.setdefault(label, []).append(1e6 * spent / statements)
    OneHopConnection.cannot_wait = hop  # type: ignore[method-assign]
    await engine.dispose()
    for label, costs in results.items():
        print(f"{label:60s} " + " ".join(f"{cost:6.0f}" for cost in costs) + " µs")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--statements", type=int, default=1000, help="statements per measure (default 1000)")
    parser.add_argument("--rounds", type=int, default=2, help="rounds of every measure (default 2)")
    args = parser.parse_args()
    asyncio.run(run(args.statements, args.rounds))


if __name__ == "__main__":
    main()

"""Writers of one process on one SQLite file (not part of the test run; prints one line, asserts nothing): ``--tasks``
asyncio tasks on one engine of :func:`bot.db.session.create_engine`, each committing ``--transactions`` short write
transactions (a read, two updates of its own game's row: a move's shape) as fast as it can. Prints transactions per
second and p50/p90/p99/max of one transaction's wall time, so how long a writer waits for the others shows without
Discord, the double or a bot process in the way (:mod:`bot.db.sqlite_driver`'s writer queue; before it, SQLite's
busy handler slept 1 to 100 ms at a time). Wall times on a shared machine: compare runs made one after the other.

Run: ``.venv/bin/python -m tests.bench.bench_writers`` (``--tasks 6``, ``--transactions 150``).
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path

from sqlalchemy import insert, select, update

from bot.db import Base, create_engine, make_sessionmaker
from bot.db.models import Game


async def measure(tasks: int, transactions: int, folder: Path) -> str:
    engine = create_engine(f"sqlite+aiosqlite:///{folder / 'writers.db'}")
    try:
        async with engine.begin() as conn:
            await conn.run_sync(Base.metadata.create_all)
            await conn.execute(insert(Game), [dict(game="potato", mode="classic", guild_id=1, channel_id=n,
                                                   host_id=1, options={}, language="en") for n in range(tasks)])
        sessions = make_sessionmaker(engine)
        spent: list[float] = []

        async def writer(channel: int) -> None:
            for n in range(transactions):
                started = time.perf_counter()  # a benchmark measures real time
                async with sessions() as session, session.begin():
                    await session.execute(select(Game.version).where(Game.channel_id == channel))
                    await session.execute(update(Game).where(Game.channel_id == channel)
                                          .values(version=Game.version + 1))
                    await session.execute(update(Game).where(Game.channel_id == channel).values(host_id=n))
                spent.append(time.perf_counter() - started)
                await asyncio.sleep(0)  # (let the others in, as a move's other awaits would)

        started = time.perf_counter()
        await asyncio.gather(*(writer(n) for n in range(tasks)))
        elapsed = time.perf_counter() - started
    finally:
        await engine.dispose()
    spent.sort()

    def ms(share: float) -> str:
        return f"{spent[min(len(spent) - 1, int(len(spent) * share))] * 1000:.1f}"

    return (f"{tasks} writers: {len(spent) / elapsed:.0f} transactions/s; one transaction p50 {ms(0.5)}, "
            f"p90 {ms(0.9)}, p99 {ms(0.99)}, max {spent[-1] * 1000:.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.bench.bench_writers", description=__doc__.split("\n\n")[0])
    parser.add_argument("--tasks", type=int, default=6, help="writers at once (default 6)")
    parser.add_argument("--transactions", type=int, default=150, help="transactions per writer (default 150)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="coroner-writers-") as tmp:
        print(asyncio.run(measure(args.tasks, args.transactions, Path(tmp))))


if __name__ == "__main__":
    main()

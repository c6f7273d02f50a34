"""What one accepted move costs the bot (not part of the test run; prints numbers, asserts nothing): the whole games
of :mod:`tests.bench.bench_bot` (every turn-based mode, scripted players through the real discord.py client and the
loopback Discord double, a SQLite file), with the bot's own database engine counted by SQLAlchemy's cursor events.

Per mode: accepted moves; SQL statements and commits of the bot per accepted move, over whole games (the lobby, the
deal, the deliveries and the background loops included, divided by the moves; the benchmark's own polling reads go
through another engine and are not counted); the benchmark process's CPU time per move (``time.process_time``: the
bot, the double and the scripted players share this process, so it is an upper bound of the bot's own; see
:mod:`tests.bench.bench_scale` for a bot in its own process); and click-to-table p50/p99.

Run: ``.venv/bin/python -m tests.bench.bench_moves`` (``--games``, ``--modes`` as for ``bench_bot``).
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from collections import Counter
from pathlib import Path

from tests.bench.bench_bot import GAMES, bench_bot, bench_mode
from tests.support.sql_count import SqlCount


async def bench(db_url: str, games_per_mode: int = GAMES, words: list[str] | None = None) -> None:
    rows = []
    async with bench_bot(db_url, words) as (world, bot, chosen):
        count = SqlCount(bot.db_engine)
        for label, game, mode, seats, options, title, move in chosen:
            statements, commits, kinds = count.statements, count.commits, Counter(count.kinds)
            cpu = time.process_time()
            tally = await bench_mode(world, games_per_mode, label, game, mode, seats, options, title, move)
            per = max(tally.moves, 1)
            top = ", ".join(f"{k} {n / per:.1f}" for k, n in (count.kinds - kinds).most_common(8))
            rows.append((label, tally.moves, (count.statements - statements) / per,
                         (count.commits - commits) / per, (time.process_time() - cpu) * 1000 / per, top))
    print("\n| mode | moves | SQL statements / move | commits / move | process CPU / move (bot + double) |")
    print("|---|---|---|---|---|")
    for label, moves, statements, commits, cpu, _ in rows:
        print(f"| {label} | {moves} | {statements:.1f} | {commits:.2f} | {cpu:.1f} ms |")
    print("\nStatements per move by kind:")
    for label, *_, top in rows:
        print(f"  {label}: {top}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.bench.bench_moves", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=GAMES, help=f"games per mode (default {GAMES})")
    parser.add_argument("--modes", nargs="*", metavar="WORD", help="only the modes whose label contains one of these")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(bench(f"sqlite+aiosqlite:///{Path(tmp) / 'bench.db'}", args.games, args.modes))


if __name__ == "__main__":
    main()

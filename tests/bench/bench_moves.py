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

from bot.bot import CoronerBot
from bot.clock import FakeClock
from bot.db.session import create_engine, make_sessionmaker
from bot.settings import Settings
from games.core import register
from tests.bench.bench_bot import GAMES, MODES, PREPARE, bench_mode
from tests.discord_double import DiscordDouble
from tests.discord_double.fixtures import pointed_at, running_bot
from tests.e2e.conftest import World
from tests.support import potato as potato_game
from tests.support.sql_count import SqlCount
from tests.support.tiny_game import ENGINE


async def bench(db_url: str, games_per_mode: int = GAMES, words: list[str] | None = None) -> None:
    register(ENGINE)
    potato_game.install()
    double = DiscordDouble()
    await double.start()
    guild = double.add_guild("Bench")
    games = guild.add_text_channel("games")
    medium = guild.add_text_channel("medium")
    admin = double.add_user("admin")
    players = [double.add_user(f"p{i}", display_name=f"P{i}") for i in range(max(m[3] for m in MODES))]
    guild.add_member(admin, manage_guild=True)
    for user in players:
        guild.add_member(user)
    engine = create_engine(db_url)
    world = World(double, guild, games, medium, admin, players, db_url, FakeClock(), make_sessionmaker(engine))
    settings = Settings(_env_file=None, discord_token="x", database_url=db_url, discord_api_base=double.api_base)
    rows = []
    with pointed_at(double):
        bot = CoronerBot(settings, clock=world.clock, guild_ready_timeout=0.05)
        async with running_bot(bot):
            count = SqlCount(bot.db_engine)
            chosen = [m for m in MODES if not words or any(w in m[0] for w in words)]
            for mode in {m[2] for m in chosen} & PREPARE.keys():
                await PREPARE[mode](world)
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
    await engine.dispose()
    await double.stop()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.bench.bench_moves", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=GAMES, help=f"games per mode (default {GAMES})")
    parser.add_argument("--modes", nargs="*", metavar="WORD", help="only the modes whose label contains one of these")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(bench(f"sqlite+aiosqlite:///{Path(tmp) / 'bench.db'}", args.games, args.modes))


if __name__ == "__main__":
    main()

"""Benchmarks (not part of the test run): engine actions per second, and p50/p99 latency of one action through the
table service (load -> lock -> apply -> persist) on SQLite and, when reachable, PostgreSQL.

Run: ``.venv/bin/python -m tests.bench.bench_tables`` (``--help``: games per measure, engines only); it prints a
table of numbers and asserts nothing."""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path

from games.core import SeatInfo, get_engine
from tests.bench._db import private_postgres


def engine_actions_per_second(game: str, mode: str, players: int, games: int = 30) -> tuple[float, int]:
    """Random legal games to the end (timeout defaults answer prompts); returns (actions/s, actions played)."""
    engine = get_engine(game, mode)
    count = 0
    started = time.perf_counter()
    for seed in range(games):
        rng = random.Random(seed)
        state = engine.setup(engine.Options(), [SeatInfo(names=(f"p{i}",)) for i in range(players)], seed)
        for _ in range(2000):
            if engine.outcome(state) is not None:
                break
            seats = engine.to_act(state)
            if not seats:
                break
            seat = seats[0]
            actions = engine.legal_actions(state, seat)
            if actions:
                action = rng.choice(actions)
            else:
                move = engine.timeout_action(state)
                if move is None:
                    break
                seat, action = move
            try:
                state = engine.apply(state, seat, action).state
            except Exception:  # a placeholder action the rules refuse: use the engine's default instead
                move = engine.timeout_action(state)
                if move is None:
                    break
                state = engine.apply(state, move[0], move[1]).state
            count += 1
    return count / (time.perf_counter() - started), count


async def table_latency(url: str, games: int = 20) -> tuple[float, float]:
    """p50 and p99 (milliseconds) of one accepted action through the table service."""
    from bot.db.migrate import upgrade_to_head
    from bot.db.session import create_engine, make_sessionmaker
    from bot.tables import TableService
    from games.core import register
    from tests.support.tiny_game import ENGINE

    register(ENGINE)
    engine = create_engine(url)
    await upgrade_to_head(engine)
    service = TableService(make_sessionmaker(engine))
    timings = []
    for _ in range(games):
        table = await service.open_lobby(1, random.randrange(10**9), 100, "potato", "classic", {"passes": 20})
        for user in (100, 101, 102):
            table = await service.join(table.id, user, [str(user)])
        table = await service.start(table.id, 100, seed=1)
        while table.status == "active":
            holder = table.state.holder
            began = time.perf_counter()
            table = (await service.act(table.id, table.user_of(holder), {"type": "pass", "to": (holder + 1) % 3},
                                       expected_version=table.version)).table
            timings.append((time.perf_counter() - began) * 1000)
    await engine.dispose()
    quantiles = statistics.quantiles(timings, n=100)
    return quantiles[49], quantiles[98]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine-games", type=int, default=30, help="random games per engine (default 30)")
    parser.add_argument("--table-games", type=int, default=20,
                        help="Hot Potato games through the table service per database (default 20)")
    parser.add_argument("--engines-only", action="store_true", help="skip the table service on SQLite/PostgreSQL")
    args = parser.parse_args(argv)
    print("engine                      players  actions/s   actions")
    for game, mode, players in [("asesino", "tabletop", 5), ("asesino", "tabletop", 10), ("asesino", "small", 2),
                                ("asesino", "small", 4), ("cereal_killer", "classic", 2),
                                ("cereal_killer", "classic", 3)]:
        rate, count = engine_actions_per_second(game, mode, players, args.engine_games)
        print(f"{game + '/' + mode:28s}{players:7d}{rate:11.0f}{count:10d}")
    if args.engines_only:
        return
    with tempfile.TemporaryDirectory() as tmp, private_postgres() as postgres:
        urls = {"sqlite": f"sqlite+aiosqlite:///{Path(tmp) / 'bench.db'}", "postgres": postgres}
        for name, url in urls.items():
            if url is None:
                print(f"table service on {name}: skipped (PostgreSQL not reachable at 127.0.0.1:5432)")
                continue
            try:
                p50, p99 = asyncio.run(table_latency(url, args.table_games))
            except OSError as exc:
                print(f"table service on {name}: skipped ({exc})")
                continue
            print(f"table service on {name:8s}: p50 {p50:6.2f} ms   p99 {p99:6.2f} ms per action")


if __name__ == "__main__":
    main()

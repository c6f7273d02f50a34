"""Benchmark through the real bot (not part of the test run): p50/p99 latency from a player's click to the new
table status, and REST calls per game, with discord.py against the loopback Discord double and a SQLite file.

Run: ``.venv/bin/python -m tests.bench.bench_bot`` (prints numbers; asserts nothing)."""

from __future__ import annotations

import asyncio
import re
import statistics
import tempfile
import time
from collections import Counter
from pathlib import Path

from bot.bot import CoronerBot
from bot.clock import FakeClock
from bot.settings import Settings
from games.core import register
from tests.discord_double import DiscordDouble
from tests.discord_double.fixtures import pointed_at, running_bot
from tests.support import tiny_ui
from tests.support.tiny_game import ENGINE

GAMES = 5
PASSES = 20


async def bench(db_url: str) -> None:
    register(ENGINE)
    tiny_ui.install()
    double = DiscordDouble()
    await double.start()
    guild = double.add_guild("Bench")
    games = guild.add_text_channel("games")
    users = [double.add_user(f"p{i}") for i in range(5)]
    for user in users:
        guild.add_member(user)
    settings = Settings(_env_file=None, discord_token="x", database_url=db_url, discord_api_base=double.api_base)
    latencies: list[float] = []
    calls: list[int] = []
    with pointed_at(double):
        bot = CoronerBot(settings, clock=FakeClock(), guild_ready_timeout=0.05)
        async with running_bot(bot):
            for _ in range(GAMES):
                before = len(double.requests)
                handle = await users[0].slash(games, "newgame", {"game": "potato", "mode": "classic",
                                                                 "options": f"passes={PASSES}"})
                await handle.response()
                lobby = handle.original
                for user in users[1:]:
                    await (await user.click(lobby, label="Join")).response()
                shown = len(_statuses(double, games))
                await (await users[0].click(lobby, label="Start")).response()
                await double.wait_for(lambda s=shown: len(_statuses(double, games)) > s)
                for _ in range(PASSES):
                    table = await bot.tables.table_in_channel(games.id)
                    assert table is not None
                    holder = next(u for u in users if u.id == table.user_of(table.state.holder))
                    count = len(_statuses(double, games))
                    button = next(b for b in _statuses(double, games)[-1].buttons() if ":pass:" in b["custom_id"])
                    began = time.perf_counter()
                    await (await holder.click(_statuses(double, games)[-1], custom_id=button["custom_id"])).response()
                    await double.wait_for(lambda c=count: len(_statuses(double, games)) > c)
                    latencies.append((time.perf_counter() - began) * 1000)
                calls.append(len(double.requests) - before)
            kinds = Counter(f"{r.method} {re.sub(r'/[0-9]+', '/{id}', r.path)}" for r in double.requests)
    await double.stop()
    q = statistics.quantiles(latencies, n=100)
    print(f"click -> new status through the bot: p50 {q[49]:.1f} ms, p99 {q[98]:.1f} ms ({len(latencies)} clicks)")
    print(f"REST calls per {PASSES}-pass game with 5 players: {statistics.mean(calls):.0f}")
    for kind, n in kinds.most_common(6):
        print(f"  {n:5d}  {kind}")


def _statuses(double: DiscordDouble, channel) -> list:  # type: ignore[no-untyped-def]
    return [m for m in double.messages(channel) if m.embeds and m.embeds[0].get("title") == "Hot Potato"]


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(bench(f"sqlite+aiosqlite:///{Path(tmp) / 'bench.db'}"))


if __name__ == "__main__":
    main()

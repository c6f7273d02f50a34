"""Benchmark through the real bot (not part of the test run): whole games of every turn-based mode played by
scripted players through the real discord.py client and the loopback Discord double, on a SQLite file.

Per mode it prints: accepted moves; REST calls per move outside interaction callbacks (the bot's real budget:
Discord allows 50 a second in all, and callbacks and their webhook follow-ups do not count) over whole games, the
lobby and the deal's DMs included (issue 20's measure: at most 1.0 a move, 1.5 in the social mode), then the
moves' own only, and apart the calls to open and deal a game; callbacks per move;
messages the bot left in the game channel; DMs per move; and p50/p99 latency from a move's first click to the
table showing it (moves that show nothing public, e.g. a social-mode night action, have none). Nobody talks in the
channel, so the table is never re-posted for scrolling. Game ``n`` of every mode is dealt from seed ``1000 + n``
and played from ``random.Random(n)``, so runs repeat (up to timing). The social mode plays three real-time days per
game on the injected clock (:mod:`tests.bench.social`); its moves include the bot's day ends.

Run: ``.venv/bin/python -m tests.bench.bench_bot`` (``--help``: games per mode, a subset of modes); it prints
numbers and asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import re
import statistics
import tempfile
import time
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import select

from bot.bot import CoronerBot
from bot.clock import FakeClock
from bot.db.models import OutboxEntry
from bot.db.session import create_engine, make_sessionmaker
from bot.settings import Settings
from bot.tables import Table, TableService
from games.core import register
from games.lets_kill.models import PlayCard, Respond
from tests.bench import social
from tests.discord_double import DiscordDouble, StoredMessage, User
from tests.discord_double.fixtures import RUNNING, pointed_at, running_bot
from tests.discord_double.ratelimits import INTERACTION_ROUTES
from tests.e2e.conftest import World, mark
from tests.e2e.test_asesino import play_one
from tests.e2e.test_lets_kill import build_play, table_message
from tests.support import potato as potato_game
from tests.support.newgame import newgame
from tests.support.tiny_game import ENGINE

GAMES = 3


@dataclass
class Tally:
    moves: int = 0
    rest: int = 0
    callbacks: int = 0
    deal: int = 0
    dms: int = 0
    days: int = 0
    left: list[int] = field(default_factory=list)
    kinds: Counter[str] = field(default_factory=Counter)
    latencies: list[float] = field(default_factory=list)

    def line(self, mode: str) -> str:
        q = statistics.quantiles(self.latencies, n=100) if len(self.latencies) > 1 else [0.0] * 99
        per = max(self.moves, 1)
        return (f"| {mode} | {self.moves} | {(self.rest + self.deal) / per:.2f} | {self.rest / per:.2f} | "
                f"{self.deal / len(self.left):.0f} | "
                f"{self.callbacks / per:.2f} | {statistics.mean(self.left):.1f} | {self.dms / per:.2f} | "
                f"{q[49]:.0f} / {q[98]:.0f} ms |")


def tables(world: World, title: str) -> list[StoredMessage]:
    """The game's table messages (not lobbies, whose embed lists the players)."""
    return [m for m in world.bot_messages() if m.embeds and m.embeds[0].get("title", "").startswith(title)
            and not any(f["name"].startswith("Players (") for f in m.embeds[0].get("fields", []))]


async def open_game(world: World, game: str, mode: str, players: list[User], options: dict[str, Any]) -> Table:
    handle = await newgame(players[0], world.games, game, mode, **options)
    await handle.response()
    lobby = handle.original
    assert lobby is not None
    for user in players[1:]:
        await (await user.click(lobby, label="Join")).response()
    await (await players[0].click(lobby, label="Start")).response()
    for _ in range(2000):
        table = await world.tables.table_in_channel(world.games.id)
        if table is not None and table.status == "active":
            return table
        await asyncio.sleep(0.005)
    raise TimeoutError("the game did not start")


async def shown(world: World, table: Table, title: str, before: tuple[int, int]) -> bool:
    """Wait until the step that produced ``table`` was delivered; whether the table showed it (a secret move, e.g. a
    social-mode night action, shows nothing public)."""
    for _ in range(2000):
        if mark(tables(world, title)) != before:
            return True
        async with world.sessions() as session:
            delivered = await session.scalar(select(OutboxEntry.delivered_at).where(
                OutboxEntry.game_id == table.id, OutboxEntry.version == table.version))
        held = any(getattr(bot, "tables", None) is not None  # (its mark waits for the next move: bot.tables.marks)
                   and bot.tables.deliverer.marks.held(table.id) == table.version for bot in RUNNING)
        if delivered is not None or held:
            return mark(tables(world, title)) != before
        await asyncio.sleep(0.005)
    raise TimeoutError(f"game {table.id}: version {table.version} was never delivered")


async def version_after(world: World, table_id: int, version: int) -> Table:
    """The table once it moved past ``version`` (polled: a benchmark may sleep, a test never does)."""
    for _ in range(2000):
        table = await world.tables.load(table_id)
        if table.version > version:
            return table
        await asyncio.sleep(0.005)
    raise TimeoutError(f"game {table_id} stuck at version {version}")


# --- players -------------------------------------------------------------------------------------------------
async def asesino_move(world: World, table: Table, rng: random.Random, title: str) -> None:
    await play_one(world, table, rng)


async def potato_move(world: World, table: Table, rng: random.Random, title: str) -> None:
    seat = table.state.holder
    user = next(u for u in world.players if u.id == table.user_of(seat))
    status = tables(world, title)[-1]
    button = rng.choice([b for b in status.buttons() if ":pass:" in b["custom_id"]])
    await (await user.click(status, custom_id=button["custom_id"])).response()


async def cereal_move(world: World, table: Table, rng: random.Random, title: str) -> None:
    seat = table.engine.to_act(table.state)[0]
    user = next(u for u in world.players if u.id == table.user_of(seat))
    action = rng.choice(table.engine.legal_actions(table.state, seat))
    kind = action.type
    if kind == "killer_turn":
        words = ([f"start {action.start}"] if action.start is not None else []) + [str(s) for s in action.path]
        words += [f"victim {action.victim}"] if action.victim is not None else []
        words += [f"witness {action.witness}"] if action.witness is not None else []
        await user.dm_bot(" ".join(words))
        return
    if kind == "choose_answer":
        suffix = f":{table.version}:answer:{action.answer}"
        prompt = await world.double.wait_for(lambda: next((m for m in reversed(user.dms()) if any(
            b["custom_id"].endswith(suffix) for b in m.buttons())), None), what="the Killer's answer buttons")
        button = next(b for b in prompt.buttons() if b["custom_id"].endswith(suffix))
        await (await user.click(prompt, custom_id=button["custom_id"])).response()
        return
    status = tables(world, title)[-1]

    def ident(name: str) -> str:
        return next(c["custom_id"] for c in status.walk_components() if f":{name}:" in c.get("custom_id", ""))

    if kind in ("end_turn", "bark"):
        await (await user.click(status, ident("end" if kind == "end_turn" else "bark"))).response()
        return
    name, value = {"place_detective": ("place", getattr(action, "space", None)),
                   "move": ("step", (getattr(action, "path", None) or [None])[0]),
                   "ask": ("ask", getattr(action, "question", None))}.get(kind, (kind, getattr(action, "space", None)))
    await (await user.select(status, ident(name), [str(value)])).response()


async def lets_kill_move(world: World, table: Table, rng: random.Random, title: str) -> None:
    """A seat the game waits on (in a response window, one that has not answered) makes one random legal move: a
    window passed with the table's Pass button, anything else from the Act panel: a play built step by step,
    another Step-2 choice (``!index`` in the card select), or a pick in the select of the other decisions (the
    first 25 moves; Guns to pledge or cards to discard from their multi-select when there are more)."""
    state, engine = table.state, table.engine
    seat = rng.choice([s for s in engine.waiting(state).seats if engine.legal_actions(state, s)])
    user = next(u for u in world.players if u.id == table.user_of(seat))
    legal = engine.legal_actions(state, seat)
    index = rng.randrange(len(legal)) if state.pending.kind == "play" else rng.randrange(min(len(legal), 25))
    action = legal[index]
    message, _ = await table_message(world, table.id)
    if isinstance(action, Respond):
        await (await user.click(message, label="Pass")).response()
        return
    panel = (await (await user.click(message, label="Act")).response()).message
    assert panel is not None
    if isinstance(action, PlayCard):
        await build_play(user, panel, state, action)
        return
    select = next(c for c in panel.walk_components() if c.get("type") == 3)
    if ":card:" in select["custom_id"]:
        await (await user.select(panel, select["custom_id"], [f"!{index}"])).response()
    elif ":do:" in select["custom_id"] and str(index) in [o["value"] for o in select["options"]]:
        await (await user.select(panel, select["custom_id"], [str(index)])).response()
    else:  # a pledge or a discard among more combinations than a select holds
        await (await user.select(panel, select["custom_id"], list(action.cards))).response()


async def verdugo_move(world: World, table: Table, rng: random.Random, title: str) -> None:
    """The awaited seat makes one random legal move with the table's controls: a button or a select, the
    prisoners' private Swap/Peek menu, the Executioner's named target and its private Chop confirmation."""
    seat = table.engine.waiting(table.state).seats[0]
    user = next(u for u in world.players if u.id == table.user_of(seat))
    action = rng.choice([a for a in table.engine.legal_actions(table.state, seat) if a.type != "forfeit"])
    status = tables(world, title)[-1]

    def ident(name: str) -> str:
        return next(c["custom_id"] for c in status.walk_components()
                    if c.get("custom_id", "").split(":")[3:5] == [str(table.version), name])

    kind = action.type
    if kind in ("peek", "swap"):
        menu = (await (await user.click(status, ident("act"))).response()).message
        assert menu is not None
        picked = [str(action.position)] if kind == "peek" else [str(action.a), str(action.b)]
        select = next(c["custom_id"] for c in menu.walk_components() if ":positions:" in c.get("custom_id", ""))
        await (await user.select(menu, select, picked)).response()
    elif kind == "chop" and table.state.round.phase == "execute":
        confirm = (await (await user.select(status, ident("target"), [str(action.seat)])).response()).message
        assert confirm is not None
        await (await user.click(confirm, custom_id=confirm.buttons()[0]["custom_id"])).response()
    elif kind == "chop":  # a Shield's holder passes the axe with a button on the table
        await (await user.click(status, ident("chop").rsplit(":", 1)[0] + f":{action.seat}")).response()
    elif kind in ("draw", "stop"):
        await (await user.click(status, ident(kind))).response()
    elif kind == "choose_direction":
        await (await user.click(status, ident("direction").rsplit(":", 1)[0] + f":{action.direction}")).response()
    else:
        name, values = {"set_aside": ("set_aside", [str(getattr(action, "index", ""))]),
                        "call": ("call", [str(getattr(action, "seat", ""))]),
                        "successor": ("successor", [str(getattr(action, "seat", ""))]),
                        "choose_prisoner": ("choose", [str(getattr(action, "seat", ""))]),
                        "choose_pair": ("choose", [str(getattr(action, "a", "")), str(getattr(action, "b", ""))]),
                        }[kind]
        await (await user.select(status, ident(name), values)).response()


Move = Callable[[World, Table, random.Random, str], Awaitable[None]]
MODES: list[tuple[str, str, str, int, dict[str, Any], str, Move]] = [
    ("potato (test game)", "potato", "classic", 5, {"passes": 20}, "Hot Potato", potato_move),
    ("asesino tabletop", "asesino", "tabletop", 5, {}, "Asesino en Serie", asesino_move),
    ("asesino small", "asesino", "small", 3, {}, "Asesino en Serie", asesino_move),
    ("cereal killer, 2 players", "cereal_killer", "classic", 2, {}, "Cereal Killer — day", cereal_move),
    ("cereal killer, 3 players", "cereal_killer", "classic", 3, {}, "Cereal Killer — day", cereal_move),
    ("asesino social, 8 players, 3 days", "asesino", "social", social.PLAYERS, social.OPTIONS, social.TITLE,
     social.day_move),
    ("asesino social, old shape (6 players, few moves)", "asesino", "social", social.OLD_PLAYERS, social.OPTIONS,
     social.TITLE, social.social_move),
    ("let's kill!, 3 players", "lets_kill", "classic", 3, {}, "Let's Kill!", lets_kill_move),
    ("verdugo, 5 players", "verdugo", "classic", 5, {}, "Verdugo", verdugo_move),
]
#: what a mode needs set up once before its games (e.g. the social mode's official medium)
PREPARE: dict[str, Callable[[World], Awaitable[None]]] = {"social": social.prepare}


async def bench_mode(world: World, games: int, label: str, game: str, mode: str, players: int,
                     options: dict[str, Any], title: str, move: Move) -> Tally:
    tally = Tally()
    for number in range(games):
        rng = random.Random(number)
        TableService.new_seed = staticmethod(lambda n=number: 1000 + n)  # type: ignore[method-assign] # same deals
        earlier = {m.id for m in world.double.messages(world.games)}
        seen = {u.id: len(u.dms()) for u in world.players}
        dms = sum(seen.values())
        opened = len(world.double.requests)
        table = await open_game(world, game, mode, world.players[:players], options)
        await world.double.wait_for(lambda e=earlier: [m for m in tables(world, title) if m.id not in e],
                                    what="the new game's table")
        await world.double.wait_for(lambda s=seen: all(len(u.dms()) > s[u.id] for u in world.players[:players]),
                                    what="the deal's DMs")
        start = len(world.double.requests)  # the moves only: the deal is counted apart
        tally.deal += sum(1 for r in world.double.requests[opened:start] if not INTERACTION_ROUTES.match(r.path))
        moves = 0
        while table.status == "active" and moves < 400:
            before = mark(tables(world, title))
            began = time.perf_counter()
            await move(world, table, rng, title)
            after = await version_after(world, table.id, table.version)
            moves += after.version - table.version
            if await shown(world, after, title, before):
                tally.latencies.append((time.perf_counter() - began) * 1000)
            table = after
        if mode == "social":
            tally.days += table.state.day
        await asyncio.sleep(0.05)  # let the last deliveries land
        requests = world.double.requests[start:]
        tally.moves += moves
        tally.callbacks += sum(1 for r in requests if INTERACTION_ROUTES.match(r.path))
        tally.rest += sum(1 for r in requests if not INTERACTION_ROUTES.match(r.path))
        tally.kinds.update(route(world, r.method, r.path) for r in world.double.requests[opened:]
                           if not INTERACTION_ROUTES.match(r.path))
        tally.dms += sum(len(u.dms()) for u in world.players) - dms
        tally.left.append(len([m for m in world.double.messages(world.games) if m.id not in earlier]))
    print(tally.line(label), flush=True)
    return tally


def route(world: World, method: str, path: str) -> str:
    """A request's route with its ids as words: the game channel, the medium, a DM channel (any other channel)."""
    def word(match: re.Match[str]) -> str:
        if match.group(1) == "channels":
            number = int(match.group(2))
            return "/channels/" + ("{games}" if number == world.games.id else
                                   "{medium}" if number == world.medium.id else "{dm}")
        return f"/{match.group(1)}/{{id}}"

    return f"{method} " + re.sub(r"/([a-z_]+)/([0-9]+)", word, path)


def breakdown(tallies: dict[str, Tally]) -> None:
    """Which REST calls outside callbacks each mode made, per move (and per day, for the real-time modes)."""
    print("\nREST calls outside callbacks (the deal's included), per move:")
    for label, tally in tallies.items():
        calls = ", ".join(f"{kind} {n / max(tally.moves, 1):.2f}" for kind, n in tally.kinds.most_common(8))
        print(f"  {label}: {calls}")
        if tally.days:
            print(f"    per day: {tally.moves / tally.days:.1f} moves, {tally.rest / tally.days:.1f} REST calls "
                  f"outside callbacks, {tally.callbacks / tally.days:.1f} callbacks, {tally.dms / tally.days:.1f} DMs")


@contextlib.asynccontextmanager
async def bench_bot(db_url: str, words: list[str] | None = None) -> AsyncIterator[
        tuple[World, CoronerBot, list[tuple[Any, ...]]]]:
    """The benchmarks' bot running against a fresh double on ``db_url``, with the chosen :data:`MODES` (those
    whose label contains one of ``words``; all by default) prepared: ``(world, bot, chosen modes)``."""
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
    try:
        with pointed_at(double):
            bot = CoronerBot(settings, clock=world.clock, guild_ready_timeout=0.05)
            async with running_bot(bot):
                chosen = [m for m in MODES if not words or any(w in m[0] for w in words)]
                for mode in {m[2] for m in chosen} & PREPARE.keys():
                    await PREPARE[mode](world)
                yield world, bot, chosen
    finally:
        await engine.dispose()
        await double.stop()


async def bench(db_url: str, games_per_mode: int = GAMES, words: list[str] | None = None) -> None:
    print(f"{games_per_mode} games per mode; per accepted move unless said otherwise\n")
    print("| mode | moves | REST calls / move, the deal's included (not callbacks) | the moves' only | "
          "REST calls to open and deal a game | callbacks / move | channel messages left a game | "
          "DMs / move (the deal's included) | click -> table p50 / p99 |")
    print("|---|---|---|---|---|---|---|---|---|")
    async with bench_bot(db_url, words) as (world, _, chosen):
        tallies = {label: await bench_mode(world, games_per_mode, label, game, mode, count, options, title, move)
                   for label, game, mode, count, options, title, move in chosen}
    breakdown(tallies)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.bench.bench_bot", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=GAMES, help=f"games per mode (default {GAMES})")
    parser.add_argument("--modes", nargs="*", metavar="WORD",
                        help="only the modes whose label contains one of these words (e.g. cereal social)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(bench(f"sqlite+aiosqlite:///{Path(tmp) / 'bench.db'}", args.games, args.modes))


if __name__ == "__main__":
    main()

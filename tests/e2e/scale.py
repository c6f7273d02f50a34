"""Helpers of the multi-process end-to-end tests (``test_scale.py``): Cereal Killer played in any channel while the
bot runs as several OS processes (:class:`tests.support.processes.Cluster`), and what the database recorded.

Every wait is on a condition (the double's change notifications or a poll of the database), never a fixed sleep;
waits are longer than in-process tests' because a move may cross two processes (a DM reaches shard 0's process,
the channel belongs to another's)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.db.models import GameAction
from bot.tables import Table, TableService
from tests.discord_double import Channel, DiscordDouble, DoubleTimeout, InteractionHandle, StoredMessage, User
from tests.e2e.conftest import mark
from tests.support.newgame import newgame

ROUTE = "3 8 13 12 victim 3 witness 2"  # City A: House 3 -> 8 -> 13 -> Park 12; the Witness goes to Park 2
STATUS = "Cereal Killer — day"
WAIT = 15.0  # seconds: a step may cross processes on a loaded 2-core machine


def statuses(double: DiscordDouble, channel: Channel) -> list[StoredMessage]:
    """The bot's Cereal Killer table messages in ``channel``."""
    return [m for m in double.messages(channel)
            if m.author.bot and m.embeds and m.embeds[0].get("title", "").startswith(STATUS)]


def custom_id(message: StoredMessage, name: str) -> str:
    return next(c["custom_id"] for c in message.walk_components() if f":{name}:" in c.get("custom_id", ""))


async def next_status(double: DiscordDouble, channel: Channel, before: tuple[int, int]) -> StoredMessage:
    """The table of ``channel`` once it shows a step after the one it showed at ``before`` (a ``mark``)."""
    await double.wait_for(lambda: mark(statuses(double, channel)) != before, WAIT, f"the table after {before}")
    return statuses(double, channel)[-1]


async def start(double: DiscordDouble, channel: Channel, players: list[User]) -> StoredMessage:
    """The first player hosts (the Killer), the others join, the game starts; returns the first table."""
    handle = await newgame(players[0], channel, "cereal_killer", "classic")
    await handle.response()
    lobby = await handle.wait_original(WAIT)
    for user in players[1:]:
        await (await user.click(lobby, label="Join")).response()
    await (await players[0].click(lobby, label="Start")).response()
    await double.wait_for(lambda: all(u.dms() for u in players), WAIT, "the role DMs")
    return await double.wait_for(lambda: (statuses(double, channel) or [None])[-1], WAIT, "the table")


def games_on(double: DiscordDouble, shards: tuple[int, ...]) -> tuple[list[Channel], list[list[User]]]:
    """A guild on each of ``shards`` with a #games channel and two members of its own (Alice<k> will host and be
    the Killer, Bob<k> the Detective); the channels and the pairs, in the order of ``shards``."""
    channels, players = [], []
    for k in shards:
        guild = double.add_guild(f"shard {k}", shard=k)
        channels.append(guild.add_text_channel("games"))
        pair = [double.add_user(f"{n}{k}", display_name=f"{n.title()}{k}") for n in ("alice", "bob")]
        for user in pair:
            guild.add_member(user)
        players.append(pair)
    return channels, players


async def start_all(double: DiscordDouble, tables: TableService, channels: list[Channel],
                    players: list[list[User]]) -> list[int]:
    """Start a Cereal Killer game in every channel at once (:func:`start`); their game ids."""
    await asyncio.gather(*(start(double, c, p) for c, p in zip(channels, players, strict=True)))
    games = [await tables.table_in_channel(c.id) for c in channels]
    assert all(g is not None for g in games)
    return [g.id for g in games if g is not None]


async def routed_game(double: DiscordDouble, tables: TableService, channels: list[Channel],
                 players: list[list[User]]) -> tuple[Table, StoredMessage]:
    """One game started in ``channels[0]`` (:func:`start_all`) and its Killer's route sent by DM (applied by shard
    0's process, which gets every DM): the routed table, and its status message waiting for the Detective."""
    (game_id,) = await start_all(double, tables, channels, players)
    before = mark(statuses(double, channels[0]))
    await players[0][0].dm_bot(ROUTE)
    table = await stored(tables, game_id, lambda t: t.state.killer == 12, "the Killer's route")
    return table, await next_status(double, channels[0], before)


async def use(double: DiscordDouble, channel: Channel, user: User, name: str,
              values: list[str] | None = None) -> StoredMessage:
    """``user`` uses the table's component ``name`` (a select with ``values``); returns the next table."""
    status = statuses(double, channel)[-1]
    before = mark(statuses(double, channel))
    ident = custom_id(status, name)
    handle = await (user.select(status, ident, values) if values is not None else user.click(status, ident))
    await handle.response()
    return await next_status(double, channel, before)


async def my_secrets(double: DiscordDouble, channel: Channel, user: User) -> tuple[InteractionHandle, StoredMessage]:
    """``user`` presses My secrets on the table of ``channel``: the interaction and the ephemeral panel."""
    handle = await user.click(statuses(double, channel)[-1], label="My secrets")
    response = await handle.response()
    assert response.ephemeral and response.message is not None
    return handle, response.message


async def answer_prompt(double: DiscordDouble, killer: User, after: int) -> StoredMessage:
    """The Killer's DM with answer buttons, among its DMs after the first ``after``."""
    return await double.wait_for(lambda: next((m for m in killer.dms()[after:] if m.buttons()), None), WAIT,
                                 "the Killer's answer buttons")


async def refusal_or_none(handle: InteractionHandle) -> str | None:
    """The ephemeral refusal ``handle`` was answered with (the callback, or after a deferral its first
    follow-up), or ``None`` when the click was accepted (an update of the clicked message)."""
    response = await handle.response()
    if response.ephemeral and response.content.startswith("⛔"):
        return response.content
    if response.deferred and response.ephemeral:
        (first, *_) = await handle.wait_followups(1, WAIT)
        return first.content
    return None


async def stored(tables: TableService, game_id: int, check: Callable[[Table], bool], what: str,
                 timeout: float = WAIT) -> Table:
    """Game ``game_id`` as stored once ``check`` holds for it (a move may be committed after its answer)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not check(table := await tables.load(game_id)):
        if loop.time() > deadline:
            raise DoubleTimeout(f"game {game_id} never got to {what} (at version {table.version}, {table.status})")
        await asyncio.sleep(0.05)
    return table


async def actions_of(sessions: async_sessionmaker[AsyncSession], game_id: int) -> list[tuple[int, int, Any]]:
    """``(seq, seat, action type)`` of every move stored for the game, in order."""
    async with sessions() as session:
        rows = (await session.scalars(select(GameAction).where(GameAction.game_id == game_id)
                                      .order_by(GameAction.seq))).all()
    return [(a.seq, a.seat, a.action.get("type")) for a in rows]

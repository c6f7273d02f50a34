"""Helpers of the social-mode end-to-end tests: a six-player social game on the seed's known deal, the status and
medium messages, and the My actions select."""

from __future__ import annotations

from bot.tables import Table
from tests.discord_double import StoredMessage, User
from tests.discord_double.interactions import InteractionHandle
from tests.e2e.conftest import World, shown_lines, until_delivered
from tests.support.newgame import newgame

TITLE = "Asesino en Serie — social game"
SEED = 9  # deals killer, doctor, detective, journalist and two victims to six players


async def panel_of(handle: InteractionHandle) -> StoredMessage:
    """The private panel a click on the table opened (My actions): the ephemeral follow-up of the click, which is
    acknowledged as an update of the table (:mod:`bot.panels`)."""
    await handle.response()
    (panel, *_) = await handle.wait_followups(1)
    assert panel.ephemeral
    return panel


def statuses(world: World) -> list[StoredMessage]:
    return [m for m in world.bot_messages() if m.embeds and m.embeds[0].get("title") == TITLE]


def medium_posts(world: World) -> list[StoredMessage]:
    return world.bot_messages(world.medium)


def count_in_statuses(world: World, text: str) -> int:
    """How many public lines the tables showed with ``text`` (each line once, though "last moves" keeps it for a
    few edits)."""
    return sum(line.count(text) for line in shown_lines(statuses(world)))


async def six_players(world: World) -> list[User]:
    frank = world.double.add_user("frank", display_name="Frank")
    world.guild.add_member(frank)
    return [*world.players, frank]


async def open_and_fill(world: World, players: list[User]) -> StoredMessage:
    handle = await newgame(players[0], world.games, "asesino", "social")
    await handle.response()
    lobby = await handle.wait_original()
    assert lobby is not None
    for user in players[1:]:
        await (await user.click(lobby, label="Join")).response()
    return lobby


async def start_game(world: World, players: list[User]) -> Table:
    await (await world.admin.slash(world.games, "config medium", channel=world.medium)).response()
    lobby = await open_and_fill(world, players)
    await (await players[0].click(lobby, label="Start")).response()
    await world.double.wait_for(lambda: statuses(world) and all(u.dms() for u in players), what="start and role DMs")
    await until_delivered(world)  # the start's delivery is over: what the channel shows now stays until a move
    table = await world.tables.table_in_channel(world.games.id)
    assert table is not None and table.status == "active"
    return table


async def pick(world: World, user: User, kind: str, target: int) -> str:
    """My actions -> the ``kind`` select -> ``target``; returns the ephemeral confirmation."""
    panel = await panel_of(await user.click(statuses(world)[-1], label="My actions"))
    select = next(s for s in panel.selects() if f":social_target:{kind}" in s["custom_id"])
    assert str(target) in [o["value"] for o in select["options"]]
    handle = await user.select(panel, select["custom_id"], [str(target)])
    (done, *_) = await handle.wait_followups(1)
    assert done.ephemeral
    return done.content


def cast(table: Table, players: list[User]) -> dict[str, User]:
    """The seed's deal as role -> user: ``killer``, ``doctor``, ``detective``, ``journalist``, and the two victims
    as ``accomplice`` (recruited in these tests) and ``bystander``."""
    by_seat = {seat: next(u for u in players if u.id == table.user_of(seat)) for seat in range(len(players))}
    roles = {s.card.value: by_seat[i] for i, s in enumerate(table.state.seats) if s.card.value != "victim"}
    victims = [by_seat[i] for i, s in enumerate(table.state.seats) if s.card.value == "victim"]
    return {**roles, "accomplice": victims[0], "bystander": victims[1]}


def seat(table: Table, user: User) -> int:
    found = table.seat_of(user.id)
    assert found is not None
    return found


async def version(world: World, table: Table) -> int:
    return (await world.tables.load(table.id)).version


async def dm_text(world: World, user: User, text: str) -> StoredMessage:
    return await world.double.wait_for(lambda: next((m for m in user.dms() if text in m.text), None),
                                       what=f"a DM to {user.username} with {text!r}")


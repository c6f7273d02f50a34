"""A newcomer's attempts to break the social mode: a full table of 12 players whose display names are Discord's
longest (32 characters) and full of markdown and mention syntax, one of them with closed DMs, through a night,
a judgement and a day end; nothing secret may reach a public message, and the double sees no bad request."""

from __future__ import annotations

import asyncio

import pytest

from bot.tables import Table
from tests.discord_double import User
from tests.e2e.conftest import World, settled
from tests.e2e.social import cast, count_in_statuses, medium_posts, open_and_fill, pick, statuses
from tests.support.newgame import newgame

pytestmark = pytest.mark.usefixtures("social_seed")
ROLE_NAMES = ("Killer", "Accomplice", "Doctor", "Detective", "Journalist", "Maniac", "Prosecutor")
NASTY = "*_`~|>@everyone<@1>#@here**__||"  # 31 characters of markdown and mentions


def twelve(world: World) -> list[User]:
    """The five players (renamed to 32-character names) and seven more like them."""
    players = list(world.players)
    for i in range(7):
        user = world.double.add_user(f"extra{i}")
        world.guild.add_member(user)
        players.append(user)
    for i, user in enumerate(players):
        user.global_name = f"{NASTY}{i:x}"
        assert len(user.global_name) == 32
    return players


async def test_twelve_longest_nastiest_names_play_a_day_with_a_closed_dm(world: World) -> None:
    players = twelve(world)
    world.double.close_dms(players[5])
    async with world.running():
        table = await start_with_closed(world, players)
        roles = cast(table, players)
        await pick(world, roles["killer"], "recruit", table.seat_of(roles["accomplice"].id))
        await pick(world, roles["killer"], "crime", table.seat_of(roles["bystander"].id))
        await world.double.wait_for(lambda: count_in_statuses(world, "has been murdered") >= 1, what="the murder")
        opened = await roles["detective"].slash(world.games, "accuse", player=roles["doctor"])
        assert "Judgement opened" in (await opened.wait_followups(1))[0].content
        world.clock.advance(hours=25)
        await world.double.wait_for(lambda: count_in_statuses(world, "Day 1 is over") == 1, what="day 1 to end")
        await settled(world)
        public = [m.text for m in world.bot_messages()] + [m.text for m in medium_posts(world)]
        assert not [text for text in public for name in ROLE_NAMES if name in text]
        closed = players[5]
        assert any(f"<@{closed.id}>" in (m.content or "") and "DMs are closed" in m.content
                   for m in world.bot_messages())
        secrets = await closed.click(statuses(world)[-1], label="My secrets")
        shown = await secrets.response()
        assert shown.ephemeral and shown.embeds[0]["fields"][0]["name"] == "Your card"
    world.double.assert_clean()


async def test_thirteen_joins_at_once_seat_twelve(world: World) -> None:
    """A full social lobby (12 at most): the host and 12 others pressing Join at the same moment seat 12, and
    every press is answered."""
    players = twelve(world)
    extra = world.double.add_user("extra7", display_name="Late")
    world.guild.add_member(extra)
    async with world.running():
        await (await world.admin.slash(world.games, "config medium", channel=world.medium)).response()
        handle = await newgame(players[0], world.games, "asesino", "social")
        await handle.response()
        lobby = await handle.wait_original()
        presses = await asyncio.gather(*(u.click(lobby, label="Join") for u in [*players[1:], extra]))
        answers = await asyncio.gather(*(p.response() for p in presses))
        await settled(world)
        table = await world.tables.table_in_channel(world.games.id)
    assert all(a is not None for a in answers)
    assert table is not None and len(table.seats) == 12


async def start_with_closed(world: World, players: list[User]) -> Table:
    """Start the 12-player game; the closed-DM player gets no DM, so wait only for the others'."""
    await (await world.admin.slash(world.games, "config medium", channel=world.medium)).response()
    lobby = await open_and_fill(world, players)
    await (await players[0].click(lobby, label="Start")).response()
    open_dms = [u for u in players if u is not players[5]]
    await world.double.wait_for(lambda: statuses(world) and all(u.dms() for u in open_dms), what="start and DMs")
    await settled(world)
    table = await world.tables.table_in_channel(world.games.id)
    assert table is not None and table.status == "active" and len(table.state.seats) == 12
    return table


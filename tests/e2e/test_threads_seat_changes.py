"""End to end, the private threads when a seat changes hands (``/replace``, the computer taking a seat over): every
thread's members follow the table, so nobody keeps reading a thread the seat they hold (or no longer hold) does
not belong in. A watcher handed a living seat leaves the thread of the dead and may not Watch again; the
Accomplice's and the Journalist's new holders join the plotters' and the interview's threads, the old ones leave."""

from __future__ import annotations

import pytest

from bot.db.repos import threads as thread_rows
from tests.discord_double import Channel, User
from tests.discord_double.permissions import MANAGE_THREADS
from tests.e2e.conftest import World, settled, until_delivered
from tests.e2e.social import cast, pick, seat, start_game
from tests.e2e.test_threads import members, named, threads, watch, with_threads

pytestmark = pytest.mark.usefixtures("social_seed")


async def take_offer(world: World, host: User, user: User, seat_no: int) -> None:
    """The host offers ``seat_no`` (from 0; the command counts from 1) to ``user`` with ``/replace`` (a public
    offer), who takes it."""
    offer = await (await host.slash(world.games, "replace", seat=seat_no + 1, member=user)).response()
    assert not offer.ephemeral, offer.content
    message = next(m for m in reversed(world.bot_messages()) if user.mention in m.content and m.components)
    await (await user.click(message, label="Take the seat")).response()
    await settled(world)
    await until_delivered(world)


async def stored_watchers(world: World, game_id: int) -> list[int]:
    async with world.sessions() as session:
        rows = {row.kind: row for row in await thread_rows.of_game(session, game_id)}
    return list(rows["dead"].watchers)


async def plotters_thread(world: World, who: dict[str, User]) -> Channel:
    thread = await world.double.wait_for(lambda: named(world, "plotters"), what="the plotters' thread")
    await world.double.wait_for(lambda: members(world, thread) == {who["killer"].id, who["accomplice"].id},
                                what="the pair in their thread")
    await until_delivered(world)
    return thread


async def test_a_watcher_handed_a_living_seat_leaves_the_thread_of_the_dead(world: World) -> None:
    """Gwen watches (she is in the thread of the dead with the murdered bystander), then takes the Doctor's living
    seat: she is taken out of the thread and out of its stored watchers, and her Watch is refused as a seated
    player's; the Doctor's old holder, who no longer plays, is not added."""
    players, gwen = await with_threads(world)
    async with world.running():
        table = await start_game(world, players)
        who = cast(table, players)
        await pick(world, who["killer"], "recruit", seat(table, who["accomplice"]))
        await pick(world, who["killer"], "crime", seat(table, who["bystander"]))
        dead = await world.double.wait_for(lambda: named(world, "the dead"), what="the thread of the dead")
        assert f"<#{dead.id}>" in await watch(world, gwen)
        assert members(world, dead) == {who["bystander"].id, gwen.id}
        assert await stored_watchers(world, table.id) == [gwen.id]
        await until_delivered(world)

        doctor = seat(table, who["doctor"])
        await take_offer(world, world.admin, gwen, doctor)
        assert (await world.tables.load(table.id)).user_of(doctor) == gwen.id
        assert members(world, dead) == {who["bystander"].id}
        assert await stored_watchers(world, table.id) == []
        assert "You are playing in this game" in await watch(world, gwen)
        assert members(world, dead) == {who["bystander"].id}
        assert f"<#{dead.id}>" in await watch(world, who["bystander"])  # the murdered one is still shown theirs


async def test_the_accomplices_seat_handed_over_moves_the_plotters_thread(world: World) -> None:
    """The recruited Accomplice's seat goes to Gwen: she joins the plotters' thread and the old holder (no longer
    playing) leaves it; the host then gives the seat to the computer: Gwen leaves too, the Killer stays alone."""
    players, gwen = await with_threads(world)
    async with world.running():
        table = await start_game(world, players)
        who = cast(table, players)
        accomplice = seat(table, who["accomplice"])
        await pick(world, who["killer"], "recruit", accomplice)
        thread = await plotters_thread(world, who)

        await take_offer(world, world.admin, gwen, accomplice)
        assert members(world, thread) == {who["killer"].id, gwen.id}

        await (await world.admin.slash(world.games, "replace", seat=accomplice + 1)).response()
        await settled(world)
        await until_delivered(world)
        assert (await world.tables.load(table.id)).user_of(accomplice) is None
        assert members(world, thread) == {who["killer"].id}


async def test_the_journalists_seat_handed_over_during_an_interview_moves_its_thread(world: World) -> None:
    """While the Journalist's interview is open, the Journalist's seat goes to Gwen: she joins the interview's
    thread, the old Journalist leaves it; the interviewee stays."""
    players, gwen = await with_threads(world)
    async with world.running():
        table = await start_game(world, players)
        who = cast(table, players)
        journalist, interviewee = who["journalist"], who["bystander"]
        await pick(world, journalist, "interview", seat(table, interviewee))
        interview = await world.double.wait_for(lambda: named(world, "interview"), what="the interview thread")
        await world.double.wait_for(lambda: members(world, interview) == {journalist.id, interviewee.id},
                                    what="the interview's two sides")
        await until_delivered(world)

        await take_offer(world, world.admin, gwen, seat(table, journalist))
        assert not interview.archived
        assert members(world, interview) == {gwen.id, interviewee.id}


async def test_a_seat_handed_to_someone_who_sees_every_thread_ends_the_threads_they_are_not_in(world: World) -> None:
    """Gwen holds Manage Threads (Discord shows her every private thread of the channel); after the recruitment
    the host hands her the bystander's living seat: the plotters' thread is deleted and recorded as none (the pair
    goes on by DM, as when such a player is seated from the start), and the murder after it makes no thread of
    the dead while she lives."""
    players, gwen = await with_threads(world)
    moderator = world.guild.add_role("moderators", MANAGE_THREADS)
    world.guild.member(gwen).role_ids.append(moderator.id)
    async with world.running():
        table = await start_game(world, players)
        who = cast(table, players)
        await pick(world, who["killer"], "recruit", seat(table, who["accomplice"]))
        thread = await plotters_thread(world, who)

        await take_offer(world, world.admin, gwen, seat(table, who["bystander"]))
        assert named(world, "plotters") is None
        assert [r.path for r in world.double.requests if r.method == "DELETE"] == [f"/channels/{thread.id}"]
        async with world.sessions() as session:
            rows = {row.kind: row.thread_id for row in await thread_rows.of_game(session, table.id)}
        assert rows == {"pair": 0}

        await pick(world, who["killer"], "crime", seat(table, who["doctor"]))
        await until_delivered(world)
        assert threads(world) == []

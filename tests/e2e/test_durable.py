"""Nothing lost, nothing stalls: a crash between a move's commit and its delivery, a turn timer firing during a
late click, and sends repeated after a crash (issue 9)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from sqlalchemy import select

from bot.db.models import Timer
from bot.delivery import Delivery
from tests.discord_double import StoredMessage
from tests.e2e.conftest import World, mark, settled, table_log, until_delivered, until_version
from tests.e2e.test_foundation import open_lobby, pass_button, status_messages

pytestmark = pytest.mark.usefixtures("potato")


class Crash(BaseException):
    """The process dies here (not an Exception: nothing in the bot may catch it)."""


async def start_three(world: World) -> StoredMessage:
    """alice's lobby with bob and carol, started; returns the table (the lobby message, now the table)."""
    lobby = await open_lobby(world, passes=10)
    for user in world.players[1:3]:
        await (await user.click(lobby, label="Join")).response()
    await (await world.players[0].click(lobby, label="Start")).response()
    return await world.double.wait_for(lambda: lobby if versions_on(lobby) else None, what="the table")


def holder_of(world: World, table) -> object:  # type: ignore[no-untyped-def]
    return next(u for u in world.players if u.id == table.user_of(table.state.holder))


def versions_on(message: StoredMessage) -> set[int]:
    return {int(b["custom_id"].split(":")[3]) for b in message.buttons() if ":pass:" in b["custom_id"]}


async def turn_timeouts(world: World, game_id: int) -> list[int]:
    """The version of every pending turn_timeout timer of the game."""
    async with world.sessions() as session:
        rows = (await session.scalars(select(Timer).where(Timer.game_id == game_id, Timer.kind == "turn_timeout",
                                                          Timer.fired_at.is_(None)))).all()
    return [row.payload["version"] for row in rows]


async def test_a_crash_after_commit_is_delivered_at_the_next_start(world: World,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """The bot dies after a move is committed and before anything is shown: the restarted bot shows the new
    table with working buttons of the new version, and its turn timer is armed for that version."""
    async with world.running():
        first = await start_three(world)
        table = await world.tables.table_in_channel(world.games.id)
        assert table is not None
        shown = Delivery.__call__

        async def dies(self: Delivery, *args: object) -> None:
            raise Crash

        monkeypatch.setattr(Delivery, "__call__", dies)
        await holder_of(world, table).click(first, custom_id=pass_button(first))  # its answer dies with the bot
        await until_version(world, table.id, table.version + 1)
    monkeypatch.setattr(Delivery, "__call__", shown)
    after = await world.tables.load(table.id)
    assert after.version == table.version + 1
    assert versions_on(first) == {table.version}  # nothing was shown before the crash

    async with world.running():
        await world.double.wait_for(lambda: versions_on(first) == {after.version}, what="the caught-up table")
        assert after.version in await turn_timeouts(world, table.id)
        await (await holder_of(world, after).click(first, custom_id=pass_button(first))).response()
        await world.double.wait_for(lambda: versions_on(first) == {after.version + 1}, what="the next move")


async def test_a_timeout_racing_a_late_click_announces_only_what_counted(world: World,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """The turn timer fires, and before its move is applied the holder's own late click lands: the click counts,
    the bot's move is refused by the version check, and nobody is told "the bot moved for you"."""
    from bot.tables import TableService

    reached, clicked, refused = asyncio.Event(), asyncio.Event(), asyncio.Event()
    act = TableService.act

    async def held(self: TableService, game_id: int, user_id: int | None, *args: object, **kwargs: object) -> object:
        if user_id is not None:  # a person's click goes straight through
            return await act(self, game_id, user_id, *args, **kwargs)  # type: ignore[arg-type]
        reached.set()
        await clicked.wait()
        try:
            return await act(self, game_id, user_id, *args, **kwargs)  # type: ignore[arg-type]
        finally:
            refused.set()

    monkeypatch.setattr(TableService, "act", held)
    async with world.running():
        first = await start_three(world)
        table = await world.tables.table_in_channel(world.games.id)
        assert table is not None
        world.clock.advance(minutes=6)  # past the 5-minute turn time: the timer loads the table and moves
        await asyncio.wait_for(reached.wait(), 5)
        await (await holder_of(world, table).click(first, custom_id=pass_button(first))).response()
        await until_version(world, table.id, table.version + 1)
        clicked.set()
        await world.double.wait_for(lambda: versions_on(first) == {table.version + 1}, what="the click's step")
        await asyncio.wait_for(refused.wait(), 5)  # the timer's move ran to its end (refused)
        await settled(world)
        after = await world.tables.load(table.id)
        assert after.version == table.version + 1
        assert after.state.holder != table.state.holder
        assert "ran out of time" not in table_log(world.bot_messages())


async def open_move_modal(world: World) -> Any:
    """A two-player Cereal Killer game up to the Detective's first walk; the handle that opened the Move modal."""
    from tests.e2e.test_cereal_killer import ROUTE, click, custom_id, next_status, start, statuses

    alice, bob = world.players[:2]
    await start(world, [alice, bob])
    before = mark(statuses(world))
    await alice.dm_bot(ROUTE)
    status = await next_status(world, before)
    status = await click(world, bob, status, "place", ["7"])
    move = await bob.click(status, custom_id(status, "move"))
    assert (await move.response()).modal is not None
    return move


async def submit_walk(world: World, move: Any) -> None:
    """The Detective submits the walk "2"; it is played."""
    from tests.e2e.test_cereal_killer import next_status, statuses

    before = mark(statuses(world))
    await (await world.players[1].submit_modal(move, {"path": "2"})).response()
    assert "walks 2 and stands on 2" in (await next_status(world, before)).text


async def test_a_modal_opened_before_a_restart_is_answered_after_it(world: World) -> None:
    """The Detective opens the Move modal, the bot restarts, the Detective submits: the walk is played."""
    async with world.running():
        move = await open_move_modal(world)
    async with world.running():
        await submit_walk(world, move)


async def test_a_later_closed_dm_is_reported_with_the_next_public_step_only(world: World) -> None:
    """A whisper to carol, whose DMs closed after the start, is not followed by a notice naming her (that would
    tell the channel someone just acted on her); the notice comes with the next public step."""
    alice, bob, carol = world.players[:3]
    bot = world.bot()

    def notices() -> list[StoredMessage]:
        return [m for m in world.bot_messages() if "could not send you a private" in m.content]

    async with world.running(bot):
        await start_three(world)
        await until_delivered(world)
        table = await world.tables.table_in_channel(world.games.id)
        assert table is not None and notices() == []
        world.double.close_dms(carol)
        whisperer = next(u for u in (alice, bob) if u.id != table.user_of(table.state.holder))
        await bot.tables.act(table.id, whisperer.id, {"type": "whisper", "to": table.seat_of(carol.id), "text": "psst"})
        count = len(world.bot_messages())
        assert notices() == [] and len(world.bot_messages()) == count
        holder, to = table.state.holder, table.seat_of(carol.id)
        await bot.tables.act(table.id, table.user_of(holder), {"type": "pass", "to": to if to != holder else (
            holder + 1) % 3})
        await world.double.wait_for(notices, what="the closed-DM notice")
        assert carol.mention in notices()[0].content


async def test_a_step_shown_again_after_a_crash_keeps_its_buttons_and_sends_nothing_twice(world: World) -> None:
    """The bot dies after showing a step and before marking it shown: showing it again at the next start returns
    the messages already sent (nonces) and leaves the table's buttons on."""
    from bot.db.models import OutboxEntry

    async with world.running():
        await start_three(world)
        await until_delivered(world)
    async with world.sessions() as session, session.begin():
        last = await session.scalar(select(OutboxEntry).order_by(OutboxEntry.id.desc()).limit(1))
        assert last is not None and last.delivered_at is not None
        last.delivered_at = None
    before = [(m.id, m.text) for m in world.double.all_messages()]
    async with world.running():
        table = await world.tables.table_in_channel(world.games.id)
        assert table is not None
        assert [(m.id, m.text) for m in world.double.all_messages()] == before
        (status,) = status_messages(world)
        assert versions_on(status) == {table.version}


async def test_a_modal_submitted_after_the_bot_dropped_it_is_answered(world: World) -> None:
    """discord.py forgets a modal after its timeout (15 minutes here before): a later submit is still played."""
    bot = world.bot()
    async with world.running(bot):
        move = await open_move_modal(world)
        bot._connection._view_store._modals.clear()  # what its timeout does
        await submit_walk(world, move)


async def test_a_step_that_failed_to_show_is_shown_on_the_retry_timer(world: World) -> None:
    """Discord refuses the table's edit once: the move stays committed and is shown 30 seconds later, without the
    players having to do anything and without sending its DM twice."""
    bot = world.bot()
    async with world.running(bot):
        first = await start_three(world)
        table = await world.tables.table_in_channel(world.games.id)
        assert table is not None
        await until_delivered(world)
        fault = world.double.fail_once("PATCH", rf"/channels/{world.games.id}/messages/{first.id}$", status=403)
        holder = table.state.holder
        await bot.tables.act(table.id, table.user_of(holder), {"type": "pass", "to": (holder + 1) % 3})
        receiver = next(u for u in world.players if u.id == table.user_of((holder + 1) % 3))
        assert fault.hits == 1
        assert versions_on(first) == {table.version} and len(receiver.dms()) == 1  # the deal only
        world.clock.advance(seconds=31)
        await world.double.wait_for(lambda: versions_on(first) == {table.version + 1}, what="the retried table")
        await world.double.wait_for(lambda: len(receiver.dms()) == 2, what="the potato's secret")


@pytest.mark.parametrize("last_dm_sent", [True, False])
async def test_a_delivery_resumed_after_discord_forgot_its_nonces_sends_only_what_it_had_not_sent(
        world: World, last_dm_sent: bool) -> None:
    """Killed while dealing, the third hand's DM just created (``last_dm_sent``) or not yet, and restarted after
    Discord forgot the nonces (issue 22): the deal's own transaction recorded the intent of its whole delivery (no
    record of its own per message), so the hands already sent are found among the DMs' latest messages and not
    sent again, and a hand not sent yet is sent once."""
    from bot.db.models import OutboxEntry

    async with world.running():
        await start_three(world)
        await until_delivered(world)
    async with world.sessions() as session, session.begin():
        deal = await session.scalar(select(OutboxEntry).where(OutboxEntry.kind == "start"))
        assert deal is not None and deal.sent is not None
        assert list(deal.sent) == ["*"] and deal.sent["*"] < 0  # the plan's intent, written with the deal
        deal.delivered_at = None
    hands = {u.id: u.dms() for u in world.players[:3]}
    assert all(len(dms) == 1 for dms in hands.values())
    unsent = max((m for dms in hands.values() for m in dms), key=lambda m: m.id)  # the third hand's DM
    if not last_dm_sent:
        unsent.deleted = True
    world.double.nonce_memory = 0  # every nonce forgotten
    async with world.running():
        await until_delivered(world)
        after = {u.id: u.dms() for u in world.players[:3]}
    assert {user: [m.id for m in dms] for user, dms in after.items() if unsent not in hands[user]} == {
        user: [m.id for m in dms] for user, dms in hands.items() if unsent not in dms}
    (again,) = [dms for user, dms in after.items() if unsent in hands[user]]
    assert [m.id for m in again] == [unsent.id] if last_dm_sent else (len(again) == 1 and again[0].id != unsent.id)

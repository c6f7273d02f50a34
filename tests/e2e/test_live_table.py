"""End to end: the living table's state (scroll count, "last moves" log, turn ping) is kept in the database, so a
restart mid-game loses none of it: the count goes on, the log keeps its lines and the old ping is deleted."""

from __future__ import annotations

from typing import Any

import pytest

from bot.db.repos import live
from bot.live_table import PING_TIMER
from tests.e2e.conftest import World, _log_lines, flush_marks, mark, stored, until_delivered
from tests.e2e.test_foundation import open_lobby, pass_button, status_messages

pytestmark = pytest.mark.usefixtures("potato")


async def _row(world: World) -> Any:
    await flush_marks()  # (the row a step's delivery writes may be held for the next move, at most FLUSH_AFTER)
    table = await world.tables.table_in_channel(world.games.id)
    assert table is not None
    async with world.sessions() as session:
        return await live.get(session, table.id)


async def _move(world: World) -> None:
    """The holder passes from the latest table; returns once the table showed the step."""
    table = await world.tables.table_in_channel(world.games.id)
    assert table is not None
    holder = next(u for u in world.players if u.id == table.user_of(table.state.holder))
    latest = status_messages(world)[-1]
    before = mark(status_messages(world))
    await (await holder.click(latest, custom_id=pass_button(latest))).response()
    await world.double.wait_for(lambda: mark(status_messages(world)) != before, what="the table's step")


async def _started(world: World) -> int:
    alice, bob = world.players[:2]
    lobby = await open_lobby(world, passes=6)
    await (await bob.click(lobby, label="Join")).response()
    await (await alice.click(lobby, label="Start")).response()
    await stored(world, lambda: _has_row(world, lobby.id), "the table's row")
    return lobby.id


async def _has_row(world: World, message_id: int) -> bool:
    row = await _row(world)
    return row is not None and row.message_id == message_id


async def _ping_armed(world: World) -> bool:
    table = await world.tables.table_in_channel(world.games.id)
    assert table is not None
    return any(t.kind == PING_TIMER and t.payload.get("version") == table.version
               for t in await world.tables.pending_timers(table.id))


async def _pinged(world: World, message_id: int) -> bool:
    return (await _row(world)).ping_message_id == message_id


async def _counted(world: World, count: int) -> bool:
    return (await _row(world)).messages_after == count


async def test_the_table_is_posted_again_once_it_scrolled_out_of_sight_and_the_count_survives_a_restart(
        world: World) -> None:
    """Eight messages under the table (five, a restart, three) leave it in place; the ninth (more than
    ``/config``'s 8) makes the next move post the table anew, under the chat, and take the buttons off the old
    one; later moves edit the new one."""
    bob = world.players[1]
    async with world.running():
        lobby_id = await _started(world)
        for n in range(5):
            await bob.say(world.games, f"chat {n}")
        await stored(world, lambda: _counted(world, 5), "five counted")
    async with world.running():
        for n in range(5, 8):
            await bob.say(world.games, f"chat {n}")
        await stored(world, lambda: _counted(world, 8), "eight counted across the restart")
        await _move(world)
        assert [m.id for m in status_messages(world)] == [lobby_id]  # 8 is not more than 8: edited in place
        last_chat = await bob.say(world.games, "chat 8")
        await stored(world, lambda: _counted(world, 9), "the ninth")
        await _move(world)
        old, new = status_messages(world)
        await world.double.wait_for(lambda: not old.components, what="the old table's buttons to go")
        assert old.id == lobby_id and new.id > last_chat.id and new.components
        assert (await _row(world)).messages_after == 0
        await _move(world)
        assert [m.id for m in status_messages(world)] == [old.id, new.id] and new.history


async def test_a_restart_keeps_the_last_moves_and_deletes_the_ping_the_next_move_answers(world: World) -> None:
    """A pass, then the turn ping after the grace period; after a restart the next pass deletes that ping and the
    table's "last moves" still begin with the first pass; the next ping replaces nothing but is alone."""
    async with world.running():
        await _started(world)
        await _move(world)
        first_log = _log_lines(status_messages(world)[-1].snapshot())
        assert len(first_log) == 2 and "passes the potato" in first_log[1]
        await stored(world, lambda: _ping_armed(world), "the ping's timer")
        world.clock.advance(seconds=31)
        ping = await world.double.wait_for(
            lambda: next((m for m in world.bot_messages() if "Your move" in m.content), None), what="the ping")
        await stored(world, lambda: _pinged(world, ping.id), "the ping recorded")
    async with world.running():
        await _move(world)
        await until_delivered(world)  # (its mark may be held for a next move, at most FLUSH_AFTER)
        await world.double.wait_for(lambda: ping.deleted, what="the old ping to go")
        log = _log_lines(status_messages(world)[-1].snapshot())
        assert log[: len(first_log)] == first_log and len(log) > len(first_log)
        await stored(world, lambda: _ping_armed(world), "the next ping's timer")
        world.clock.advance(seconds=31)
        await world.double.wait_for(lambda: [m for m in world.bot_messages() if "Your move" in m.content
                                             and not m.deleted], what="the next ping")
        assert len([m for m in world.bot_messages() if not m.embeds and not m.deleted]) == 1


def _history_reads(world: World) -> int:
    """How many times the bot read the game channel's history (``GET /channels/{id}/messages``)."""
    return sum(1 for r in world.double.requests
               if r.method == "GET" and r.path.rstrip("/") == f"/channels/{world.games.id}/messages")


async def test_chat_while_the_bot_was_down_counts_under_the_table(world: World) -> None:
    """Nine messages posted while the bot was stopped (no gateway saw them) still scrolled the table out of sight:
    the first move after the restart posts the table anew, under the chat."""
    bob = world.players[1]
    async with world.running():
        lobby_id = await _started(world)
    for n in range(9):
        await bob.say(world.games, f"chat {n}")
    async with world.running():
        await _move(world)
        old, new = status_messages(world)
        assert old.id == lobby_id and new.id > lobby_id and new.components
        assert _history_reads(world) == 1  # no gateway of this process saw the chat: the history is read once
        await world.double.wait_for(lambda: not old.components, what="the old table's buttons to go")


async def test_chat_under_the_lobby_counts_under_the_table_it_becomes(world: World) -> None:
    """Three messages under the lobby: the table starts in the lobby message, three messages after it already."""
    alice, bob = world.players[:2]
    async with world.running():
        lobby = await open_lobby(world, passes=6)
        await (await bob.click(lobby, label="Join")).response()
        for n in range(3):
            await bob.say(world.games, f"chat {n}")
        await (await alice.click(lobby, label="Start")).response()
        await stored(world, lambda: _has_row(world, lobby.id), "the table's row")
        await stored(world, lambda: _counted(world, 3), "the chat under the lobby counted")
        assert [m.id for m in status_messages(world)] == [lobby.id]
        assert _history_reads(world) == 0  # counted from the gateway's MESSAGE_CREATE events: no request


async def test_a_lobby_the_chat_scrolled_away_starts_its_table_under_the_chat(world: World) -> None:
    """Nine messages under the lobby while players gathered: the start posts the table at the bottom, and the lobby
    message shows the table too, without buttons (it no longer invites anyone to join)."""
    alice, bob = world.players[:2]
    async with world.running():
        lobby = await open_lobby(world, passes=6)
        await (await bob.click(lobby, label="Join")).response()
        for n in range(9):
            last_chat = await bob.say(world.games, f"chat {n}")
        await (await alice.click(lobby, label="Start")).response()
        await world.double.wait_for(lambda: len(status_messages(world)) == 2 or None, what="the table posted anew")
        old, new = status_messages(world)
        assert old.id == lobby.id and new.id > last_chat.id and new.components
        await world.double.wait_for(lambda: not old.components, what="the lobby's buttons to go")
        assert "Join" not in old.text and old.embeds[0]["title"] == new.embeds[0]["title"]
        await _move(world)
        assert [m.id for m in status_messages(world)] == [old.id, new.id] and new.history


async def test_a_finished_game_s_table_row_goes_with_its_last_step(world: World) -> None:
    """The last step shows the result and the game's row goes, in the transaction that marks the step delivered:
    the table's record no longer writes the row anew after it was deleted."""
    alice, bob = world.players[:2]
    async with world.running():
        lobby = await open_lobby(world, passes=2)
        await (await bob.click(lobby, label="Join")).response()
        await (await alice.click(lobby, label="Start")).response()
        await stored(world, lambda: _has_row(world, lobby.id), "the table's row")
        table = await world.tables.table_in_channel(world.games.id)
        assert table is not None
        for _ in range(2):
            await _move(world)
        await until_delivered(world)
        assert (await world.tables.load(table.id)).status == "finished"
        async with world.sessions() as session:
            assert await live.get(session, table.id) is None

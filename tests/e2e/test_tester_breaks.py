"""A newcomer's attempts to break the bot through the loopback Discord: a display name that is another member's
mention, a Killer route with an absurdly long space number, one modal submitted twice at once, and the database
failing for a moment while the timers are claimed."""

from __future__ import annotations

import asyncio
import logging
import random
from typing import Any

import pytest
from sqlalchemy.exc import OperationalError

from bot import turns
from bot.tables import TableService
from tests.discord_double import StoredMessage
from tests.e2e.conftest import World, as_drawn_before, mark, refusal, settled
from tests.e2e.test_asesino import custom_id, modal_answers, open_and_start, status_messages, user_of
from tests.e2e.test_cereal_killer import killer_dm, start
from tests.e2e.test_lets_kill import SEED as lets_kill_seed
from tests.e2e.test_lets_kill import start_three, table_message
from tests.support.newgame import newgame

pytestmark = pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)


def raw_texts(message: StoredMessage) -> list[str]:
    """Every markdown text of ``message`` as sent (content, embed titles, descriptions, fields), unrendered."""
    out = [message.content or ""]
    for embed in message.embeds:
        out += [embed.get("title") or "", embed.get("description") or ""]
        out += [part for f in embed.get("fields", []) for part in (f.get("name", ""), f.get("value", ""))]
    return out


async def test_a_display_name_that_is_a_mention_does_not_show_as_another_member(world: World) -> None:
    alice, bob, carol = world.players[:3]
    bob.global_name = f"<@{carol.id}>"  # Discord lets a display name hold these characters
    async with world.running():
        handle = await newgame(alice, world.games, "cereal_killer", "classic")
        await handle.response()
        lobby = await handle.wait_original()
        await (await bob.click(lobby, label="Join")).response()
        await (await alice.click(lobby, label="Start")).response()
        await settled(world)
        shown = [text for m in world.bot_messages() for text in raw_texts(m)]
    assert not [text for text in shown if f"<@{carol.id}>" in text]  # carol is not even in the game


async def test_a_route_with_a_huge_space_number_is_answered(world: World) -> None:
    """A Killer's DM naming a 1,990-digit space: the refusal must still fit one Discord message."""
    alice, bob = world.players[:2]
    async with world.running():
        await start(world, [alice, bob])
        answer = await killer_dm(world, alice, "start 3 " + "9" * 1980 + " 13 12")
        assert answer.content.startswith("⛔")
        assert len(answer.content) <= 2000


async def test_one_move_modal_submitted_twice_at_once_counts_once(world: World,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """A player double-clicks the turn button and sends both forms at once: one move counts, both submits are
    answered (none is left to Discord's "This interaction failed"), and the other player's turn follows."""
    monkeypatch.setattr(TableService, "new_seed", staticmethod(lambda: 12))
    alice, bob = world.players[:2]
    async with world.running():
        table = await open_and_start(world, "small", [alice, bob])
        seat = table.engine.waiting(table.state).seats[0]
        user = user_of(world, table, seat)
        status = status_messages(world)[-1]
        first = await user.click(status, custom_id=custom_id(status, "turn"))
        second = await user.click(status, custom_id=custom_id(status, "turn"))
        modal = (await first.response()).modal
        assert modal is not None and (await second.response()).modal is not None
        action = random.Random(1).choice(table.engine.legal_actions(table.state, seat))
        answers = modal_answers(modal, action, user)
        before = mark(status_messages(world))
        sent = await asyncio.gather(user.submit_modal(first, answers), user.submit_modal(second, answers))
        responses = await asyncio.gather(*(s.response() for s in sent))
        await world.double.wait_for(lambda: mark(status_messages(world)) != before, what="the table after the move")
        await settled(world)
        after = await world.tables.load(table.id)
        assert after.engine.waiting(after.state).seats[0] != seat
        assert after.version == table.version + 1
        assert all(r is not None for r in responses)

        # the stale table (as a client that missed the edit shows it): its turn button is refused
        stale = as_drawn_before(status_messages(world)[-1])
        text = await refusal(await user.click(stale, custom_id=custom_id(stale, "turn")))
        assert text.startswith("⛔")
        assert (await world.tables.load(table.id)).version == after.version


async def test_a_database_blip_while_claiming_timers_does_not_stop_the_timers(world: World,
                                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """The database fails once while the timer loop claims its due timers (PostgreSQL restarting, a full disk):
    the loop logs it and carries on, so the idle player's time still runs out (it used to die for good, with
    "the timer loop died", and no timer of any game fired again until the bot restarted)."""
    claim = TableService.claim_timers
    failures = []

    async def blip(self: TableService, *args: Any, **kwargs: Any) -> Any:
        if not failures:
            failures.append(1)
            raise OperationalError("SELECT timers", {}, ConnectionError("the database went away"))
        return await claim(self, *args, **kwargs)

    async with world.running():
        table = await open_and_start(world, "tabletop", world.players)
        monkeypatch.setattr(TableService, "claim_timers", blip)
        before = mark(status_messages(world))
        world.clock.advance(seconds=31)  # the turn ping is due: its claim fails
        await world.double.wait_for(lambda: failures, what="the failed claim")
        world.clock.advance(seconds=180)  # the prompt's time runs out: the bot moves for the player
        await world.double.wait_for(lambda: mark(status_messages(world)) != before, what="the bot's move")
        assert (await world.tables.load(table.id)).version == table.version + 1


async def test_a_pause_landing_while_the_turn_timeout_runs_keeps_the_time_limit(
        world: World, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """The host pauses as the claimed turn timeout's handler starts: the handler does nothing (it used to make
    the move, refused as core.is_paused and logged as a failed timer) and the timer stays held (it used to be
    marked fired, so after the resume the turn had no time limit any more); after the resume it runs out."""
    alice = world.players[0]
    real = turns.current
    paused: list[Any] = []

    async def pause_first(bot: Any, timer: Any) -> Any:
        if timer.kind == "turn_timeout" and not paused:  # the host's Pause lands as the timeout's handler starts
            paused.append(await (await alice.slash(world.games, "pause")).response())
        return await real(bot, timer)

    monkeypatch.setattr(turns, "current", pause_first)
    async with world.running():
        table = await open_and_start(world, "tabletop", world.players)
        world.clock.advance(seconds=181)  # the first prompt's 180 s run out
        await world.double.wait_for(lambda: paused, what="the pause")
        await settled(world)
        assert (await world.tables.load(table.id)).paused
        await (await alice.slash(world.games, "resume")).response()
        await settled(world)
        before = mark(status_messages(world))
        world.clock.advance(seconds=400)  # more than the prompt had left when it was paused
        await world.double.wait_for(lambda: mark(status_messages(world)) != before, what="the bot's move")
        assert "ran out of time" in status_messages(world)[-1].text
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_a_double_pick_in_a_lets_kill_panel_is_refused_not_an_error(
        world: World, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """Alice picks her move in her Act panel twice at once: the first counts and deletes the panel; the second
    is answered (it used to fail deleting the panel already gone, 404 Unknown Message, logged as "interaction
    failed") and changes nothing."""
    monkeypatch.setattr(TableService, "new_seed", staticmethod(lambda: lets_kill_seed))
    alice = world.players[0]
    async with world.running():
        await start_three(world)
        message, table = await table_message(world, 1)
        panel = (await (await alice.click(message, label="Act")).response()).message
        select = next(c for c in panel.walk_components() if ":do:" in c.get("custom_id", ""))
        picks = await asyncio.gather(*(alice.select(panel, select["custom_id"], ["0"]) for _ in range(2)))
        await asyncio.gather(*(p.response() for p in picks))
        await settled(world)
        assert (await world.tables.load(1)).version == table.version + 1
        answers = [(f.content, f.ephemeral) for p in picks for f in p.followups]
        assert answers == [("⛔ You already answered this window.", True)]
    assert not [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]


def dm_handlers() -> list[asyncio.Task[object]]:
    """The bot's DM listener tasks still running (discord.py names a listener's task after its event)."""
    return [t for t in asyncio.all_tasks() if not t.done() and t.get_name() == "discord.py: on_message"]


async def test_a_stop_while_a_killer_route_dm_is_handled_finishes_it(world: World, slow_sql: Any,
                                                                     caplog: pytest.LogCaptureFixture) -> None:
    """The bot stops (SIGTERM) while it handles the Killer's route DM (every statement slow): the stop lets the
    handler finish as it lets an interaction's, so the route is applied before the stop, once. The stop used to
    dispose of the database under the handler: the route waited for the next start's read of missed DMs."""
    alice, bob = world.players[:2]
    async with world.running():
        await start(world, [alice, bob])
        table = await world.tables.table_in_channel(world.games.id)
        slow_sql.delay = 0.1
        await alice.dm_bot("3 8 13 12 victim 3 witness 2")
        await world.double.wait_for(dm_handlers, what="the route's handler running")
    slow_sql.reset()
    stopped = (await world.tables.load(table.id)).version
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    async with world.running():  # the next start reads the DM back (missed DMs) and takes it no second time
        await settled(world)
        restarted = (await world.tables.load(table.id)).version
    assert (stopped, restarted, errors) == (table.version + 1, table.version + 1, [])  # was 2, 3 and an error

"""Let's Kill! end to end through the Discord double: three players, hands by DM, a Victim placed and its window
passed, a whacking answered by a Response Event played in the window, a shootout with Guns chosen privately by
both sides, and the rest of the game played out by the turn timers to the announced result."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.tables import TableService
from games.lets_kill.models import PlayCard, Pledge, Respond
from tests.discord_double import StoredMessage, User
from tests.e2e.conftest import World, table_log, until_version
from tests.support.newgame import newgame

SEED = 13  # Bob starts with the Exploding Birthday Cake and a Gun; Carol holds Sirens and the Grenade Launcher


@pytest.fixture
def seed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(TableService, "new_seed", staticmethod(lambda: SEED))


def act_buttons(world: World) -> list[StoredMessage]:
    return [m for m in world.bot_messages() if any(":act:" in c.get("custom_id", "") for c in m.walk_components())]


async def table_message(world: World, table_id: int) -> tuple[StoredMessage, Any]:
    """The status message drawn at the table's current version, and the table."""
    table = await world.tables.load(table_id)
    mark = f":{table.version}:act:"
    message = await world.double.wait_for(lambda: next((m for m in reversed(act_buttons(world)) if any(
        mark in c.get("custom_id", "") for c in m.walk_components())), None), what=f"the table at v{table.version}")
    return message, table


async def choose(world: World, user: User, table_id: int, action: Any) -> None:
    """Click Act, then pick ``action`` in the ephemeral select of the clicker's legal moves."""
    message, table = await table_message(world, table_id)
    seat = next(s for s in range(3) if table.user_of(s) == user.id)
    legal = table.engine.legal_actions(table.state, seat)
    response = await (await user.click(message, label="Act")).response()
    assert response.ephemeral and response.message is not None
    select = next(c for c in response.message.walk_components() if ":do:" in c.get("custom_id", ""))
    await (await user.select(response.message, select["custom_id"], [str(legal.index(action))])).response()
    await wait_version(world, table_id, table.version)


async def wait_version(world: World, table_id: int, version: int) -> None:
    """Wait until the move made at ``version`` was applied (a condition on the database, not a number of reads)."""
    await until_version(world, table_id, version + 1)


async def pass_window(world: World, user: User, table_id: int) -> None:
    message, table = await table_message(world, table_id)
    await (await user.click(message, label="Pass")).response()
    await wait_version(world, table_id, table.version)



async def start_three(world: World) -> None:
    """Alice opens a Let's Kill! lobby, Bob and Carol join, Alice starts; returns once every hand is in its DM."""
    alice, bob, carol = world.players[:3]
    handle = await newgame(alice, world.games, "lets_kill", "classic")
    await handle.response()
    lobby = await handle.wait_original()
    assert lobby is not None
    for user in (bob, carol):
        await (await user.click(lobby, label="Join")).response()
    await (await alice.click(lobby, label="Start")).response()
    await world.double.wait_for(lambda: all(u.dms() for u in (alice, bob, carol)), what="the hands by DM")

async def test_three_players_response_shootout_and_the_end(world: World, seed: None) -> None:
    """Bob whacks, Carol answers with Sirens in the window, the shootout goes 2 against 5 and Bob gives up; the
    game then ends by the timers and the result is posted."""
    alice, bob, carol = world.players[:3]
    bot = world.bot()
    async with world.running(bot):
        await start_three(world)
        assert "Your hand" in bob.dms()[0].text and "Antique Dueling Pistols" in bob.dms()[0].text

        message, table = await table_message(world, 1)
        assert table.state.active == 1 and table.state.window is not None  # Bob's Victim was placed
        victim = table.state.window.victim
        await pass_window(world, alice, 1)
        await pass_window(world, carol, 1)

        await choose(world, bob, 1, PlayCard(card="W19", victims=[victim]))
        await choose(world, carol, 1, Respond(card="E13-2"))
        await pass_window(world, alice, 1)
        table = await world.tables.load(1)
        assert table.state.shootout is not None and table.state.shootout.target == 1

        await choose(world, bob, 1, Pledge(cards=["W06"]))
        await choose(world, carol, 1, Pledge(cards=["W10"]))
        await choose(world, alice, 1, Pledge())
        await choose(world, bob, 1, Pledge())
        table = await world.tables.load(1)
        assert table.state.shootout is None and table.state.skips[1] == 1 and not table.state.incidents

        await world.double.wait_for(lambda: "Bob loses the shootout" in table_log(world.bot_messages()),
                                    what="the shootout's result")
        public = table_log(world.bot_messages())
        for line in ("Bob goes first", "Bob places", "Carol responds with Sirens!", "Shootout against Bob!",
                     "Bob fires Antique Dueling Pistols", "Carol has chosen (posse running total: 5)",
                     "The posse fires Grenade Launcher", "Bob loses the shootout (2 against 5)"):
            assert line in public, line

        # the rest of the game: every decision as its timeout would take it (windows close, hands are thrown
        # away), applied quietly; the bot itself applies the last one, so it posts the result
        engine = table.engine
        for _ in range(2000):
            table = await world.tables.load(1)
            seat, action = engine.timeout_action(table.state)
            service = bot.tables if engine.outcome(engine.apply(table.state, seat, action).state) else world.tables
            await service.act(1, None, engine.dump_action(action), seat=seat, expected_version=table.version)
            if service is bot.tables:
                break
        table = await world.tables.load(1)
        assert table.status != "active" and table.outcome is not None
        await world.double.wait_for(lambda: any(m.embeds and m.embeds[-1].get("title") == "Game over"
                                                for m in world.bot_messages()), what="the result")
        await world.double.wait_for(lambda: not act_buttons(world), what="the old table's buttons taken away")
        board = await world.tables.leaderboard(world.guild.id, "lets_kill")
        assert {row.user_id for row in board} == {alice.id, bob.id, carol.id}


async def answer_late(world: World, user: User, other: User, action: Any) -> None:
    """``user`` opens the menu of a response window, ``other`` passes meanwhile, then ``user`` answers ``action``
    from the menu drawn before that pass."""
    message, table = await table_message(world, 1)
    seat = next(s for s in range(3) if table.user_of(s) == user.id)
    legal = table.engine.legal_actions(table.state, seat)
    menu = await (await user.click(message, label="Act")).response()
    assert menu.message is not None
    await pass_window(world, other, 1)
    select = next(c for c in menu.message.walk_components() if ":do:" in c.get("custom_id", ""))
    answer = await (await user.select(menu.message, select["custom_id"], [str(legal.index(action))])).response()
    assert answer.type in (6, 7), answer.content  # the menu goes (not a refusal: "the game has moved on")
    await wait_version(world, 1, table.version + 1)


async def test_an_answer_from_a_menu_drawn_earlier_in_the_same_window_counts(world: World, seed: None) -> None:
    """Everyone answers a window at once: an answer picked from a menu opened before another player answered
    (the same window, so the same choices) is taken, not refused as outdated."""
    alice, bob, carol = world.players[:3]
    async with world.running():
        await start_three(world)

        victim = (await world.tables.load(1)).state.window.victim  # Bob's Victim is placed
        await answer_late(world, alice, carol, Respond())
        table = await world.tables.load(1)
        assert table.state.pending.kind == "play" and table.state.active == 1

        await choose(world, bob, 1, PlayCard(card="W19", victims=[victim]))
        await answer_late(world, carol, alice, Respond(card="E13-2"))
        table = await world.tables.load(1)
        assert table.state.shootout is not None and table.state.shootout.target == 1


async def test_nobody_answers_the_window_and_the_game_goes_on(world: World, seed: None) -> None:
    """Nobody clicks: the first response window times out (everyone silently passes, a step with no event), the
    table is drawn anew for Bob's play, and his turn has its timer, so an absent table never stalls."""
    alice, bob, carol = world.players[:3]
    async with world.running():
        await start_three(world)
        _, table = await table_message(world, 1)
        assert table.state.pending.kind == "window"
        world.clock.advance(seconds=16)
        await wait_version(world, 1, table.version)
        message, table = await table_message(world, 1)  # drawn at the new version: Bob's Act, no Pass
        assert table.state.pending.kind == "play" and table.state.active == 1
        assert [b["label"] for b in message.buttons()][:1] == ["Act"]
        log = table_log(world.bot_messages())
        # one line names both silent players (the window's clock passed for them), no line per player
        assert re.search(r"Time is up: the game goes on without \w+, \w+\.", log) and "ran out of time" not in log
        assert {t.kind for t in await world.tables.pending_timers(1)} >= {"turn_warning", "turn_timeout"}


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)  # the timers are stored alike on both backends
async def test_answers_keep_the_window_deadline_also_across_a_restart(world: World, seed: None) -> None:
    """Four players (Dave places the first Victim): Alice passes 10 s into its window (no new timers: the window's
    stand), the bot restarts, Bob passes 12 s in; the window still closes 15 s after it opened (LK-19), for Carol
    alone: its deadline is the timer stored at its opening, not something a process remembers."""
    alice, bob, carol, dave = world.players[:4]
    async with world.running():
        handle = await newgame(alice, world.games, "lets_kill", "classic")
        await handle.response()
        lobby = handle.original
        assert lobby is not None
        for user in (bob, carol, dave):
            await (await user.click(lobby, label="Join")).response()
        await (await alice.click(lobby, label="Start")).response()
        await world.double.wait_for(lambda: all(u.dms() for u in (alice, bob, carol, dave)), what="the hands")
        _, table = await table_message(world, 1)
        assert table.state.pending.kind == "window" and set(table.state.window.eligible) == {0, 1, 2}
        opened = table.version
        world.clock.advance(seconds=10)
        await pass_window(world, alice, 1)
        armed = [t for t in await world.tables.pending_timers(1) if t.kind in ("turn_warning", "turn_timeout")]
        assert {t.version_at_schedule for t in armed} == {opened}
    async with world.running():
        world.clock.advance(seconds=2)
        await pass_window(world, bob, 1)
        answered = (await world.tables.load(1)).version
        world.clock.advance(seconds=3.5)  # 15.5 s after the window opened
        await wait_version(world, 1, answered)
        assert (await world.tables.load(1)).state.pending.kind != "window"
        await world.double.wait_for(lambda: "Time is up: the game goes on without Carol." in table_log(
            world.bot_messages()), what="the window's closing line")

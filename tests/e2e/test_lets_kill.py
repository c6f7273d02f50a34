"""Let's Kill! end to end through the Discord double: three players, hands by DM, a Victim placed and its window
passed, a whacking answered by a Response Event played in the window, a shootout with Guns chosen privately by
both sides, and the rest of the game played out by the turn timers to the announced result."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from bot.tables import TableService
from games.core.ai import choose_action
from games.lets_kill.cards import CARDS
from games.lets_kill.engine import LetsKill
from games.lets_kill.models import PlayCard, Pledge, Respond
from tests.discord_double import StoredMessage, User
from tests.e2e.conftest import World, table_log, until_version
from tests.games.lets_kill.support import build
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


async def choose(world: World, user: User, table_id: int, action: Any) -> int:
    """Click Act, then make ``action``: a Step-2 play built step by step in the panel (card, targets, order),
    any other move picked in the select of the clicker's legal moves. Returns how many panels it took."""
    message, table = await table_message(world, table_id)
    seat = next(s for s in range(3) if table.user_of(s) == user.id)
    legal = table.engine.legal_actions(table.state, seat)
    response = await (await user.click(message, label="Act")).response()
    assert response.ephemeral and response.message is not None
    steps = 1
    if isinstance(action, PlayCard):
        steps = await build_play(user, response.message, table.state, action)
    else:
        select = next(c for c in response.message.walk_components() if ":do:" in c.get("custom_id", ""))
        await (await user.select(response.message, select["custom_id"], [str(legal.index(action))])).response()
    await wait_version(world, table_id, table.version)
    return steps


def _decoded(value: str) -> list[str]:
    return [f"V{v}" for v in value.split(",") if v]


async def build_play(user: User, panel: StoredMessage, state: Any, action: PlayCard) -> int:
    """Answer each panel of the play builder as ``action`` needs, until the play is made (the panel goes)."""
    for steps in range(1, 12):
        select = next(c for c in panel.walk_components() if c.get("type") == 3)
        name = select["custom_id"].split(":")[4]
        values = [o["value"] for o in select["options"]]
        if name == "card":
            picked = [action.card]
        elif name == "tgt":
            field = values[0].split("=")[0]
            wanted = getattr(action, field)
            picked = [f"{field}={'' if wanted is None else wanted}"]
        elif name == "place":
            picked = [next(loc.card for loc in state.locations if action.victims[0] in loc.victims)
                      if action.victims[0] not in state.town else "~"]
        elif name == "vic" and select.get("max_values", 1) == 1 and values[0].endswith(","):
            picked = [next(v for v in values if set(_decoded(v)) == set(action.victims))]
        elif name == "vic":
            picked = list(action.victims)
        else:  # the order: the option that starts the declared order
            picked = [next(v for v in values if _decoded(v) == action.victims[:len(_decoded(v))])]
        assert set(picked) <= set(values), (name, picked, values)
        response = await (await user.select(panel, select["custom_id"], picked)).response()
        if response.type != 7:  # not an edit into the next step: the play was made
            return steps
        assert response.message is not None
        panel = response.message
    raise AssertionError("the play builder did not finish")


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


async def test_a_hand_dm_comes_at_most_once_per_turn_change(world: World, seed: None) -> None:
    """Issue 21: three players play a whole game with the computer players' moves (whackings, windows, shootouts);
    each gets the dealt hand, then one "Your hand" DM at each turn change after which the hand is not the one last
    sent, listing the whole hand: 16 DMs in this game of 14 turns, where one per hand change sent 30 (10, 8, 12)."""
    players = world.players[:3]
    bot = world.bot()
    async with world.running(bot):
        await start_three(world)
        table = await world.tables.load(1)
        engine, rng = table.engine, random.Random(5)
        sent = [list(hand) for hand in table.state.hands]
        expected = [1, 1, 1]  # the dealt hand
        for _ in range(3000):
            if table.status != "active":
                break
            seat = engine.waiting(table.state).seats[0]
            action = choose_action(engine, table.state, seat, rng)
            before = table.state.turn
            await bot.tables.act(1, None, engine.dump_action(action), seat=seat, expected_version=table.version)
            table = await world.tables.load(1)
            if table.state.turn != before and table.status == "active":
                for s, hand in enumerate(table.state.hands):
                    expected[s] += hand != sent[s]
                    sent[s] = list(hand)
        assert table.status == "finished"
        await world.double.wait_for(lambda: any(m.embeds and m.embeds[-1].get("title") == "Game over"
                                                for m in world.bot_messages()), what="the result")
        for user in players:
            seat = next(s for s in range(3) if table.user_of(s) == user.id)
            hands = [m for m in user.dms() if "Your hand" in m.text]
            assert len(hands) == expected[seat], (user.username, len(hands), expected)
            assert all(CARDS[c].name in hands[-1].text for c in sent[seat])
        assert sum(expected) == 16 and table.state.turn == 14


CROWD = ["V05", "V06", "V07", "V08", "V09", "V10", "V11", "V12", "V13", "V14", "V15", "V16"]


@pytest.fixture
def crowded(monkeypatch: pytest.MonkeyPatch) -> None:
    """The game is dealt as a crowded town: Alice (seat 0) holds Free Samples and a body-count-4 Weapon, twelve
    Victims are out on the town, the Fireworks Warehouse and the Dark Alley are in play; Mimi is placed first."""
    def setup(self: Any, options: Any, seats: Any, seed: int) -> Any:
        return build(hands=[["E05", "W09"], ["W01"], ["W02"]], victims_top=["V04"], town=CROWD,
                     locations={"L08": ["V17", "V18", "V19", "V20", "V21"], "L09": []})

    monkeypatch.setattr(LetsKill, "setup", setup)


async def test_free_samples_moves_three_victims_in_the_chosen_arrival_order(world: World, crowded: None) -> None:
    """Issue 21 (§9.10): with 12 Victims out on the town there are hundreds of Free Samples moves (the list
    stopped at 60, the menu at 25); Alice builds one of the last: destination, three Victims, their arrival order."""
    alice, bob, carol = world.players[:3]
    async with world.running():
        await start_three(world)
        await pass_window(world, bob, 1)
        await pass_window(world, carol, 1)
        table = await world.tables.load(1)
        listed = [a for a in table.engine.legal_actions(table.state, 0) if isinstance(a, PlayCard) and a.card == "E05"]
        assert len(listed) > 60
        move = PlayCard(card="E05", victims=["V16", "V05", "V11"], location="L08")
        steps = await choose(world, alice, 1, move)
        table = await world.tables.load(1)
        warehouse = next(loc for loc in table.state.locations if loc.card == "L08")
        assert warehouse.victims[-3:] == ["V16", "V05", "V11"] and steps == 4  # card, place, Victims, order


async def test_a_weapon_declaration_is_made_in_the_chosen_order(world: World, crowded: None) -> None:
    """W1: the declaration order is the whacker's; Alice declares four Victims at the Warehouse last first, and the
    whacking takes them in that order."""
    alice, bob, carol = world.players[:3]
    async with world.running():
        await start_three(world)
        await pass_window(world, bob, 1)
        await pass_window(world, carol, 1)
        move = PlayCard(card="W09", victims=["V21", "V19", "V17", "V20"])
        await choose(world, alice, 1, move)
        table = await world.tables.load(1)
        assert table.state.whacking is not None and table.state.whacking.targets == move.victims


async def test_the_discard_pile_is_on_the_table_and_whole_under_status(world: World, seed: None) -> None:
    """README ruling 6: Bob throws his hand away (from the card panel); the table then shows the pile's top three
    cards and `/status` the whole pile, top first."""
    alice, bob, carol = world.players[:3]
    async with world.running():
        await start_three(world)
        await pass_window(world, alice, 1)
        await pass_window(world, carol, 1)
        message, table = await table_message(world, 1)
        thrown = list(reversed(table.state.hands[1]))
        response = await (await bob.click(message, label="Act")).response()
        assert response.message is not None
        select = next(c for c in response.message.walk_components() if c.get("type") == 3)
        away = next(o["value"] for o in select["options"] if o["value"].startswith("!"))
        await (await bob.select(response.message, select["custom_id"], [away])).response()
        await wait_version(world, 1, table.version)
        table = await world.tables.load(1)
        assert table.state.lk_discard[-5:] == thrown[::-1]
        names = [CARDS[c].name for c in thrown]
        top = f"Discard pile, top first: {', '.join(names[:3])}, …and 2 more"
        await world.double.wait_for(lambda: any(top in m.text for m in act_buttons(world)), what="the pile's top")
        status = await (await alice.slash(world.games, "status")).response()
        assert status.ephemeral and len(status.embeds) == 2
        assert status.embeds[1]["description"] == f"Discard pile, top first: {', '.join(names)}"

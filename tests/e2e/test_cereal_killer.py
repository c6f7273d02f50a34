"""Cereal Killer end to end through the Discord double: the Killer's routes by DM (an illegal one refused with its
reason), its answer buttons by DM, the hunters' buttons, selects and Move modal on the status message, Lola's
private answers, the board image on every status, and no route in any public message while the game runs."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select

from bot.cogs.cereal_killer.render import render_board
from bot.cogs.cereal_killer.ui import ANSWER_TIMER
from bot.db.models import Timer
from bot.db.models.stats import Achievement
from games.cereal_killer import ENGINE
from tests.discord_double import StoredMessage, User
from tests.e2e.conftest import World, mark, refusal, stored, table_log
from tests.support.newgame import newgame

ROUTE = "3 8 13 12 victim 3 witness 2"  # City A: House 3 -> 8 -> 13 -> Park 12; the Witness goes to Park 2
ROUTE_WORDS = ("3 → 8 → 13 → 12", "Your route", "The Killer was on")
STATUS = "Cereal Killer — day"



def statuses(world: World) -> list[StoredMessage]:
    """The bot's table-status messages (their first embed is the Cereal Killer table)."""
    return [m for m in world.bot_messages() if m.embeds and m.embeds[0].get("title", "").startswith(STATUS)]


def custom_id(message: StoredMessage, name: str) -> str:
    """The custom id of the game component ``name`` on ``message``."""
    return next(c["custom_id"] for c in message.walk_components() if f":{name}:" in c.get("custom_id", ""))


async def next_status(world: World, before: tuple[int, int]) -> StoredMessage:
    """Wait for the table to show a step after the one it showed at ``before`` (a :func:`mark`)."""
    await world.double.wait_for(lambda: mark(statuses(world)) != before, what=f"the table after {before}")
    return statuses(world)[-1]


async def start(world: World, players: list[User]) -> StoredMessage:
    """The first player hosts (and becomes the Killer); the others join in order; the game starts."""
    handle = await newgame(players[0], world.games, "cereal_killer", "classic")
    await handle.response()
    lobby = await handle.wait_original()
    assert lobby is not None
    for user in players[1:]:
        await (await user.click(lobby, label="Join")).response()
    await (await players[0].click(lobby, label="Start")).response()
    table = await world.double.wait_for(lambda: statuses(world)[-1] if statuses(world) else None, what="the table")
    await world.double.wait_for(lambda: all(u.dms() for u in players), what="the role DMs (after the table)")
    return table


async def routed(world: World, players: list[User]) -> StoredMessage:
    """:func:`start`, then the Killer (the first player) DMs its day-1 :data:`ROUTE`: the table showing it taken."""
    await start(world, players)
    before = mark(statuses(world))
    await players[0].dm_bot(ROUTE)
    return await next_status(world, before)


async def killer_dm(world: World, killer: User, text: str) -> StoredMessage:
    """DM the bot ``text``; its first DM after that message (the answer)."""
    sent = await killer.dm_bot(text)
    return await world.double.wait_for(lambda: next((m for m in killer.dms() if m.id > sent.id), None),
                                       what="the bot's DM answer")


async def click(world: World, user: User, message: StoredMessage, name: str, values: list[str] | None = None) -> Any:
    """Use the component ``name`` and wait for the table's next step."""
    count = mark(statuses(world))
    ident = custom_id(message, name)
    handle = await (user.select(message, ident, values) if values is not None else user.click(message, ident))
    await handle.response()
    return await next_status(world, count)


def assert_no_route_in_public(world: World, secrets: tuple[str, ...] = ROUTE_WORDS) -> None:
    """No public text (message, embed in any of its versions, attachment description) in #games contains one of
    ``secrets``."""
    texts = [m.text for m in world.bot_messages()] + [table_log(world.bot_messages())]
    texts += [a.description or "" for m in world.bot_messages() for a in m.attachments]
    assert not [text for text in texts if any(secret in text for secret in secrets)]


async def test_two_players_routes_by_dm_question_and_arrest(world: World) -> None:
    """The Killer's illegal route is refused with its reason, the legal one acknowledged by the table alone; the
    Detective places, walks by modal and select, asks (the Killer answers by DM button) and arrests."""
    alice, bob = world.players[:2]
    async with world.running():
        first = await start(world, [alice, bob])
        assert "Alice is the Killer" in first.text and "Bob is the Detective" in first.text
        assert first.attachments and first.attachments[0].filename.endswith(".png")
        assert first.buttons()[0]["label"] == "My secrets"  # nothing for the hunters while the Killer moves

        refused = await killer_dm(world, alice, "3 9 8 7")
        assert refused.content == "⛔ 3 is not next to 9."
        assert "not_adjacent" not in refused.content
        unread = await killer_dm(world, alice, "i go 3 8 13 12")
        assert unread.content.startswith('⛔ I could not read "i go 3 8 13 12": "i" is neither')
        long = await killer_dm(world, alice, "x" * 1900)  # its refusal quoted it whole: Discord refused, no answer
        assert long.content.startswith('⛔ I could not read "xxx') and '"' + "x" * 99 + '…" is neither' in long.content
        assert len(long.content) < 400
        await bob.dm_bot("7 12")
        await world.double.wait_for(lambda: bob.dms() and "Only the Killer" in bob.dms()[-1].content)

        before = mark(statuses(world))
        dms = len(alice.dms())
        await alice.dm_bot(ROUTE)
        status = await next_status(world, before)
        assert "A victim was found in the House on 3" in status.text
        early = await killer_dm(world, alice, "13 14 9")
        assert "not due yet" in early.content
        assert alice.dms()[dms:] == [early]  # the accepted route got no DM back: the edited table acknowledges it
        table = await world.tables.table_in_channel(world.games.id)
        assert table is not None and table.state.killer == 12
        public_png, public_text = render_board(ENGINE.view(table.state, None))
        assert status.attachments[0].data == public_png
        assert status.attachments[0].description == public_text[:1024]  # alt text for people who cannot see it
        assert_no_route_in_public(world)

        assert "not your turn" in await refusal(await alice.select(status, custom_id(status, "place"), ["7"]))
        status = await click(world, bob, status, "place", ["7"])
        move = await bob.click(status, custom_id(status, "move"))
        assert (await move.response()).modal is not None
        count = mark(statuses(world))
        await (await bob.submit_modal(move, {"path": "2"})).response()
        status = await next_status(world, count)
        assert "walks 2 and stands on 2; steps left: 2" in status.text

        status = await click(world, bob, status, "ask", ["direction"])
        assert "asks the Witness on 2: Which way are you from the Witness?" in status.text
        assert [b["label"] for b in status.buttons()] == ["My secrets", "Host"]  # the Killer answers first
        prompt = await world.double.wait_for(lambda: alice.dms()[-1] if alice.dms()[-1].buttons() else None)
        assert "which way you are from the Witness on 2" in prompt.text
        assert [b["label"] for b in prompt.buttons()] == ["South"] and "Time limit" in prompt.text
        count = mark(statuses(world))
        await (await alice.click(prompt, label="South")).response()
        status = await next_status(world, count)
        assert "(Which way are you from the Witness?): South" in status.text
        await world.double.wait_for(lambda: not prompt.components, what="the answer buttons to go")

        status = await click(world, bob, status, "step", ["7"])
        assert_no_route_in_public(world)
        status = await click(world, bob, status, "arrest", ["12"])
        assert "Arrested on 12" in status.text and "Day 1: 3 → 8 → 13 → 12" in status.text
        assert "{routes}" not in status.text
        assert "Hunch" in status.text and "Claustrophobia" in status.text
        assert "Distrust" not in status.text
    async with world.sessions() as session:
        rows = (await session.execute(select(Achievement.user_id, Achievement.achievement))).all()
    assert sorted(rows) == sorted([(bob.id, "first_win_detective"), (bob.id, "hunch"), (bob.id, "claustrophobia")])


async def test_three_players_lola_answers_reach_lola_alone(world: World) -> None:
    """Lola's Bark answer and her Sniff answer (picked by the Killer by DM button) reach Lola alone: the Bark's as
    her click's private answer, the Sniff's by DM."""
    alice, bob, carol = world.players[:3]
    async with world.running():
        first = await start(world, [alice, bob, carol])
        assert "Carol is Lola" in first.text
        before = mark(statuses(world))
        await alice.dm_bot(ROUTE)
        status = await next_status(world, before)
        assert "Lola starts on the Food space 38" in status.text
        assert "not your turn" in await refusal(await bob.click(status, custom_id(status, "bark")))

        lola_dms = len(carol.dms())
        count = mark(statuses(world))
        barked = await carol.click(status, custom_id(status, "bark"))
        await barked.response()
        status = await next_status(world, count)
        assert "Lola barks on 38" in status.text
        (answer,) = await barked.wait_followups(1)  # her own click's answer, not a DM (issue 20)
        assert "Is the Killer next to you? No" in answer.text and answer.visible_to == carol.id
        status = await click(world, carol, status, "end")
        status = await click(world, bob, status, "place", ["19"])
        killer_dms = len(alice.dms())
        status = await click(world, bob, status, "end")
        assert "Day 2 begins" in status.text

        blocked = await killer_dm(world, alice, "13 14 19")
        assert blocked.content == "⛔ You cannot step onto 19: the Detective stands there."
        assert alice.dms()[killer_dms:] == [blocked]  # no DM started the Killer's day 2 (ruling 1): the table did
        count = mark(statuses(world))
        await alice.dm_bot("13 14 9")
        status = await next_status(world, count)
        assert "Day 2: Carol's turn (Lola)" in status.text
        await (await carol.select(status, custom_id(status, "sniff"), ["38"])).response()
        prompt = await world.double.wait_for(lambda: alice.dms()[-1] if alice.dms()[-1].buttons() else None)
        assert [b["label"] for b in prompt.buttons()] == ["No"]
        await (await alice.click(prompt, label="No")).response()
        await world.double.wait_for(lambda: any("Sniffing 38: No" in m.text for m in carol.dms()[lola_dms:]))
        public = "\n".join(m.text for m in world.bot_messages()) + table_log(world.bot_messages())
        assert "Is the Killer next to you" not in public and "Sniffing 38" not in public
        assert "Lola sniffs space 38" in public
        assert not any("Sniffing" in m.text or "Is the Killer next" in m.text for m in alice.dms() + bob.dms())
        assert not any("Is the Killer next" in m.text for m in carol.dms())  # the Bark's answer was no DM
        assert_no_route_in_public(world)


async def answer_prompt(world: World, killer: User, count: int) -> StoredMessage:
    """The Killer's DM with answer buttons after its first ``count`` DMs."""
    return await world.double.wait_for(lambda: next((m for m in killer.dms()[count:] if m.buttons()), None),
                                       what="the Killer's answer buttons")


async def answer_due(world: World) -> int:
    """When the turn timer answers for the Killer (the persisted ``turn_timeout`` of the current version)."""
    service = world.tables
    table = await service.table_in_channel(world.games.id)
    assert table is not None and table.state.pending is not None
    found: list[Any] = []

    async def armed() -> bool:  # the delivery arms the timer just after the step is committed
        found[:] = [t.due_at for t in await service.pending_timers(table.id)
                    if t.kind == "turn_timeout" and t.payload["version"] == table.version]
        return bool(found)

    await stored(world, armed, "the Killer's answer timer")
    return int(found[0].timestamp())


async def test_lobby_says_who_will_be_who(world: World) -> None:
    """The lobby lists the role each joined player will get: the host the Killer, then the Detective, Lola."""
    alice, bob, carol = world.players[:3]
    async with world.running():
        handle = await newgame(alice, world.games, "cereal_killer", "classic")
        await handle.response()
        lobby = await handle.wait_original()
        assert lobby is not None
        assert f"<@{alice.id}> is the Killer" in lobby.text and "Detective" not in lobby.text
        for user in (bob, carol):
            await (await user.click(lobby, label="Join")).response()
        assert f"<@{bob.id}> is the Detective\n<@{carol.id}> is Lola" in lobby.text
        await (await bob.click(lobby, label="Leave")).response()
        assert f"<@{carol.id}> is the Detective" in lobby.text and "Lola" not in lobby.text


async def test_an_answer_clicked_in_its_dm_leaves_its_deadline_nothing_to_read(world: World) -> None:
    """The Killer answers a direction question with its DM buttons (they go with the click): at the answer's
    deadline the bot neither reads the DM's history nor edits it (no request), as it would for buttons left there
    (an answer from My secrets, or by the turn timer: the restart test)."""
    alice, bob = world.players[:2]
    async with world.running():
        status = await routed(world, [alice, bob])
        status = await click(world, bob, status, "place", ["7"])
        status = await click(world, bob, status, "step", ["2"])
        dms = len(alice.dms())
        await click(world, bob, status, "ask", ["direction"])
        prompt = await answer_prompt(world, alice, dms)
        due = await answer_due(world)
        count = mark(statuses(world))
        await (await alice.click(prompt, label=prompt.buttons()[0]["label"])).response()
        await next_status(world, count)
        await world.double.wait_for(lambda: not prompt.components, what="the answer buttons to go")
        requests = len(world.double.requests)
        world.clock.set(datetime.fromtimestamp(due + 1, UTC))
        await stored(world, lambda: _answer_timer_fired(world), "the answer's deadline")
        dm_calls = [r for r in world.double.requests[requests:] if f"/channels/{prompt.channel_id}/" in r.path]
        assert dm_calls == []


async def _answer_timer_fired(world: World) -> bool:
    async with world.sessions() as session:
        return bool(await session.scalar(select(Timer.id).where(Timer.kind == ANSWER_TIMER,
                                                                  Timer.fired_at.is_not(None))))


async def test_three_players_play_to_a_bite_with_a_restart_and_a_timed_out_answer(world: World) -> None:
    """A whole 3-player game: Lola sniffs, the bot is down past the deadline and on restart the turn timer
    answers for the Killer (its DM buttons go); the Detective asks and the Killer answers by button; each
    prompt shows the persisted deadline; on day 2 Lola bites the Killer. Nothing public names a route until the
    end, whose status reveals both routes and announces (and stores) K9 and Claustrophobia."""
    alice, bob, carol = world.players[:3]
    day_two = "13 14 9"
    secrets = (*ROUTE_WORDS, "12 → 13 → 14 → 9", "13 → 14 → 9")
    async with world.running():
        status = await routed(world, [alice, bob, carol])
        move = await bob.click(status, custom_id(status, "move"))
        assert "not your turn" in await refusal(move)
        move = await carol.click(status, custom_id(status, "move"))
        assert (await move.response()).modal is not None
        count = mark(statuses(world))
        await (await carol.submit_modal(move, {"path": "33 28 23 18"})).response()
        status = await next_status(world, count)
        assert "stands on 18" in status.text

        dms = len(alice.dms())
        await (await carol.select(status, custom_id(status, "sniff"), ["13"])).response()
        prompt = await answer_prompt(world, alice, dms)
        assert f"<t:{await answer_due(world)}:R>" in prompt.text
        count = mark(statuses(world))

    world.clock.advance(seconds=180)  # /config prompt time passes while the bot is down
    async with world.running():  # the missed timers fire at start: the bot answers for the Killer
        status = await next_status(world, count)
        await world.double.wait_for(lambda: not prompt.components, what="the timed-out answer buttons to go")
        assert any("Sniffing 13" in m.text for m in carol.dms())
        assert_no_route_in_public(world, secrets)
        status = await click(world, carol, status, "end")
        status = await click(world, bob, status, "place", ["7"])
        dms = len(alice.dms())
        status = await click(world, bob, status, "ask", ["direction"])
        prompt = await answer_prompt(world, alice, dms)
        assert f"<t:{await answer_due(world)}:R>" in prompt.text
        count = mark(statuses(world))
        await (await alice.click(prompt, label=prompt.buttons()[0]["label"])).response()
        status = await next_status(world, count)
        await world.double.wait_for(lambda: not prompt.components, what="the answer buttons to go")
        status = await click(world, bob, status, "end")
        assert "Day 2 begins" in status.text

        count = mark(statuses(world))
        await alice.dm_bot(day_two)
        status = await next_status(world, count)
        status = await click(world, carol, status, "step", ["13"])
        status = await click(world, carol, status, "step", ["14"])
        assert_no_route_in_public(world, secrets)
        status = await click(world, carol, status, "bite", ["9"])
        assert "Lola bites the Killer on 9! The hunters win." in status.text and "The Killer was on 9" in status.text
        assert "Day 1: 3 → 8 → 13 → 12" in status.text and "Day 2: 12 → 13 → 14 → 9" in status.text
        assert "🏅 Carol: **K9** (won with a bite before day 3)" in status.text
        assert "🏅 Bob: **Claustrophobia**" in status.text and "🏅 Carol: **Who's a good dog**" in status.text
        assert [b["label"] for b in status.buttons()] == ["History"]  # the only control left on the result
    async with world.sessions() as session:
        rows = (await session.execute(select(Achievement.user_id, Achievement.achievement))).all()
    assert sorted(rows) == sorted([(carol.id, "first_win_lola"), (carol.id, "k9"), (bob.id, "first_win_detective"),
                                   (bob.id, "claustrophobia")])

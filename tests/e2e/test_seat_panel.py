"""The seat controls beyond ``/replace``, end to end through the Discord double, in English and in Spanish (issue 24):
the host's panel replaces a player (the seat, then a member who accepts the offer, or the computer); the player
whose seat the computer took gets a DM whose "I'm back" works from the DM, across a restart; and the seat controls
(I'm back on the table and in the DM, taking an offered seat) answer within Discord's 3 seconds on a slow
database."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

import pytest

from bot.seat_controls import OFFER_FOR
from bot.tables import Table
from bot.tables.seats import OFFER_TIMER
from tests.discord_double import StoredMessage, User
from tests.e2e.conftest import World, answer, refusal, settled, stored
from tests.e2e.latency import SlowSql
from tests.e2e.test_host import open_panel
from tests.e2e.test_seats import (
    LANGUAGES,
    seed,  # noqa: F401 - the fixed seed of test_seats, autouse here too
    start,
    t,
    table_message,
    time_out,
    timeouts_of,
    user_at,
)


def control(message: StoredMessage, ending: str) -> str:
    """The custom_id of ``message``'s component whose custom_id ends with ``ending``."""
    return next(c["custom_id"] for c in message.walk_components() if c.get("custom_id", "").endswith(ending))


async def pick_seat(host: User, panel: StoredMessage, seat: int) -> StoredMessage:
    """The host picks ``seat`` in the panel's Replace select: the panel (edited) asks who takes it."""
    response = await (await host.select(panel, control(panel, ":host:replace"), [str(seat)])).response()
    assert response.type in (6, 7), response
    return panel


async def away(world: World, table: Table, language: str) -> tuple[int, User, Table]:
    """The player the game waits on first lets their time run out until the computer plays their seat; returns
    that seat, its user and the table after."""
    first = table.engine.waiting(table.state).seats[0]
    absent = user_at(world, table, first)
    while await timeouts_of(world, table.id, first) < 2:
        table = await time_out(world, table)

    async def handed() -> bool:
        return any(s.away for s in (await world.tables.load(table.id)).seats)

    await stored(world, handed, "the seat handed to the computer")
    await settled(world)
    return first, absent, await world.tables.load(table.id)


@pytest.mark.parametrize("language", LANGUAGES)
async def test_the_host_replaces_a_player_from_the_panel_by_a_member(world: World, language: str) -> None:
    """Alice's panel: Replace → Bob's seat → Carol: the panel says the offer went to Carol and the channel has the
    offer; Carol takes it: the seat is hers and goes by her name on the table, which says whose seat it was."""
    alice, bob, carol = world.players[:3]
    async with world.running():
        table = await start(world, language, [alice, bob])
        panel = await open_panel(alice, table_message(world, table))
        await pick_seat(alice, panel, 1)
        await world.double.wait_for(lambda: any(c.get("type") == 5 for c in panel.walk_components()),
                                    what="the member picker")
        assert t(language, "host.replace.who", seat="Bob") in panel.text
        response = await (await alice.select(panel, control(panel, ":host:replace_to.1"), [carol])).response()
        assert response.type in (6, 7), response
        await world.double.wait_for(lambda: carol.mention in panel.content, what="the panel's word on the offer")
        assert panel.content == t(language, "host.replace.offered", user=carol.mention, seat="Bob")
        offer = await world.double.wait_for(
            lambda: next((m for m in reversed(world.bot_messages()) if carol.mention in m.content), None),
            what="the offer in the channel")
        take = control(offer, ":take_seat:1")
        assert await refusal(await bob.click(offer, take)) == "⛔ " + t(language, "seat.error.no_offer")
        assert (await (await carol.click(offer, take)).response()).type in (6, 7)
        await settled(world)
        held = await world.tables.load(table.id)
        assert held.user_of(1) == carol.id and held.shown_name(1) == "Carol"
        shown = table_message(world, held).text
        assert t(language, "seat.replaced.person", was="Bob", seat="Carol") in shown
        assert "Carol" in shown.split(t(language, "seat.replaced.person", was="Bob", seat="Carol"))[0]


@pytest.mark.parametrize("language", LANGUAGES)
async def test_the_host_hands_a_seat_to_the_computer_from_the_panel(world: World, language: str) -> None:
    """Alice's panel: Replace → Bob's seat → The computer: the seat is the computer's at once and goes by a
    computer player's name (Bob's is gone from the table but for the line saying whose seat it was), the table says
    so (one edit, no new table message) and the panel says it too; Back shows the host's powers again."""
    alice, bob = world.players[:2]
    async with world.running():
        table = await start(world, language, [alice, bob])
        message = table_message(world, table)
        panel = await open_panel(alice, message)
        await pick_seat(alice, panel, 1)
        await world.double.wait_for(lambda: any(c.get("type") == 5 for c in panel.walk_components()),
                                    what="the member picker")
        count = len([m for m in world.bot_messages() if m.embeds])
        response = await (await alice.click(panel, control(panel, ":host:replace_ai.1"))).response()
        assert response.type in (6, 7), response
        await world.double.wait_for(lambda: t(language, "seat.handed_to_computer", seat="Bob") in panel.content,
                                    what="the panel's word")
        await settled(world)
        after = await world.tables.load(table.id)
        assert after.user_of(1) is None and after.version == table.version + 1
        computer = t(language, "lobby.ai_name", number=1)
        assert after.shown_name(1) == computer
        shown = table_message(world, after).text
        line = t(language, "seat.replaced.computer", was="Bob", seat=computer)
        assert line in shown and "Bob" not in shown.replace(line, "")
        assert len([m for m in world.bot_messages() if m.embeds]) == count
        assert any(c.get("custom_id", "").endswith(":host:replace") for c in panel.walk_components())
        assert "Bob" not in [o["label"].split(" ", 1)[1] for c in panel.selects() for o in c.get("options", [])]
        assert bob.id not in after.user_ids()


@pytest.mark.parametrize("language", LANGUAGES)
async def test_im_back_from_the_dm_the_computer_sent(world: World, language: str) -> None:
    """When the computer takes the absent player's seat over they get a DM saying so with "I'm back"; the button
    works from the DM after a restart: the seat is theirs again, the DM (its button gone) says so, the table too."""
    alice, bob = world.players[:2]
    async with world.running():
        table = await start(world, language, [alice, bob])
        seat, absent, table = await away(world, table, language)
        dm = await world.double.wait_for(
            lambda: next((m for m in absent.dms() if t(language, "seat.away_dm", channel=world.games.id) in m.text),
                         None), what="the DM saying the computer plays")
        back = control(dm, ":back:")
        other = alice if absent is bob else bob
        assert not any(t(language, "seat.away_dm", channel=world.games.id) in m.text for m in other.dms())
    async with world.running():  # the DM's button works across a restart
        response = await (await absent.click(dm, back)).response()
        assert response.type in (6, 7), response
        await world.double.wait_for(lambda: t(language, "seat.back_dm", channel=world.games.id) in dm.text,
                                    what="the DM's answer")
        assert not dm.buttons()
        back_table = await world.tables.load(table.id)
        assert not any(s.away for s in back_table.seats) and back_table.version == table.version + 1
        await settled(world)
        assert t(language, "seat.back", seat=back_table.shown_name(seat)) in table_message(world, back_table).text


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)  # the latency is injected: one backend is enough
async def test_the_seat_controls_answer_in_time_on_a_slow_database(world: World, slow_sql: SlowSql) -> None:
    """With 100 ms per SQL statement (and Discord's 3 s scaled down to 1.5 s, no margin): I'm back on the table,
    I'm back in the DM, taking an offered seat and the panel's "The computer" are each answered in time (a refused
    late callback would fail the response), and each lands."""
    alice, bob, carol = world.players[:3]
    bot = world.bot()
    bot.defer_after = 0.2  # type: ignore[attr-defined]
    world.double.initial_response_deadline = 1.5
    async with world.running(bot):
        table = await start(world, "en", [alice, bob])
        seat, absent, table = await away(world, table, "en")
        message = table_message(world, table)
        slow_sql.delay = 0.1
        response = await (await absent.click(message, control(message, ":back:"))).response()
        assert response.type in (6, 7), response
        await world.double.wait_for(lambda: t("en", "seat.back", seat=table.shown_name(seat)) in message.text,
                                    timeout=10, what="back, from the table")
        slow_sql.reset()
        first_dm = next(m for m in reversed(absent.dms()) if m.buttons())  # (back by the table: its DM's button)
        assert await refusal(await absent.click(first_dm, control(first_dm, ":back:"))) == "⛔ " + t(
            "en", "seat.error.back_already")
        seat, absent, table = await away(world, await world.tables.load(table.id), "en")
        dm = next(m for m in reversed(absent.dms()) if m.buttons())
        slow_sql.delay = 0.1
        response = await (await absent.click(dm, control(dm, ":back:"))).response()
        assert response.type in (6, 7), response
        await world.double.wait_for(lambda: t("en", "seat.back_dm", channel=world.games.id) in dm.text, timeout=10,
                                    what="back, from the DM")
        slow_sql.reset()
        other = 1 - seat
        offer = await answer_public(await alice.slash(world.games, "replace", seat=other + 1, member=carol))
        slow_sql.delay = 0.1
        response = await (await carol.click(offer, control(offer, f":take_seat:{other}"))).response()
        assert response.type in (6, 7), response
        await world.double.wait_for(lambda: t("en", "seat.taken") in offer.content, timeout=10, what="the seat taken")
        slow_sql.reset()
        held = await world.tables.load(table.id)
        assert held.user_of(other) == carol.id
        host = next(u for u in world.players if u.id == held.host_id)  # (Alice's own seat handed: Bob hosts)
        panel = await open_panel(host, table_message(world, held))
        await pick_seat(host, panel, other)
        await world.double.wait_for(lambda: any(c.get("type") == 5 for c in panel.walk_components()),
                                    what="the member picker")
        slow_sql.delay = 0.1
        response = await (await host.click(panel, control(panel, f":host:replace_ai.{other}"))).response()
        assert response.type in (6, 7), response
        await world.double.wait_for(lambda: t("en", "seat.handed_to_computer", seat="Carol") in panel.content,
                                    timeout=10, what="the panel's word")
        slow_sql.reset()
        assert (await world.tables.load(table.id)).user_of(other) is None


async def answer_public(handle) -> StoredMessage:  # type: ignore[no-untyped-def]
    """The public message ``handle`` was answered with (the callback's, or after a deferral its follow-up)."""
    response = await handle.response()
    if response.deferred:
        (first, *_) = await handle.wait_followups(1)
    else:
        first = response.message
    assert first is not None and not first.ephemeral, first
    return first



async def offer_to(world: World, host: User, seat: int, member: User) -> StoredMessage:
    """``host``'s ``/replace`` offer of ``seat`` (numbered from 0) to ``member``: the public offer message."""
    await (await host.slash(world.games, "replace", seat=seat + 1, member=member)).response()
    message = next(m for m in reversed(world.bot_messages()) if member.mention in m.content)

    async def recorded() -> bool:  # the offer's message is kept with it just after the command's answer
        table = await world.tables.table_in_channel(world.games.id)
        return table is not None and any(t.payload.get("message") == message.id
                                         for t in await world.tables.pending_timers(table.id))

    await stored(world, recorded, "the offer's message recorded")
    return message


@pytest.mark.parametrize("language", LANGUAGES)
async def test_a_late_click_on_an_offer_is_refused_and_the_lapsed_offer_loses_its_button(world: World,
                                                                                       language: str) -> None:
    """Carol clicks the offer of Bob's seat after its 15 minutes, before its timer has fired: refused privately
    (the offer lapsed), nothing changes; when the timer fires the offer's message says it lapsed, its button gone."""
    alice, bob, carol = world.players[:3]
    bot = world.bot()
    async with world.running(bot):
        table = await start(world, language, [alice, bob])
        offer = await offer_to(world, alice, 1, carol)
        lapse, due, go = bot.timers.handlers[OFFER_TIMER], asyncio.Event(), asyncio.Event()

        async def held(timer: Any) -> None:  # the timer is due but has not fired yet
            due.set()
            await go.wait()
            await lapse(timer)

        bot.timers.on(OFFER_TIMER, held)
        world.clock.advance(OFFER_FOR + timedelta(seconds=1))
        await asyncio.wait_for(due.wait(), 10)
        await settled(world)
        before = await world.tables.load(table.id)
        said = await refusal(await carol.click(offer, control(offer, ":take_seat:1")))
        assert said == "⛔ " + t(language, "seat.error.offer_lapsed")
        after = await world.tables.load(table.id)
        assert after.user_of(1) == bob.id and after.version == before.version
        go.set()
        await world.double.wait_for(lambda: not offer.components, what="the lapsed offer's button gone")
        assert offer.content == t(language, "seat.offer_lapsed", seat="Bob", user=carol.mention)


@pytest.mark.parametrize("language", LANGUAGES)
async def test_a_newcomer_with_closed_dms_is_shown_the_way_to_the_secrets(world: World, language: str) -> None:
    """Carol, whose DMs are closed, takes Bob's seat: the offer's message does not promise a DM, it says the DM
    failed and carries "My secrets", which shows her the seat's secrets privately."""
    alice, bob, carol = world.players[:3]
    world.double.close_dms(carol)
    async with world.running():
        await start(world, language, [alice, bob])
        offer = await offer_to(world, alice, 1, carol)
        assert (await (await carol.click(offer, control(offer, ":take_seat:1"))).response()).type in (6, 7)
        await world.double.wait_for(lambda: t(language, "seat.taken_dm_closed") in offer.content,
                                    what="the offer's word on the closed DMs")
        assert t(language, "seat.taken") not in offer.content
        secrets = await answer(await carol.click(offer, control(offer, ":secrets:")))
        assert secrets.ephemeral and secrets.embeds


async def test_taking_one_offered_seat_leaves_the_offer_of_another_seat_standing(world: World) -> None:
    """Two offers of two seats (Bob's to Carol, Dave's to Erin): Carol taking Bob's seat lapses only that seat's
    offers, so Erin's click still seats her (a tester's finding: every offer of the game used to lapse)."""
    alice, bob, carol, dave, erin = world.players
    async with world.running():
        await start(world, "en", [alice, bob, dave])
        carol_offer = await offer_to(world, alice, 1, carol)
        erin_offer = await offer_to(world, alice, 2, erin)
        assert (await (await carol.click(carol_offer, control(carol_offer, ":take_seat:1"))).response()).type in (6, 7)
        await settled(world)
        response = await (await erin.click(erin_offer, control(erin_offer, ":take_seat:2"))).response()
        await settled(world)
        table = await world.tables.table_in_channel(world.games.id)
        assert table is not None
        said = response.content if response.ephemeral else ""
        assert (table.user_of(1), table.user_of(2)) == (carol.id, erin.id), said


async def test_a_name_written_as_a_mention_pings_only_the_newcomer_in_the_offer(world: World) -> None:
    """A seat whose holder's display name is another member's mention written out (``<@id>``): its offer pings
    the newcomer it is for and nobody else (a tester's finding: the name pinged Dave)."""
    alice, _, carol, dave = world.players[:4]
    mallory = world.double.add_user("mallory", display_name=f"<@{dave.id}>")
    world.guild.add_member(mallory)
    async with world.running():
        await start(world, "en", [alice, mallory])
        offer = await offer_to(world, alice, 1, carol)
        assert offer.pings == frozenset({carol.id})

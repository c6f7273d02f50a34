"""How a seat offer ends and who hosts after a handover, end to end through the Discord double: an offer's
message loses its button (and says why) whenever the offer stops standing: it lapsed (even scrolled far up),
the seat was handed over, or the game ended; the host hands an away player's seat to the computer; a host who
hands away their own seat passes the host on."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.seat_controls import OFFER_FOR
from tests.discord_double import StoredMessage
from tests.e2e.conftest import World, answer, confirm_cancel, refusal, settled
from tests.e2e.test_host import WORDS, open_panel
from tests.e2e.test_seat_panel import away, control, offer_to, pick_seat
from tests.e2e.test_seats import (
    LANGUAGES,
    seed,  # noqa: F401 - the fixed seed of test_seats, autouse here too
    start,
    t,
    table_message,
)


async def ended(world: World, offer: StoredMessage, text: str) -> None:
    """Wait until ``offer``'s message says ``text`` and has no button left."""
    await world.double.wait_for(lambda: offer.content == text and not offer.components, timeout=10,
                                what="the offer's end")


async def test_an_offer_scrolled_far_up_still_loses_its_button_when_it_lapses(world: World) -> None:
    """Sixty messages are said after the offer to Carol: when it lapses its message (found by the id kept with the
    offer, not searched for among the channel's last messages) says so, its button gone."""
    alice, bob, carol = world.players[:3]
    async with world.running():
        await start(world, "en", [alice, bob])
        offer = await offer_to(world, alice, 1, carol)
        for number in range(60):
            await bob.say(world.games, f"chatter {number}")
        world.clock.advance(OFFER_FOR + timedelta(seconds=1))
        await ended(world, offer, t("en", "seat.offer_lapsed", seat="Bob", user=carol.mention))


@pytest.mark.parametrize("language", LANGUAGES)
async def test_an_offer_ends_when_the_host_hands_the_seat_to_the_computer(world: World, language: str) -> None:
    """Bob's seat is offered to Carol, then handed to the computer: the offer says the seat was handed over, its
    button gone at once (no dead button until its 15 minutes are up)."""
    alice, bob, carol = world.players[:3]
    async with world.running():
        await start(world, language, [alice, bob])
        offer = await offer_to(world, alice, 1, carol)
        await (await alice.slash(world.games, "replace", seat=2)).response()
        computer = t(language, "lobby.ai_name", number=1)
        await ended(world, offer, t(language, "seat.offer_taken", user=carol.mention, seat=computer))


async def test_taking_one_offered_seat_ends_the_newcomers_offer_of_another(world: World) -> None:
    """Carol is offered Bob's seat and Dave's; she takes Bob's: the offer of Dave's seat to her says she took
    another seat, its button gone (she could not take a second seat)."""
    alice, bob, carol, dave = world.players[:4]
    async with world.running():
        await start(world, "en", [alice, bob, dave])
        first = await offer_to(world, alice, 1, carol)
        second = await offer_to(world, alice, 2, carol)
        assert (await (await carol.click(first, control(first, ":take_seat:1"))).response()).type in (6, 7)
        await ended(world, second, t("en", "seat.offer_seated", user=carol.mention, seat="Dave"))
        # a deferred click edits the offer afterwards: wait for that edit rather than read it once
        await world.double.wait_for(lambda: t("en", "seat.taken") in first.content, what="the taken offer's edit")


@pytest.mark.parametrize("language", LANGUAGES)
async def test_an_offer_ends_when_the_game_is_cancelled(world: World, language: str) -> None:
    """Bob's seat is offered to Carol, then the host cancels the game: the offer says the game is over, its
    button gone."""
    alice, bob, carol = world.players[:3]
    async with world.running():
        await start(world, language, [alice, bob])
        offer = await offer_to(world, alice, 1, carol)
        await confirm_cancel(world, alice, await alice.slash(world.games, "cancel"), label=WORDS[language]["yes"])
        await ended(world, offer, t(language, "seat.offer_ended", user=carol.mention, seat="Bob"))


@pytest.mark.parametrize("language", LANGUAGES)
async def test_the_host_hands_an_away_players_seat_to_the_computer(world: World, language: str) -> None:
    """The computer plays for a player who let their time run out; Alice's panel hands that seat to the computer
    for good: it is a computer player's from then on and the table no longer shows "I'm back"; the "I'm back" of
    the DM that player got, pressed now, turns that DM into the word that their seat was handed over (its button
    gone)."""
    alice, bob, dave = world.players[0], world.players[1], world.players[3]
    async with world.running():
        table = await start(world, language, [alice, bob, dave])
        seat, absent, table = await away(world, table, language)
        dm = next(m for m in reversed(absent.dms()) if m.buttons())
        name = table.shown_name(seat)
        panel = await open_panel(alice, table_message(world, table))
        await pick_seat(alice, panel, seat)
        await world.double.wait_for(lambda: any(c.get("type") == 5 for c in panel.walk_components()),
                                    what="the member picker")
        assert (await (await alice.click(panel, control(panel, f":host:replace_ai.{seat}"))).response()).type in (6, 7)
        await world.double.wait_for(lambda: t(language, "seat.handed_to_computer", seat=name) in panel.content,
                                    what="the panel's word")
        await settled(world)
        after = await world.tables.load(table.id)
        assert after.user_of(seat) is None and not after.seats[seat].away and after.status == "active"
        shown = table_message(world, after)
        assert not any(c.get("label") == t(language, "seat.button.back") for c in shown.walk_components())
        assert (await (await absent.click(dm, control(dm, ":back:"))).response()).type in (6, 7)
        await world.double.wait_for(lambda: not dm.components, what="the DM's button gone")
        assert dm.content == t(language, "seat.handed_over_dm", channel=world.games.id)


@pytest.mark.parametrize("to", ["computer", "member"])
async def test_a_host_who_hands_away_their_own_seat_passes_the_host_on(world: World, to: str) -> None:
    """Alice hosts and hands her own seat to the computer (or to Carol, who takes it): Bob, the first player left,
    hosts from then on (his /host opens the panel) and Alice's /host is refused privately."""
    alice, bob, carol, dave = world.players[:4]
    async with world.running():
        table = await start(world, "en", [alice, bob, dave])
        if to == "computer":
            said = await answer(await alice.slash(world.games, "replace", seat=1))
            assert said.content == "\n".join([t("en", "seat.handed_to_computer", seat="Alice"),
                                               t("en", "seat.host_passed", user="Bob")])
        else:
            offer = await offer_to(world, alice, 0, carol)
            assert (await (await carol.click(offer, control(offer, ":take_seat:0"))).response()).type in (6, 7)
        await settled(world)
        after = await world.tables.load(table.id)
        assert after.seat_of(alice.id) is None and after.host_id == bob.id
        assert await refusal(await alice.slash(world.games, "host")) == "⛔ " + t("en", "host.only")
        panel = await answer(await bob.slash(world.games, "host"))
        assert panel.ephemeral and any(c.get("custom_id", "").endswith(":host:replace")
                                       for c in panel.walk_components())


async def test_the_hosts_refused_replacements_say_why_privately_and_change_nothing(world: World) -> None:
    """Each refused /replace is a private word naming what is wrong, posts no offer and changes nothing: a seat
    the table does not have, a member who plays already, a bot, a computer player's seat."""
    alice, bob, carol = world.players[:3]
    helper = world.double.add_user("helperbot", display_name="Helper", bot=True)
    world.guild.add_member(helper)
    async with world.running():
        table = await start(world, "en", [alice, bob], ai=1)
        posted = len(world.bot_messages())
        refusals = [
            (dict(seat=4, member=carol), t("en", "table.bad_seat", seat=4)),
            (dict(seat=2, member=alice), t("en", "seat.error.member_seated", user=alice.mention)),
            (dict(seat=2, member=helper), t("en", "seat.error.bot")),
            (dict(seat=3, member=carol), t("en", "seat.error.computer")),
            (dict(seat=3), t("en", "seat.error.computer")),
        ]
        for options, expected in refusals:
            assert await refusal(await alice.slash(world.games, "replace", **options)) == "⛔ " + expected, options
        await settled(world)
        assert len(world.bot_messages()) == posted
        assert (await world.tables.load(table.id)).version == table.version

"""Who is told what when a seat changes hands, end to end: while the database is slow ``/replace seat member`` is
deferred privately, so its refusal never shows in the channel (the offer then is a message of its own, the host
told privately); the host whose own seat a newcomer takes is told by DM who took it and who hosts from now on."""

from __future__ import annotations

import pytest

import bot.deadline
from tests.e2e.conftest import World, refusal, settled
from tests.e2e.test_seats import LANGUAGES, start, t


@pytest.fixture
def slow_database(monkeypatch: pytest.MonkeyPatch) -> dict[str, bool]:
    """Once its ``"slow"`` is set, the bot believes its database is slow (statements of 250 ms or more lately):
    every command is deferred before its first query (no real waiting)."""
    said = {"slow": False}
    monkeypatch.setattr(bot.deadline, "may_be_slow", lambda client: said["slow"])
    return said


@pytest.mark.parametrize("language", LANGUAGES)
async def test_replace_on_a_slow_database_refuses_privately_and_posts_the_offer(world: World, language: str,
                                                                               slow_database: dict[str, bool]) -> None:
    """Bob (not the host) is refused privately; the host's offer to Carol is deferred privately too: the host is
    told privately, and the offer with its button is a channel message of its own."""
    alice, bob, carol = world.players[:3]
    async with world.running():
        await start(world, language, [alice, bob])
        slow_database["slow"] = True
        handle = await bob.slash(world.games, "replace", seat=2, member=carol)
        assert (await handle.response()).deferred
        assert await refusal(handle) == "⛔ " + t(language, "seat.error.host_only")
        assert not any(t(language, "seat.error.host_only") in m.content for m in world.bot_messages())
        handle = await alice.slash(world.games, "replace", seat=2, member=carol)
        response = await handle.response()
        assert response.deferred and response.ephemeral
        (said, *_) = await handle.wait_followups(1)
        assert said.ephemeral and said.content == t(language, "host.replace.offered", user=carol.mention, seat="Bob")
        offer = await world.double.wait_for(
            lambda: next((m for m in world.bot_messages() if carol.mention in m.content), None), what="the offer")
        assert not offer.ephemeral
        assert offer.content == t(language, "seat.offer", user=carol.mention, seat="Bob")
        assert [c.get("label") for c in offer.walk_components() if c.get("type") == 2] == [
            t(language, "seat.button.take")]


@pytest.mark.parametrize("language", LANGUAGES)
async def test_the_host_is_told_by_dm_when_a_newcomer_takes_their_seat(world: World, language: str) -> None:
    """Alice offers her own seat to Carol, who takes it: Alice gets a DM saying Carol took her seat and that Bob
    hosts the game from now on; Bob, whose seat did not change, gets no such DM."""
    alice, bob, carol = world.players[:3]
    async with world.running():
        table = await start(world, language, [alice, bob])
        offer = await (await alice.slash(world.games, "replace", seat=1, member=carol)).response()
        message = next(m for m in reversed(world.bot_messages()) if carol.mention in m.content)
        assert not offer.ephemeral
        dms, bob_dms = len(alice.dms()), len(bob.dms())
        take = next(c["custom_id"] for c in message.walk_components() if c.get("label") == t(language,
                                                                                              "seat.button.take"))
        await (await carol.click(message, take)).response()
        told = await world.double.wait_for(lambda: alice.dms()[dms:], what="the old host's DM")
        await settled(world)
        after = await world.tables.load(table.id)
        assert after.host_id == bob.id and after.user_of(0) == carol.id
        assert [m.content for m in told] == [
            t(language, "seat.host_seat_taken_dm", user="Carol", channel=world.games.id, host="Bob")]
        assert not any("<#" in m.content and "Carol" in m.content for m in bob.dms()[bob_dms:])

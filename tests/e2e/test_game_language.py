"""A game keeps the language it was opened in (README: a new server language applies to the next games): after a
manager switches the server to Spanish, an English lobby's ``/join`` and ``/start`` are answered in English, and so
are an English social game's ``/accuse`` and a post saved from its text modal; so are its refusals (the lobby's
buttons, ``/host``, and the app commands' error handler, e.g. ``/hand``)."""

from __future__ import annotations

import pytest

from bot.i18n import catalog
from tests.e2e.conftest import World, refusal, settled
from tests.e2e.social import six_players, statuses
from tests.e2e.social import start_game as start_social
from tests.e2e.test_foundation import open_lobby, status_messages

pytestmark = pytest.mark.usefixtures("potato")

EN = catalog("en")


async def to_spanish(world: World) -> None:
    await (await world.admin.slash(world.games, "config language", language="es")).response()


async def test_the_commands_of_an_english_lobby_answer_in_english_after_the_server_turned_spanish(
        world: World) -> None:
    alice, bob = world.players[:2]
    async with world.running():
        await open_lobby(world)  # in English
        await to_spanish(world)
        joined = await bob.slash(world.games, "join")
        response = await joined.response()
        texts = [m.content for m in await joined.wait_followups(1)] if response.deferred else [response.content]
        assert texts == [EN.render("lobby.done.join")]
        started = await alice.slash(world.games, "start")
        await started.response()
        (answer, *_) = await started.wait_followups(1)
        await settled(world)
        assert answer.content == EN.render("lobby.started")


async def test_an_english_social_games_accusation_and_post_are_confirmed_in_english_after_the_server_turned_spanish(
        world: World) -> None:
    async with world.running():
        players = await six_players(world)
        table = await start_social(world, players)  # in English
        await to_spanish(world)
        opened = await players[0].slash(world.games, "accuse", player=players[1])
        (done, *_) = await opened.wait_followups(1)
        assert done.content == EN.render("asesino_social.ui.done.open_judgement")
        victim = next(i for i, s in enumerate(table.state.seats) if s.card.value == "victim")
        poster = next(u for u in players if u.id == table.user_of(victim))
        post = await poster.click(statuses(world)[-1], label="Anonymous post")
        assert (await post.response()).modal is not None
        saved = await poster.submit_modal(post, {"text": "Someone here lies."})
        (answer, *_) = await saved.wait_followups(1)
        assert answer.content == EN.render("asesino_social.ui.saved.anonymous_post")


async def test_an_english_lobbys_refusals_stay_english_after_the_server_turned_spanish(world: World) -> None:
    bob, carol = world.players[1:3]
    async with world.running():
        lobby = await open_lobby(world)  # in English
        await (await bob.click(lobby, label="Join")).response()
        await to_spanish(world)
        refused = await refusal(await carol.click(lobby, label="Start"))  # carol is not the host
    assert EN.render("table.host_only") in refused, refused


async def test_an_english_games_host_and_hand_refusals_stay_english_after_the_server_turned_spanish(
        world: World) -> None:
    alice, bob, carol = world.players[:3]
    async with world.running():
        lobby = await open_lobby(world)
        await (await bob.click(lobby, label="Join")).response()
        await (await alice.click(lobby, label="Start")).response()
        await world.double.wait_for(lambda: status_messages(world), what="the table")
        await settled(world)
        await to_spanish(world)
        host = await refusal(await bob.slash(world.games, "host"))  # bob plays but does not host
        hand = await refusal(await carol.slash(world.games, "hand"))  # carol does not play
        elsewhere = await refusal(await carol.slash(world.medium, "hand"))  # no game there: the server's language
    assert (EN.render("host.only") in host, EN.render("secrets.not_a_player") in hand) == (True, True), (host, hand)
    assert elsewhere == "⛔ " + catalog("es").render("status.no_game_here")

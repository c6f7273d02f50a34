"""``/config lobbyrole``: the role is pinged once, when a lobby opens, and nobody else: not the host, not a member
of another role, not @everyone; edits of the lobby never ping again; @everyone is refused as the lobby role, and so is a
role the bot could not
ping (not mentionable, and the bot has no Mention Everyone)."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import World, refusal
from tests.support.newgame import newgame

PING = {"en": "A lobby of Asesino en Serie is open: come and join!",
        "es": "Hay una sala abierta de Asesino en Serie: ¡venid a jugar!"}


@pytest.mark.parametrize("language", ["en", "es"])
async def test_the_lobby_role_is_pinged_once_and_alone(world: World, language: str) -> None:
    """Bob and Carol hold the lobby role, Dave another role named in the same server: the lobby's message pings
    Bob and Carol only (its allowed mentions name that role alone), in the server's language; a join edits the
    lobby and pings nobody."""
    alice, bob, carol, dave = world.players[:4]
    players = world.guild.add_role("Players", mentionable=True)
    other = world.guild.add_role("Other", mentionable=True)
    for user, role in ((bob, players), (carol, players), (dave, other)):
        world.guild.member(user).role_ids.append(role.id)
    async with world.running():
        await (await world.admin.slash(world.games, "config language", language=language)).response()
        await (await world.admin.slash(world.games, "config lobbyrole", role=players)).response()
        handle = await newgame(alice, world.games, "asesino", "tabletop")
        await handle.response()
        lobby = await handle.wait_original()
        assert lobby.content == f"<@&{players.id}> {PING[language]}"
        assert lobby.pings == {bob.id, carol.id}
        join = "Join" if language == "en" else "Unirse"
        await (await dave.click(lobby, label=join)).response()
        assert f"<@{dave.id}>" in lobby.text and lobby.pings == {bob.id, carol.id}  # the edit pinged nobody new
    loud = [m for m in world.double.messages(world.games, include_ephemeral=True) if m.author.bot and m.pings]
    assert [m.id for m in loud] == [lobby.id]


async def test_without_a_lobby_role_a_lobby_pings_nobody_and_everyone_is_refused(world: World) -> None:
    """No lobby role: the lobby has no ping line and pings nobody; ``role:@everyone`` is refused, saving nothing;
    the role set then cleared pings nobody again."""
    alice, bob = world.players[:2]
    players = world.guild.add_role("Players", mentionable=True)
    world.guild.member(bob).role_ids.append(players.id)
    async with world.running():
        refused = await refusal(await world.admin.slash(world.games, "config lobbyrole", role=world.guild.everyone))
        await (await world.admin.slash(world.games, "config lobbyrole", role=players)).response()
        await (await world.admin.slash(world.games, "config lobbyrole")).response()
        handle = await newgame(alice, world.games, "asesino", "tabletop")
        await handle.response()
        lobby = await handle.wait_original()
    assert refused.startswith("⛔ @everyone cannot be the lobby role")
    assert not lobby.content and lobby.pings == frozenset()


@pytest.mark.parametrize("language", ["en", "es"])
async def test_a_role_the_bot_cannot_ping_is_refused_and_nothing_is_saved(world: World, language: str) -> None:
    """A role not marked mentionable would silently notify nobody (the bot's invite has no Mention Everyone):
    ``/config lobbyrole`` refuses it naming the role and saves nothing, so the lobby pings nobody."""
    alice, bob = world.players[:2]
    closed = world.guild.add_role("Closed")
    world.guild.member(bob).role_ids.append(closed.id)
    async with world.running():
        await (await world.admin.slash(world.games, "config language", language=language)).response()
        refused = await refusal(await world.admin.slash(world.games, "config lobbyrole", role=closed))
        handle = await newgame(alice, world.games, "asesino", "tabletop")
        await handle.response()
        lobby = await handle.wait_original()
    start = {"en": f"⛔ <@&{closed.id}> cannot be pinged by the bot",
             "es": f"⛔ El bot no puede avisar a <@&{closed.id}>"}
    assert refused.startswith(start[language]) and refused.endswith(
        {"en": "Nothing was saved.", "es": "No se ha guardado nada."}[language])
    assert not lobby.content and lobby.pings == frozenset()

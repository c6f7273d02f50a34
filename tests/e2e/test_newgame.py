"""/newgame <game> through the real client: typed options open the lobby, which shows them by their names in the
server's language; an option the mode lacks, or a value past the game's limit sent by a client that ignores
Discord's range, is refused in that language and opens nothing."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import World, refusal, stored
from tests.support.newgame import newgame


async def test_typed_options_open_the_lobby_and_bad_ones_are_refused_in_the_servers_language(world: World) -> None:
    """In a Spanish server: ``rounds`` on the small table is refused naming the option as ``rondas``;
    ``first_player:5`` on the small table (the command allows 0-9, the widest of Asesino's modes; the small table
    seats four) is refused naming ``primer_jugador`` and the mode's real limit; ``rounds:99``, outside the
    command's own 1-10, never reaches the bot (Discord's client does not send it); no lobby and no series are
    left behind; Cereal Killer with ``side:B`` and no ``mode`` (its only mode) opens, listing ``cara: B``."""
    alice = world.players[0]
    async with world.running():
        await (await world.admin.slash(world.games, "config language", language="es")).response()
        other_mode = await refusal(await newgame(alice, world.games, "asesino", "small", rounds=3))
        too_many = await refusal(await newgame(alice, world.games, "asesino", "small", first_player=5))
        with pytest.raises(ValueError, match="above its max_value 10"):
            await newgame(alice, world.games, "asesino", "tabletop", rounds=99)
        assert await world.tables.table_in_channel(world.games.id) is None
        handle = await newgame(alice, world.games, "cereal_killer", None, side="B")
        await handle.response()
        lobby = await handle.wait_original()
    assert other_mode == "⛔ Mesa pequeña no tiene la opción rondas. Sus opciones son: primer_jugador."
    assert too_many == "⛔ La opción primer_jugador es como mucho 3, no 5."
    fields = {f["name"]: f["value"] for f in lobby.embeds[0]["fields"]}
    assert fields["Opciones"] == "cara: B"
    table = await world.tables.table_in_channel(world.games.id)
    assert table is not None and (table.game, table.mode, table.options["side"]) == ("cereal_killer", "classic", "B")
    assert table.series_id is None


async def test_a_first_player_not_seated_refuses_the_start_and_keeps_the_lobby(world: World) -> None:
    """Let's Kill! ``primer_jugador:4`` with three players seated: Start is refused in Spanish, saying what to do,
    and the lobby stays open with its buttons (it used to start with a drawn first player instead)."""
    alice, bob, carol = world.players[:3]
    async with world.running():
        await (await world.admin.slash(world.games, "config language", language="es")).response()
        handle = await newgame(alice, world.games, "lets_kill", "classic", first_player=4)
        await handle.response()
        lobby = handle.original
        assert lobby is not None
        for user in (bob, carol):
            await (await user.click(lobby, label="Unirse")).response()
        refused = await refusal(await alice.slash(world.games, "start"))
        table = await world.tables.table_in_channel(world.games.id)
    assert refused == ("⛔ El asiento 4 no está en esta mesa: primer_jugador cuenta los asientos desde 0 en orden de "
                       "llegada. El anfitrión puede cambiarla con el botón Opciones de la sala y volver a pulsar "
                       "Empezar.")
    assert table is not None and table.status == "lobby" and table.state is None
    assert [b["label"] for b in lobby.components[0]["components"]] == ["Unirse", "Salir", "Empezar", "Cancelar"]
    assert [b["label"] for b in lobby.components[1]["components"]] == ["Añadir IA", "Quitar IA", "Opciones"]


async def test_an_expired_series_lobby_drops_its_round_heading(world: World) -> None:
    """A ``rounds:2`` lobby opens under "Round 1 of 2"; once it expires only "This lobby expired." is left (the
    heading above it used to stay), and its buttons go."""
    alice = world.players[0]
    async with world.running():
        handle = await newgame(alice, world.games, "asesino", "tabletop", rounds=2)
        await handle.response()
        lobby = await handle.wait_original()
        assert lobby.content == "A series of 2 rounds begins. Round 1 of 2."

        async def lobby_message_stored() -> bool:
            table = await world.tables.table_in_channel(world.games.id)
            return table is not None and table.lobby_message_id == lobby.id

        await stored(world, lobby_message_stored, "the lobby's message id")
        world.clock.advance(minutes=31)
        await world.double.wait_for(lambda: not lobby.components, what="the lobby to expire")
    assert lobby.embeds[0]["description"] == "This lobby expired."
    assert lobby.content == ""


async def test_a_lobby_its_host_left_empty_names_no_host_until_someone_joins(world: World) -> None:
    """Issue 21: the host leaves the lobby nobody else joined: its Host field no longer names them but says the
    next to join hosts; bob joins and is named."""
    alice, bob = world.players[:2]
    async with world.running():
        handle = await newgame(alice, world.games, "verdugo", "classic")
        await handle.response()
        lobby = await handle.wait_original()
        assert lobby is not None
        await (await alice.click(lobby, label="Leave")).response()
        host = {f["name"]: f["value"] for f in lobby.embeds[0]["fields"]}["Host"]
        assert host == "Nobody: whoever joins next hosts the game." and alice.mention not in host
        await (await bob.click(lobby, label="Join")).response()
        assert {f["name"]: f["value"] for f in lobby.embeds[0]["fields"]}["Host"] == bob.mention


async def test_an_option_the_table_does_not_fit_is_flagged_in_the_lobby_and_the_host_changes_it_there(
        world: World) -> None:
    """Issue 21: ``/newgame verdugo first_executioner:7`` with 4 players seated: the lobby says Start would be
    refused and why, Start refuses naming the option and the Options button; only the host may open the lobby's
    Options form; the host sets ``first_executioner`` to 2 there (no cancelling), the warning goes and Start
    deals the game with seat 2 as the Executioner."""
    alice, bob, carol, dave = world.players[:4]
    async with world.running():
        handle = await newgame(alice, world.games, "verdugo", "classic", first_executioner=7)
        await handle.response()
        lobby = await handle.wait_original()
        assert lobby is not None
        for user in (bob, carol, dave):
            await (await user.click(lobby, label="Join")).response()
        fields = {f["name"]: f["value"] for f in lobby.embeds[0]["fields"]}
        assert "first_executioner=7" in fields["⚠ Start would be refused now"]
        refused = await refusal(await alice.click(lobby, label="Start"))
        assert "first_executioner=7" in refused and "Options button" in refused
        assert "Only the host" in await refusal(await bob.click(lobby, label="Options"))
        form = await alice.click(lobby, label="Options")
        modal = (await form.response()).modal
        assert modal is not None
        saved = await (await alice.submit_modal(form, {"first_executioner": "2"})).response()
        assert saved.ephemeral and "Options saved" in saved.content
        await world.double.wait_for(lambda: "⚠" not in lobby.text, what="the warning gone")
        assert {f["name"]: f["value"] for f in lobby.embeds[0]["fields"]}["Options"] == "first_executioner: 2"
        await (await alice.click(lobby, label="Start")).response()

        async def started() -> bool:
            table = await world.tables.table_in_channel(world.games.id)
            return table is not None and table.status == "active"

        await stored(world, started, "the game dealt")
        table = await world.tables.table_in_channel(world.games.id)
        assert table is not None and table.state.round.executioner == 2

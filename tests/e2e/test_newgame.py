"""/newgame <game> through the real client: typed options open the lobby, which shows them by their names in the
server's language; an option the mode lacks, or a value past the game's limit sent by a client that ignores
Discord's range, is refused in that language and opens nothing."""

from __future__ import annotations

from tests.e2e.conftest import World, refusal
from tests.support.newgame import newgame


async def test_typed_options_open_the_lobby_and_bad_ones_are_refused_in_the_servers_language(world: World) -> None:
    """In a Spanish server: ``rounds`` on the small table and ``rounds:99`` on the tabletop are refused naming
    the option as ``rondas`` and the real limit, with no lobby and no series left behind; Cereal Killer with
    ``side:B`` and no ``mode`` (its only mode) opens, listing ``cara: B``."""
    alice = world.players[0]
    async with world.running():
        await (await world.admin.slash(world.games, "config language", language="es")).response()
        other_mode = await refusal(await newgame(alice, world.games, "asesino", "small", rounds=3))
        too_many = await refusal(await newgame(alice, world.games, "asesino", "tabletop", rounds=99))
        assert await world.tables.table_in_channel(world.games.id) is None
        handle = await newgame(alice, world.games, "cereal_killer", None, side="B")
        await handle.response()
        lobby = await handle.wait_original()
    assert other_mode == "⛔ Mesa pequeña no tiene la opción rondas. Sus opciones son: primer_jugador."
    assert too_many == "⛔ La opción rondas es como mucho 10, no 99."
    fields = {f["name"]: f["value"] for f in lobby.embeds[0]["fields"]}
    assert fields["Opciones"] == "cara: B"
    table = await world.tables.table_in_channel(world.games.id)
    assert table is not None and (table.game, table.mode, table.options["side"]) == ("cereal_killer", "classic", "B")
    assert table.series_id is None

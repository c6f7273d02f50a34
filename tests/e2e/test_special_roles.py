"""``/newgame asesino mode:social special_roles:``: the host's choice of specials opens the lobby showing it as the
role table's ids, and a name outside the table is refused in the server's language, opening nothing."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import World, refusal
from tests.support.newgame import newgame

REFUSED = {
    "en": "⛔ “nurse” is not a special role of the social mode: special_roles takes some of detective, maniac, doctor, "
          "journalist, prosecutor. Nothing was opened.",
    "es": "⛔ «nurse» no es un rol especial del modo social: roles_especiales admite algunos de detective, maniac, "
          "doctor, journalist, prosecutor (o maniaco, medico, periodista, fiscal). No se ha abierto nada.",
}
OPTIONS = {"en": "Options", "es": "Opciones"}


@pytest.mark.parametrize("language", ["en", "es"])
async def test_the_hosts_specials_open_the_lobby_and_an_unknown_one_is_refused(world: World, language: str) -> None:
    """``nurse`` is refused naming the option as Discord shows it; ``Fiscal, médico`` opens the lobby with
    ``doctor, prosecutor`` among its options, stored so the deal draws from those two only."""
    alice = world.players[0]
    async with world.running():
        await (await world.admin.slash(world.games, "config language", language=language)).response()
        refused = await refusal(await newgame(alice, world.games, "asesino", "social", special_roles="doctor, nurse"))
        assert await world.tables.table_in_channel(world.games.id) is None
        handle = await newgame(alice, world.games, "asesino", "social", special_roles="Fiscal, médico")
        await handle.response()
        lobby = await handle.wait_original()
        table = await world.tables.table_in_channel(world.games.id)
    assert refused == REFUSED[language]
    fields = {f["name"]: f["value"] for f in lobby.embeds[0]["fields"]}
    name = "special_roles" if language == "en" else "roles_especiales"
    assert f"{name}: doctor, prosecutor" in fields[OPTIONS[language]]
    assert table is not None and table.options["special_roles"] == "doctor, prosecutor"

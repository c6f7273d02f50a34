"""``/newgame asesino mode:social special_roles:``: the host's choice of specials opens the lobby showing it as the
role table's ids, and a name outside the table is refused in the server's language, opening nothing."""

from __future__ import annotations

import pytest

from bot import deadline
from tests.e2e.conftest import World, refusal
from tests.support.newgame import newgame

REFUSED = {
    "en": "⛔ “nurse” is not a special role of the social mode: special_roles takes some of detective, maniac, doctor, "
          "journalist, prosecutor, or “all”. Nothing was opened.",
    "es": "⛔ «nurse» no es un rol especial del modo social: roles_especiales admite algunos de detective, maniac, "
          "doctor, journalist, prosecutor (o maniaco, medico, periodista, fiscal), o «todos». No se ha abierto nada.",
}
OPTIONS = {"en": "Options", "es": "Opciones"}


@pytest.mark.parametrize("language", ["en", "es"])
async def test_the_hosts_specials_open_the_lobby_and_an_unknown_one_is_refused(world: World, language: str) -> None:
    """``nurse`` is refused naming the option as Discord shows it; ``Fiscal, médico`` opens the lobby with
    ``doctor, prosecutor`` among its options, stored so the deal draws from those two only."""
    alice = world.players[0]
    async with world.running():
        await (await world.admin.slash(world.games, "config medium", channel=world.medium)).wait_original()
        await (await world.admin.slash(world.games, "config language", language=language)).wait_original()
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


SUGGESTED = {
    "en": {"": [("All special roles", "all"), ("Detective", "detective"), ("Maniac", "maniac"), ("Doctor", "doctor"),
                ("Journalist", "journalist"), ("Prosecutor", "prosecutor")],
           "doctor, pro": [("Doctor, Prosecutor", "doctor, prosecutor")],
           "doctor, ": [("Doctor", "doctor"), ("Detective, Doctor", "detective, doctor"),
                        ("Maniac, Doctor", "maniac, doctor"), ("Doctor, Journalist", "doctor, journalist"),
                        ("Doctor, Prosecutor", "doctor, prosecutor")]},
    "es": {"fis": [("Fiscal", "prosecutor")],
           "to": [("Todos los roles especiales", "all")],
           "médico, ma": [("Maníaco, Doctor", "maniac, doctor")]},
}


@pytest.mark.parametrize("language", ["en", "es"])
async def test_special_roles_is_autocompleted_from_the_role_table_in_the_servers_language(
        world: World, language: str) -> None:
    """Typing into ``special_roles`` offers the role table's specials by their names in the server's language,
    growing the list being typed (its value the role ids the option takes), "all" first while nothing is
    chosen (a word the option takes, an alias too, counts: ``p`` would offer the Journalist, ``periodista``);
    after a word that names no special nothing is offered."""
    alice = world.players[0]
    async with world.running():
        await (await world.admin.slash(world.games, "config language", language=language)).wait_original()
        offered = {}
        for typed in [*SUGGESTED[language], "nurse, d"]:
            handle = await alice.autocomplete(world.games, "newgame asesino", "special_roles", mode="social",
                                              special_roles=typed)
            offered[typed] = [(c["name"], c["value"]) for c in (await handle.response()).choices]
        with pytest.raises(ValueError, match="201 characters, not 0-200"):  # registered with the field's limit
            await newgame(alice, world.games, "asesino", "social", special_roles="doctor " * 28 + "docto")
    assert offered == {**SUGGESTED[language], "nurse, d": []}


async def test_all_clears_the_hosts_choice_of_specials_in_the_options_form(world: World) -> None:
    """The lobby opened with ``doctor, prosecutor``; the host writes ``all`` in the Options form: every special
    is in play again (the option is cleared) and the lobby no longer lists it."""
    alice = world.players[0]
    async with world.running():
        await (await world.admin.slash(world.games, "config medium", channel=world.medium)).wait_original()
        handle = await newgame(alice, world.games, "asesino", "social", special_roles="doctor, prosecutor")
        await handle.response()
        lobby = await handle.wait_original()
        form = await alice.click(lobby, label="Options")
        assert (await form.response()).modal is not None
        saved = await (await alice.submit_modal(form, {"special_roles": "ALL"})).wait_original()
        assert "Options saved" in saved.content
        await world.double.wait_for(lambda: "special_roles" not in lobby.text, what="the choice cleared")
        table = await world.tables.table_in_channel(world.games.id)
        assert table is not None and table.options.get("special_roles") is None


async def test_a_newgame_refused_while_the_database_is_slow_stays_private(world: World,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """While the database is slow /newgame is deferred publicly ("thinking") before its checks; refused (an
    unknown special), the public placeholder is deleted and the refusal is a private message of its own, so the
    channel is told nothing of the host's mistake."""
    alice = world.players[0]
    async with world.running():
        await (await world.admin.slash(world.games, "config medium", channel=world.medium)).wait_original()
        monkeypatch.setattr(deadline, "may_be_slow", lambda client: True)
        handle = await newgame(alice, world.games, "asesino", "social", special_roles="doctor, nurse")
        response = await handle.response()
        refused = await refusal(handle)
    assert response.deferred and not response.ephemeral
    assert refused == REFUSED["en"]
    assert [m.content for m in world.bot_messages()] == []  # the placeholder deleted, nothing public left

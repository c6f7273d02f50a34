"""Achievements through Discord: a game played to its end shows what its players earned under the result, named in
the server's language, and ``/stats`` lists them for the member; a computer seat earns nothing."""

from __future__ import annotations

import random

import pytest

from bot.achievements import achievement_hint, achievement_name
from bot.tables import TableService
from tests.e2e.conftest import World, stored, until_delivered
from tests.support.newgame import newgame

WORDS = {"en": {"join": "Join", "start": "Start", "over": "Game over", "field": "Achievements", "add_ai": "Add AI"},
         "es": {"join": "Unirse", "start": "Empezar", "over": "Fin de la partida", "field": "Logros",
                "add_ai": "Añadir IA"}}

#: a deal where the random moves below (``random.Random(7)``) end with a person earning an achievement
SEED = 76388117272550021


@pytest.mark.parametrize("language", ["en", "es"])
async def test_the_result_and_stats_show_the_achievements_earned(world: World, language: str,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Alice, Bob and a computer player at the 2-4 player table, played with random legal moves through the bot's
    one door: the result names every achievement its people earned (as stored, by seat) with its hint; the
    computer seat has none; /stats shows Alice's. The deal's seed is fixed (a game whose only winner is the
    computer seat earns nothing, which a random deal sometimes gave): with these moves Alice wins as the Killer."""
    monkeypatch.setattr(TableService, "new_seed", staticmethod(lambda: SEED))
    alice, bob = world.players[:2]
    words = WORDS[language]
    bot = world.bot()
    async with world.running(bot):
        await (await world.admin.slash(world.games, "config language", language=language)).response()
        handle = await newgame(alice, world.games, "asesino", "small")
        await handle.response()
        lobby = await handle.wait_original()
        await (await bob.click(lobby, label=words["join"])).response()
        await (await alice.click(lobby, label=words["add_ai"])).response()
        await (await alice.click(lobby, label=words["start"])).response()

        async def started() -> bool:
            found = await world.tables.table_in_channel(world.games.id)
            return found is not None and found.status == "active"

        await stored(world, started, "the started game")
        await until_delivered(world)
        table = await world.tables.table_in_channel(world.games.id)
        assert table is not None
        rng = random.Random(7)
        while table.status == "active":
            legal = [(s.seat, s.user_id, a) for s in table.seats
                     for a in table.engine.legal_actions(table.state, s.seat)]
            seat, user, action = rng.choice(legal)
            result = await bot.tables.act(table.id, user, action.model_dump(mode="json"),
                                          seat=None if user is not None else seat)
            table = result.table
        await until_delivered(world)

        def result_message():  # noqa: ANN202
            return next((m for m in world.bot_messages() if any(e.get("title") == words["over"] for e in m.embeds)),
                        None)

        shown = await world.double.wait_for(result_message, what="the result")
        earned = table.outcome.achievements
        assert earned and all(table.user_of(seat) is not None for seat in earned)  # people only
        field = next(f["value"] for e in shown.embeds for f in e.get("fields", []) if f["name"] == words["field"])
        names = {alice.id: "Alice", bob.id: "Bob"}
        assert field.splitlines() == [
            f"🏅 {names[table.user_of(seat)]}: **{achievement_name('asesino', a, language)}** "
            f"({achievement_hint('asesino', a, language)})" for seat, ids in sorted(earned.items()) for a in ids]
        stats = await alice.slash(world.games, "stats")
        assert (await stats.response()).deferred
        mine = (await stats.wait_followups(1))[0]
    seat = table.seat_of(alice.id)
    expected = [f"🏅 {achievement_name('asesino', a, language)} (Asesino en Serie)" for a in earned.get(seat, [])]
    fields = {f["name"]: f["value"] for f in mine.embeds[0]["fields"]}
    assert (fields.get(words["field"], "").splitlines() if expected else []) == expected

"""A move made on the social mode's private panel (My actions) edits the table through the table click that opened
the panel (:mod:`bot.panels`: that click's own webhook, none of the bot's REST calls); once that click's token is
too old, the table is edited with a PATCH of its message as before (issue 20)."""

from __future__ import annotations

import importlib
from datetime import timedelta

import pytest

import bot.panels
from tests.e2e.conftest import World
from tests.e2e.social import cast, count_in_statuses, dm_text, panel_of, pick, seat, six_players, start_game, statuses

pytestmark = pytest.mark.usefixtures("social_seed")


def table_edits(world: World, since: int) -> tuple[int, int]:
    """Since request ``since``: the PATCHes of the game channel's messages, and the edits of an interaction's
    original response (its webhook)."""
    requests = [r for r in world.double.requests[since:] if r.method == "PATCH"]
    return (sum(f"/channels/{world.games.id}/messages/" in r.path for r in requests),
            sum(r.path.startswith("/webhooks/") and r.path.endswith("/messages/@original") for r in requests))


async def murder(world: World) -> tuple[int, int]:
    """The Killer recruits, then murders the bystander from My actions: how the table was edited for the murder
    (:func:`table_edits`), once it shows it and the victim read their DM."""
    players = await six_players(world)
    table = await start_game(world, players)
    who = cast(table, players)
    await pick(world, who["killer"], "recruit", seat(table, who["accomplice"]))
    await dm_text(world, who["accomplice"], "has made you the accomplice")
    since = len(world.double.requests)
    assert "Done." in await pick(world, who["killer"], "crime", seat(table, who["bystander"]))
    await world.double.wait_for(lambda: count_in_statuses(world, "has been murdered") == 1, what="the murder")
    await dm_text(world, who["bystander"], "You are dead")
    killer_name = table.seats[seat(table, who["killer"])].names[0]
    (line,) = [line for line in statuses(world)[-1].text.splitlines() if "has been murdered" in line]
    assert killer_name not in line and "took your life" not in statuses(world)[-1].text  # the public view only
    return table_edits(world, since)


async def test_a_murder_from_the_panel_edits_the_table_through_the_click_that_opened_it(world: World) -> None:
    async with world.running():
        assert await murder(world) == (0, 1)
    assert len(statuses(world)) == 1  # edited in place, not posted anew


async def test_past_the_clicks_token_the_table_is_patched(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bot.panels, "MARGIN", timedelta(minutes=15))  # every click's token counts as too old
    async with world.running():
        assert await murder(world) == (1, 0)


async def test_a_move_on_the_panels_next_page_edits_the_table_through_the_first_click(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """With one select to a page, the Killer opens the accusation from "More actions (2/2)" (a click on the panel,
    answered with the next page): that page keeps the table click its panel came from."""
    players = await six_players(world)
    async with world.running():
        # the bot (re)loads its extension modules: patch the copy it runs
        monkeypatch.setattr(importlib.import_module("bot.cogs.asesino_social.ui"), "MAX_SELECTS", 1)
        table = await start_game(world, players)
        who = cast(table, players)
        first = await panel_of(await who["killer"].click(statuses(world)[-1], label="My actions"))
        more = await who["killer"].click(first, label="More actions (2/2)")
        assert (await more.response()).ephemeral and more.original is not None
        (accuse,) = more.original.selects()
        since = len(world.double.requests)
        done = await who["killer"].select(more.original, accuse["custom_id"], [str(seat(table, who["doctor"]))])
        assert "Judgement opened" in (await done.wait_followups(1))[0].content
        await world.double.wait_for(lambda: any(":social_back:1" in b["custom_id"]
                                                for b in statuses(world)[-1].buttons()), what="its Back button")
        assert table_edits(world, since) == (0, 1)

"""The card reference through Discord: /card's autocomplete and answer, /rules' cards page, and a refusal."""

from __future__ import annotations

from tests.e2e.conftest import World, refusal


async def test_card_autocompletes_in_both_languages_and_answers_with_the_card(world: World) -> None:
    """Typing a Spanish name on an English server suggests the card; picking it shows what it does."""
    alice = world.players[0]
    async with world.running():
        handle = await alice.autocomplete(world.games, "card", "name", name="indulto")
        assert (await handle.response()).choices == [{"name": "Pardon · Verdugo", "value": "verdugo:object:pardon"}]
        card = await (await alice.slash(world.games, "card", name="verdugo:object:pardon")).response()
        assert card.ephemeral and card.embeds[0]["title"] == "Pardon"
        assert card.embeds[0]["description"].startswith("Not safe. Its holder dies when chopped")
        assert card.embeds[0]["fields"] == [{"name": "Rulings", "inline": False,
                                             "value": "R10 (in the card edition and games/verdugo/README.md)"}]
        typed = await (await alice.slash(world.games, "card", name="grenade")).response()
        assert typed.embeds[0]["title"] == "Grenade Launcher"
        unknown = await alice.slash(world.games, "card", name="zzz")
        assert "No card, role or question is called zzz" in await refusal(unknown)
        blank = await alice.slash(world.games, "card", name=" ")
        assert await refusal(blank) == "⛔ Type a name and pick one of the suggestions."


async def test_rules_cards_page_lists_a_games_cards_by_kind(world: World) -> None:
    """/rules verdugo cards:true: its roles, objects and Scaffold cards with what each does."""
    alice = world.players[0]
    async with world.running():
        page = await (await alice.slash(world.games, "rules", game="verdugo", cards=True)).response()
        embed = page.embeds[0]
        assert page.ephemeral and embed["title"] == "Verdugo: the cards"
        assert [f["name"] for f in embed["fields"]] == ["Role", "Object", "Scaffold card"]
        assert embed["fields"][1]["value"].startswith("**Pardon**: Not safe.")

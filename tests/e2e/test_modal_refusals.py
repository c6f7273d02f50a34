"""A modal's text is gone once it is submitted: when the bot refuses the submit for a state reason (the game is
paused), the private refusal gives the player their text back in a code block, so nothing they wrote is lost."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import World, settled
from tests.e2e.social import cast, medium_posts, six_players, start_game

pytestmark = pytest.mark.usefixtures("social_seed")


async def test_a_post_refused_while_paused_gives_the_text_back(world: World) -> None:
    """The Doctor opens /post, the host pauses, the Doctor submits: refused privately, with the text (its code
    fence broken so the block holds) in a code block to copy; nothing is played or posted to the medium."""
    players = await six_players(world)
    async with world.running():
        table = await start_game(world, players)
        doctor = cast(table, players)["doctor"]
        opened = await doctor.slash(world.games, "post")
        modal = (await opened.response()).modal
        assert modal is not None
        await (await players[0].slash(world.games, "pause")).response()
        await settled(world)
        paused = await world.tables.load(table.id)
        text = "I saw **Bruno** at the well.\n```\nremember this"
        submitted = await doctor.submit_modal(opened, {modal.fields[0].custom_id: text})
        response = await submitted.response()
        refusal = (await submitted.wait_followups(1))[0] if response.deferred else response
        assert refusal.ephemeral
        assert refusal.content.startswith("⛔ ")
        assert refusal.content.endswith("\nHere is what you wrote, to copy and send again when you can:")
        assert [e["description"] for e in refusal.embeds] == [
            "```\nI saw **Bruno** at the well.\n``\u200b`\nremember this\n```"]
        await settled(world)
        assert (await world.tables.load(table.id)).version == paused.version
        assert medium_posts(world) == []

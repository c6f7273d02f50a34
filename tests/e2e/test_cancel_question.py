"""An old /cancel question answered after the game ended by play: the Yes is refused privately and the question
itself says so and loses its buttons (it kept asking, with live buttons, about a game that was over)."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import World, settled, until_delivered
from tests.e2e.test_history import play_to_the_end
from tests.e2e.test_host import start_game

pytestmark = pytest.mark.usefixtures("potato")


async def test_yes_on_a_cancel_question_the_game_outlived(world: World) -> None:
    """The host opens /cancel's question, the game then ends by play, then the host presses Yes: the question is
    edited to the refusal and that it no longer applies, without buttons; the game stays finished."""
    alice = world.players[0]
    async with world.running():
        await start_game(world, "en", passes=2)
        await until_delivered(world)
        game = await world.tables.table_in_channel(world.games.id)
        handle = await alice.slash(world.games, "cancel")
        response = await handle.response()
        question = response.message if not response.deferred else (await handle.wait_followups(1))[0]
        assert [b["label"] for b in question.buttons()] == ["Yes, cancel it", "Back"]
        await play_to_the_end(world, game.id)
        await settled(world)
        late = await (await alice.click(question, label="Yes, cancel it")).response()
        assert question.ephemeral and late.type == 7  # the question itself is answered, edited
        await settled(world)
        assert question.content == ("⛔ That game is not running.\n"
                                    "This question no longer applies: nothing was cancelled.")
        assert question.buttons() == []
        assert (await world.tables.load(game.id)).status == "finished"

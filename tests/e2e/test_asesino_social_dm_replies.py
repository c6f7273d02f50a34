"""Replies to DMs of the social mode that say what to do (issue 21): a ``letter:`` sent on a day the sender may
write none is answered with when letters are taken, not with "None of your games is waiting for a message"."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import World
from tests.e2e.social import dm_text, six_players, start_game

pytestmark = pytest.mark.usefixtures("social_seed")


async def test_a_letter_on_a_day_without_one_is_told_when_letters_are_taken(world: World) -> None:
    """A living player DMs ``letter: ...`` on day 1: the reply says a letter is written on the day one dies, is
    judged or is saved by the Doctor, and that nothing was saved."""
    players = await six_players(world)
    async with world.running():
        await start_game(world, players)
        writer = players[2]
        await writer.dm_bot("letter: the rain was loud")
        reply = await dm_text(world, writer, "Farewell Letter")
        assert "on the day you die, are judged or are saved by the Doctor" in reply.text
        assert "None of your games" not in reply.text

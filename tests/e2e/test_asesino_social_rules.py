"""End to end, the social mode's revised rulings (issue 12): a letter refused for a pet name, sent to the host,
approved privately and posted at the day's end (with player text shown mentions-neutralised in the medium); and a
game whose bot was down across two day boundaries, which ends both days in order before the next player action."""

from __future__ import annotations

import pytest

from tests.discord_double import User
from tests.e2e.conftest import World, refusal, shown_lines
from tests.e2e.social import cast, dm_text, medium_posts, pick, seat, start_game, statuses

pytestmark = pytest.mark.usefixtures("social_seed")
ZWSP = "\u200b"


async def with_francisco(world: World) -> list[User]:
    francisco = world.double.add_user("francisco", display_name="Francisco")
    world.guild.add_member(francisco)
    return [*world.players, francisco]


async def test_letter_refused_for_a_pet_name_is_approved_by_the_host_and_posted_at_the_day_end(world: World) -> None:
    """Ruling "Farewell Letters": a pet form (Paco for Francisco) is refused, naming the word; "The writer may send
    a refused letter to the host for review instead; the host approves (it is posted) or rejects it privately"."""
    players = await with_francisco(world)
    host = players[0]
    async with world.running():
        table = await start_game(world, players)
        who = cast(table, players)
        victim = next(u for u in (who["detective"], who["journalist"], who["doctor"]) if u is not host)
        await pick(world, who["killer"], "recruit", seat(table, who["accomplice"]))
        await pick(world, who["killer"], "crime", seat(table, victim))
        await dm_text(world, victim, "You are dead.")

        text = "Paco knows what happened."
        await victim.dm_bot(f"letter: {text}")
        refused = await dm_text(world, victim, "names a player")
        assert "Paco" in refused.text and "review" in refused.text
        await victim.dm_bot(f"review: {text}")
        await dm_text(world, victim, "went to the host")
        review = await dm_text(world, host, "to review")
        assert text in review.text and "Paco" in review.text
        assert [b["label"] for b in review.buttons()] == ["Approve: publish it", "Reject"]
        outsider = next(u for u in players if u not in (host, victim))
        assert "Only the game's host" in await refusal(await outsider.click(review, label="Reject"))
        await (await host.click(review, label="Approve: publish it")).response()
        await dm_text(world, victim, "The host approved your letter")
        assert not [m for m in medium_posts(world) if text in m.text]

        mention = f"<@{who['killer'].id}>"
        post = await who["bystander"].click(statuses(world)[-1], label="Anonymous post")
        assert (await post.response()).modal is not None
        await who["bystander"].submit_modal(post, {"text": f"I saw {mention} at noon. @everyone"})
        shown = await world.double.wait_for(lambda: next((m for m in medium_posts(world) if "at noon" in m.text), None))
        assert mention not in shown.text and f"<{ZWSP}@{who['killer'].id}>" in shown.text
        assert f"@{ZWSP}everyone" in shown.text

        world.clock.advance(hours=25)
        letter = await world.double.wait_for(lambda: next((m for m in medium_posts(world)
                                                           if text in m.text), None), what="the approved letter")
        assert "Farewell Letter" in letter.text


async def test_a_game_down_across_two_day_boundaries_ends_both_days_in_order_first(world: World) -> None:
    """Ruling "Time": "after downtime the bot ends every overdue day, in order, before it applies anything else";
    each day ends at its own boundary, and the first action after the restart counts for the current day."""
    players = await with_francisco(world)
    async with world.running():
        await (await world.admin.slash(world.games, "config days", max_days=5)).response()
        table = await start_game(world, players)
        assert table.state.options.max_days == 5  # the server's maximum length reaches the game
        who = cast(table, players)
        await pick(world, who["killer"], "recruit", seat(table, who["accomplice"]))
        first_end = (await world.tables.load(table.id)).state.day_ends_at

    world.clock.advance(hours=50)
    async with world.running():
        await pick(world, who["killer"], "crime", seat(table, who["bystander"]))
        state = (await world.tables.load(table.id)).state
        assert state.day == 3 and state.seats[seat(table, who["bystander"])].died_day == 3
        ends = [(e.day, e.at) for e in state.timeline if e.kind == "end_day"]
        assert [day for day, _ in ends] == [1, 2]
        assert ends[0][1] == first_end and ends[1][1] > first_end
        # the living table is edited through the day ends (the mode posts no new table for them): its versions'
        # "last moves" say what it showed, in order
        await world.double.wait_for(lambda: any("has been murdered" in line for line in shown_lines(statuses(world))),
                                    what="the murder after both day ends")
        log = "\n".join(shown_lines(statuses(world)))
        assert log.index("Day 1 is over") < log.index("Day 2 is over") < log.index("has been murdered"), log

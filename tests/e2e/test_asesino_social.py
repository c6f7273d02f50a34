"""End to end: Asesino en Serie's social mode through the Discord double, with real-time days on a fake clock.

Six players over three days: a recruitment, a crime the Doctor foils, an inspection, an anonymous post, a murder,
a Farewell Letter refused for naming a player and then published in the medium at the boundary, a bot restart
across the day-2 boundary (it fires exactly once), and a judgement with three backers that ends the game; and
the start refused without an official medium. One feature each: ``test_asesino_social_features.py``."""

from __future__ import annotations

import pytest

from bot.i18n import t
from tests.discord_double.permissions import MANAGE_ROLES, README_MINIMAL
from tests.e2e.conftest import World, refusal
from tests.e2e.social import (
    count_in_statuses,
    dm_text,
    medium_posts,
    open_and_fill,
    pick,
    six_players,
    start_game,
    statuses,
)
from tests.support.newgame import newgame

pytestmark = pytest.mark.usefixtures("social_seed")
ROLE_NAMES = ("Killer", "Accomplice", "Doctor", "Detective", "Journalist", "Maniac", "Prosecutor")


async def test_three_days_with_a_restart_and_a_judgement(world: World) -> None:
    """A six-player game: night actions by select, DMs, a post, a letter, a restart over a boundary, a win."""
    players = await six_players(world)
    world.double.set_bot_permissions(world.guild, README_MINIMAL | MANAGE_ROLES)  # the README\'s optional Manage Roles
    dead_role = world.guild.add_role("Dead")
    async with world.running():
        await (await world.admin.slash(world.games, "config deadrole", role=dead_role)).response()
        table = await start_game(world, players)
        state = table.state
        user_at = {seat: next(u for u in players if u.id == table.user_of(seat)) for seat in range(6)}
        role = {s.card.value: i for i, s in enumerate(state.seats) if s.card.value != "victim"}
        victims = [i for i, s in enumerate(state.seats) if s.card.value == "victim"]
        killer, doctor, detective, journalist = (role[r] for r in ("killer", "doctor", "detective", "journalist"))
        accomplice, bystander = victims
        assert "Your secret card: Killer" in user_at[killer].dms()[0].text
        assert "`letter: your text`" in user_at[killer].dms()[0].text
        first = statuses(world)[0]
        assert "Day 1 ends <t:" in first.text and ":R>" in first.text

        # day 1: recruitment, protection, a foiled crime, an inspection, an anonymous post
        await pick(world, user_at[killer], "recruit", accomplice)
        await dm_text(world, user_at[accomplice], "has made you the accomplice")
        await pick(world, user_at[doctor], "protect", bystander)
        await pick(world, user_at[killer], "crime", bystander)
        await dm_text(world, user_at[bystander], "arrived in time")
        await dm_text(world, user_at[killer], "failed: someone protected them")
        # the Detective's own answer is the select's reply (issue 20), not a DM
        assert "holds the card: Killer" in await pick(world, user_at[detective], "inspect", killer)
        post = await user_at[bystander].click(statuses(world)[-1], label="Anonymous post")
        assert (await post.response()).modal is not None
        await user_at[bystander].submit_modal(post, {"text": "Someone here lies."})
        character = t(state.seats[bystander].character)
        posted = await world.double.wait_for(lambda: next((m for m in medium_posts(world)
                                                           if "Someone here lies." in m.text), None))
        assert posted.embeds[0]["title"] == character
        assert not any(name in m.text for m in world.bot_messages() for name in ROLE_NAMES)

        world.clock.advance(hours=25)
        await world.double.wait_for(lambda: count_in_statuses(world, "Day 1 is over") == 1, what="day 1 to end")

        # day 2: the accomplice murders the journalist, whose letter is refused once, then saved
        await pick(world, user_at[accomplice], "crime", journalist)
        await world.double.wait_for(lambda: count_in_statuses(world, "has been murdered") == 1, what="the murder")
        dead = user_at[journalist]
        await world.double.wait_for(lambda: dead_role.id in world.guild.member(dead).role_ids, what="the dead role")
        assert not any(dead_role.id in world.guild.member(u).role_ids for u in players if u is not dead)
        refused = await dead.slash(world.games, "accuse", player=user_at[killer])
        assert "You are dead: today you may only write your Farewell Letter." in await refusal(refused)
        await dead.dm_bot(f"letter: {user_at[killer].global_name} did it")
        await dm_text(world, dead, "names a player")
        await dead.dm_bot("letter: " + "x" * 1801)  # was "That move could not be understood."
        await dm_text(world, dead,
                      "⛔ Your text is 1801 characters long; at most 1800 fit. Shorten it and send it again.")
        await dead.dm_bot("letter: Look at who hesitates.")
        await dm_text(world, dead, "Your Farewell Letter is saved")
        assert not [m for m in medium_posts(world) if "Farewell Letter" in m.text]
        version = (await world.tables.load(table.id)).version

    # the bot is down when day 2 ends: the missed boundary fires once at the next start
    world.clock.advance(hours=25)
    async with world.running():
        await world.double.wait_for(lambda: [m for m in medium_posts(world) if "Look at who hesitates." in m.text],
                                    what="the letter in the medium")
        assert (await world.tables.load(table.id)).state.day == 3
        await world.double.wait_for(lambda: count_in_statuses(world, "Day 2 is over") == 1)

        # day 3: a dead player may only send a clue from beyond; a judgement with three backers ends the game
        assert "You are dead: you may only send one short clue from beyond a day." in await refusal(
            await dead.click(statuses(world)[-1], label="My actions"))
        opened = await user_at[detective].slash(world.games, "accuse", player=user_at[killer])
        assert "Judgement opened" in (await opened.wait_followups(1))[0].content
        for backer in (doctor, bystander):
            latest = statuses(world)[-1]
            button = next(b for b in latest.buttons() if ":social_back:1" in b["custom_id"])
            await (await user_at[backer].click(latest, custom_id=button["custom_id"])).response()
        final = await world.double.wait_for(lambda: next((m for m in statuses(world) if len(m.embeds) > 1), None),
                                            what="the final status")
        assert "has been judged" in final.text
        assert final.embeds[-1]["title"] == "Game over"
        assert "Someone here lies" not in final.text and character in final.text
        assert "recruited" in final.embeds[0]["description"] and "saved by the Doctor" in final.embeds[0]["description"]
        end = await world.double.wait_for(lambda: [m for m in medium_posts(world) if "has been judged" in m.text])
        assert len(end) == 1
        await world.double.wait_for(lambda: dead_role.id not in world.guild.member(dead).role_ids,
                                    what="the dead role taken back at the end")

    stored = await world.tables.load(table.id)
    assert stored.status == "finished" and stored.version > version
    assert sorted(stored.outcome.winners) == sorted({doctor, detective, journalist, bystander})
    assert count_in_statuses(world, "Day 1 is over") == 1 and count_in_statuses(world, "Day 2 is over") == 1
    assert len([m for m in medium_posts(world) if "Look at who hesitates." in m.text]) == 1
    assert await world.tables.replay_check(table.id)


async def test_no_lobby_opens_without_an_official_medium(world: World) -> None:
    """Without /config medium, /newgame asesino social is refused privately with how to fix it and opens nothing
    (six people joining a lobby that could never start was the old way), nor books a lobby for later; once the
    medium is set, the same command opens the lobby."""
    players = await six_players(world)
    async with world.running():
        text = await refusal(await newgame(players[0], world.games, "asesino", "social"))
        assert "/config medium" in text
        booked = await refusal(await newgame(players[0], world.games, "asesino", "social", starts_in=30))
        assert "/config medium" in booked
        assert await world.tables.table_in_channel(world.games.id) is None
        assert not [m for m in world.bot_messages() if m.channel_id == world.games.id]
        await (await world.admin.slash(world.games, "config medium", channel=world.medium)).response()
        lobby = await open_and_fill(world, players)
        table = await world.tables.table_in_channel(world.games.id)
        assert table is not None and table.status == "lobby" and lobby.id == table.lobby_message_id

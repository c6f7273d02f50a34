"""End to end, one social-mode feature each: the interview relay and note, the dead role taken back at the end
and on cancel (a dead seat is never handed over: its player keeps the role until then), a failed day end retried,
private refusals that change nothing, and My actions paged."""

from __future__ import annotations

import importlib
from datetime import datetime
from typing import Any

import pytest

from bot.cogs.asesino_social import days
from bot.tables import TableService
from tests.discord_double.permissions import MANAGE_ROLES, README_MINIMAL
from tests.e2e.conftest import World, answer, confirm_cancel, refusal, settled, until_delivered
from tests.e2e.social import (
    cast,
    count_in_statuses,
    dm_text,
    medium_posts,
    panel_of,
    pick,
    seat,
    six_players,
    start_game,
    statuses,
    version,
)

pytestmark = pytest.mark.usefixtures("social_seed")


async def test_interview_messages_are_relayed_only_between_the_pair_and_the_note_is_published(world: World) -> None:
    """During an open interview the Journalist's and the interviewee's DMs reach only the other side; the note
    is published in the medium at the day's end under the interviewee's name."""
    players = await six_players(world)
    async with world.running():
        table = await start_game(world, players)
        who = cast(table, players)
        journalist, interviewee = who["journalist"], who["bystander"]
        others = [u for u in players if u not in (journalist, interviewee)]
        name = table.seat_names(seat(table, interviewee))[0]
        assert await pick(world, journalist, "interview", seat(table, interviewee)) == (
            "Interview open: write to the bot by DM to talk.")
        await dm_text(world, interviewee, "Interview open")

        await journalist.dm_bot("Where were you at noon?")
        await dm_text(world, interviewee, f"The Journalist {table.seat_names(seat(table, journalist))[0]} asks: "
                                          "Where were you at noon?")
        await dm_text(world, journalist, "Passed on.")
        await interviewee.dm_bot("In the library, alone.")
        await dm_text(world, journalist, f"{name} answers: In the library, alone.")
        await dm_text(world, interviewee, "Passed on.")
        relayed = ("Where were you at noon?", "In the library, alone.")
        everywhere = [*world.double.messages(world.games), *medium_posts(world), *(m for u in others for m in u.dms())]
        assert not [m for m in everywhere if any(text in m.text for text in relayed)]

        await journalist.dm_bot("note: Alone in the library at noon.")
        await dm_text(world, journalist, "Your note is saved")
        assert not [m for m in medium_posts(world) if "Alone in the library" in m.text]
        world.clock.advance(hours=25)
        note = await world.double.wait_for(lambda: next((m for m in medium_posts(world)
                                                         if "Alone in the library at noon." in m.text), None),
                                           what="the note in the medium")
        assert note.embeds[0]["title"] == f"Journalist's note on {name} (day 1)"
        assert not [m for u in others for m in u.dms() if "Alone in the library" in m.text]


async def test_the_dead_role_is_taken_back_at_the_end_even_when_discord_refuses_one(world: World) -> None:
    """Two murdered players get the dead role; when the game ends it is taken back from both, and a 403 on the
    first removal is logged and skipped: the other player still loses the role and the game ends normally."""
    players = await six_players(world)
    world.double.set_bot_permissions(world.guild, README_MINIMAL | MANAGE_ROLES)  # the README\'s optional Manage Roles
    dead_role = world.guild.add_role("Dead")
    async with world.running():
        await (await world.admin.slash(world.games, "config deadrole", role=dead_role)).response()
        table = await start_game(world, players)
        who = cast(table, players)
        await pick(world, who["killer"], "recruit", seat(table, who["accomplice"]))
        await pick(world, who["killer"], "crime", seat(table, who["bystander"]))
        world.clock.advance(hours=25)
        await world.double.wait_for(lambda: count_in_statuses(world, "Day 1 is over") == 1, what="day 1 to end")
        await pick(world, who["accomplice"], "crime", seat(table, who["journalist"]))
        dead = sorted((who["bystander"], who["journalist"]), key=lambda u: seat(table, u))
        has_role = lambda user: dead_role.id in world.guild.member(user).role_ids  # noqa: E731
        await world.double.wait_for(lambda: all(has_role(u) for u in dead), what="the dead role on both")
        refused = world.double.fail_once("DELETE", rf"/members/{dead[0].id}/roles/{dead_role.id}$", status=403)

        await (await who["detective"].slash(world.games, "accuse", player=who["killer"])).wait_followups(1)
        for backer in (who["doctor"], who["accomplice"]):
            latest = statuses(world)[-1]
            button = next(b for b in latest.buttons() if ":social_back:1" in b["custom_id"])
            await (await backer.click(latest, custom_id=button["custom_id"])).response()
        await world.double.wait_for(lambda: not has_role(dead[1]), what="the dead role taken back")
        assert refused.hits == 1 and has_role(dead[0])
        final = await world.double.wait_for(lambda: next((m for m in statuses(world) if len(m.embeds) > 1), None),
                                            what="the final status")
        assert final.embeds[-1]["title"] == "Game over"
    assert (await world.tables.load(table.id)).status == "finished"


async def test_a_failed_day_end_is_retried_from_a_persisted_timer(world: World,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """When ending the day fails once (here: the table service raises), nothing changes, a retry timer is armed
    a minute later, and that retry ends the day once and arms the next day's end (in the day end's own step: no
    timer scheduled on its own after it)."""
    players = await six_players(world)
    failures: list[dict[str, Any]] = []
    act = TableService.act

    async def fail_first_day_end(self: TableService, game_id: int, user_id: int | None, action: dict[str, Any],
                                 **kwargs: Any) -> Any:
        if action["type"] == "end_day" and not failures:
            failures.append(action)
            raise RuntimeError("database unavailable")
        return await act(self, game_id, user_id, action, **kwargs)

    monkeypatch.setattr(TableService, "act", fail_first_day_end)
    bot = world.bot()
    async with world.running(bot):
        table = await start_game(world, players)
        scheduled: list[tuple[str, datetime, dict[str, Any]]] = []
        schedule = bot.timers.schedule

        async def record(game_id: int, kind: str, due_at: datetime, payload: dict[str, Any]) -> None:
            await schedule(game_id, kind, due_at, payload)
            scheduled.append((kind, due_at, payload))  # once stored: the test reads the timers table next

        monkeypatch.setattr(bot.timers, "schedule", record)
        before = await version(world, table)
        failed_at = world.clock.advance(hours=25)
        await world.double.wait_for(lambda: scheduled, what="the retry timer")
        assert failures and scheduled == [(days.DAY_END, failed_at + days.RETRY, {"day": 1})]
        assert await version(world, table) == before and count_in_statuses(world, "Day 1 is over") == 0

        world.clock.advance(days.RETRY)
        await world.double.wait_for(lambda: count_in_statuses(world, "Day 1 is over") == 1, what="the retried day end")
        assert len(scheduled) == 1  # the retry only: day 2's timer came with the day end's step
        stored = await world.tables.load(table.id)
        assert stored.state.day == 2 and stored.version == before + 1
        # a timer is marked fired only once its handler returned (leases): under latency the retried day end can
        # be shown, and day 2's timer armed, while day 1's retry is still being marked
        await world.double.wait_for(lambda: not bot.timers._running, what="the retry timer to be marked fired")
        assert [t.payload for t in await world.tables.pending_timers(table.id) if t.kind == days.DAY_END] == [
            {"day": 2}]


async def test_refusals_answer_privately_and_change_nothing(world: World) -> None:
    """A second crime by the Accomplice (from a panel opened before the Killer struck), a dead player's anonymous
    post (button and /post: no modal opens) and a judged player's backing are each refused ephemerally with the
    reason, and the table version does not move."""
    players = await six_players(world)
    async with world.running():
        table = await start_game(world, players)
        who = cast(table, players)
        await pick(world, who["killer"], "recruit", seat(table, who["accomplice"]))
        panel = await panel_of(await who["accomplice"].click(statuses(world)[-1], label="My actions"))
        crime = next(s for s in panel.selects() if ":social_target:crime" in s["custom_id"])
        await pick(world, who["killer"], "crime", seat(table, who["bystander"]))
        before = await version(world, table)
        second = await who["accomplice"].select(panel, crime["custom_id"], [str(seat(table, who["journalist"]))])
        assert await refusal(second) == "⛔ Your pair has already struck today."

        dead = who["bystander"]
        button = await dead.click(statuses(world)[-1], label="Anonymous post")
        assert (await button.response()).modal is None
        assert await refusal(button) == "⛔ You are dead: today you may only write your Farewell Letter."
        assert "Farewell Letter" in await refusal(await dead.slash(world.games, "post"))
        assert await version(world, table) == before

        # judgement #1 stands against the Doctor, who then tries to back judgement #2
        await (await who["detective"].slash(world.games, "accuse", player=who["doctor"])).wait_followups(1)
        for backer in (who["journalist"], who["accomplice"]):
            latest = statuses(world)[-1]
            back = next(b for b in latest.buttons() if ":social_back:1" in b["custom_id"])
            await (await backer.click(latest, custom_id=back["custom_id"])).response()
        await world.double.wait_for(lambda: count_in_statuses(world, "Judgement #1 stands") == 1, what="#1 stands")
        await (await who["killer"].slash(world.games, "accuse", player=who["journalist"])).wait_followups(1)
        latest = await world.double.wait_for(lambda: next((m for m in statuses(world)[-1:] if any(
            ":social_back:2" in b["custom_id"] for b in m.buttons())), None), what="judgement #2 on the status")
        before = await version(world, table)
        back = next(b for b in latest.buttons() if ":social_back:2" in b["custom_id"])
        deprived = await who["doctor"].click(latest, custom_id=back["custom_id"])
        assert await refusal(deprived) == ("⛔ You were judged: you may still use your character's powers, but not "
                                           "judgements or anonymous posts.")
        assert await version(world, table) == before
        stored = await world.tables.load(table.id)
        assert stored.state.judgements[1].backers == [seat(table, who["killer"])]


async def test_my_actions_pages_its_selects_when_more_kinds_exist_than_fit(world: World,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """With one select to a page, the Killer before recruiting sees the recruit select and "More actions (2/2)",
    which opens the accusation select; both pages act."""
    players = await six_players(world)
    async with world.running():
        # the bot (re)loads its extension modules: patch the copy it runs
        monkeypatch.setattr(importlib.import_module("bot.cogs.asesino_social.ui"), "MAX_SELECTS", 1)
        table = await start_game(world, players)
        who = cast(table, players)
        killer = who["killer"]
        first = await panel_of(await killer.click(statuses(world)[-1], label="My actions"))
        assert [s["custom_id"].split(":")[-1] for s in first.selects()] == ["recruit"]
        assert "Anonymous post" in [b["label"] for b in first.buttons()]
        more = await killer.click(first, label="More actions (2/2)")
        assert (await more.response()).ephemeral and more.original is not None
        (accuse,) = more.original.selects()
        assert accuse["custom_id"].endswith(":social_target:open_judgement")
        assert not [b for b in more.original.buttons() if b["label"].startswith("More actions")]

        done = await killer.select(more.original, accuse["custom_id"], [str(seat(table, who["doctor"]))])
        assert "Judgement opened" in (await done.wait_followups(1))[0].content
        recruit = first.selects()[0]["custom_id"]
        done = await killer.select(first, recruit, [str(seat(table, who["accomplice"]))])
        await done.wait_followups(1)
        await dm_text(world, who["accomplice"], "has made you the accomplice")


async def murder_the_bystander(world: World, players: list[Any], dead_role: Any) -> tuple[Any, dict[str, Any], Any]:
    """Inside ``world.running()``: ``dead_role`` is the server's dead role, a game starts, the Killer recruits and
    murders the bystander, who gets the role; (the table, the cast, the bystander's member)."""
    await (await world.admin.slash(world.games, "config deadrole", role=dead_role)).response()
    table = await start_game(world, players)
    who = cast(table, players)
    await pick(world, who["killer"], "recruit", seat(table, who["accomplice"]))
    await pick(world, who["killer"], "crime", seat(table, who["bystander"]))
    member = world.guild.member(who["bystander"])
    await world.double.wait_for(lambda: dead_role.id in member.role_ids, what="the dead role")
    return table, who, member


async def test_cancelling_a_social_game_takes_the_dead_role_back(world: World) -> None:
    """A murdered player holds the dead role; the host's /cancel announces the end and removes the role."""
    players = await six_players(world)
    world.double.set_bot_permissions(world.guild, README_MINIMAL | MANAGE_ROLES)  # the README\'s optional Manage Roles
    dead_role = world.guild.add_role("Dead")
    async with world.running():
        table, who, member = await murder_the_bystander(world, players, dead_role)
        assert "cancelled" in await confirm_cancel(world, players[0], await players[0].slash(world.games, "cancel"))
        await world.double.wait_for(lambda: dead_role.id not in member.role_ids, what="the role taken back")
        assert any("was cancelled by" in m.text for m in world.bot_messages())
        assert (await world.tables.load(table.id)).status == "cancelled"


async def test_secret_actions_leave_the_channel_untouched(world: World) -> None:
    """A recruitment, a protection and an inspection reach their players (the recruit by DM, the Detective's answer
    in the select's reply) and add or edit nothing in the game channel, so nobody can tell from the channel that
    someone just acted."""
    players = await six_players(world)
    async with world.running():
        table = await start_game(world, players)
        who = cast(table, players)
        before = [(m.id, m.text, str(m.components)) for m in world.bot_messages()]
        await pick(world, who["killer"], "recruit", seat(table, who["accomplice"]))
        await dm_text(world, who["accomplice"], "has made you the accomplice")
        await pick(world, who["doctor"], "protect", seat(table, who["bystander"]))
        await until_delivered(world)  # the inspection is then shown by its own move (bot.replies: no other task)
        assert "Killer" in await pick(world, who["detective"], "inspect", seat(table, who["killer"]))
        assert not [m for m in who["detective"].dms() if "holds the card" in m.text]  # the reply is the answer
        assert [(m.id, m.text, str(m.components)) for m in world.bot_messages()] == before
        assert await version(world, table) == table.version + 3


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
@pytest.mark.parametrize("to", ["computer", "member"])
async def test_a_dead_seat_is_not_handed_over_and_its_player_keeps_the_dead_role_until_the_end(world: World,
                                                                                               to: str) -> None:
    """The bystander is murdered: the server's dead role is theirs. The host hands their dead seat to the computer
    (``/replace``) or offers it to a newcomer, Gina (ruling 35): refused privately with a clear word, nothing
    changes (no offer posted, the seat still theirs, the role kept); when the host cancels the game the role is
    taken back, as from every dead player."""
    players = await six_players(world)
    newcomer = world.double.add_user("gina", display_name="Gina")
    world.guild.add_member(newcomer)
    world.double.set_bot_permissions(world.guild, README_MINIMAL | MANAGE_ROLES)
    dead_role = world.guild.add_role("Dead")
    async with world.running():
        table, who, member = await murder_the_bystander(world, players, dead_role)
        await settled(world)
        before = await world.tables.load(table.id)
        number = seat(table, who["bystander"]) + 1
        host, posted = players[0], len(world.bot_messages())
        asked = {} if to == "computer" else {"member": newcomer}
        said = await refusal(await host.slash(world.games, "replace", seat=number, **asked))
        name = before.shown_name(number - 1)
        assert said == f"⛔ {name} is dead: a dead player's seat cannot be handed over (it stays theirs until the " \
                       "game ends)."
        await settled(world)
        held = await world.tables.load(table.id)
        assert held.user_of(number - 1) == who["bystander"].id and held.version == before.version
        assert len(world.bot_messages()) == posted and dead_role.id in member.role_ids
        assert not [m for m in world.bot_messages() if newcomer.mention in m.content]
        # neither /replace's suggestions nor the host's panel offer the dead seat
        suggested = (await (await host.autocomplete(world.games, "replace", "seat", seat="")).response()).choices
        assert number not in [c["value"] for c in suggested] and len(suggested) == len(players) - 1
        panel = await answer(await host.slash(world.games, "host"))
        picker = next(c for c in panel.selects() if c["custom_id"].endswith(":host:replace"))
        assert str(number - 1) not in [o["value"] for o in picker["options"]]
        assert "cancelled" in await confirm_cancel(world, host, await host.slash(world.games, "cancel"))
        await world.double.wait_for(lambda: dead_role.id not in member.role_ids, what="the role taken back")



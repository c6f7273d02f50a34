"""End to end, the game's private threads (issue 24) in the social mode: the Killer and Accomplice's thread at the
recruitment, an interview in a thread whose talk is still the logged ``interview_say``, the dead and the watchers
in one thread, every thread archived and locked at the end; the fallback to DMs without the permissions (or when
Discord refuses), and the same threads after a restart."""

from __future__ import annotations

import pytest

from bot.db.repos import games
from bot.tables import Table
from tests.discord_double import Channel, StoredMessage, User
from tests.discord_double.permissions import MANAGE_THREADS, PRIVATE_THREADS, README_MINIMAL
from tests.e2e.conftest import World, confirm_cancel, refusal, until_delivered
from tests.e2e.social import cast, count_in_statuses, dm_text, panel_of, pick, seat, six_players, start_game, statuses
from tests.support.newgame import newgame

pytestmark = pytest.mark.usefixtures("social_seed")


async def with_threads(world: World) -> tuple[list[User], User]:
    """Six players, an onlooker in the server (not seated), and the bot holding the three thread permissions."""
    players = await six_players(world)
    onlooker = world.double.add_user("gwen", display_name="Gwen")
    world.guild.add_member(onlooker)
    world.double.set_bot_permissions(world.guild, README_MINIMAL | PRIVATE_THREADS)
    return players, onlooker


def threads(world: World) -> list[Channel]:
    return world.double.threads_of(world.games)


def named(world: World, text: str) -> Channel | None:
    return next((t for t in threads(world) if text in t.name), None)


def members(world: World, thread: Channel) -> set[int]:
    return world.double.thread_members(thread) - {world.double.bot_user.id}


async def watch(world: World, user: User) -> str:
    """``user`` presses Watch on the latest table; the ephemeral answer."""
    return await refusal(await user.click(statuses(world)[-1], label="Watch"))  # an answer or a refusal, ephemeral


async def say_in_thread(world: World, user: User, thread: Channel, text: str) -> StoredMessage:
    """``user`` presses the interview thread's Say button and submits ``text``; the ephemeral confirmation."""
    welcome = world.double.messages(thread)[0]
    button = next(b for b in welcome.buttons() if b["custom_id"].endswith(":social_write:interview_say"))
    opened = await user.click(welcome, custom_id=button["custom_id"])
    assert (await opened.response()).modal is not None
    submitted = await user.submit_modal(opened, {"text": text})
    (saved, *_) = await submitted.wait_followups(1)
    return saved


async def start_in_spanish(world: World, players: list[User]) -> Table:
    """:func:`tests.e2e.social.start_game` on a Spanish server (its buttons are pressed by custom_id)."""
    await (await world.admin.slash(world.games, "config language", language="es")).response()
    await (await world.admin.slash(world.games, "config medium", channel=world.medium)).response()
    handle = await newgame(players[0], world.games, "asesino", "social")
    await handle.response()
    lobby = await handle.wait_original()
    assert lobby is not None
    ids = {b["custom_id"].rsplit(":", 1)[1]: b["custom_id"] for b in lobby.buttons()}
    for user in players[1:]:
        await (await user.click(lobby, custom_id=ids["join"])).response()
    await (await players[0].click(lobby, custom_id=ids["start"])).response()
    await world.double.wait_for(lambda: all(u.dms() for u in players), what="the role DMs")
    await until_delivered(world)
    table = await world.tables.table_in_channel(world.games.id)
    assert table is not None and table.status == "active" and table.language == "es"
    return table


def latest_table(world: World) -> StoredMessage:
    """The newest message with the social table's My actions button (whatever the language)."""
    return next(m for m in reversed(world.bot_messages()) if any(":social_actions" in b["custom_id"]
                                                                 for b in m.buttons()))


async def pick_anywhere(world: World, user: User, kind: str, target: int) -> None:
    """:func:`tests.e2e.social.pick` by custom_id (any language)."""
    table_message = latest_table(world)
    actions = next(b for b in table_message.buttons() if ":social_actions" in b["custom_id"])
    panel = await panel_of(await user.click(table_message, custom_id=actions["custom_id"]))
    select = next(s for s in panel.selects() if f":social_target:{kind}" in s["custom_id"])
    await (await user.select(panel, select["custom_id"], [str(target)])).wait_followups(1)


async def recruited(world: World, players: list[User]) -> tuple[Table, dict[str, User]]:
    """The social game of ``players`` started and the Killer's pick of the Accomplice made: the table and who is
    who (:func:`tests.e2e.social.cast`)."""
    table = await start_game(world, players)
    who = cast(table, players)
    await pick(world, who["killer"], "recruit", seat(table, who["accomplice"]))
    return table, who


async def plotters_thread(world: World) -> Channel:
    """The Killer and the Accomplice's thread, once the bot has made it."""
    return await world.double.wait_for(lambda: named(world, "plotters"), what="the plotters' thread")


async def judge_the_killer(world: World, who: dict[str, User]) -> None:
    await (await who["detective"].slash(world.games, "accuse", player=who["killer"])).wait_followups(1)
    for backer in (who["doctor"], who["accomplice"]):
        latest = statuses(world)[-1]
        button = next(b for b in latest.buttons() if ":social_back:1" in b["custom_id"])
        await (await backer.click(latest, custom_id=button["custom_id"])).response()


async def test_threads_are_made_with_their_members_and_archived_at_the_end(world: World) -> None:
    """With the thread permissions: the recruitment makes the plotters' thread (Killer and Accomplice only); the
    interview's thread holds the two sides, its Say button is the logged interview_say whose words reach the other
    side there and not by DM; the murdered player and an onlooker who pressed Watch share the thread of the dead
    (a seated player's Watch is refused); at the end every thread is archived and locked."""
    players, onlooker = await with_threads(world)
    async with world.running():
        table = await start_game(world, players)
        who = cast(table, players)
        assert any(b["label"] == "Watch" for b in statuses(world)[-1].buttons())
        await pick(world, who["killer"], "recruit", seat(table, who["accomplice"]))
        plotters = await plotters_thread(world)
        await world.double.wait_for(lambda: members(world, plotters) == {who["killer"].id, who["accomplice"].id},
                                    what="the pair in their thread")
        assert plotters.type == 12 and not plotters.invitable

        journalist, interviewee = who["journalist"], who["bystander"]
        await pick(world, journalist, "interview", seat(table, interviewee))
        interview = await world.double.wait_for(lambda: named(world, "interview"), what="the interview thread")
        await world.double.wait_for(lambda: members(world, interview) == {journalist.id, interviewee.id},
                                    what="the interview's two sides")
        saved = await say_in_thread(world, journalist, interview, "Where were you at noon?")
        assert saved.content == "Said: the other side reads it."
        relayed = await world.double.wait_for(lambda: next((m for m in world.double.messages(interview)
                                                            if "Where were you at noon?" in m.text), None),
                                              what="the question in the thread")
        assert "asks" in relayed.text
        await interviewee.dm_bot("In the library, alone.")  # the DM route still works, and lands in the thread
        await world.double.wait_for(lambda: any("In the library, alone." in m.text
                                                for m in world.double.messages(interview)), what="the answer")
        await until_delivered(world)
        assert not [m for m in interviewee.dms() + journalist.dms() if "Where were you" in m.text
                    or "In the library, alone." in m.text]
        async with world.sessions() as session:
            said = [a.action for a in await games.actions_of(session, table.id) if a.action["type"] == "interview_say"]
        assert [a["text"] for a in said] == ["Where were you at noon?", "In the library, alone."]

        assert "You are playing in this game" in await watch(world, who["doctor"])
        await pick(world, who["killer"], "crime", seat(table, interviewee))
        dead = await world.double.wait_for(lambda: named(world, "the dead"), what="the thread of the dead")
        await world.double.wait_for(lambda: members(world, dead) == {interviewee.id}, what="the murdered one")
        await world.double.wait_for(lambda: interview.archived and interview.locked, what="the interview closed")
        answer = await watch(world, onlooker)
        assert f"<#{dead.id}>" in answer and members(world, dead) == {interviewee.id, onlooker.id}
        shown = " ".join(m.text for m in world.double.messages(dead))
        assert "Killer" not in shown.replace("the Killer and", "") and who["killer"].username not in shown

        await judge_the_killer(world, who)
        await world.double.wait_for(lambda: all(t.archived and t.locked for t in threads(world)),
                                    what="every thread archived and locked")
    assert {t.name for t in threads(world)} == {f"Game {table.id}: the plotters", f"Game {table.id}: interview",
                                                f"Game {table.id}: the dead and watchers"}
    world.double.assert_clean()


async def test_without_the_permissions_everything_stays_on_dms_in_spanish(world: World) -> None:
    """With only the README's minimal permissions (Spanish server): no thread is made, the table offers no Watch
    (Mirar) button, and the interview is relayed by DM as before: nothing is lost."""
    players = await six_players(world)
    async with world.running():
        table = await start_in_spanish(world, players)
        who = cast(table, players)
        labels = [b["label"] for b in latest_table(world).buttons()]
        assert "Mis acciones" in labels and "Mirar" not in labels and "Watch" not in labels
        await pick_anywhere(world, who["killer"], "recruit", seat(table, who["accomplice"]))
        await pick_anywhere(world, who["journalist"], "interview", seat(table, who["bystander"]))
        await who["journalist"].dm_bot("¿Dónde estabas a mediodía?")
        await dm_text(world, who["bystander"], "¿Dónde estabas a mediodía?")
        before = len(who["doctor"].dms())
        await pick_anywhere(world, who["killer"], "crime", seat(table, who["doctor"]))
        await world.double.wait_for(lambda: len(who["doctor"].dms()) > before,  # told by DM, as without threads
                                    what="the murdered player's DM")
        await until_delivered(world)
    assert threads(world) == []
    assert not [r for r in world.double.requests if "/threads" in r.path or "thread-members" in r.path]


async def test_discord_refusing_the_thread_falls_back_to_dms(world: World) -> None:
    """The cache says the bot may, Discord refuses anyway (403 / 50013 on the interview's thread): the interview
    goes on by DM; the thread of the dead refused too, Watch says the game has none, and Discord is asked once
    for each (the plotters' thread, asked for later, is made)."""
    players, onlooker = await with_threads(world)
    async with world.running():
        table = await start_game(world, players)
        who = cast(table, players)
        refused = world.double.fail_once("POST", rf"/channels/{world.games.id}/threads$", status=403)
        await pick(world, who["journalist"], "interview", seat(table, who["bystander"]))
        await world.double.wait_for(lambda: refused.hits == 1, what="the refused thread")
        await who["journalist"].dm_bot("Where were you at noon?")
        await dm_text(world, who["bystander"], "Where were you at noon?")
        world.double.fail_once("POST", rf"/channels/{world.games.id}/threads$", status=403)
        assert "There is no watchers' thread for this game" in await watch(world, onlooker)
        assert "There is no watchers' thread for this game" in await watch(world, onlooker)  # asked once only
        await pick(world, who["killer"], "recruit", seat(table, who["accomplice"]))
        # the pair hears it by DM; a thread was asked for
        await dm_text(world, who["accomplice"], "made you the accomplice")
        await plotters_thread(world)
    assert [t.name for t in threads(world)] == [f"Game {table.id}: the plotters"]
    creations = [r for r in world.double.requests if r.method == "POST" and r.path.endswith("/threads")]
    assert [r.status for r in creations] == [403, 403, 201]


async def test_no_thread_that_another_player_could_read(world: World) -> None:
    """A seated player with Manage Threads sees every private thread of the channel: the plotters' thread is not
    made (the Killer and the Accomplice hear from the bot by DM, as without threads), and neither is the thread of
    the dead while that player lives; Discord is asked for neither."""
    players, _ = await with_threads(world)
    async with world.running():
        table = await start_game(world, players)
        who = cast(table, players)
        moderator = world.guild.add_role("moderators", MANAGE_THREADS)
        world.guild.member(who["doctor"]).role_ids.append(moderator.id)
        await pick(world, who["killer"], "recruit", seat(table, who["accomplice"]))
        await dm_text(world, who["accomplice"], "made you the accomplice")
        await pick(world, who["killer"], "crime", seat(table, who["bystander"]))
        await world.double.wait_for(lambda: count_in_statuses(world, "has been murdered") == 1, what="the murder")
        await until_delivered(world)
    assert threads(world) == []
    assert not [r for r in world.double.requests if r.method == "POST" and r.path.endswith("/threads")]


async def test_threads_survive_a_restart(world: World) -> None:
    """The plotters' thread made before a restart is the one the restarted bot archives; the thread of the dead
    made after it by a Watch gets the murdered player, once."""
    players, onlooker = await with_threads(world)
    async with world.running():
        table, who = await recruited(world, players)
        plotters = await plotters_thread(world)
        await world.double.wait_for(lambda: len(members(world, plotters)) == 2, what="the pair added")
        await until_delivered(world)
    async with world.running():
        await watch(world, onlooker)
        await pick(world, who["killer"], "crime", seat(table, who["bystander"]))
        dead = await world.double.wait_for(lambda: named(world, "the dead"), what="the thread of the dead")
        await world.double.wait_for(lambda: members(world, dead) == {onlooker.id, who["bystander"].id},
                                    what="the murdered player joins the watcher")
        await judge_the_killer(world, who)
        await world.double.wait_for(lambda: plotters.archived and dead.archived, what="both archived")
    assert len(threads(world)) == 2


async def test_spanish_threads_and_watch(world: World) -> None:
    """On a Spanish server the table's button reads Mirar, the threads' names and welcomes are Spanish, and an
    onlooker is told where the thread is in Spanish; a watcher is refused the game's own controls."""
    players, onlooker = await with_threads(world)
    async with world.running():
        table = await start_in_spanish(world, players)
        who = cast(table, players)
        await pick_anywhere(world, who["killer"], "recruit", seat(table, who["accomplice"]))
        plotters = await world.double.wait_for(lambda: named(world, "conspiradores"), what="el hilo del Asesino")
        await world.double.wait_for(lambda: world.double.messages(plotters), what="su bienvenida")
        assert "planead aquí" in world.double.messages(plotters)[0].text
        button = next(b for b in latest_table(world).buttons() if b["label"] == "Mirar")
        answer = await refusal(await onlooker.click(latest_table(world), custom_id=button["custom_id"]))
        dead = named(world, "muertos")
        assert dead is not None and answer.startswith("Estás mirando") and f"<#{dead.id}>" in answer
        assert members(world, dead) == {onlooker.id}
        actions = next(b for b in latest_table(world).buttons() if ":social_actions" in b["custom_id"])
        assert "No juegas" in await refusal(await onlooker.click(latest_table(world), custom_id=actions["custom_id"]))


async def test_a_cancelled_game_archives_its_threads_and_each_costs_its_few_requests(world: World) -> None:
    """The plotters' thread and the thread of the dead, then /cancel: both are archived and locked. Counts: each
    thread is one create, one member added per person, one welcome, and at the end one closing line and one
    archive; the steps in between ask Discord nothing about threads."""
    players, onlooker = await with_threads(world)
    async with world.running():
        table, who = await recruited(world, players)
        plotters = await plotters_thread(world)
        await watch(world, onlooker)
        dead = named(world, "the dead")
        assert dead is not None
        await pick(world, who["doctor"], "protect", seat(table, who["detective"]))  # a step with nothing for threads
        await until_delivered(world)
        assert "cancelled" in await confirm_cancel(world, players[0], await players[0].slash(world.games, "cancel"))
        await world.double.wait_for(lambda: all(t.archived and t.locked for t in (plotters, dead)),
                                    what="both archived")
        assert (await world.tables.load(table.id)).status == "cancelled"

    def calls(thread: Channel) -> list[tuple[str, str]]:
        return [(r.method, r.path.split(f"/{thread.id}")[1] or "/") for r in world.double.requests
                if f"/channels/{thread.id}" in r.path]

    pair = sorted((who["killer"].id, who["accomplice"].id))
    assert calls(plotters) == [("POST", "/messages"), *(("PUT", f"/thread-members/{u}") for u in pair),
                               ("POST", "/messages"), ("PATCH", "/")]  # welcome, members, closing line, archive
    assert calls(dead) == [("POST", "/messages"), ("PUT", f"/thread-members/{onlooker.id}"), ("POST", "/messages"),
                           ("PATCH", "/")]
    creations = [r for r in world.double.requests if r.method == "POST" and r.path.endswith("/threads")]
    assert len(creations) == 2

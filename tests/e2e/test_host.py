"""The host's controls end to end, in English and Spanish: the table's Host button and its private panel (pause,
resume, cancel), ``/pause`` and ``/resume``, the confirmed cancel that reveals, and removing a joined player from
the lobby. Every control edits the living table (no new message) and refuses anyone else privately with nothing
changed; a pause holds every timer across a restart and the resume gives each the time it had left."""

from __future__ import annotations

import dataclasses
from datetime import timedelta

import pytest
from sqlalchemy import select

from bot.db.models import GameAction
from tests.discord_double import StoredMessage, User
from tests.e2e.conftest import (
    World,
    answer,
    as_drawn_before,
    confirm_cancel,
    refusal,
    settled,
    until_delivered,
    until_version,
)
from tests.e2e.latency import SlowSql
from tests.e2e.social import count_in_statuses, six_players, statuses
from tests.e2e.social import start_game as start_social
from tests.e2e.test_durable import holder_of, versions_on
from tests.e2e.test_foundation import pass_button
from tests.support.newgame import newgame

pytestmark = pytest.mark.usefixtures("potato")

WORDS = {
    "en": {"paused": "Paused by Alice", "log_paused": "Alice paused the game.",
           "log_resumed": "Alice resumed the game.",
           "refused_host": "Only the host of this game", "refused_paused": "The game is paused by Alice",
           "pause": "Pause", "resume": "Resume", "cancel": "Cancel the game", "yes": "Yes, cancel it",
           "back": "Back", "kept": "Nothing was cancelled.", "cancelled": "The game was cancelled by Alice",
           "question": "Cancel game #1?"},
    "es": {"paused": "En pausa por Alice", "log_paused": "Alice ha pausado la partida.",
           "log_resumed": "Alice ha reanudado la partida.",
           "refused_host": "Solo el anfitrión de esta partida", "refused_paused": "La partida está en pausa (Alice)",
           "pause": "Pausar", "resume": "Reanudar", "cancel": "Cancelar la partida", "yes": "Sí, cancelarla",
           "back": "Volver", "kept": "No se ha cancelado nada.", "cancelled": "Alice ha cancelado la partida",
           "question": "¿Cancelar la partida #1?"},
}


async def start_game(world: World, language: str, players: int = 2, passes: int = 10) -> StoredMessage:
    """alice's Hot Potato (in ``language``) with the next ``players - 1`` players, started: the table."""
    if language != "en":
        await (await world.admin.slash(world.games, "config language", language=language)).response()
    alice = world.players[0]
    handle = await newgame(alice, world.games, "potato", "classic", passes=passes)
    await handle.response()
    lobby = await handle.wait_original()
    game = int(next(b["custom_id"] for b in lobby.buttons()).split(":")[2])
    for user in world.players[1:players]:
        await (await user.click(lobby, f"coroner:lobby:{game}:join")).response()
    await (await alice.click(lobby, f"coroner:lobby:{game}:start")).response()
    return await world.double.wait_for(lambda: lobby if versions_on(lobby) else None, what="the table")


def host_button(table: StoredMessage) -> str:
    return next(b["custom_id"] for b in table.buttons() if b["custom_id"].endswith(":host:panel"))


async def open_panel(user: User, table: StoredMessage) -> StoredMessage:
    return await answer(await user.click(table, host_button(table)))


async def logged(world: World, game_id: int) -> list[str]:
    async with world.sessions() as session:
        rows = (await session.scalars(select(GameAction).where(GameAction.game_id == game_id)
                                      .order_by(GameAction.seq))).all()
    return [row.action["type"] for row in rows]


@pytest.mark.parametrize("language", ["en", "es"])
async def test_the_host_pauses_and_resumes_from_the_panel_and_the_table_stays_quiet(world: World,
                                                                                 language: str) -> None:
    """bob's Host click is refused privately; alice's opens her panel; Pause edits the table (paused by alice, no
    move controls) and the panel (now Resume), with no new message; bob's pass is refused while paused; Resume gives
    the table back its moves and bob's pass counts. Both controls are logged as actions of the game."""
    words = WORDS[language]
    alice, bob = world.players[:2]
    async with world.running():
        table = await start_game(world, language)
        await until_delivered(world)
        game = await world.tables.table_in_channel(world.games.id)
        assert game is not None
        holder = holder_of(world, game)
        assert words["refused_host"] in await refusal(await bob.click(table, host_button(table)))
        panel = await open_panel(alice, table)
        messages = len(world.bot_messages())
        await (await alice.click(panel, label=words["pause"])).response()
        await world.double.wait_for(lambda: words["paused"] in table.content, what="the table to say it is paused")
        await world.double.wait_for(lambda: words["resume"] in [b.get("label") for b in panel.buttons()],
                                    what="the panel to offer Resume")
        assert words["log_paused"] in table.text and not versions_on(table)  # no move's controls while paused
        drawn = as_drawn_before(table)  # the table as a client that missed the pause's edit shows it
        assert words["refused_paused"] in await refusal(await holder.click(drawn, pass_button(drawn)))
        await (await alice.click(panel, label=words["resume"])).response()
        await world.double.wait_for(lambda: versions_on(table), what="the table's moves back")
        assert words["paused"] not in table.content and words["log_resumed"] in table.text
        await (await holder.click(table, pass_button(table))).response()
        await settled(world)
        assert len(world.bot_messages()) == messages  # every control edited the living table
        assert await logged(world, game.id) == ["pause", "resume", "pass"]


@pytest.mark.parametrize("language", ["en", "es"])
async def test_a_pause_holds_the_turn_limit_across_a_restart_and_resumes_with_the_time_left(
        world: World, language: str) -> None:
    """The holder has 300 s; paused with 200 s left, an hour passes and the bot restarts: no move is made for them;
    ``/resume`` gives the 200 s back: nothing at 150 s, the bot's move after 200 s."""
    async with world.running():
        table = await start_game(world, language)
        await until_delivered(world)
        game = await world.tables.table_in_channel(world.games.id)
        assert game is not None
        world.clock.advance(seconds=100)
        await settled(world)
        await (await world.players[0].slash(world.games, "pause")).response()
        await world.double.wait_for(lambda: WORDS[language]["paused"] in table.content, what="paused")
    world.clock.advance(hours=1)
    async with world.running():
        await settled(world)
        assert (await world.tables.load(game.id)).version == game.version + 1  # the pause only
        assert WORDS[language]["refused_host"] in await refusal(await world.players[1].slash(world.games, "resume"))
        await (await world.players[0].slash(world.games, "resume")).response()
        await world.double.wait_for(lambda: versions_on(table), what="resumed")
        world.clock.advance(seconds=150)
        await settled(world)
        assert (await world.tables.load(game.id)).version == game.version + 2
        world.clock.advance(seconds=51)
        await until_version(world, game.id, game.version + 3)
        assert await logged(world, game.id) == ["pause", "resume", "pass"]


@pytest.mark.parametrize("language", ["en", "es"])
async def test_cancel_asks_first_and_the_cancelled_table_reveals_with_no_turn_marker(world: World,
                                                                                    language: str) -> None:
    """The panel's Cancel asks privately; Back changes nothing; ``/cancel`` then Yes ends the game: the same table
    message says who cancelled it, names nobody to move and keeps only its History button, whose timeline keeps the
    game (its pause and resume, the cancel) with every secret shown."""
    words = WORDS[language]
    alice = world.players[0]
    async with world.running():
        table = await start_game(world, language)
        await until_delivered(world)
        game = await world.tables.table_in_channel(world.games.id)
        assert game is not None
        for command in ("pause", "resume"):  # (the history shows them too)
            await (await alice.slash(world.games, command)).response()
            await until_version(world, game.id, game.version + (1 if command == "pause" else 2))
        panel = await open_panel(alice, table)
        question = await answer(await alice.click(panel, label=words["cancel"]))
        assert words["question"] in question.content
        await (await alice.click(question, label=words["back"])).response()
        await world.double.wait_for(lambda: question.content == words["kept"], what="the question answered")
        assert (await world.tables.load(game.id)).status == "active"
        assert words["refused_host"] not in await confirm_cancel(world, alice, await alice.slash(world.games, "cancel"),
                                                                   label=words["yes"])
        await world.double.wait_for(lambda: words["cancelled"] in table.text, what="the table to say so")
        await settled(world)
        assert not versions_on(table) and "<@" not in table.content  # nobody is named to move
        assert [b["custom_id"].split(":")[1] for b in table.buttons()] == ["h"]  # the History button only
        cancelled = await world.tables.load(game.id)
        assert cancelled.status == "cancelled"
        assert [m.id for m in world.bot_messages()] == [table.id]
        history = await (await alice.click(table, table.buttons()[0]["custom_id"])).wait_original()
        timeline = history.embeds[0]["description"]  # the history keeps it, every secret revealed
        assert words["cancelled"] in timeline and words["log_paused"] in timeline and words["log_resumed"] in timeline
        assert all(str(seat.secret) in timeline for seat in cancelled.state.seats)


@pytest.mark.parametrize("language", ["en", "es"])
async def test_the_host_removes_a_joined_player_from_the_lobby(world: World, language: str) -> None:
    """The lobby's select lists the joined players but the host; bob's pick is refused privately and changes
    nothing; alice's removes carol, and the lobby (edited in place) no longer lists her."""
    alice, bob, carol = world.players[:3]
    async with world.running():
        lobby, game = await lobby_of_three(world, language)
        kick = f"coroner:lobbysel:{game}:kick"
        options = next(c for c in lobby.walk_components() if c.get("custom_id") == kick)["options"]
        assert [o["value"] for o in options] == [str(bob.id), str(carol.id)]
        assert WORDS[language]["refused_host"].split()[0] in await refusal(await bob.select(lobby, kick,
                                                                                            [str(carol.id)]))
        assert (await world.tables.load(game)).user_ids() == [alice.id, bob.id, carol.id]
        await (await alice.select(lobby, kick, [str(carol.id)])).response()
        await world.double.wait_for(lambda: carol.mention not in lobby.text, what="carol gone from the lobby")
        assert (await world.tables.load(game)).user_ids() == [alice.id, bob.id]
        assert len([m for m in world.bot_messages()]) == 1


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)  # the latency is injected: one backend is enough
async def test_the_host_controls_answer_in_time_on_a_slow_database(world: World, slow_sql: SlowSql) -> None:
    """With 100 ms per SQL statement (and Discord's 3 s scaled down to 1.5 s, no margin): the Host button, Pause,
    Resume, /cancel and its Yes are all answered in time, and each lands."""
    alice = world.players[0]
    bot = world.bot()
    bot.defer_after = 0.2  # type: ignore[attr-defined]
    world.double.initial_response_deadline = 1.5
    async with world.running(bot):
        table = await start_game(world, "en")
        await until_delivered(world)
        slow_sql.delay = 0.1
        panel = await open_panel(alice, table)
        await (await alice.click(panel, label="Pause")).response()
        await world.double.wait_for(lambda: "Paused by Alice" in table.content, timeout=10, what="paused")
        await world.double.wait_for(lambda: "Resume" in [b.get("label") for b in panel.buttons()], timeout=10,
                                    what="the panel's Resume")
        await (await alice.click(panel, label="Resume")).response()
        await world.double.wait_for(lambda: versions_on(table), timeout=10, what="resumed")
        assert "cancelled" in await confirm_cancel(world, alice, await alice.slash(world.games, "cancel"))
        await world.double.wait_for(lambda: "was cancelled by Alice" in table.text, timeout=10, what="cancelled")
        slow_sql.reset()


async def test_a_paused_social_game_keeps_its_day_and_resumes_with_the_time_left(world: World) -> None:
    """The social mode's own clock (README ruling 32): paused an hour before day 1 ends, the day does not end however
    long the pause (across a restart); resumed, it ends an hour later, not before."""
    players = await six_players(world)
    async with world.running():
        table = await start_social(world, players)
        world.clock.set(table.state.day_ends_at - timedelta(hours=1))
        await settled(world)
        await (await players[0].slash(world.games, "pause")).response()
        await world.double.wait_for(lambda: any("Paused by Alice" in m.content for m in statuses(world)),
                                    what="the table paused")
        world.clock.advance(hours=30)
        await settled(world)
    async with world.running():
        await settled(world)
        assert count_in_statuses(world, "Day 1 is over") == 0
        await (await players[0].slash(world.games, "resume")).response()
        await settled(world)
        world.clock.advance(minutes=59)
        await settled(world)
        assert count_in_statuses(world, "Day 1 is over") == 0 and (await world.tables.load(table.id)).state.day == 1
        world.clock.advance(minutes=2)
        await world.double.wait_for(lambda: count_in_statuses(world, "Day 1 is over") == 1, what="day 1 to end")


async def lobby_of_three(world: World, language: str = "en") -> tuple[StoredMessage, int]:
    """alice's Hot Potato lobby (in ``language``) that bob and carol joined: its message and game id."""
    alice, bob, carol = world.players[:3]
    if language != "en":
        await (await world.admin.slash(world.games, "config language", language=language)).response()
    handle = await newgame(alice, world.games, "potato", "classic")
    await handle.response()
    lobby = await handle.wait_original()
    game = int(next(b["custom_id"] for b in lobby.buttons()).split(":")[2])
    for user in (bob, carol):
        await (await user.click(lobby, f"coroner:lobby:{game}:join")).response()
    await world.double.wait_for(lambda: carol.mention in lobby.text, what="carol in the lobby")
    return lobby, game


async def test_a_server_manager_removes_a_joined_player_as_the_host_would(world: World) -> None:
    """The admin (Manage Server, not seated) may use the lobby's Remove select as the host's other controls allow:
    carol is removed and the lobby no longer lists her."""
    alice, bob, carol = world.players[:3]
    async with world.running():
        lobby, game = await lobby_of_three(world)
        await (await world.admin.select(lobby, f"coroner:lobbysel:{game}:kick", [str(carol.id)])).response()
        await world.double.wait_for(lambda: carol.mention not in lobby.text, what="carol gone from the lobby")
        assert (await world.tables.load(game)).user_ids() == [alice.id, bob.id]


async def test_removing_a_player_who_left_meanwhile_is_refused_in_the_clickers_words(world: World) -> None:
    """Alice picks carol twice from the same select: one removes her, the other (stale) tells alice that carol is
    no longer in the lobby, not that alice is not playing; nothing else changes."""
    alice, bob, carol = world.players[:3]
    async with world.running():
        lobby, game = await lobby_of_three(world)
        kick = f"coroner:lobbysel:{game}:kick"
        handles = [await alice.select(lobby, kick, [str(carol.id)]) for _ in range(2)]
        answers = [await handle.response() for handle in handles]
        refused = [a.content for a in answers if a.ephemeral]
        assert refused == [f"⛔ {carol.mention} is no longer in the lobby: nobody was removed."]
        assert (await world.tables.load(game)).user_ids() == [alice.id, bob.id]


async def asesino_lobby_of(world: World, count: int) -> tuple[StoredMessage, int]:
    """Alice's Asesino 2-4 player lobby that the next ``count - 1`` players joined: its message and game id."""
    alice, *others = world.players[:count]
    handle = await newgame(alice, world.games, "asesino", "small")
    await handle.response()
    lobby = await handle.wait_original()
    game = int(next(b["custom_id"] for b in lobby.buttons()).split(":")[2])
    for user in others:
        await (await user.click(lobby, f"coroner:lobby:{game}:join")).response()
    await world.double.wait_for(lambda: others[-1].mention in lobby.text, what="the last player in the lobby")
    return lobby, game


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
async def test_a_stale_remove_select_cannot_leave_the_lobby_hosted_by_someone_not_in_it(world: World) -> None:
    """Alice hosts Alice, Bob, Carol; the admin's client shows the Remove select (Bob, Carol). Alice leaves: Bob
    hosts now (the lobby's select no longer lists him). The admin, from the select as drawn before, picks Bob.
    Expected: refused (he is the host) or the lobby's host passes on to Carol, as when a host leaves; in any case
    the lobby's host is someone seated in it.
    (``TableService.kick`` hands the host on as ``leave`` does.)"""
    alice, bob, carol = world.players[:3]
    async with world.running():
        lobby, game = await asesino_lobby_of(world, 3)
        kick = f"coroner:lobbysel:{game}:kick"
        await (await alice.click(lobby, f"coroner:lobby:{game}:leave")).response()
        await world.double.wait_for(lambda: alice.mention not in lobby.text, what="alice gone from the lobby")
        await settled(world)
        assert (await world.tables.load(game)).host_id == bob.id
        stale = next(m for m in [lobby, as_drawn_before(lobby)]
                     if any(o["value"] == str(bob.id) for c in m.walk_components() if c.get("custom_id") == kick
                            for o in c["options"]))
        await (await world.admin.select(stale, kick, [str(bob.id)])).response()
        await settled(world)
        table = await world.tables.load(game)
        assert table.host_id in table.user_ids(), (
            f"the lobby's host is {'Bob' if table.host_id == bob.id else table.host_id}, "
            f"who is not in it (seated: {table.user_ids()}, Carol is {carol.id})")


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
async def test_removing_the_last_person_takes_the_computer_players_too(world: World) -> None:
    """Alice hosts Alice and Bob and adds a computer player; Alice leaves (Bob hosts). The admin, from the select
    as drawn before, removes Bob: no person is left. Expected, as when the last person leaves: the computer
    players go too (a game needs a person) and no one outside the lobby can start it."""
    alice, bob = world.players[:2]
    async with world.running():
        lobby, game = await asesino_lobby_of(world, 2)
        await (await alice.click(lobby, f"coroner:lobby:{game}:add_ai")).response()
        await settled(world)
        kick = f"coroner:lobbysel:{game}:kick"
        before_leave = lobby.snapshot()
        await (await alice.click(lobby, f"coroner:lobby:{game}:leave")).response()
        await world.double.wait_for(lambda: alice.mention not in lobby.text, what="alice gone from the lobby")
        await settled(world)
        stale = dataclasses.replace(lobby, components=before_leave["components"])
        await (await world.admin.select(stale, kick, [str(bob.id)])).response()
        await settled(world)
        table = await world.tables.load(game)
        assert table.user_ids() == [] and table.status == "lobby"
        assert not table.ai_seats(), f"a lobby of computer players only, hosted by {table.host_id} (Bob {bob.id})"


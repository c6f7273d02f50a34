"""``/history`` end to end: a running game's history is refused; a finished game's result carries a History button
that still works after a restart and opens its timeline with every secret revealed; the list pages through the
server's games; Export attaches the record (text + JSON that replays the game); another server sees nothing."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import update

from bot.db.check import open_database
from bot.db.models import OutboxEntry
from bot.history.command import replay_file
from bot.tables import TableService
from tests.discord_double import StoredMessage
from tests.e2e.conftest import World, mark, refusal
from tests.e2e.latency import SlowSql
from tests.e2e.test_foundation import open_lobby, pass_button, status_messages

pytestmark = pytest.mark.usefixtures("potato")


def button(message: StoredMessage, label: str) -> str:
    """The custom id of ``message``'s button labelled ``label``."""
    return next(c["custom_id"] for c in message.walk_components() if c.get("label") == label)


def labels(message: StoredMessage) -> list[str]:
    return [c["label"] for c in message.walk_components() if c.get("type") == 2]


async def play_to_the_end(world: World, game_id: int) -> StoredMessage:
    """Pass the potato (through the table's buttons) until the game ends; the final table message."""
    while (current := await world.tables.load(game_id)).status == "active":
        latest = status_messages(world)[-1]
        user = next(u for u in world.players if u.id == current.user_of(current.state.holder))
        before = mark(status_messages(world))
        await (await user.click(latest, custom_id=pass_button(latest))).response()
        await world.double.wait_for(lambda b=before: mark(status_messages(world)) != b, what="the next step")
    return status_messages(world)[-1]


async def finished_games(world: World, count: int, *, shouts: int = 0) -> list[int]:
    """``count`` two-player games stored through the table service (as if played while the bot was away: their
    steps are marked shown), each with ``shouts`` long shouts before its one pass."""
    await (await open_database(world.db_url)).dispose()  # the schema, as the bot's start makes it
    service = TableService(world.sessions, clock=world.clock.now)
    alice, bob = world.players[:2]
    ids = []
    for _ in range(count):
        table = await service.open_lobby(world.guild.id, world.games.id, alice.id, "potato", "classic",
                                         {"passes": 1}, host_names=["Alice"])
        await service.join(table.id, bob.id, ["Bob"])
        table = await service.start(table.id, alice.id, seed=7)
        holder = table.user_of(table.state.holder)
        for n in range(shouts):
            await service.act(table.id, holder, {"type": "shout", "text": f"shout {n} " + "x" * 180})
        await service.act(table.id, holder, {"type": "pass", "to": 1 - table.state.holder})
        ids.append(table.id)
    async with world.sessions() as session, session.begin():
        await session.execute(update(OutboxEntry).values(delivered_at=world.clock.now()))
    return ids


async def test_a_game_history_from_its_result_after_a_restart(world: World) -> None:
    """Refused while the game runs; once it ends, its result's History button (after a restart) opens the timeline
    with each player's secret number and the whispered secret; Export attaches a transcript and a JSON record that
    replays to the stored outcome; another server cannot see the game."""
    alice, bob = world.players[:2]
    async with world.running():
        lobby = await open_lobby(world, passes=2)
        await (await bob.click(lobby, label="Join")).response()
        await (await alice.click(lobby, label="Start")).response()
        await world.double.wait_for(lambda: status_messages(world), what="the table")
        table = await world.tables.table_in_channel(world.games.id)
        assert table is not None
        running = await alice.slash(world.games, "history", game=table.id)
        assert f"Game #{table.id} is still being played" in await refusal(running)
        final = await play_to_the_end(world, table.id)
        assert final.embeds[-1]["title"] == "Game over" and labels(final) == ["History"]
    table = await world.tables.load(table.id)
    secrets = [s.secret for s in table.state.seats]
    public = " ".join(m.text for m in world.bot_messages())
    assert not any(f"secret number is {n}" in public for n in secrets)

    async with world.running():  # a new process: the result's button still works
        handle = await bob.click(final, custom_id=button(final, "History"))
        shown = await handle.wait_original()
        assert shown.ephemeral and shown.embeds[0]["title"] == f"Game #{table.id}: Hot Potato (Classic)"
        text = shown.embeds[0]["description"]
        for seat, number in enumerate(secrets):
            name = table.seat_names(seat)[0]
            assert f"[to {name}] Your secret number is {number}." in text
        assert "Alice, Bob" in text and "Game over" in text and "<t:" in text
        assert labels(shown) == ["Export"]  # one page
        assert world.bot_messages() == [final]  # nothing new in the channel

        world.double.attachment_size_limit = 100  # a server where the record does not fit: refused, not sent
        too_big = await bob.click(shown, custom_id=button(shown, "Export"))
        assert f"The record of game #{table.id} is larger than Discord accepts here" in await refusal(too_big)
        world.double.attachment_size_limit = 10 * 1024 * 1024
        export = await bob.click(shown, custom_id=button(shown, "Export"))
        sent = await export.wait_original()
        assert sent.ephemeral and f"record of game #{table.id}" in sent.content
        files = {a.filename: a.data for a in sent.attachments}
        assert sorted(files) == [f"game-{table.id}.json", f"game-{table.id}.txt"]
        assert f"Your secret number is {secrets[0]}." in files[f"game-{table.id}.txt"].decode()
        record = json.loads(files[f"game-{table.id}.json"])
        assert record["seed"] == table.seed and [s["names"][0] for s in record["seats"]] == ["Alice", "Bob"]
        assert replay_file(record) is None  # what `coroner replay FILE` checks: it replays to its outcome
        assert [a["seq"] for a in record["actions"]] == [1, 2]

        stranger_guild = world.double.add_guild("Elsewhere")
        elsewhere = stranger_guild.add_text_channel("games")
        stranger_guild.add_member(alice)
        refused = await alice.slash(elsewhere, "history", game=table.id)
        assert f"There is no game #{table.id} in this server." in await refusal(refused)
        assert "There is no game #999 in this server." in await refusal(await alice.slash(world.games, "history",
                                                                                           game=999))


async def test_the_list_and_a_long_timeline_page_through_in_place(world: World) -> None:
    """Eleven finished games: /history lists the ten newest with their winner and a Next button, which edits the
    list to the oldest; a game with long shouts has a timeline of several pages, paged in place; a cancelled game
    has none."""
    ids = await finished_games(world, 10)
    long_game = (await finished_games(world, 1, shouts=30))[0]
    alice = world.players[0]
    cancelled = await TableService(world.sessions).open_lobby(world.guild.id, world.games.id, alice.id, "potato",
                                                              "classic", host_names=["Alice"])
    await TableService(world.sessions).cancel(cancelled.id, alice.id, is_manager=False)
    async with world.running():
        refused = await alice.slash(world.games, "history", game=cancelled.id)
        assert f"Game #{cancelled.id} did not finish (it was cancelled)" in await refusal(refused)
        first = await (await alice.slash(world.games, "history")).response()
        assert first.ephemeral
        lines = first.embeds[0]["description"].split("\n")
        assert lines[0].startswith(f"**#{long_game}** Hot Potato (Classic) · <t:")
        assert "· Alice, Bob · won: " in lines[0]
        assert [line.split("**")[1] for line in lines[:10]] == [f"#{i}" for i in [long_game, *ids[:0:-1]]]
        assert first.embeds[0]["footer"]["text"] == "Page 1 of 2"
        handle = await alice.click(first.message, custom_id=button(first.message, "Next"))
        second = await handle.response()
        assert second.type == 7  # the list is edited in place
        assert first.message.embeds[0]["description"].startswith(f"**#{ids[0]}** ")
        assert first.message.embeds[0]["footer"]["text"] == "Page 2 of 2" and labels(first.message) == ["Previous"]

        opened = await alice.slash(world.games, "history", game=long_game)
        shown = await opened.wait_original()
        footer = shown.embeds[0]["footer"]["text"]
        assert footer.startswith("Page 1 of ") and int(footer.split()[-1]) >= 2
        assert labels(shown) == ["Next", "Export"]
        page_one = shown.embeds[0]["description"]
        assert "shout 0 " in page_one and "shout 29 " not in page_one
        await (await alice.click(shown, custom_id=button(shown, "Next"))).response()
        await world.double.wait_for(lambda: shown.embeds[0]["footer"]["text"].startswith("Page 2 "),
                                    what="page 2 in place")
        assert labels(shown)[0] == "Previous" and shown.embeds[0]["description"] != page_one

        choices = await (await alice.autocomplete(world.games, "history", "game", game=str(long_game))).response()
        assert choices.choices is not None and choices.choices[0]["value"] == long_game
        assert choices.choices[0]["name"].startswith(f"#{long_game} Hot Potato (Classic) · ")


async def test_the_history_list_is_answered_in_time_on_a_slow_database(world: World, slow_sql: SlowSql) -> None:
    """At 250 ms a statement the list's queries pass Discord's 3 s: /history is deferred privately first and then
    filled in with the list; its Next button is deferred too and edits the list in place."""
    ids = await finished_games(world, 11)
    alice = world.players[0]
    async with world.running():
        await (await world.admin.slash(world.games, "config language", language="en")).response()  # (warm)
        slow_sql.delay = 0.25
        handle = await alice.slash(world.games, "history")
        response = await handle.response()
        assert response.type in (4, 5), response  # answered (or deferred) within Discord's 3 s
        assert response.ephemeral
        shown = await handle.wait_original()
        assert shown.ephemeral and shown.embeds[0]["footer"]["text"] == "Page 1 of 2"
        click = await (await alice.click(shown, custom_id=button(shown, "Next"))).response()
        assert click.type in (6, 7), click
        await world.double.wait_for(lambda: shown.embeds[0]["footer"]["text"] == "Page 2 of 2", what="page 2")
        slow_sql.reset()
    assert shown.embeds[0]["description"].startswith(f"**#{ids[0]}** ")

"""The real discord.py client (AutoShardedBot with a cog, views, a DynamicItem and a modal) against the double."""

from __future__ import annotations

import discord
import pytest

from tests.discord_double import Modal, ModalRefused
from tests.discord_double.fixtures import running_bot
from tests.discord_double_tests._bot import DoubleBot
from tests.discord_double_tests.conftest import World


async def test_ready_brings_the_guild_and_channels_but_no_members_without_intent(world: World, bot: DoubleBot) -> None:
    """Without the members intent GUILD_CREATE carries only the bot's member; fetch_member still works."""
    guild = bot.get_guild(world.guild.id)
    assert guild is not None and guild.name == "Test Server" and bot.shard_count == 1
    assert {c.name for c in guild.text_channels} == {"games", "medium"}
    assert guild.get_member(world.bob.id) is None
    perms = guild.me.guild_permissions  # the README's minimal invite, not Administrator
    assert perms.embed_links and perms.attach_files and not perms.administrator and not perms.manage_roles
    assert (await guild.fetch_member(world.bob.id)).nick == "Bobby"


async def test_members_intent_caches_members_with_their_permissions(world: World) -> None:
    """With the members intent every member is cached, with manage_guild granted only where asked."""
    async with running_bot(bot := DoubleBot(members=True)):
        guild = bot.get_guild(world.guild.id)
        assert guild is not None and guild.chunked
        assert guild.get_member(world.bob.id).nick == "Bobby"
        assert guild.get_member(world.admin.id).guild_permissions.manage_guild
        assert not guild.get_member(world.alice.id).guild_permissions.manage_guild


async def test_sync_registers_commands_with_options(world: World, bot: DoubleBot) -> None:
    """tree.sync() in setup_hook stores the commands, their options and the subcommand group."""
    cmds = {c["name"]: c for c in world.double.commands_registered()}
    assert set(cmds) == {"newgame", "config", "poke", "counter", "progress", "slow"}
    assert [o["name"] for o in cmds["newgame"]["options"]] == ["game", "players", "public"]
    assert cmds["newgame"]["options"][0]["autocomplete"] is True
    assert cmds["config"]["options"][0]["name"] == "medium"
    assert cmds["config"]["default_member_permissions"] == "32"


async def test_slash_answers_with_embed_and_button_that_edits_the_message(world: World, bot: DoubleBot) -> None:
    """A slash command gets an embed + view; clicking Join edits that message in place."""
    r = await world.alice.slash(world.games, "newgame", game="potato", players=5)
    resp = await r.response()
    assert resp.embeds[0]["title"] == "New potato"
    assert resp.embeds[0]["description"] == "5 players, public=True"
    assert not resp.ephemeral
    msg = world.double.last_message(world.games)
    assert msg is resp.message and msg.component("game:join")["label"] == "Join"
    click = await world.bob.click(msg, label="Join")
    assert (await click.response()).type == 7
    assert msg.content == "Bobby joined"
    assert msg.component("game:join")["disabled"] is True
    assert msg.history[0]["content"] == ""


async def test_select_answers_ephemerally(world: World, bot: DoubleBot) -> None:
    """Choosing a select option reaches the view; the ephemeral answer is visible only to the chooser."""
    await (await world.alice.slash(world.games, "newgame", game="chess")).response()
    msg = world.double.last_message(world.games)
    resp = await (await world.bob.select(msg, "game:mode", ["chaos"])).response()
    assert resp.content == "mode chaos" and resp.ephemeral
    assert [m.content for m in world.bob.ephemerals()] == ["mode chaos"]
    assert world.double.last_message(world.games) is msg


async def test_modal_opened_from_button_is_submitted(world: World, bot: DoubleBot) -> None:
    """A button opens a modal; submitting its text input reaches on_submit."""
    await (await world.alice.slash(world.games, "newgame", game="chess")).response()
    msg = world.double.last_message(world.games)
    opener = await world.alice.click(msg, "game:name")
    modal = (await opener.response()).modal
    assert modal is not None and modal.title == "Name the game"
    assert [f.custom_id for f in modal.fields] == ["name"]
    submit = await world.alice.submit_modal(opener, {"name": "Friday"})
    assert (await submit.response()).content == "named Friday"


async def test_a_modal_submit_discord_would_not_send_is_refused(world: World, bot: DoubleBot) -> None:
    """The real client's TextInput(max_length=20, required): Discord's client keeps Submit disabled for 21
    characters or an empty text, so the double refuses before the bot hears anything; 20 is sent."""
    await (await world.alice.slash(world.games, "newgame", game="chess")).response()
    msg = world.double.last_message(world.games)
    opener = await world.alice.click(msg, "game:name")
    await opener.response()
    with pytest.raises(ModalRefused, match="'name': 21 characters, at most 20"):
        await world.alice.submit_modal(opener, {"name": "x" * 21})
    with pytest.raises(ModalRefused, match="'name' is required"):
        await world.alice.submit_modal(opener, {"name": ""})
    submit = await world.alice.submit_modal(opener, {"name": "y" * 20})
    assert (await submit.response()).content == f"named {'y' * 20}"


def test_text_input_lengths_are_counted_as_discord_counts_them() -> None:
    """min_length and max_length in UTF-16 units (an emoji is two); an optional input may stay empty whatever its
    min_length, but a text it is given must fit."""
    modal = Modal.from_data({"custom_id": "m", "title": "t", "components": [
        {"type": 18, "label": "Note", "component": {"type": 4, "custom_id": "note", "style": 2, "required": False,
                                                    "min_length": 3, "max_length": 4}}]})
    assert modal.submission({})[0]["component"]["value"] == ""
    assert modal.submission({"note": "abcd"})[0]["component"]["value"] == "abcd"
    with pytest.raises(ModalRefused, match="5 characters, at most 4"):
        modal.submission({"note": "abc🦆"})
    with pytest.raises(ModalRefused, match="2 characters, at least 3"):
        modal.submission({"note": "ab"})


async def test_subcommand_with_channel_and_member_options(world: World, bot: DoubleBot) -> None:
    """'config medium' resolves channel and member options; interaction permissions reflect manage_guild."""
    r = await world.admin.slash(world.games, "config medium", channel=world.medium, moderator=world.bob)
    resp = await r.response()
    assert resp.content == "medium medium by Bobby manage=True" and resp.ephemeral


async def test_autocomplete_returns_choices(world: World, bot: DoubleBot) -> None:
    """An autocomplete interaction is answered with the matching choices."""
    resp = await (await world.alice.autocomplete(world.games, "newgame", "game", game="po")).response()
    assert [c["value"] for c in resp.choices or []] == ["potato", "poker"]


async def test_bot_dms_a_user_after_deferring(world: World, bot: DoubleBot) -> None:
    """A deferred command DMs the user; the follow-up fills in the thinking message."""
    r = await world.alice.slash(world.games, "poke", user=world.bob)
    resp = await r.response()
    assert resp.deferred and resp.type == 5 and resp.ephemeral
    original = await r.wait_original()
    assert original.content == "sent" and original.ephemeral
    assert [m.content for m in world.bob.dms()] == ["poked!"]


async def test_closed_dms_raise_forbidden_50007(world: World, bot: DoubleBot) -> None:
    """DMs to a user whose DMs are closed fail with discord.Forbidden code 50007."""
    world.double.close_dms(world.bob)
    r = await world.alice.slash(world.games, "poke", user=world.bob)
    assert (await r.wait_original()).content == "closed 50007"
    user = await bot.fetch_user(world.bob.id)
    try:
        await user.send("hello")
    except discord.Forbidden as exc:
        assert exc.code == 50007
    else:
        raise AssertionError("expected discord.Forbidden")
    assert world.bob.dms() == []


async def test_user_dm_reaches_on_message(world: World, bot: DoubleBot) -> None:
    """A user's DM arrives as MESSAGE_CREATE without guild_id and on_message sees its content."""
    await world.alice.dm_bot("8 3 2 1")
    await world.double.wait_for(lambda: bot.game_cog.dms_seen == ["8 3 2 1"], timeout=5)


async def test_guild_message_content_needs_the_intent_or_a_mention(world: World, bot: DoubleBot) -> None:
    """Without the message-content intent a guild message arrives empty unless it mentions the bot."""
    await world.alice.say(world.games, "hello")
    await world.alice.say(world.games, f"{world.double.bot_user.mention} hi")
    await world.double.wait_for(lambda: len(bot.game_cog.guild_seen) == 2)
    assert bot.game_cog.guild_seen == ["", f"{world.double.bot_user.mention} hi"]


async def test_dynamic_item_survives_a_new_bot_instance(world: World) -> None:
    """A DynamicItem button posted by one bot instance still works when a fresh instance is connected."""
    first = DoubleBot()
    async with running_bot(first):
        await (await world.alice.slash(world.games, "counter")).response()
        msg = world.double.last_message(world.games)
        await (await world.alice.click(msg, "dbl:count:0")).response()
        assert msg.content == "count 1"
    second = DoubleBot()
    async with running_bot(second):
        await (await world.bob.click(msg, "dbl:count:1")).response()
    assert msg.content == "count 2" and msg.component("dbl:count:2")["label"] == "Count 2"
    assert world.double.gateway.identifies == 2


async def test_rate_limit_is_retried_transparently(world: World, bot: DoubleBot) -> None:
    """A one-off 429 with retry-after is retried by discord.py and the message still lands."""
    fault = world.double.fail_once("POST", r"^/channels/\d+/messages$", status=429, retry_after=0.01)
    channel = bot.get_channel(world.games.id)
    assert isinstance(channel, discord.TextChannel)
    await channel.send("after a 429")
    assert fault.hits == 1
    assert world.double.last_message(world.games).content == "after a 429"
    statuses = [r.status for r in world.double.requests if r.path == f"/channels/{world.games.id}/messages"]
    assert statuses == [429, 200]


async def test_attachments_keep_bytes_and_filename(world: World, bot: DoubleBot) -> None:
    """A multipart message keeps each file's bytes and name, and the attachment URL serves them."""
    channel = bot.get_channel(world.games.id)
    assert isinstance(channel, discord.TextChannel)
    sent = await channel.send("board", file=discord.File(__import__("io").BytesIO(b"\x89PNG-data"), "board.png"))
    stored = world.double.last_message(world.games).attachments[0]
    assert (stored.filename, stored.data) == ("board.png", b"\x89PNG-data")
    assert await sent.attachments[0].read() == b"\x89PNG-data"


async def test_dropped_gateway_resumes_and_replays_missed_events(world: World, bot: DoubleBot) -> None:
    """After the double drops the socket, the client RESUMEs and receives what was sent meanwhile."""
    resumed: list[int] = []

    async def on_shard_resumed(shard_id: int) -> None:
        resumed.append(shard_id)

    bot.add_listener(on_shard_resumed)
    assert world.double.drop_connection() == 1
    await world.alice.dm_bot("while away")
    await world.double.wait_for(lambda: bot.game_cog.dms_seen == ["while away"] and resumed == [0], timeout=5)
    (session,) = world.double.gateway.live_sessions()
    assert session.resumes == 1 and world.double.gateway.identifies == 1


async def test_original_and_followups_can_be_edited_and_deleted(world: World, bot: DoubleBot) -> None:
    """edit_original_response, follow-up edit and follow-up delete go through the webhook routes."""
    r = await world.alice.slash(world.games, "progress")
    assert (await r.response()).content == "step 1"
    await r.wait_followups(2)
    await world.double.wait_for(lambda: r.followups[1].deleted)
    original = r.original
    assert original is not None and original.content == "step 2"
    assert [h["content"] for h in original.history] == ["step 1"]
    assert r.followups[0].content == "extra edited" and r.followups[1].ephemeral
    assert [m.content for m in world.double.messages(world.games)] == ["step 2", "extra edited"]


async def test_slash_command_in_a_dm(world: World, bot: DoubleBot) -> None:
    """A global command used in the bot's DM channel carries `user` instead of `member` and answers there."""
    dm = world.double.dm_channel(world.alice)
    resp = await (await world.alice.slash(dm, "newgame", game="poker")).response()
    assert resp.embeds[0]["title"] == "New poker"
    assert world.double.last_message(dm).embeds[0]["title"] == "New poker"

"""The social mode's official medium when the bot cannot post there: ``/config medium`` refuses such a channel, the
start refuses a medium whose permissions changed since, and a running game's posts that Discord refuses (or whose
medium was deleted) appear in the game's channel, the player told where (never "posted to the medium")."""

from __future__ import annotations

from bot.guild_config import get_config
from bot.reach import cannot_post
from tests.discord_double import User
from tests.discord_double.permissions import EMBED_LINKS, SEND_MESSAGES
from tests.e2e.conftest import World, refusal, settled
from tests.e2e.social import medium_posts, open_and_fill, six_players, start_game, statuses

POSTED_HERE = "There is no official medium I can post in, so this was posted in the game's channel"


async def anonymous_post(world: World, player: User, text: str) -> str:
    """``player`` posts ``text`` anonymously with the table's button and form; the private answer's text."""
    post = await player.click(statuses(world)[-1], label="Anonymous post")
    assert (await post.response()).modal is not None
    (saved, *_) = await (await player.submit_modal(post, {"text": text})).wait_followups(1)
    await settled(world)
    assert saved.ephemeral, saved.content
    return str(saved.content)


async def medium_setting(world: World) -> int | None:
    """The server's ``/config medium`` as stored."""
    async with world.sessions() as session:
        return (await get_config(session, world.guild.id)).medium_channel_id


async def test_a_medium_the_bot_cannot_post_in_is_refused_by_config_medium(world: World) -> None:
    world.double.set_bot_channel_permissions(world.medium, deny=SEND_MESSAGES | EMBED_LINKS)
    async with world.running():
        configured = await (await world.admin.slash(world.games, "config medium", channel=world.medium)).response()
        assert configured.ephemeral and configured.content == (
            f"⛔ I cannot post in <#{world.medium.id}>: I lack the Send Messages permission there. Give it "
            "to me, or pick another channel. Nothing was saved."), configured.content
        assert (await medium_setting(world)) is None


async def test_the_start_refuses_a_medium_the_bot_can_no_longer_post_in(world: World) -> None:
    bot = world.bot()
    async with world.running(bot):
        players = await six_players(world)
        await (await world.admin.slash(world.games, "config medium", channel=world.medium)).response()
        lobby = await open_and_fill(world, players)
        world.double.set_bot_channel_permissions(world.medium, deny=SEND_MESSAGES)
        await world.double.wait_for(lambda: cannot_post(bot.get_channel(world.medium.id)), what="CHANNEL_UPDATE")
        refused = await refusal(await players[0].click(lobby, label="Start"))
        await settled(world)
        assert refused == (f"⛔ I cannot post in the official medium <#{world.medium.id}> (I lack the Send Messages "
                           "permission there), so the game cannot start: a server manager must give it to me, or "
                           "name another channel with /config medium."), refused
        table = await world.tables.table_in_channel(world.games.id)
        assert table is not None and table.status == "lobby"


async def test_a_post_the_medium_refuses_appears_in_the_game_channel_and_the_player_is_told(world: World) -> None:
    bot = world.bot()
    async with world.running(bot):
        players = await six_players(world)
        await start_game(world, players)
        world.double.set_bot_channel_permissions(world.medium, deny=SEND_MESSAGES)
        await world.double.wait_for(lambda: cannot_post(bot.get_channel(world.medium.id)), what="CHANNEL_UPDATE")
        assert (await anonymous_post(world, players[1], "Someone here lies.")).startswith(POSTED_HERE)
        assert any(r.status == 403 for r in world.double.requests)  # Discord refused it in the medium...
        assert not [m for m in medium_posts(world) if "Someone here lies." in str(m.embeds)]
        assert [m for m in world.bot_messages() if "Someone here lies." in str(m.embeds)]  # ...not lost


async def test_a_deleted_medium_is_cleared_and_its_games_told_where_posts_go(world: World) -> None:
    async with world.running():
        players = await six_players(world)
        await start_game(world, players)
        world.double.delete_channel(world.medium)
        notice = "📰 The official medium channel was deleted"
        await world.double.wait_for(lambda: any(m.content.startswith(notice) for m in world.bot_messages()),
                                    what="the notice in the game's channel")
        await settled(world)
        assert (await medium_setting(world)) is None  # a social lobby now says "no official medium yet"
        assert (await anonymous_post(world, players[2], "I saw it all.")).startswith(POSTED_HERE)
        assert [m for m in world.bot_messages() if "I saw it all." in str(m.embeds)]

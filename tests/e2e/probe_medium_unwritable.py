"""Probe: the official medium set to a channel the bot may not post in. ``/config medium`` takes it, the social
game starts on it, and every medium post (the start's, anonymous posts, letters, notes) is refused by Discord and
given up: the game is played with its medium silently empty. ``/config lobbyrole`` refuses a role the bot could not
ping; the medium should likewise be refused (or the start), saying what to fix."""

from __future__ import annotations

from tests.discord_double.permissions import SEND_MESSAGES
from tests.e2e.conftest import World, settled
from tests.e2e.social import medium_posts, open_and_fill, six_players, statuses


async def test_a_medium_the_bot_cannot_post_in_is_refused(world: World) -> None:
    world.double.set_bot_channel_permissions(world.medium, deny=SEND_MESSAGES)
    async with world.running():
        players = await six_players(world)
        configured = await (await world.admin.slash(world.games, "config medium", channel=world.medium)).response()
        lobby = await open_and_fill(world, players)
        started = await (await players[0].click(lobby, label="Start")).response()
        await settled(world)
        table = await world.tables.table_in_channel(world.games.id)
        if table is not None and table.status == "active":  # it started: an anonymous post, as a player makes one
            post = await players[1].click(statuses(world)[-1], label="Anonymous post")
            assert (await post.response()).modal is not None
            (saved, *_) = await (await players[1].submit_modal(post, {"text": "Someone here lies."})).wait_followups(1)
            assert saved.ephemeral and "⛔" not in saved.content, saved.content  # told it was posted
            await world.double.wait_for(lambda: any(r.status == 403 for r in world.double.requests),
                                        what="Discord refusing the medium post")
            assert not medium_posts(world)  # ...and the medium stays empty
        refused = [(r.method, r.path, r.status) for r in world.double.requests if r.status == 403]
        assert "⛔" in (configured.content or "") or (table is not None and table.status == "lobby"), (
            configured.content, started.content, table and table.status, refused)

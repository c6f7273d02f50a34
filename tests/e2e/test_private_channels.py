"""A game played in a private channel (a staff room only some members can view) is shown only to who can view that
channel: ``/history`` (the list, the autocomplete, one game's timeline with every secret) and ``/games``. Once
the channel is deleted, only members with Manage Server are shown its games (:mod:`bot.members`)."""

from __future__ import annotations

import pytest

from bot.i18n import catalog
from tests.discord_double import Channel, User
from tests.discord_double.permissions import README_MINIMAL, VIEW_CHANNEL
from tests.e2e.conftest import World, refusal, settled
from tests.e2e.test_foundation import open_lobby, status_messages
from tests.e2e.test_history import play_to_the_end

pytestmark = pytest.mark.usefixtures("potato")


def staff_room(world: World, *members: User) -> Channel:
    """A text channel only ``members`` (and the bot) can view, the game channel from then on."""
    allow = [{"id": str(u.id), "type": 1, "allow": str(VIEW_CHANNEL), "deny": "0"} for u in members]
    staff = world.guild.add_text_channel("staff", overwrites=[
        {"id": str(world.guild.id), "type": 0, "allow": "0", "deny": str(VIEW_CHANNEL)},
        {"id": str(world.double.bot_user.id), "type": 1, "allow": str(README_MINIMAL), "deny": "0"}, *allow])
    world.games = staff
    return staff


async def start_in(world: World, staff: Channel) -> int:
    """alice's two-player game with bob in ``staff``, started: its id."""
    lobby = await open_lobby(world, passes=1)
    await (await world.players[1].click(lobby, label="Join")).response()
    await (await world.players[0].click(lobby, label="Start")).response()
    await world.double.wait_for(lambda: status_messages(world), what="the table")
    table = await world.tables.table_in_channel(staff.id)
    assert table is not None
    return table.id


async def listed(world: World, user: User, channel: Channel) -> str:
    """The description of ``user``'s ``/history`` list."""
    return (await (await user.slash(channel, "history")).response()).embeds[0]["description"]


async def timeline(world: World, user: User, channel: Channel, game_id: int) -> str:
    handle = await user.slash(channel, "history", game=game_id)
    (shown, *_) = await handle.wait_followups(1)
    return shown.text


async def test_a_private_channels_finished_game_is_shown_only_to_who_can_view_that_channel(world: World) -> None:
    alice, bob, carol = world.players[:3]
    public = world.games
    staff = staff_room(world, alice, bob)
    assert not world.guild.member(carol).permissions(staff) & VIEW_CHANNEL
    async with world.running():
        game_id = await start_in(world, staff)
        await play_to_the_end(world, game_id)
        secret = (await world.tables.load(game_id)).state.seats[0].secret
        assert f"secret number is {secret}" in await timeline(world, alice, public, game_id)  # (asked elsewhere)
        assert f"**#{game_id}**" in await listed(world, alice, public)
        refused = await refusal(await carol.slash(public, "history", game=game_id))
        assert refused == "⛔ " + catalog("en").render("history.not_visible", id=game_id)
        assert f"#{game_id}" not in await listed(world, carol, public)
        choices = (await (await carol.autocomplete(public, "history", "game", game="")).response()).choices
        assert choices == []
        alices = (await (await alice.autocomplete(public, "history", "game", game="")).response()).choices
        assert [c["value"] for c in alices] == [game_id]


async def test_a_deleted_channels_games_are_shown_only_to_server_managers(world: World) -> None:
    alice, bob = world.players[:2]
    public = world.games
    staff = staff_room(world, alice, bob)
    async with world.running():
        game_id = await start_in(world, staff)
        await play_to_the_end(world, game_id)
        assert "⛔" in await refusal(await world.admin.slash(public, "history", game=game_id))  # cannot view #staff
        del world.double.channels[staff.id], world.guild.channels[staff.id]  # a manager deletes #staff
        world.double._dispatch_guild(world.guild, "CHANNEL_DELETE", staff.payload())
        await settled(world)
        assert f"**#{game_id}**" in await listed(world, world.admin, public)
        assert "secret number is" in await timeline(world, world.admin, public, game_id)
        assert "⛔" in await refusal(await alice.slash(public, "history", game=game_id))  # who played it: not a manager


async def test_games_lists_a_private_channels_game_only_to_who_can_view_that_channel(world: World) -> None:
    alice, bob, carol = world.players[:3]
    public = world.games
    staff = staff_room(world, alice, bob)
    async with world.running():
        await start_in(world, staff)
        shown = (await (await carol.slash(public, "games")).response()).embeds[0]["description"]
        assert "<#" not in shown  # (no game listed)
        shown = (await (await alice.slash(public, "games")).response()).embeds[0]["description"]
        assert f"<#{staff.id}>" in shown

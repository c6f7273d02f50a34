"""Cereal Killer with a Killer whose DMs are closed, through the Discord double: everything a DM carries is done
from My secrets (the route in a modal, refused privately with its reason; the answers as buttons), and a Killer
who sends no route is walked by the turn timer (a random legal turn, announced only as a timeout)."""

from __future__ import annotations

from typing import Any

from bot.tables import Table
from tests.discord_double import StoredMessage, User
from tests.e2e.conftest import World, refusal, stored
from tests.support.newgame import newgame

ROUTE = "3 8 13 12 victim 3 witness 2"  # City A: House 3 -> 8 -> 13 -> Park 12; the Witness goes to Park 2


async def game(world: World, version: int = 0) -> Table:
    """The channel's started game once its version reached ``version`` (the bot may commit after answering)."""
    found: list[Table] = []

    async def reached() -> bool:
        table = await world.tables.table_in_channel(world.games.id)
        found[:] = [table] if table is not None and table.state is not None and table.version >= version else []
        return bool(found)

    await stored(world, reached, f"the game at version {version}")
    return found[0]


async def armed(world: World, table: Table) -> None:
    """Wait until the bot armed the turn timer of ``table``'s version (it does so after the commit)."""

    async def timer_armed() -> bool:
        return any(t.kind == "turn_timeout" and t.payload.get("version") == table.version
                   for t in await world.tables.pending_timers(table.id))

    await stored(world, timer_armed, f"the turn timer of version {table.version}")


def control(world: World, version: int, name: str) -> tuple[StoredMessage, str] | None:
    """The newest #games message with the game component ``name`` drawn at ``version``, and its custom id."""
    for message in reversed(world.bot_messages()):
        for component in message.walk_components():
            ident = component.get("custom_id", "")
            if f":{version}:{name}:" in ident:
                return message, ident
    return None


async def use(world: World, user: User, name: str, values: list[str] | None = None) -> Table:
    """``user`` uses the current ``name`` control of the table; returns the game after the move."""
    version = (await game(world)).version
    message, ident = await world.double.wait_for(lambda: control(world, version, name), what=name)
    handle = await (user.click(message, ident) if values is None else user.select(message, ident, values))
    await handle.response()
    return await game(world, version + 1)


async def my_secrets(world: World, user: User) -> StoredMessage:
    """``user`` presses My secrets in #games; returns the ephemeral panel only they see."""
    message = await world.double.wait_for(lambda: next((m for m in reversed(world.bot_messages())
                                                        if any(b.get("label") == "My secrets" for b in m.buttons())),
                                                       None), what="a My secrets button")
    response = await (await user.click(message, label="My secrets")).response()
    assert response.ephemeral and response.message is not None
    return response.message


def public_text(world: World) -> str:
    return "\n".join([m.text for m in world.bot_messages()]
                     + [a.description or "" for m in world.bot_messages() for a in m.attachments])


async def send_route(user: User, panel: StoredMessage, route: str) -> Any:
    opened = await user.click(panel, label="Send my route")
    assert (await opened.response()).modal is not None
    return await user.submit_modal(opened, {"route": route})


async def test_a_killer_with_closed_dms_plays_from_my_secrets_and_is_walked_when_absent(world: World) -> None:
    """Closed DMs: the route goes in a modal from My secrets (a bad one is refused privately with its reason and
    changes nothing), the direction answer is a button there; on day 2 the Killer sends nothing and the turn timer
    walks it on a random legal turn, announced only as a timeout; no route is ever public."""
    alice, bob = world.players[:2]
    world.double.close_dms(alice)
    async with world.running():
        handle = await newgame(alice, world.games, "cereal_killer", "classic")
        await handle.response()
        lobby = await handle.wait_original()
        assert lobby is not None
        await (await bob.click(lobby, label="Join")).response()
        await (await alice.click(lobby, label="Start")).response()
        started = await game(world)

        panel = await my_secrets(world, alice)
        assert "your route is due" in panel.text
        refused = await send_route(alice, panel, "3 9 8 7")
        assert await refusal(refused) == ("⛔ 3 is not next to 9.\n"
                                          "Here is what you wrote, to copy and send again when you can:")
        answer = await refused.response()
        kept = (await refused.wait_followups(1))[0].embeds if answer.deferred else answer.embeds
        assert [e["description"] for e in kept] == ["```\n3 9 8 7\n```"]  # the route to copy and fix
        assert '"banana"' in await refusal(await send_route(alice, panel, "3 8 banana"))
        assert (await game(world)).version == started.version  # nothing changed
        accepted = await send_route(alice, panel, ROUTE)
        (confirmation, *_) = await accepted.wait_followups(1)
        assert confirmation.ephemeral and "3 → 8 → 13 → 12" in confirmation.text and confirmation.attachments
        table = await game(world, started.version + 1)
        assert table.state.killer == 12

        await use(world, bob, "place", ["7"])
        await use(world, bob, "step", ["2"])
        asked = await use(world, bob, "ask", ["direction"])
        assert asked.state.pending is not None
        panel = await my_secrets(world, alice)
        assert [b["label"] for b in panel.buttons()] == ["South"]
        await (await alice.click(panel, label="South")).response()
        answered = await game(world, asked.version + 1)
        assert answered.state.answers[-1].answer == "south"
        await world.double.wait_for(lambda: not panel.components, what="the used answer buttons to go")
        day_two = await use(world, bob, "end")
        assert (day_two.state.day, day_two.state.phase) == (2, "killer")

        await armed(world, day_two)
        world.clock.advance(seconds=301)  # the turn time (300 s) passes without a route
        walked = await game(world, day_two.version + 1)
        assert walked.state.phase == "detective" and len(walked.state.routes) == 2
        await world.double.wait_for(lambda: "ran out of time" in public_text(world), what="the timeout notice")
        text = public_text(world)
        for route in walked.state.routes:
            assert " → ".join(map(str, route)) not in text
        panel = await my_secrets(world, alice)
        assert " → ".join(map(str, walked.state.routes[-1])) in panel.text

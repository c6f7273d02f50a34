"""Verdugo end to end through the Discord double: a 5-player open match with a known seed. Round 1 (Executioner
alice): every prisoner acts from the ephemeral Swap/Peek menu, alice names dave and confirms with Chop, dave's
Shield passes the axe to erin, who holds a Pardon: the Saboteurs win. Round 2 (Executioner bob) is a safe round:
erin is chopped (and her clicks are refused: she is dead), bob stops, the host ends the match; the Crowns are
right at the end. carol's DMs are closed: she reads her role through "My secrets"."""

from __future__ import annotations

from typing import Any

import pytest

from bot.i18n import t
from bot.tables import TableService
from tests.discord_double import StoredMessage, User
from tests.e2e.conftest import World, refusal, table_log, until_delivered
from tests.support.newgame import newgame

#: a seed (found once by simulation) whose round 1 deals dave a Shield beside erin's Pardon, draws Scaffold cards
#: without choices, and whose round 2 lets bob execute erin (a Fancy Hat) and stop safely
SEED = 630
ALICE, BOB, CAROL, DAVE, ERIN = range(5)


@pytest.fixture
def verdugo_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(TableService, "new_seed", staticmethod(lambda: SEED))


def controls(world: World) -> list[list[str]]:
    """The custom ids (split on ":") of every game control in the channel: ``coroner:g|s:<game>:<version>:...``."""
    return [parts for m in world.bot_messages() for c in m.walk_components()
            if len(parts := c.get("custom_id", "").split(":")) > 4 and parts[1] in ("g", "s")]


async def current(world: World) -> Any:
    """The match as stored now (the game of the channel's controls, open or finished)."""
    return await world.tables.load(int(controls(world)[-1][2]))


def drawn_at(world: World) -> int:
    """The newest table version any game control in the channel was drawn at."""
    return max((int(parts[3]) for parts in controls(world)), default=0)


async def settle(world: World, version: int) -> None:
    """Wait until the controls of a later version than ``version`` are on the table (or the match is over)."""
    await world.double.wait_for(lambda: drawn_at(world) > version or any(
        "Game over" in m.text for m in world.bot_messages()), what=f"the table after version {version}")


async def control(world: World, name: str) -> tuple[StoredMessage, str]:
    """The public message holding the game control ``name`` drawn at the table's current version."""
    version = (await current(world)).version

    def find() -> tuple[StoredMessage, str] | None:
        for message in reversed(world.bot_messages()):
            for c in message.walk_components():
                ident = c.get("custom_id", "")
                if ident.split(":")[3:5] == [str(version), name]:
                    return message, ident
        return None

    return await world.double.wait_for(find, what=f"the {name} control at version {version}")


async def use(world: World, user: User, name: str, values: list[str] | None = None, arg: str | None = None) -> None:
    """``user`` uses the control ``name`` (a select with ``values``, or the button whose arg is ``arg``); waits for
    the table to move on."""
    version = (await current(world)).version
    message, ident = await control(world, name)
    if arg is not None:
        ident = ident.rsplit(":", 1)[0] + f":{arg}"
    handle = await (user.select(message, ident, values) if values is not None else user.click(message, ident))
    await handle.response()
    await settle(world, version)


async def act(world: World, user: User, positions: list[str]) -> None:
    """A prisoner opens the ephemeral menu and picks one position (Peek) or two (Swap)."""
    version = (await current(world)).version
    message, ident = await control(world, "act")
    menu = await (await user.click(message, ident)).response()
    assert menu.ephemeral and menu.message is not None
    select = next(c["custom_id"] for c in menu.message.walk_components() if ":positions:" in c.get("custom_id", ""))
    await (await user.select(menu.message, select, positions)).response()
    await settle(world, version)


async def chop(world: World, executioner: User, target: int) -> None:
    """The Executioner names ``target`` and confirms with the ephemeral Chop button."""
    version = (await current(world)).version
    message, ident = await control(world, "target")
    confirm = await (await executioner.select(message, ident, [str(target)])).response()
    assert confirm.ephemeral and confirm.message is not None
    assert [b["label"] for b in confirm.message.buttons()] == [f"Chop {world.players[target].global_name}"]
    await (await executioner.click(confirm.message, label=confirm.message.buttons()[0]["label"])).response()
    await settle(world, version)


async def start_table(world: World, players: list[User], **options: Any) -> None:
    """``players[0]`` opens a classic Verdugo table (seat 0 the first Executioner, plus ``options``), the others
    join in order and the host starts it; returns once the table's first controls are shown."""
    host, *others = players
    handle = await newgame(host, world.games, "verdugo", "classic", first_executioner=0, **options)
    await handle.response()
    lobby = await handle.wait_original()  # /newgame may answer after a deferral ("thinking")
    assert lobby is not None
    for user in others:
        await (await user.click(lobby, label="Join")).response()
    await (await host.click(lobby, label="Start")).response()
    await world.double.wait_for(lambda: controls(world), what="the table's first controls")


async def action_phase(world: World, executioner: User, order: list[int]) -> None:
    await use(world, executioner, "draw")
    for seat in order:
        await use(world, executioner, "call", [str(seat)])
        await act(world, world.players[seat], [str(seat)])
    await use(world, executioner, "draw")


async def test_five_players_shield_chain_saboteur_win_then_a_safe_round(world: World, verdugo_seed: None) -> None:
    alice, bob, carol, dave, erin = world.players
    world.double.close_dms(carol)
    async with world.running():
        await start_table(world, [alice, bob, carol, dave, erin], match="open")
        await world.double.wait_for(lambda: all(u.dms() for u in (bob, dave, erin)), what="the roles by DM")
        table = await current(world)
        assert [s.user_id for s in table.seats] == [u.id for u in world.players]
        roles = table.state.round.roles
        assert "Your role" in bob.dms()[0].text  # the Executioner gets no role (only the start notice):
        assert not any("Your role" in m.text for m in alice.dms())
        fallback = await world.double.wait_for(lambda: next((m for m in world.bot_messages()
                                                             if carol.mention in m.content), None))
        secret = await (await carol.click(fallback, label="My secrets")).response()
        assert secret.ephemeral and "verdugo.role" not in str(secret.embeds)
        role_word = {"loyalist": "Loyalist", "saboteur": "Saboteur", "princess": "Princess", "jester": "Jester"}
        assert role_word[roles[CAROL]] in str(secret.embeds)

        # round 1: alice executes
        await action_phase(world, alice, [BOB, CAROL, DAVE, ERIN])
        assert "not your turn" in await refusal(await bob.select(*(await control(world, "target")), ["1"]))
        await chop(world, alice, DAVE)
        table = await current(world)
        assert table.state.round.phase == "shield" and table.state.round.shield_candidates == [ERIN, CAROL]
        await use(world, dave, "chop", arg=str(ERIN))
        table = await current(world)
        assert table.state.round.ending == "saboteurs" and table.state.crowns == [4, 5, 8, 5, 4]
        assert any("Saboteurs win" in m.text for m in world.bot_messages())
        await use(world, alice, "successor", [str(BOB)])

        # round 2: bob executes; erin dies and is silenced
        await action_phase(world, bob, [CAROL, DAVE, ERIN, ALICE])
        await chop(world, bob, ERIN)
        message, ident = await control(world, "stop")
        assert "You are dead" in await refusal(await erin.click(message, ident))
        await use(world, bob, "stop")
        table = await current(world)
        assert table.state.round.ending == "safe" and table.state.phase == "successor"
        assert "Only the host" in await refusal(await bob.click(*(await control(world, "end_match"))))
        await use(world, alice, "end_match")
        table = await current(world)
        assert table.status == "finished" and table.state.crowns == [4, 6, 9, 6, 3]
        assert table.outcome is not None and table.outcome.winners == [CAROL]
        final = world.bot_messages()[-1].text
        assert "Carol: 9 Crowns" in final

        board = await (await alice.slash(world.games, "leaderboard", {"game": "verdugo"})).response()
        assert "9 Crowns" in board.embeds[0]["description"] and "point" not in board.embeds[0]["description"]


async def test_an_absent_table_never_stalls(world: World, verdugo_seed: None) -> None:
    """Nobody clicks: at each turn timeout the bot draws for the Executioner, calls a prisoner for him, and makes
    the called prisoner's action as its computer player would (ruling B-1), announcing each move."""
    alice, bob, carol, dave = world.players[:4]
    async with world.running():
        await start_table(world, [alice, bob, carol, dave])
        for _ in range(6):  # (the Executioner's seat goes to the computer after his second timeout: a step too)
            table = await current(world)
            if table.state.round.acted:
                break
            world.clock.advance(seconds=301)
            await settle(world, table.version)
        table = await current(world)
        assert table.state.round.drawn and table.state.round.acted
        texts = [m.text for m in world.bot_messages()]
        assert any("ran out of time" in t for t in texts)


async def test_each_rounds_reveal_stays_in_its_own_message_and_old_tables_wait_on_nobody(
        world: World, verdugo_seed: None) -> None:
    """Issue 21: round 1's reveal is a message of its own that round 2's table does not overwrite (round 2 gets a
    new message), and no table the game moved away from still says "Waiting on"."""
    alice, bob, carol, dave, erin = world.players
    async with world.running():
        await start_table(world, [alice, bob, carol, dave, erin], match="open")
        await action_phase(world, alice, [BOB, CAROL, DAVE, ERIN])
        await chop(world, alice, DAVE)
        await use(world, dave, "chop", arg=str(ERIN))
        reveal = await world.double.wait_for(lambda: next(
            (m for m in world.bot_messages() if "Round 1 revealed" in m.text), None), what="round 1's reveal")
        await use(world, alice, "successor", [str(BOB)])
        await use(world, bob, "draw")
        await world.double.wait_for(lambda: "Round 1 revealed" not in world.bot_messages()[-1].text,
                                    what="round 2's own table message")
        assert "Round 1 revealed" in reveal.text and not list(reveal.walk_components())  # (edits apply in place)
        tables = [m for m in world.bot_messages() if m.embeds]
        assert tables[-1].id != reveal.id
        assert [m.id for m in tables if "Waiting on" in m.content] == [tables[-1].id]


async def test_twin_display_names_are_told_apart_on_the_table_in_the_menus_and_the_log(
        world: World, verdugo_seed: None) -> None:
    """Issue 21: bob and carol both go by "Alex": the table, the Executioner's "call" menu, the chop confirmation
    and the move log show "Alex (bob)" and "Alex (carol)", never a bare "Alex" twice."""
    alice, bob, carol, dave, erin = world.players
    bob.global_name = carol.global_name = "Alex"
    async with world.running():
        await start_table(world, [alice, bob, carol, dave, erin], match="open")
        await use(world, alice, "draw")
        message, ident = await control(world, "call")
        labels = [o["label"] for c in message.selects() for o in c.get("options", [])]
        assert "Alex (bob)" in labels and "Alex (carol)" in labels and "Alex" not in labels
        assert "Alex (bob)" in message.text and "Alex (carol)" in message.text
        await use(world, alice, "call", [str(BOB)])
        assert "Alex (bob)" in world.bot_messages()[-1].text


async def test_a_peeks_card_is_the_answer_of_its_menu_not_a_dm(world: World, verdugo_seed: None) -> None:
    """Issue 20: a prisoner's Peek shows its card in the answer of the Swap/Peek menu that made it (ephemeral: only
    they see it) and sends no DM; "My secrets" keeps it; the table's log says only that they peeked."""
    alice, bob, carol, dave, erin = world.players
    async with world.running():
        await start_table(world, [alice, bob, carol, dave, erin])
        await use(world, alice, "draw")
        await use(world, alice, "call", [str(BOB)])
        await until_delivered(world)  # the Peek's step is then shown by its own move (bot.replies: no other task)
        before = len(bob.dms())
        version = (await current(world)).version
        message, ident = await control(world, "act")
        menu = await (await bob.click(message, ident)).response()
        assert menu.ephemeral and menu.message is not None
        select = next(c["custom_id"] for c in menu.message.walk_components() if ":positions:" in c.get("custom_id", ""))
        answer = await (await bob.select(menu.message, select, ["centre"])).response()
        await settle(world, version)
        table = await current(world)
        card = t(f"verdugo.object.{table.state.round.centre}")
        assert answer.message is not None and "You peek at" in answer.message.text
        assert card in answer.message.text and not list(answer.message.walk_components())
        assert len(bob.dms()) == before  # no DM repeats it
        secrets = await (await bob.click(world.bot_messages()[-1], label="My secrets")).response()
        assert card in str(secrets.embeds)
        peeked = [line for line in table_log(world.bot_messages()).splitlines() if "peeks at" in line]
        assert peeked and all(card not in line for line in peeked)

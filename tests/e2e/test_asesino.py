"""Asesino en Serie end to end through the Discord double: scripted players drive a whole tabletop game and a
whole 2-player game through the real components (buttons, ephemeral selects, modals), picking legal moves
from the dealt state read back from the database."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.i18n import catalog
from bot.tables import Table, TableService
from games.asesino.common import card_key
from games.core import Waiting
from tests.discord_double import StoredMessage, User
from tests.e2e.conftest import World, refusal

TITLE = "Asesino en Serie"



def status_messages(world: World) -> list[StoredMessage]:
    """The bot's table-status messages (not the lobbies, whose embed lists the players)."""
    return [m for m in world.bot_messages() if m.embeds and m.embeds[0].get("title", "").startswith(TITLE)
            and not any(f["name"].startswith("Players") for f in m.embeds[0].get("fields", []))]


def custom_id(message: StoredMessage, name: str) -> str:
    """The custom id of the component called ``name`` (``coroner:<g|s>:<game>:<version>:<name>:<arg>``)."""
    return next(c["custom_id"] for c in message.walk_components()
                if c.get("custom_id", "").split(":")[4:5] == [name])


async def open_and_start(world: World, mode: str, players: list[User], options: str | None = None) -> Table:
    host, *others = players
    given: dict[str, Any] = {"game": "asesino", "mode": mode}
    if options:
        given["options"] = options
    handle = await host.slash(world.games, "newgame", given)
    await handle.response()
    lobby = handle.original
    assert lobby is not None
    for user in others:
        await (await user.click(lobby, label="Join")).response()
    await (await host.click(lobby, label="Start")).response()
    await world.double.wait_for(lambda: status_messages(world), what="the first table status")
    table = await world.tables.table_in_channel(world.games.id)
    assert table is not None and table.status == "active"
    return table


def user_of(world: World, table: Table, seat: int) -> User:
    return next(u for u in world.players if u.id == table.user_of(seat))


async def play_one(world: World, table: Table, rng: random.Random) -> None:
    """The seat the game waits on makes one random legal move through the Discord components."""
    waiting = table.engine.waiting(table.state)
    seat, kind = waiting.seats[0], waiting.kind
    user = user_of(world, table, seat)
    status = status_messages(world)[-1]
    count = len(status_messages(world))
    action = rng.choice(table.engine.legal_actions(table.state, seat))
    if kind == "direction":
        await (await user.click(status, label="Clockwise" if action.clockwise else "Counter-clockwise")).response()
    elif action.type == "pass":
        await (await user.click(status, label="Pass")).response()
    else:
        handle = await user.click(status, custom_id=custom_id(status, "turn"))
        answer = await handle.response()
        if kind in ("statement", "last_words"):
            await (await user.submit_modal(handle, {"text": f"{user.username} speaks"})).response()
        else:
            panel = answer.message
            assert panel is not None and answer.ephemeral
            await answer_panel(user, panel, action)
    await world.double.wait_for(lambda: len(status_messages(world)) > count, what=f"the status after {action}")


async def answer_panel(user: User, panel: StoredMessage, action: Any) -> None:
    kind = action.type
    if kind == "declare":
        await (await user.select(panel, custom_id(panel, "card"), [action.card])).response()
        handle = await user.select(panel, custom_id(panel, "target"), [str(action.target)])
        assert (await handle.response()).modal is not None
        await (await user.submit_modal(handle, {"words": "trust me"})).response()
    elif kind == "accuse":
        value = "none" if action.target is None else str(action.target)
        await (await user.select(panel, custom_id(panel, "accuse"), [value])).response()
    elif kind == "order_effects":
        await (await user.select(panel, custom_id(panel, "order"), [",".join(action.order)])).response()
    elif kind == "play_card":
        await (await user.select(panel, custom_id(panel, "scard"), [action.card])).response()
        value = f"{action.column}.{action.declared}"
        await (await user.select(panel, custom_id(panel, "splay"), [value])).response()
    elif kind == "reveal":
        await (await user.select(panel, custom_id(panel, "reveal"), [str(action.column)])).response()
    elif kind in ("prosecutor_swap", "journalist_reveal", "accomplice_swap") and not (
            getattr(action, "slots", None) or getattr(action, "cards", None)):
        await (await user.click(panel, custom_id=custom_id(panel, "skip"))).response()
    elif kind in ("prosecutor_swap", "journalist_reveal"):
        name = "prosecutor" if kind == "prosecutor_swap" else "journalist"
        values = [f"{ref.column}.{ref.index}" for ref in action.slots]
        await (await user.select(panel, custom_id(panel, name), values)).response()
    else:
        options = [o["value"] for o in panel.component(custom_id(panel, "give"))["options"]]
        picked: list[str] = []
        for card in action.cards:
            picked.append(next(v for v in options if v.endswith("." + card) and v not in picked))
        await (await user.select(panel, custom_id(panel, "give"), picked)).response()
        await (await user.select(panel, custom_id(panel, "gtarget"), [str(action.target)])).response()


async def play_to_the_end(world: World, table_id: int, seed: int) -> Table:
    rng = random.Random(seed)
    service = world.tables
    for _ in range(200):
        table = await service.load(table_id)
        if table.status != "active":
            return table
        await play_one(world, table, rng)
    raise AssertionError("the game did not end")


async def test_tabletop_game_to_the_end(world: World) -> None:
    """Five players: everyone gets role and hand by DM, the evil pair learns each other, a wrong click changes
    nothing, and the game is played through buttons, selects and modals to the announced winner and scores."""
    async with world.running():
        table = await open_and_start(world, "tabletop", world.players)
        await world.double.wait_for(lambda: all(u.dms() for u in world.players), what="the intro DMs")
        for seat, player in enumerate(table.state.seats):
            dm = user_of(world, table, seat).dms()[0]
            assert dm.embeds[0]["title"] == f"Your role: {catalog('en').render(card_key(player.role))}"
            assert dm.embeds[0]["fields"][0]["name"] == "Your hand"
        evil = [s for s, p in enumerate(table.state.seats) if p.role in ("killer", "accomplice")]
        for seat in evil if len(evil) == 2 else []:
            await world.double.wait_for(lambda s=seat: any("The Killer is" in m.text
                                                           for m in user_of(world, table, s).dms()))

        first = status_messages(world)[-1]
        waiting_seat = table.engine.waiting(table.state).seats[0]
        bystander = next(u for u in world.players if u.id != table.user_of(waiting_seat))
        assert "not your turn" in await refusal(await bystander.click(first, label="Clockwise"))
        assert (await world.tables.load(table.id)).version == table.version

        final = await play_to_the_end(world, table.id, seed=7)
        outcome = final.outcome
        assert outcome is not None
        last = status_messages(world)[-1]
        assert last.embeds[-1]["title"] == "Game over"
        winners = ", ".join(final.seat_names(s)[0] for s in outcome.winners)
        assert last.embeds[-1]["fields"][0]["value"] == winners
        board = await world.tables.leaderboard(world.guild.id, "asesino")
        assert sorted(row.points for row in board) == sorted(outcome.scores.values())


async def test_eight_players_answer_every_prompt_kind(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """With a fixed deal (game seed 1) eight players meet the effect order, the press statement, the
    Prosecutor's accusation, last words and a murdered player's forced plays, each through its component."""
    monkeypatch.setattr(TableService, "new_seed", staticmethod(lambda: 1))
    extra = [world.double.add_user(n, display_name=n.title()) for n in ("frank", "grace", "heidi")]
    for user in extra:
        world.guild.add_member(user)
    world.players.extend(extra)
    async with world.running():
        table = await open_and_start(world, "tabletop", world.players)
        assert table.seed == 1
        final = await play_to_the_end(world, table.id, seed=1)
        assert final.outcome is not None
        log = "\n".join(m.content for m in status_messages(world))
        for expected in ("resolves the effects in this order", "tells the press: “", "speaks”",
                         "last words: “", "Prosecutor"):
            assert expected in log, expected


async def test_small_game_for_two_to_the_end(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two players play the 2-4 player mode to its end through the turn panel (cards, columns, reveals) and
    the effect panels (with a fixed deal, game seed 11: Accomplice, Prosecutor and Journalist all used)."""
    monkeypatch.setattr(TableService, "new_seed", staticmethod(lambda: 11))
    alice, bob = world.players[:2]
    async with world.running():
        table = await open_and_start(world, "small", [alice, bob])
        await world.double.wait_for(lambda: alice.dms() and bob.dms(), what="the intro DMs")
        assert "Your identity" in alice.dms()[0].text
        final = await play_to_the_end(world, table.id, seed=11)
        assert final.outcome is not None
        assert status_messages(world)[-1].embeds[-1]["title"] == "Game over"
        log = "\n".join(m.content for m in status_messages(world))
        assert "card(s) with" in log and "swaps card" in log and "turns face up" in log
        assert any("took" in m.text for u in (alice, bob) for m in u.dms())


async def test_turn_button_refuses_other_players(world: World) -> None:
    """"Take my turn" from someone the game is not waiting on is refused ephemerally and changes nothing."""
    alice, bob = world.players[:2]
    async with world.running():
        table = await open_and_start(world, "small", [alice, bob])
        seat = table.engine.waiting(table.state).seats[0]
        other = user_of(world, table, 1 - seat)
        status = status_messages(world)[-1]
        assert "not your turn" in await refusal(await other.click(status, custom_id=custom_id(status, "turn")))
        again = await world.tables.load(table.id)
        assert again.version == table.version and again.state == table.state


async def test_three_round_series_reopens_the_lobby_and_names_the_winner(world: World) -> None:
    """``rounds=3`` opens a series: after each round the standings are posted and the next lobby opens with the
    same players seated; after the third the series winner is named and /leaderboard's series scores add up."""
    alice = world.players[0]
    async with world.running():
        table = await open_and_start(world, "tabletop", world.players, options="rounds=3")
        series = table.series_id
        assert series is not None and "rounds" not in table.options
        points: dict[int, float] = {}
        for round_no in (1, 2, 3):
            final = await play_to_the_end(world, table.id, seed=round_no)
            assert final.outcome is not None
            for seat, score in final.outcome.scores.items():
                user = final.user_of(seat)
                assert user is not None
                points[user] = points.get(user, 0.0) + score
            standings = await world.double.wait_for(lambda r=round_no: next(
                (m for m in world.bot_messages() if m.embeds and m.embeds[0].get("title", "").startswith(
                    f"Series #{series}") and (f"round {r} of 3" in m.embeds[0]["title"] or r == 3
                                                        and "is over" in m.embeds[0]["title"])), None))
            over = status_messages(world)[-1]
            assert over.embeds[-1]["title"] == "Game over"
            assert world.bot_messages().index(standings) > world.bot_messages().index(over)
            if round_no == 3:
                break
            lobby = await world.double.wait_for(lambda r=round_no: next(
                (m for m in world.bot_messages() if m.content.startswith(f"Round {r + 1} of 3")), None))
            count = len(status_messages(world))
            await (await alice.click(lobby, label="Start")).response()
            await world.double.wait_for(lambda c=count: len(status_messages(world)) > c)
            table = await world.tables.table_in_channel(world.games.id)
            assert table is not None and table.status == "active" and table.user_ids() == final.user_ids()
        best = max(points.values())
        winners = sorted(final.seat_of(u) for u, p in points.items() if p == best)
        assert standings.embeds[0]["fields"][0]["value"] == ", ".join(final.seat_names(s)[0] for s in winners)
        board = await world.tables.leaderboard(world.guild.id, "asesino", series_id=series)
        assert {row.user_id: row.points for row in board} == points


async def test_an_idle_player_is_warned_then_the_bot_moves_for_them(world: World) -> None:
    """The first player's direction prompt has the prompt time (180 s): a warning at half time, then the bot's
    default move, announced publicly; the next turn then gets the turn time (300 s)."""
    async with world.running():
        table = await open_and_start(world, "tabletop", world.players)
        first = user_of(world, table, table.state.turn)
        assert table.engine.waiting(table.state) == Waiting.prompt(table.state.turn, "direction")
        world.clock.advance(seconds=89)
        world.clock.advance(seconds=2)
        warning = await world.double.wait_for(
            lambda: next((m for m in world.bot_messages() if "half of your time" in m.content), None))
        assert first.mention in warning.content
        assert (await world.tables.load(table.id)).version == table.version
        statuses = len(status_messages(world))
        world.clock.advance(seconds=90)
        auto = await world.double.wait_for(
            lambda: next((m for m in world.bot_messages() if "ran out of time" in m.content), None))
        assert first.mention in auto.content
        await world.double.wait_for(lambda: len(status_messages(world)) > statuses, what="the bot's move")
        moved = await world.tables.load(table.id)
        assert moved.version == table.version + 1 and moved.state.clockwise is True
        assert moved.engine.waiting(moved.state).kind == "turn"
        world.clock.advance(seconds=149)
        assert sum("half of your time" in m.content for m in world.bot_messages()) == 1
        world.clock.advance(seconds=2)
        await world.double.wait_for(lambda: sum("half of your time" in m.content for m in world.bot_messages()) == 2)


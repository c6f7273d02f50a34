"""The Asesino renderers: event lines name cards and players, the public table embeds never show a card that
is still hidden, DMs carry the role and hand, and the status components fit the waiting kind."""

from __future__ import annotations

import random
from datetime import UTC, datetime
from typing import Any

import discord
import pytest

from bot.cogs.asesino import render
from bot.cogs.asesino.small_ui import SmallUI
from bot.cogs.asesino.ui import TabletopUI
from bot.tables import Table
from bot.tables.model import TableSeat
from bot.ui import RenderContext
from games.asesino.common import ROLE_CARDS
from games.core import Audience, Event, SeatInfo, get_engine

NOW = datetime(2026, 1, 1, tzinfo=UTC)
CARD_NAMES = {"victim": "Victim", "detective": "Detective", "prosecutor": "Prosecutor", "journalist": "Journalist",
              "doctor": "Doctor", "killer": "Killer", "accomplice": "Accomplice", "good": "Good intentions",
              "bad": "Bad intentions"}


def make_table(mode: str, players: int, seed: int, state: Any = None) -> Table:
    engine = get_engine("asesino", mode)
    if state is None:
        state = engine.setup(engine.Options(), [SeatInfo(names=(f"p{i}",)) for i in range(players)], seed)
    seats = tuple(TableSeat(seat=i, user_id=100 + i, names=(f"Player{i}",)) for i in range(players))
    return Table(id=1, game="asesino", mode=mode, guild_id=1, channel_id=2, host_id=100, status="active", seed=seed,
                 options={}, version=3, language="en", series_id=None, lobby_message_id=None, table_message_id=None,
                 created_at=NOW, updated_at=NOW, finished_at=None, outcome=None, seats=seats, state=state,
                 engine=engine)


def embed_text(embed: discord.Embed) -> str:
    parts = [embed.title or "", embed.description or ""]
    parts += [f"{f.name} {f.value}" for f in embed.fields]
    return "\n".join(parts)


def public_cards(mode: str, view: dict[str, Any]) -> set[str]:
    """Card kinds the public view itself shows (revealed destinies, face-up cards, roles at the end)."""
    shown: set[str] = set((view.get("roles") or {}).values())
    if mode == "tabletop":
        shown |= {card for seat in view["seats"] for card in seat["revealed"]}
        shown |= set((view.get("resolving") or {}).get("effects", []))
    else:
        shown |= {slot["card"] for column in view["columns"] for slot in column["slots"] if slot["card"]}
    return shown


@pytest.mark.parametrize(("mode", "players", "seed"), [("tabletop", 5, 1), ("tabletop", 8, 2), ("tabletop", 10, 3),
                                                       ("small", 2, 4), ("small", 3, 5), ("small", 4, 6)])
def test_public_embed_never_names_a_hidden_card(mode: str, players: int, seed: int) -> None:
    """Through random legal games, every card name in the public table embed is one the public view shows."""
    table = make_table(mode, players, seed)
    engine, state, rng = table.engine, table.state, random.Random(seed)
    ui = TabletopUI() if mode == "tabletop" else SmallUI()
    for _ in range(300):
        view = engine.view(state, None)
        text = embed_text(ui.table_embed(RenderContext(make_table(mode, players, seed, state), "en"), view))
        named = {card for card, name in CARD_NAMES.items() if name in text}
        assert named <= public_cards(mode, view), (named, text)
        waiting = engine.to_act(state)
        if not waiting:
            break
        state = engine.apply(state, waiting[0], rng.choice(engine.legal_actions(state, waiting[0]))).state
    assert engine.outcome(state) is not None


@pytest.mark.parametrize(("key", "params", "expected"), [
    ("asesino.destiny.revealed", {"seat": 0, "cards": ["bad", "doctor", "good"]},
     "Player0's destiny is revealed: Bad intentions, Doctor, Good intentions."),
    ("asesino.declared", {"seat": 1, "target": 2, "words": "", "count": 2},
     "Player1 plays a card in front of Player2 (2/3): “…”"),
    ("asesino.small.played.bad", {"seat": 0, "column": 0, "count": 1},
     "Player0 plays a card in column 1 (1/3) and calls it bad."),
    ("asesino.over", {"side": "good", "reason": "asesino.end.survived", "roles": {}, "winners": [0]},
     "The game is over: fewer than three murders: the good intentions win."),
    ("asesino.intro.partners", {"killer": 3, "accomplice": 1},
     "The Killer is Player3 and the Accomplice is Player1. Keep it secret."),
    ("asesino.small.journalist_revealed", {"seat": 1, "cards": [{"column": 2, "index": 0, "card": "doctor"}]},
     "Player1 turns face up: column 3 card 1: Doctor."),
])
def test_event_lines_name_cards_players_and_columns(key: str, params: dict[str, Any], expected: str) -> None:
    """Card kinds, seats, 1-based columns and the end reason are put into words."""
    ctx = RenderContext(make_table("tabletop", 5, 1), "en")
    assert render.event_line(ctx, Event(key=key, params=params)) == expected


def test_intro_dm_shows_the_role_and_each_hand_card() -> None:
    """The start DM says once who you are (the title), what you hold (one card a line) and what to do next."""
    table = make_table("tabletop", 6, 9)
    ctx = RenderContext(table, "en")
    event = Event(key="asesino.intro.role", params={"role": "doctor", "hand": ["doctor", "good", "bad"]},
                  audience=Audience.to(0))
    embed = TabletopUI().private_event(ctx, 0, event).embeds[0]
    assert embed.title == "Your role: Doctor"
    assert embed.fields[0].value == "• Doctor\n• Good intentions\n• Bad intentions"
    assert embed.description.startswith("Keep it secret. When the table in <#")
    assert "Doctor" not in embed.description and "hand" not in embed.description.lower()


def test_own_play_is_never_dmd_but_a_swap_comes_with_the_fresh_hand() -> None:
    """Declaring or playing a card sends no DM (it would only repeat the move); a swap, which changes the hand,
    is DM'd with the hand as it is now."""
    assert {"asesino.you_declared", "asesino.small.you_played"} <= TabletopUI.echo_keys
    table = make_table("small", 2, 4)
    ctx = RenderContext(table, "en")
    event = Event(key="asesino.small.swap_theirs", params={"seat": 1, "lost": ["bad"], "got": ["good"]},
                  audience=Audience.to(0))
    out = SmallUI().private_event(ctx, 0, event)
    hand = table.engine.view(table.state, 0)["hand"]
    assert out.embeds[1].fields[0].value == "\n".join(f"• {CARD_NAMES[c]}" for c in hand)


def labels(items: list[Any]) -> list[str]:
    return [item.item.label for item in items]


def test_status_components_follow_the_waiting_kind() -> None:
    """Direction buttons first; then "Take my turn"; "Pass" when nobody can be played on."""
    table = make_table("tabletop", 5, 2)
    ui, engine = TabletopUI(), table.engine
    ctx = RenderContext(table, "en")
    assert labels(ui.turn_items(ctx, engine.view(table.state, None))) == ["Clockwise", "Counter-clockwise"]
    state = engine.apply(table.state, table.state.first, engine.legal_actions(table.state, table.state.first)[0]).state
    assert labels(ui.turn_items(ctx, engine.view(state, None))) == ["Take my turn"]
    blocked = state.model_copy(deep=True)
    for seat, player in enumerate(blocked.seats):
        player.sealed = seat != blocked.turn
    blocked.sealed_order = [seat for seat, player in enumerate(blocked.seats) if player.sealed]
    assert labels(ui.turn_items(ctx, engine.view(blocked, None))) == ["Pass"]


def test_small_table_shows_columns_and_the_register() -> None:
    """Six column fields; the register line counts murders out of three."""
    table = make_table("small", 3, 8)
    embed = SmallUI().table_embed(RenderContext(table, "en"), table.engine.view(table.state, None))
    assert [f.name for f in embed.fields][:6] == [f"Column {i}" for i in range(1, 7)]
    assert "Murder register 0/3" in (embed.description or "")


def test_role_cards_constant_matches_the_names() -> None:
    """The leak test checks every role card name."""
    assert set(ROLE_CARDS) <= set(CARD_NAMES)


@pytest.mark.parametrize(("key", "params"), [
    ("asesino.statement", {"seat": 0, "text": "It was <@101>, ask @everyone"}),
    ("asesino.last_words", {"seat": 0, "text": "It was <@101>, ask @everyone"}),
    ("asesino.declared", {"seat": 0, "target": 1, "count": 1, "words": "It was <@101>, ask @everyone"}),
])
def test_statements_last_words_and_declarations_show_mentions_neutralised(key: str, params: dict[str, Any]) -> None:
    """Issue 12: what a player says is shown to the table so that it can neither ping nor display a name."""
    ctx = RenderContext(make_table("tabletop", 5, 1), "en")
    line = render.event_line(ctx, Event(key=key, params=params))
    assert "<@101>" not in line and "@everyone" not in line
    assert "<\u200b@101>" in line and "@\u200beveryone" in line


def test_public_table_says_only_that_a_revealed_card_is_being_resolved_while_the_prosecutor_is_asked() -> None:
    """Ruling: "The public table never says that a Prosecutor is being asked": no name, no marker, nobody pinged."""
    from tests.games.asesino.support import table as build

    state = build(["victim", "detective", "prosecutor", "killer", "accomplice", "victim"],
                  fronts={0: [("prosecutor", 2), ("good", 2), ("good", 2)], 5: [("good", 2), ("good", 4)]},
                  sealed=[0], turn=1)
    engine = get_engine("asesino", "tabletop")
    state = engine.apply(state, 1, engine.parse_action({"type": "declare", "card": "good", "target": 5})).state
    table = make_table("tabletop", 6, 1, state)
    ctx = RenderContext(table, "en")
    text = embed_text(render.tabletop_embed(ctx, engine.view(state, None)))
    assert "Waiting on the effect of a revealed card." in text
    assert "Prosecutor" not in text.split("\n")[0] and "▶️" not in text
    waiting = engine.waiting(state)
    assert waiting is not None and waiting.hidden and waiting.seats == (2,)

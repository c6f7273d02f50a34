"""The Verdugo UI without Discord: every event in words (both languages), the table within Discord's limits with
eight 32-character names, the controls each decision offers, and public renders that never show a hidden card."""

from __future__ import annotations

import random
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from bot.cogs.verdugo import render
from bot.cogs.verdugo.ui import VerdugoUI, _action
from bot.i18n.catalog import load_language
from bot.tables import Table, TableSeat
from bot.ui import RenderContext
from games.core import SeatInfo
from games.verdugo import ENGINE
from games.verdugo.models import VerdugoOptions, VerdugoState

START = datetime(2026, 1, 1, tzinfo=UTC)
UI = VerdugoUI()
LONG = [f"{chr(65 + i)}{'x' * 31}" for i in range(8)]  # eight 32-character names


def table(state: VerdugoState, language: str = "en") -> Table:
    seats = tuple(TableSeat(seat=i, user_id=100 + i, names=(state.seats[i],)) for i in range(len(state.seats)))
    return Table(id=1, game="verdugo", mode="classic", guild_id=1, channel_id=2, host_id=100, status="active",
                 seed=state.seed, options={}, version=3, language=language, series_id=None, lobby_message_id=None,
                 table_message_id=None, created_at=START, updated_at=START, finished_at=None, outcome=None,
                 seats=seats, state=state, engine=ENGINE)


def random_match(seed: int, players: int = 8) -> list[tuple[VerdugoState, list[Any]]]:
    """(state, events) after every step of a random open match of two rounds, names 32 characters long."""
    state = ENGINE.setup(VerdugoOptions(match="open"), [SeatInfo(names=(n,)) for n in LONG[:players]], seed)
    rng = random.Random(seed)
    out = [(state, ENGINE.intro(state))]
    while state.phase != "over" and state.rounds_played < 2:
        seat = ENGINE.to_act(state)[0]
        step = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_actions(state, seat)))
        state = step.state
        out.append((state, step.events))
    return out


@pytest.mark.parametrize("language", ["en", "es"])
def test_every_event_renders_without_a_raw_key_or_placeholder(language: str) -> None:
    """All events of random matches render in words: no ``verdugo.`` key and no ``{name}`` left over."""
    for seed in range(6):
        for state, events in random_match(seed):
            ctx = RenderContext(table(state, language), language)
            for event in events:
                text = render.event_line(ctx, event)
                assert "verdugo." not in text and not re.search(r"\{[a-z_]+\}", text), (event, text)
                assert len(text) <= 1900


def test_table_and_controls_fit_discords_limits_with_long_names() -> None:
    """The table embed (6,000 in all, fields 1,024) and its controls (25 options, 5 rows) fit with 8 players."""
    for state, _ in random_match(3):
        ctx = RenderContext(table(state), "en")
        view = ENGINE.view(state, None)
        embed = UI.table_embed(ctx, view)
        assert len(embed) <= 6000 and len(embed.description or "") <= 4096
        assert all(len(f.value or "") <= 1024 for f in embed.fields)
        items = UI.turn_items(ctx, view)
        assert len(items) <= 4
        for item in items:
            options = getattr(item.item, "options", None)
            assert options is None or len(options) <= 25


def test_public_table_never_names_an_unrevealed_card() -> None:
    """Before REVEAL ALL, the table shows only the objects of executed prisoners (and roles death revealed)."""
    for state, _ in random_match(5, players=5):
        if state.round.phase == "over" or not state.round.roles:
            continue
        ctx = RenderContext(table(state), "en")
        lines = (UI.table_embed(ctx, ENGINE.view(state, None)).description or "").splitlines()
        for seat, line in enumerate(lines):
            if seat not in state.round.executed and seat not in state.round.dead:
                assert not any(ctx.t(f"verdugo.object.{o}") in line for o in ("pardon", "shield", "parasite")), line


def test_secrets_show_role_and_dealt_object_only_before_the_first_draw() -> None:
    """"My secrets": the role always; the dealt object only until the first Scaffold card."""
    state = ENGINE.setup(VerdugoOptions(first_executioner=0), [SeatInfo(names=(n,)) for n in LONG[:5]], 4)
    ctx = RenderContext(table(state), "en")
    embed = UI.secrets_embed(ctx, 1, ENGINE.view(state, 1))
    assert [f.name for f in embed.fields] == ["Your role", "Your dealt object (shown once)"]
    drawn = ENGINE.apply(state, 0, ENGINE.legal_actions(state, 0)[0]).state
    embed = UI.secrets_embed(RenderContext(table(drawn), "en"), 1, ENGINE.view(drawn, 1))
    assert "Your dealt object (shown once)" not in [f.name for f in embed.fields]


@pytest.mark.parametrize(("name", "arg", "values", "action"), [
    ("draw", "", [], {"type": "draw"}),
    ("positions", "", ["2"], {"type": "peek", "position": 2}),
    ("positions", "", ["centre", "3"], {"type": "swap", "a": "centre", "b": 3}),
    ("choose", "", ["1", "4"], {"type": "choose_pair", "a": 1, "b": 4}),
    ("chop", "3", [], {"type": "chop", "seat": 3}),
    ("direction", "left", [], {"type": "choose_direction", "direction": "left"}),
])
def test_controls_map_to_engine_actions(name: str, arg: str, values: list[str], action: dict[str, Any]) -> None:
    """Each control stands for exactly one engine action."""
    assert _action(name, arg, values) == action


SOURCES = [*Path("games/verdugo").glob("*.py"), *Path("bot/cogs/verdugo").glob("*.py")]
LITERAL = re.compile(r'"(verdugo\.[a-z_.]+[a-z_])"')


@pytest.mark.parametrize("language", ["en", "es"])
def test_every_key_the_game_uses_is_in_the_catalogue(language: str) -> None:
    """Literal keys in the engine and cog, and every card, role, object and event family, are translated."""
    from games.verdugo.cards import deck

    messages = load_language(language)
    used = {m for path in SOURCES for m in LITERAL.findall(path.read_text(encoding="utf-8"))}
    used = {k for k in used if not any(o.startswith(k + ".") for o in messages)}  # families such as verdugo.role
    used |= {f"verdugo.role.{r.id}" for r in deck().roles} | {f"verdugo.object.{o.id}" for o in deck().objects}
    used |= {f"verdugo.card.{c.id}" for c in deck().scaffold} | {f"verdugo.card_text.{c.id}" for c in deck().scaffold}
    used |= {f"verdugo.over.{r}" for r in ("tour_complete", "treasury_empty", "host_ended")}
    used |= {f"verdugo.escaped.{r}" for r in ("doll", "parasite", "shield", "test_cut")}
    used |= {f"verdugo.you.{k}" for k in ("peek", "secret_deal", "examination", "royal_inspection", "spy")}
    used |= {f"verdugo.match.{m}" for m in ("tour", "treasury", "open")}
    assert sorted(k for k in used if k not in messages) == []


#: one example of every event the engine makes, with the parameters it gives (rare ones random matches miss)
EXAMPLES = [
    ("verdugo.setup.need_safe", {"seat": 0}),
    ("verdugo.setup.set_aside", {"seat": 0, "object": "pardon", "drawn": "hat"}),
    ("verdugo.round.opened", {"round": 2, "seat": 1, "pardon_rule": True}),
    ("verdugo.scaffold.passed", {"card": "chain_gang", "direction": "right"}),
    ("verdugo.scaffold.picked", {"card": "spy", "seat": 0, "picked_seat": 2}),
    ("verdugo.you.spy", {"kind": "spy", "card": "princess", "position": None, "seat": 3}),
    ("verdugo.you.peek", {"kind": "peek", "card": "mimic", "position": "centre", "seat": None}),
    ("verdugo.reveal.object", {"seat": 2, "object": "mimic", "centre": "parasite"}),
    ("verdugo.shield.choose", {"seat": 1, "left_seat": 2, "right_seat": 4}),
    ("verdugo.crowns.stolen", {"seat": 3, "amount": 4, "crowns": 9}),
    ("verdugo.over.treasury_empty", {"crowns": 22, "winner_seats": [0]}),
]


@pytest.mark.parametrize(("key", "params"), EXAMPLES)
@pytest.mark.parametrize("language", ["en", "es"])
def test_rare_events_render_in_words(key: str, params: dict[str, Any], language: str) -> None:
    """Each event renders with cards, seats and positions in words."""
    from games.core import Event

    state = ENGINE.setup(VerdugoOptions(), [SeatInfo(names=(n,)) for n in LONG[:5]], 1)
    text = render.event_line(RenderContext(table(state, language), language), Event(key=key, params=params))
    assert "verdugo." not in text and not re.search(r"\{[a-z_]+\}", text) and "None" not in text, text


def test_after_reveal_all_the_table_shows_every_role_and_object() -> None:
    """Once the round is revealed, each prisoner's line names their role and object."""
    from games.verdugo.models import Chop, Stop
    from tests.games.verdugo.helpers import execution_table, play

    state = play(execution_table(["jester", "saboteur", "loyalist"], ["hat", "doll", "pardon"], "shield"),
                 (0, Chop(seat=2)), (0, Stop()))
    lines = (UI.table_embed(RenderContext(table(state), "en"), ENGINE.view(state, None)).description or "").split("\n")
    assert "Doll (Saboteur)" in lines[2] and "Pardon (Loyalist)" in lines[3] and "Fancy Hat (Jester)" in lines[1]


def test_only_a_rounds_reveal_asks_for_a_fresh_table_message() -> None:
    """The living table is edited in place, except at REVEAL ALL, which gets a new message."""
    from games.core import Event

    state = ENGINE.setup(VerdugoOptions(), [SeatInfo(names=(n,)) for n in LONG[:4]], 1)
    assert UI.fresh_table(table(state), [Event(key="verdugo.reveal.all", params={})])
    assert not UI.fresh_table(table(state), [Event(key="verdugo.chop", params={"seat": 1, "by_seat": 0})])
    # the reveal that ends the match edits the table into the result, which stays as it is (issue 20)
    assert not UI.fresh_table(table(state), [Event(key="verdugo.reveal.all", params={}),
                                             Event(key="verdugo.over.tour_complete", params={})])

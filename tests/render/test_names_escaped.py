"""Player names full of markdown (``*_~|>`` and backticks) show as typed everywhere: every message text escapes them
(one place, :meth:`bot.ui.RenderContext.name`), every component label shows them unescaped
(:meth:`bot.ui.RenderContext.label`). Played over a seeded random game of every mode, plus the core timeout lines."""

from __future__ import annotations

from typing import Any

import discord
import pytest

import bot.cogs.asesino
import bot.cogs.asesino_social
import bot.cogs.cereal_killer
import bot.cogs.lets_kill
import bot.cogs.verdugo  # noqa: F401 - registers the games' UIs
from bot.ui import Outgoing, RenderContext, ui_for
from games.core import Audience, Event, SeatInfo, get_engine
from tests.render.test_every_message_fits import MODES, make_table, offline_delivery, options_for, payload, random_game

NAMES = [f"**{chr(65 + i)}_~|`>{i}`" for i in range(12)]  # each one bold, italic, strike, spoiler and code at once
RAW = [name[:4] for name in NAMES]  # "**A_": what an unescaped name leaves in a text


def texts(sent: dict[str, Any]) -> list[str]:
    """Every markdown text of a message: content, and each embed's title, description, fields, footer, author."""
    out = [sent["content"] or ""]
    for embed in sent["embeds"]:
        out += [embed.get("title") or "", embed.get("description") or "", (embed.get("footer") or {}).get("text", ""),
                (embed.get("author") or {}).get("name", "")]
        out += [part for f in embed.get("fields", []) for part in (f["name"], f["value"])]
    return out


def labels(sent: dict[str, Any]) -> list[str]:
    """Every text of a message's components (labels, placeholders, option labels), which Discord shows as is."""
    found: list[str] = []

    def walk(component: dict[str, Any]) -> None:
        found.extend(str(component[k]) for k in ("label", "placeholder") if component.get(k))
        found.extend(str(o["label"]) for o in component.get("options", []))
        for child in component.get("components", []):
            walk(child)

    for row in sent["components"]:
        walk(row)
    return found


def check(out: Outgoing, seen: set[str]) -> None:
    """No name unescaped in ``out``'s texts, none escaped in its labels; collects the names its texts show."""
    sent = payload(out)
    for text in texts(sent):
        assert not [raw for raw in RAW if raw in text], text
        seen.update(name for name in NAMES if discord.utils.escape_markdown(name) in text)
    for label in labels(sent):
        assert "\\*" not in label and "\\_" not in label, label


@pytest.mark.parametrize(("game", "mode", "low", "high"), MODES)
def test_names_are_escaped_in_every_text_and_plain_in_every_label(game: str, mode: str, low: int, high: int,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """A seeded random game with markdown names: tables, event lines, DMs, medium posts, secrets and the result."""
    names, engine = NAMES[:high], get_engine(game, mode)
    monkeypatch.setattr(type(ui_for(game, mode)), "table_files", lambda *_: [])  # images carry no names, cost time
    start = engine.setup(options_for(engine, game, mode), [SeatInfo(names=(n,)) for n in names], 5)
    delivery, seen, ui = offline_delivery(), set[str](), ui_for(game, mode)
    for step_no, (state, events) in enumerate(random_game(engine, start, 5, steps=120)):
        table = make_table(game, mode, names, "en", state, "finished" if engine.outcome(state) else "active")
        ctx = RenderContext(table, "en")
        lines = [line for e in events if e.audience.kind == "public" and (line := ui.public_event(ctx, e))]
        check(delivery.status_message(table, lines), seen)
        for event in events:
            if event.audience.kind == "medium":
                check(ui.medium_event(ctx, event), seen)
            elif event.audience.kind != "public":
                for seat in event.audience.seats:
                    check(ui.private_event(ctx, seat, event), seen)
        if step_no % 10 == 0 or table.status == "finished":
            for seat in range(len(names)):
                check(Outgoing(embeds=[ui.secrets_embed(ctx, seat, engine.view(state, seat))]), seen)
    assert seen, "no name was shown at all"


@pytest.mark.parametrize(("game", "mode"), [(g, m) for g, m, _, _ in MODES])
def test_the_timeout_lines_escape_names(game: str, mode: str) -> None:
    """The core "the bot moved for X" and "the clock passed for X, Y" lines of every game's UI."""
    table = make_table(game, mode, NAMES[:3], "en", None, "active")
    ctx, ui = RenderContext(table, "en"), ui_for(game, mode)
    public = Audience(kind="public")
    for event in (Event(key="turn.auto", params={"seat": 0}, audience=public),
                  Event(key="turn.clock", params={"seats": [1, 2]}, audience=public)):
        line = ui.public_event(ctx, event) or ""
        assert discord.utils.escape_markdown(NAMES[0 if event.key == "turn.auto" else 2]) in line
        assert not [raw for raw in RAW if raw in line], line

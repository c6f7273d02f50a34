"""A finished game's timeline with every secret revealed, rendered with the game's own catalogues and renderers.

Each step of the replay (:func:`bot.history.record.replay_steps`) becomes an :class:`Entry` stamped with when it
was applied: its public lines, every seat's private messages (the echoes of a player's own move included: they
show the secret move itself, e.g. the card played face down), and the official medium's posts, in the order
:func:`bot.delivery.split_events` gives them. After the last step, each seat's private view as it ended (roles,
hands, the Killer's whole route...) and the result. Only a finished game has a timeline: it gives away everything.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime

from bot.budget import clip, size
from bot.delivery import outcome_embed
from bot.history.record import GameRecord, replay_steps
from bot.history.store import kept
from bot.simulate.transcript import embed_text, step_lines
from bot.ui import RenderContext, ui_for

INDENT = "    "
#: the most UTF-16 units of timeline text on one page (an embed description holds 4096)
PAGE = 3800


class NotFinished(ValueError):
    """The game is not finished: its timeline would give its secrets away."""


@dataclass(frozen=True, slots=True)
class Entry:
    """One block of the timeline: when it happened (None: no time, e.g. the closing secrets) and its lines."""

    at: datetime | None
    lines: list[str]


def timeline(record: GameRecord, language: str) -> list[Entry]:
    """The whole timeline of a finished game (or one its host cancelled after the start) in ``language``. Raises
    :class:`NotFinished` for any other game,
    :class:`~games.core.IllegalAction` when its log no longer replays."""
    table = record.table
    if not kept(table):
        raise NotFinished(f"game {table.id} is {table.status}")
    ui = ui_for(table.game, table.mode)
    steps = replay_steps(record)
    ctx = RenderContext(steps[0].table, language)
    names = ", ".join(ctx.shown_name(s.seat) for s in table.seats)
    entries = [Entry(None, [ctx.t("history.header", id=table.id, game=ctx.t(f"game.{table.game}"),
                                  mode=ctx.t(f"mode.{table.game}.{table.mode}"), seed=table.seed),
                            ctx.t("history.seats", names=names)])]
    for step in steps:
        ctx = RenderContext(step.table, language)
        lines = step_lines(ctx, ui, step.events, True, echoes=True, files=False)
        if lines:
            entries.append(Entry(step.action.at if step.action is not None else record.started_at, lines))
    final = steps[-1].table
    ctx = RenderContext(final, language)
    for seat in table.seats:
        view = final.engine.view(final.state, seat.seat)
        secrets = embed_text(ui.secrets_embed(ctx, seat.seat, view)).splitlines()
        entries.append(Entry(None, [ctx.t("history.secrets_of", seat=ctx.shown_name(seat.seat)),
                                    *(INDENT + line for line in secrets)]))
    if table.status == "finished":  # (a cancelled game's last step says who cancelled it)
        # the result as the table gave it: an abandoned game's (no engine gives one) and the achievements earned
        ended = replace(final, outcome=table.outcome)
        entries.append(Entry(record.table.finished_at, embed_text(outcome_embed(ctx, ended)).splitlines()))
    return entries


def discord_stamp(at: datetime, previous: datetime | None) -> str:
    """A time as Discord shows it in each reader's own time zone (in bold), the date too when the day changed
    (UTC)."""
    unix = int(at.timestamp())
    if previous is None or previous.date() != at.date():
        return f"**<t:{unix}:d> <t:{unix}:t>**"
    return f"**<t:{unix}:t>**"


def text_stamp(at: datetime, previous: datetime | None) -> str:
    """A time for a file: ``[HH:MM:SS]`` UTC, with the date when the day changed."""
    if previous is None or previous.date() != at.date():
        return at.strftime("[%Y-%m-%d %H:%M:%S UTC]")
    return at.strftime("[%H:%M:%S]")


def stamped(entries: list[Entry], stamp: Callable[[datetime, datetime | None], str]) -> list[list[str]]:
    """Each entry's lines with its time (``stamp(at, previous time)``) before the first line."""
    out: list[list[str]] = []
    previous: datetime | None = None
    for entry in entries:
        lines = list(entry.lines)
        if entry.at is not None:
            lines[0] = f"{stamp(entry.at, previous)} {lines[0]}"
            previous = entry.at
        out.append(lines)
    return out


def pages(blocks: list[list[str]], limit: int = PAGE) -> list[str]:
    """The blocks' lines cut into pages of at most ``limit`` UTF-16 units: a block stays on one page when it fits
    on a page of its own; a longer one is split between lines, and a single line over ``limit`` is clipped."""
    out: list[str] = []
    page: list[str] = []
    used = 0

    def flush() -> None:
        nonlocal page, used
        if page:
            out.append("\n".join(page))
        page, used = [], 0

    for block in blocks:
        block_size = sum(size(line) + 1 for line in block)
        if page and used + block_size > limit and block_size <= limit:
            flush()
        for line in block:
            line = clip(line, limit)
            if page and used + size(line) + 1 > limit:
                flush()
            page.append(line)
            used += size(line) + 1
    flush()
    return out or [""]


def export_text(entries: list[Entry]) -> str:
    """The whole timeline as a plain text file (times in UTC)."""
    return "\n".join(line for block in stamped(entries, text_stamp) for line in [*block, ""])

"""A simulated game as players would read it: the same catalogues and renderers as the bot's delivery
(:mod:`bot.delivery`): public events through the game UI's ``public_event`` (the table's "last moves"), the official
medium's posts, a timed-out move's note (:mod:`bot.turns`), and the result (:func:`bot.delivery.outcome_embed`),
with seats shown as their names. ``reveal`` adds each seat's private messages (``private_event``) where they
arrive; without it nothing addressed to a seat is rendered at all.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.delivery import outcome_embed, split_events
from bot.simulate.driver import START, Game
from bot.tables import Table, TableSeat
from bot.tables.service import timeout_announcement
from bot.ui import Outgoing, RenderContext, ui_for
from games.core import Event

INDENT = "    "


def table_of(game: Game, state: Any, language: str) -> Table:
    """A stand-in :class:`~bot.tables.Table` of ``game`` at ``state`` for the renderers (seat ``n`` is user
    ``n + 1``; no Discord ids are ever shown, names are)."""
    engine = game.engine
    over = engine.is_over(state)
    return Table(id=0, game=engine.game, mode=engine.mode.id, guild_id=0, channel_id=0, host_id=1,
                 status="finished" if over else "active", seed=game.seed,
                 options=game.options.model_dump(mode="json"), version=0, language=language, series_id=None,
                 lobby_message_id=None, table_message_id=None, created_at=START, updated_at=START,
                 finished_at=START if over else None, outcome=engine.outcome(state),
                 seats=tuple(TableSeat(seat=i, user_id=i + 1, names=info.names) for i, info in enumerate(game.seats)),
                 state=state, engine=engine)


def embed_text(embed: discord.Embed) -> str:
    """An embed as plain text: title, description, then ``name: value`` per field."""
    fields = (f"{f.name}: " + str(f.value).replace("\n", "\n" + INDENT) for f in embed.fields)
    parts = [embed.title, embed.description, *fields]
    return "\n".join(part for part in parts if part)


def outgoing_text(out: Outgoing, *, files: bool = True) -> str:
    """A message as plain text: its content, its embeds, and (with ``files``) each attachment's name with its alt
    text."""
    parts = [out.content, *(embed_text(e) for e in out.embeds),
             *(f"[{f.name}] {f.description}".strip() for f in (out.files if files else []))]
    return "\n".join(part for part in parts if part)


def _entry(label: str | None, text: str) -> list[str]:
    head, *rest = text.splitlines() or [""]
    return [f"{label} {head}" if label else head, *(INDENT + line for line in rest)]


def transcript(game: Game, language: str, *, reveal: bool = False) -> list[str]:
    """The game's lines in ``language``: a header, every step's public lines (and, with ``reveal``, the private
    messages, each under its seat's name), then the result."""
    engine = game.engine
    ui = ui_for(engine.game, engine.mode.id)
    state = engine.setup(game.options, game.seats, game.seed)
    ctx = RenderContext(table_of(game, state, language), language)
    lines = [ctx.t("simulate.header", game=ctx.t(f"game.{engine.game}"),
                   mode=ctx.t(f"mode.{engine.game}.{engine.mode.id}"), count=len(game.seats), seed=game.seed),
             ctx.t("simulate.seats", names=", ".join(ctx.name(s) for s in range(len(game.seats)))), ""]
    lines += step_lines(ctx, ui, game.intro, reveal)
    for move in game.moves:
        ctx = RenderContext(table_of(game, move.state, language), language)
        # a timed-out move is announced as the bot's timers announce it, from the state the time ran out on
        announce = timeout_announcement(engine, state, move.seat) if move.timed_out else []
        lines += step_lines(ctx, ui, [*announce, *move.events], reveal)
        state = move.state
    lines += ["", *embed_text(outcome_embed(ctx, ctx.table)).splitlines()]
    return lines


def step_lines(ctx: RenderContext, ui: Any, events: list[Event], reveal: bool, *, echoes: bool = False,
               files: bool = True) -> list[str]:
    """One step's lines in the order :class:`bot.delivery.Delivery` shows them (:func:`bot.delivery.split_events`):
    the table's public lines, then the DMs (only with ``reveal``; ``echoes`` adds, before them, the echoes of a
    player's own move, labelled as that player's secret move, not as a DM: none was sent; ``files`` the
    attachments' alt texts), then the official medium's posts."""
    public, private, medium = split_events(ctx, ui, events)
    lines = [line for text in public for line in _entry(None, text)]
    if reveal and echoes:  # a player's own secret move: no DM was sent, so it is not shown as one
        own = split_events(ctx, ui, [e for e in events if ui.echoes(e, events)], echoes=True)[1]
        for seat, outs in own.items():
            label = ctx.t("simulate.own_move", seat=ctx.name(seat))
            lines += [line for out in outs for line in _entry(label, outgoing_text(out, files=files))]
    if reveal:
        for seat, outs in private.items():
            label = ctx.t("simulate.private", seat=ctx.name(seat))
            lines += [line for out in outs for line in _entry(label, outgoing_text(out, files=files))]
    return lines + [line for out in medium for line in _entry(ctx.t("simulate.medium"), outgoing_text(out))]

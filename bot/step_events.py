"""What one committed step's events become for their audiences (:func:`split_events`: the table's "last moves"
lines, each seat's DMs, the official medium's posts), a seat's DMs joined into as few messages as Discord allows
(:func:`merged`) and the result under a finished table (:func:`outcome_embed`): pure rendering, shared by the
delivery (:class:`bot.delivery.Delivery`), the history and the simulator's transcript."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.achievements import earned_lines
from bot.budget import CONTENT, EMBED_TOTAL, EMBEDS, embed_size, size
from bot.i18n.catalog import plain_number
from bot.seat_controls import seat_line
from bot.ui import GameUI, Outgoing, RenderContext, text_name, ui_for
from games.core import Audience, Event
from games.core.seats import SEAT_EVENTS

if TYPE_CHECKING:
    from bot.tables import Table

#: the events of the host's controls (:mod:`games.core.controls`), worded alike for every game
CONTROL_EVENTS = frozenset({"core.paused", "core.resumed", "core.closed"})


def split_events(ctx: RenderContext, ui: GameUI, events: list[Event], *, echoes: bool = False,
                 ) -> tuple[list[str], dict[int, list[Outgoing]], list[Outgoing]]:
    """One step's ``events`` rendered by ``ui`` for their audiences: the public lines of the table's "last moves"
    (a hidden event gives none), each seat's DMs and the official medium's posts, in event order. A seat event
    ``ui`` calls an echo (:meth:`bot.ui.GameUI.echoes`: it only repeats its player's own move) is left out unless
    ``echoes`` (a history, where it shows the secret move); an event to a group is asked about each seat of it
    alone, so the player who made the move is answered (:mod:`bot.replies`) and only the others get a DM (a
    Killer's crime: the partner reads its outcome by DM, the Killer in the answer of the select that made it)."""
    lines: list[str] = []
    private: dict[int, list[Outgoing]] = {}
    medium: list[Outgoing] = []
    for event in events:
        if not echoes and ui.echoes(event, events):
            continue
        if event.key in CONTROL_EVENTS:  # the host's controls, the same in every game
            lines.append(ctx.t(event.key, by=text_name(str(event.params.get("by", "")))))
            continue
        if event.key in SEAT_EVENTS:  # who plays a seat, the same in every game
            lines.append(seat_line(ctx, event))
            continue
        if event.audience.kind == "public":
            line = ui.public_event(ctx, event)
            if line:
                lines.append(line)
        elif event.audience.kind == "medium":
            medium.append(ui.medium_event(ctx, event))
        else:
            group = len(event.audience.seats) > 1
            for seat in event.audience.seats:
                if group and not echoes and ui.echoes(event.model_copy(update={"audience": Audience.to(seat)}),
                                                      events):
                    continue  # an echo for this seat of the group only
                private.setdefault(seat, []).append(ui.private_event(ctx, seat, event))
    return lines, private, medium


def outcome_embed(ctx: RenderContext, table: Table) -> discord.Embed:
    """The result under a finished table: how it ended, the winners, the scores in the game's unit
    (``GameUI.score_key``; points by default, "this round" only in a series) and the achievements its people earned
    (:func:`bot.achievements.earned_lines`)."""
    outcome = table.engine.outcome(table.state) or table.outcome  # (an abandoned game's is the table's)
    embed = discord.Embed(title=ctx.t("outcome.title"), colour=discord.Colour.gold())
    if outcome is not None:
        ui = ui_for(table.game, table.mode)
        embed.description = ui.outcome_text(ctx, outcome)
        winners = ", ".join(ctx.shown_name(s) for s in outcome.winners) or ctx.t("outcome.nobody")
        embed.add_field(name=ctx.t("outcome.winners"), value=winners, inline=False)
        if outcome.scores:
            scores = "\n".join(f"{ctx.shown_name(s)}: {ctx.t(ui.score_key, count=plain_number(p))}"
                               for s, p in sorted(outcome.scores.items(), key=lambda kv: -kv[1]))
            title = ui.scores_title_key or ("outcome.points" if table.series_id is not None else "outcome.points_game")
            embed.add_field(name=ctx.t(title), value=scores, inline=False)
    if earned := earned_lines(ctx, table.outcome):
        embed.add_field(name=ctx.t("outcome.achievements"), value="\n".join(earned), inline=False)
    return embed


def merged(outs: list[Outgoing]) -> list[Outgoing]:
    """One seat's DMs of one step (or one step's official medium posts) as few messages as Discord allows:
    consecutive ones are joined while they fit whole (10 embeds and 6000 characters over their embeds, 10 files,
    2000 of content, one set of components: :mod:`bot.budget`), so joining never cuts a text."""
    joined: list[Outgoing] = []
    sizes: list[int] = []  # per joined message, its embeds' size as Discord counts it
    for out in outs:
        last = joined[-1] if joined else None
        grown = sum(embed_size(e.to_dict()) for e in out.embeds)
        if (last is None or (last.view is not None and out.view is not None)
                or len(last.embeds) + len(out.embeds) > EMBEDS or len(last.files) + len(out.files) > 10
                or sizes[-1] + grown > EMBED_TOTAL
                or size(last.content or "") + size(out.content or "") >= CONTENT):
            sizes.append(grown)
            joined.append(Outgoing(content=out.content, embeds=list(out.embeds), view=out.view, files=list(out.files),
                                   mentions=out.mentions))
            continue
        sizes[-1] += grown
        last.content = "\n".join(text for text in (last.content, out.content) if text) or None
        last.embeds += out.embeds
        last.files += out.files
        last.view = last.view or out.view
        last.mentions = last.mentions or out.mentions
    return joined

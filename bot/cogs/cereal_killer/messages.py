"""Cereal Killer texts and embeds: event parameters in words, the public status embed, the private DMs.

Public things are built only from public events and the public view (``ENGINE.view(state, None)``); the Killer's
board with its route is drawn only for the Killer's DMs.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import discord

from bot.cogs.cereal_killer.describe import describe_board
from bot.cogs.cereal_killer.render import render_board
from bot.ui import COLOUR, Attachment, Outgoing, RenderContext
from games.cereal_killer.models import KILLER, LOLA, ROLES
from games.core import Event

BOARD_FILE = "cereal_killer_board.png"
PRIVATE_FILE = "cereal_killer_private.png"
#: event/refusal parameter -> the catalogue family its value is a member of
FAMILIES: dict[str, str] = {"role": "cereal_killer.name", "who": "cereal_killer.name",
                            "question": "cereal_killer.question", "answer": "cereal_killer.answer",
                            "ability": "cereal_killer.ability"}


def word(ctx: RenderContext, family: str, value: Any) -> str:
    """``value`` as a word of ``family`` (e.g. ``cereal_killer.answer`` ``north`` -> North), else as is."""
    key = f"{family}.{value}"
    return ctx.t(key) if ctx.has(key) else str(value)


def walk(spaces: list[int]) -> str:
    return " → ".join(map(str, spaces))


def params_of(ctx: RenderContext, params: dict[str, Any], declared: Iterable[str] = ()) -> dict[str, Any]:
    """Event, refusal or outcome ``params`` in words: seats (``declared`` and the conventional names) as names,
    roles, questions, answers and routes spelled out."""
    out = ctx.seat_params(params, declared)
    for key, value in params.items():
        if key in FAMILIES and value is not None:
            out[key] = word(ctx, FAMILIES[key], value)
        elif key in ("path", "route") and isinstance(value, list):
            out[key] = walk(value)
        elif key == "routes" and isinstance(value, list):
            out[key] = "; ".join(walk(r) for r in value) or "-"
        elif key == "options":
            items = value if isinstance(value, list) else str(value).split(", ")
            out[key] = ", ".join(word(ctx, "cereal_killer.answer", o) for o in items)
    return out


def text_of(ctx: RenderContext, event: Event) -> str:
    return ctx.t(event.key, **params_of(ctx, event.params, event.seat_params))


def roles_line(ctx: RenderContext, players: int) -> str:
    """Who plays whom (seats follow the join order: host = Killer, then the Detective, then Lola)."""
    return "\n".join(ctx.t("cereal_killer.ui.role_line", role=word(ctx, "cereal_killer.name", ROLES[seat]),
                           seat=ctx.shown_name(seat)) for seat in range(players))


def _list(ctx: RenderContext, family: str, values: list[str]) -> str:
    return ", ".join(word(ctx, family, v) for v in values) or "-"


def status_embed(ctx: RenderContext, view: dict[str, Any]) -> discord.Embed:
    """The public status: day (title), the board in words (description), next objective, arrests and questions left
    and whose turn (fields, each said once), the board image. Built from the public ``view`` only."""
    embed = discord.Embed(title=ctx.t("cereal_killer.ui.title", day=view["day"], days=view["days"]),
                          description=describe_board(view, language=ctx.language)[:4000], colour=COLOUR)
    objective = view["next_objective"]
    embed.add_field(name=ctx.t("cereal_killer.ui.objective"), value=ctx.t(
        "cereal_killer.ui.objective_value", day=objective["day"], victims=objective["victims"],
        have=len(view["victims"])) if objective else "-")
    embed.add_field(name=ctx.t("cereal_killer.ui.arrests"), value=str(view["arrests_left"]))
    embed.add_field(name=ctx.t("cereal_killer.ui.questions"),
                    value=_list(ctx, "cereal_killer.question", view["questions_left"])[:1000], inline=False)
    turn = view["turn"]
    if turn is not None:
        embed.add_field(name=ctx.t("cereal_killer.ui.turn"), value=ctx.t(
            "cereal_killer.ui.turn_value", seat=ctx.shown_name(turn["seat"]),
            role=word(ctx, "cereal_killer.name", turn["role"]), steps=turn["steps_left"]), inline=False)
    if view["bone"]:
        embed.add_field(name=ctx.t("cereal_killer.ui.bone"), value=word(ctx, "cereal_killer.ability", view["bone"]))
    embed.add_field(name=ctx.t("cereal_killer.ui.roles"), value=roles_line(ctx, view["players"]), inline=False)
    if view["revealed"] is not None:
        embed.add_field(name=ctx.t("cereal_killer.ui.routes"), value=routes_text(ctx, view["revealed"]["routes"]),
                        inline=False)
    embed.set_image(url=f"attachment://{BOARD_FILE}")
    return embed


def board_files(ctx: RenderContext, view: dict[str, Any]) -> list[Attachment]:
    """The public board image, with its text description as alt text."""
    png, description = render_board(view, language=ctx.language)
    return [Attachment(BOARD_FILE, png, description)]


def private_board(ctx: RenderContext, event: Event, view: dict[str, Any]) -> tuple[bytes, str] | None:
    """The Killer's board for a route confirmation (route drawn) or the first route's prompt."""
    if event.key == "cereal_killer.route_recorded":
        return render_board(view, route=list(event.params["route"]), language=ctx.language)
    if event.key == "cereal_killer.prompt.first_route":
        return render_board(view, language=ctx.language)
    return None


def private_message(ctx: RenderContext, seat: int, event: Event, view: dict[str, Any]) -> Outgoing:
    """A DM for a seat event; the Killer's route events carry its private board image (its own route is not
    confirmed by a DM of its own, issue 8, and its later days start with no DM: the README's rulings)."""
    embed = discord.Embed(description=text_of(ctx, event), colour=COLOUR)
    files: list[Attachment] = []
    board = private_board(ctx, event, view) if seat == KILLER else None
    if board is not None:
        files.append(Attachment(PRIVATE_FILE, board[0], board[1]))
        embed.set_image(url=f"attachment://{PRIVATE_FILE}")
        embed.add_field(name=ctx.t("cereal_killer.ui.board_text"), value=board[1][:1000], inline=False)
    embed.set_footer(text=ctx.t("cereal_killer.ui.dm_footer", game=ctx.table.id))
    return Outgoing(embeds=[embed], files=files)


def routes_text(ctx: RenderContext, routes: list[list[int]]) -> str:
    """One line per day (the most recent ones when they do not fit)."""
    lines = [ctx.t("cereal_killer.ui.route_line", day=day, route=walk(r)) for day, r in enumerate(routes, start=1)]
    return "\n".join(lines)[-1000:] or "-"


def secrets(ctx: RenderContext, seat: int, view: dict[str, Any]) -> discord.Embed:
    """/hand and My secrets: the role, and the Killer's space and routes or Lola's private answers."""
    embed = discord.Embed(title=ctx.t("secrets.title"), colour=COLOUR,
                          description=ctx.t(f"cereal_killer.role.{ROLES[seat]}"))
    if seat == KILLER:
        embed.add_field(name=ctx.t("cereal_killer.ui.your_space"), value=str(view["killer_space"] or "-"))
        embed.add_field(name=ctx.t("cereal_killer.ui.your_routes"), value=routes_text(ctx, view["routes"]),
                        inline=False)
        if view["pending_options"]:
            embed.add_field(name=ctx.t("cereal_killer.ui.pending"),
                            value=_list(ctx, "cereal_killer.answer", view["pending_options"]), inline=False)
        elif view["phase"] == "killer":
            embed.add_field(name=ctx.t("cereal_killer.ui.route_due"),
                            value=ctx.t("cereal_killer.ui.route_due_value", day=view["day"]), inline=False)
    elif seat == LOLA:
        lines = [ctx.t("cereal_killer.ui.lola_line", day=a["day"], ability=word(ctx, "cereal_killer.ability",
                       a["ability"]), space=a["space"] if a["space"] is not None else "-",
                       answer=word(ctx, "cereal_killer.answer", a["answer"])) for a in view["lola_answers"]]
        embed.add_field(name=ctx.t("cereal_killer.ui.lola_answers"), value="\n".join(lines)[-1000:] or "-",
                        inline=False)
    return embed

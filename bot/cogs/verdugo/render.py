"""Verdugo in words: card names, positions, event parameters, the public table embed and the "My secrets" embed.

Everything public is built from the public view (``engine.view(state, None)``) and public events only; the
secrets embed from the seat's own view. Card ids become names through ``verdugo.role.*``, ``verdugo.object.*``
and ``verdugo.card.*``; a position (a seat or ``"centre"``) becomes a player's name or "the centre card".
"""

from __future__ import annotations

from typing import Any

import discord

from bot.ui import COLOUR, RenderContext
from games.core import Event

#: event parameters holding a card id, and the catalogue family that names it
CARD_PARAMS = {"role": "verdugo.role", "object": "verdugo.object", "centre": "verdugo.object",
               "discarded_role": "verdugo.role", "drawn": "verdugo.object", "card": "verdugo.card",
               "rule": "verdugo.card"}
LIST_PARAMS = {"roles": "verdugo.role", "objects": "verdugo.object"}
POSITION_PARAMS = ("position", "a", "b")
SEAT_PARAMS = ("seat", "by_seat", "a_seat", "b_seat", "left_seat", "right_seat", "picked_seat", "next_seat",
               "victim_seat")
MAX_LINE = 1900


def card_name(ctx: RenderContext, family: str, card: str | None) -> str:
    return ctx.t(f"{family}.{card}") if card else "?"


def position_name(ctx: RenderContext, position: Any, *, plain: bool = False) -> str:
    """A seat's name (markdown escaped unless ``plain``, for labels) or "the centre card"."""
    if not isinstance(position, int):
        return ctx.t("verdugo.centre")
    return ctx.name(position) if plain else ctx.shown_name(position)


def cards_line(ctx: RenderContext, family: str, cards: list[str]) -> str:
    return ", ".join(card_name(ctx, family, c) for c in cards) or ctx.t("verdugo.ui.none")


def words(ctx: RenderContext, key: str, params: dict[str, Any]) -> dict[str, Any]:
    """Parameters of the event (or refusal) ``key`` in words: seats as names, cards as names, positions,
    directions, match modes."""
    out: dict[str, Any] = {}
    for name_, value in params.items():
        if name_ in SEAT_PARAMS and isinstance(value, int):
            out[name_] = ctx.shown_name(value)
        elif name_ == "card" and key.startswith("verdugo.you."):
            out[name_] = card_name(ctx, "verdugo.role" if key == "verdugo.you.spy" else "verdugo.object", value)
        elif name_ in CARD_PARAMS and isinstance(value, str):
            out[name_] = card_name(ctx, CARD_PARAMS[name_], value)
        elif name_ in LIST_PARAMS and isinstance(value, list) and key != "verdugo.reveal.all":
            out[name_] = cards_line(ctx, LIST_PARAMS[name_], value)
        elif name_ in POSITION_PARAMS:
            out[name_] = position_name(ctx, value)
        elif name_ == "direction":
            out[name_] = ctx.t(f"verdugo.direction.{value}")
        elif name_ == "match":
            out[name_] = ctx.t(f"verdugo.match.{value}")
        elif name_ in ("winner_seats", "seats") and isinstance(value, list):  # seats: the core's timeout line
            out[name_] = ", ".join(ctx.shown_name(s) for s in value)
        else:
            out[name_] = value
    if key == "verdugo.scaffold.drawn":
        out["text"] = ctx.t(f"verdugo.card_text.{params['card']}")
    return out


def event_line(ctx: RenderContext, event: Event) -> str:
    """One line for ``event`` (public or private), within a message's limits whatever the names."""
    params = words(ctx, event.key, event.params)
    key = event.key
    if key == "verdugo.reveal.object" and "centre" in event.params:
        key = "verdugo.reveal.mimic"
    if key == "verdugo.reveal.all":
        params["lines"] = reveal_lines(ctx, event.params)
    return ctx.t(key, **params)[:MAX_LINE]


def _signed(value: int) -> str:
    return f"+{value}" if value > 0 else ("0" if value == 0 else f"−{-value}")


def reveal_lines(ctx: RenderContext, params: dict[str, Any]) -> str:
    """REVEAL ALL, one line per seat: role, object, the round's Crown change."""
    lines = []
    for seat, (role, obj, delta) in enumerate(zip(params["roles"], params["objects"], params["deltas"], strict=True)):
        if role is None:
            lines.append(ctx.t("verdugo.reveal.executioner", seat=ctx.shown_name(seat), delta=_signed(delta)))
        else:
            lines.append(ctx.t("verdugo.reveal.line", seat=ctx.shown_name(seat),
                               role=card_name(ctx, "verdugo.role", role),
                               object=card_name(ctx, "verdugo.object", obj), delta=_signed(delta)))
    return "\n" + "\n".join(lines)


def seat_line(ctx: RenderContext, view: dict[str, Any], seat: int) -> str:
    """``1. 🪓 Ana · 5 👑 · acted · 💀 dead · Fancy Hat (Jester)`` from the public view: the object and role shown
    only once revealed (by an execution, a death, Open Trial or REVEAL ALL)."""
    parts = [f"`{seat + 1}.` **{ctx.shown_name(seat)}**", f"{view['crowns'][seat]} 👑"]
    if seat == view["executioner"]:
        parts.insert(1, ctx.t("verdugo.ui.executioner_mark"))
    if seat in view["acted"]:
        parts.append(ctx.t("verdugo.ui.acted"))
    if seat in view["dead"]:
        parts.append(ctx.t("verdugo.ui.dead"))
    elif seat in view["escaped"]:
        parts.append(ctx.t("verdugo.ui.escaped"))
    shown = view["shown_objects"][seat] if view["shown_objects"] else None
    role = view["shown_roles"][seat] if view["shown_roles"] else None
    if view["reveal"]:  # after REVEAL ALL: everyone's role and current object
        shown, role = view["reveal"]["objects"][seat], view["reveal"]["roles"][seat]
    if shown:
        parts.append(card_name(ctx, "verdugo.object", shown) + (
            f" ({card_name(ctx, 'verdugo.role', role)})" if role else ""))
    elif role:
        parts.append(card_name(ctx, "verdugo.role", role))
    return " · ".join(parts)


def table_embed(ctx: RenderContext, view: dict[str, Any]) -> discord.Embed:
    """The public table: seats in order with their markers, the active cards, the Scaffold cards and round rules,
    the Treasury. At most ~2,500 characters with eight 32-character names."""
    embed = discord.Embed(title=ctx.t("verdugo.ui.title", round=view["round"]), colour=COLOUR)
    embed.description = "\n".join(seat_line(ctx, view, s) for s in range(view["players"]))[:4000]
    active = ctx.t("verdugo.ui.active_value", roles=cards_line(ctx, "verdugo.role", view["active_roles"]),
                   objects=cards_line(ctx, "verdugo.object", view["active_objects"]))
    if view["set_aside"]:
        active += "\n" + ctx.t("verdugo.ui.set_aside", cards=cards_line(ctx, "verdugo.object", view["set_aside"]))
    embed.add_field(name=ctx.t("verdugo.ui.active"), value=active[:1024], inline=False)
    drawn = "\n".join(f"**{card_name(ctx, 'verdugo.card', c)}**: {ctx.t(f'verdugo.card_text.{c}')}"
                      for c in view["drawn"]) or ctx.t("verdugo.ui.none")
    embed.add_field(name=ctx.t("verdugo.ui.scaffold"), value=drawn[:1024], inline=False)
    rules = cards_line(ctx, "verdugo.card", view["rules"])
    embed.add_field(name=ctx.t("verdugo.ui.rules"), value=rules[:1024], inline=False)
    extra = [ctx.t("verdugo.ui.treasury", treasury=view["treasury"], done=view["own_executions"],
                   minimum=view["minimum"], deaths=view["deaths"])]
    if view["crier"]:
        extra.append(ctx.t("verdugo.ui.crier", object=card_name(ctx, "verdugo.object", view["crier"])))
    if view["centre_shown"]:
        extra.append(ctx.t("verdugo.ui.centre_shown", object=card_name(ctx, "verdugo.object", view["centre_shown"])))
    embed.set_footer(text="\n".join(extra)[:2048])
    return embed


def secrets_embed(ctx: RenderContext, view: dict[str, Any]) -> discord.Embed:
    """The seat's own role, its dealt object (only until the first Scaffold card) and what it saw this round."""
    you = view.get("you") or {}
    embed = discord.Embed(title=ctx.t("secrets.title"), colour=COLOUR)
    if you.get("role") is None:
        embed.description = ctx.t("verdugo.ui.you_executioner")
    else:
        embed.add_field(name=ctx.t("verdugo.ui.you_role"), value=card_name(ctx, "verdugo.role", you["role"]),
                        inline=False)
    if you.get("dealt"):
        embed.add_field(name=ctx.t("verdugo.ui.you_dealt"), value=card_name(ctx, "verdugo.object", you["dealt"]),
                        inline=False)
    seen = [event_line(ctx, Event(key=f"verdugo.you.{s['kind']}", params=s)) for s in you.get("seen", [])]
    if seen:
        embed.add_field(name=ctx.t("verdugo.ui.you_seen"), value="\n".join(seen)[:1024], inline=False)
    return embed

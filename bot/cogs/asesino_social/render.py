"""How the social mode reads on Discord: event lines (public, DM, official medium), the status embed and the
private "My secrets" embed.

Event parameters are turned into text here: seat numbers (``target``, ``killer``, ``attackers``...) into player
names, role values into role names, character ids into character names, ISO moments into Discord timestamps
(``<t:epoch:R>``), and the end-of-game lists (``roles``, ``posts``, ``entries``) into lines. Everything public
comes from public events and ``engine.view(state, None)`` only.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

import discord

from bot.cogs.asesino.render import neutral
from bot.ui import COLOUR, RenderContext
from games.core import Event

#: event params holding one seat number
SEAT_KEYS = frozenset({"seat", "target", "killer", "accomplice", "doctor", "detective", "journalist", "maniac",
                       "opener", "accused", "backer", "interviewee", "victim"})
#: event params holding a list of seat numbers (``backers`` is a count in ``judgement.backed``)
SEAT_LIST_KEYS = frozenset({"attackers", "accusers", "backers"})
MOMENT_KEYS = frozenset({"ends_at", "expires_at"})
EMBED_LIMIT = 4000
FIELD_LIMIT = 1000


def stamp(moment: str | datetime | None, style: str = "R") -> str:
    """A Discord timestamp (``<t:1700000000:R>``) for an ISO string or an aware datetime; ``-`` for None."""
    if moment is None:
        return "-"
    when = datetime.fromisoformat(moment) if isinstance(moment, str) else moment
    return f"<t:{int(when.timestamp())}:{style}>"


def role_name(ctx: RenderContext, role: str | None) -> str:
    return ctx.t(f"asesino_social.role.{role}") if role else "-"


def seat_name(ctx: RenderContext, seat: Any) -> str:
    return ctx.shown_name(seat) if isinstance(seat, int) and seat >= 0 else "-"


def params_text(ctx: RenderContext, params: dict[str, Any], declared: Iterable[str] = ()) -> dict[str, Any]:
    """``params`` ready for a catalogue template (see the module docstring; ``declared``: more seat
    parameters)."""
    out = ctx.seat_params(params, declared)
    for key, value in params.items():
        if key in SEAT_KEYS:
            out[key] = seat_name(ctx, value)
        elif key in SEAT_LIST_KEYS and isinstance(value, list):
            out[key] = ", ".join(seat_name(ctx, v) for v in value)
        elif key == "card":
            out[key] = role_name(ctx, value)
        elif key == "character" and isinstance(value, str):
            out[key] = ctx.t(value)
        elif key == "text" and isinstance(value, str):
            out[key] = neutral(value)
        elif key in MOMENT_KEYS:
            out[key] = f"{stamp(value, 'f')} ({stamp(value)})"
        elif key == "roles" and isinstance(value, list):
            out[key] = "\n" + roles_text(ctx, value)
        elif key == "posts" and isinstance(value, list):
            out[key] = "\n" + authors_text(ctx, value) if value else ctx.t("asesino_social.ui.none")
        elif key == "entries" and isinstance(value, list):
            out[key] = "\n" + timeline_text(ctx, value)
    return out


def event_text(ctx: RenderContext, event: Event) -> str:
    return ctx.t(event.key, **params_text(ctx, event.params, event.seat_params))


def roles_text(ctx: RenderContext, roles: list[dict[str, Any]]) -> str:
    """One line per seat: name, card and (for a recruit) the role it ended with."""
    lines = []
    for row in roles:
        line = f"• {seat_name(ctx, row['seat'])}: {role_name(ctx, row['card'])}"
        if row.get("role") and row["role"] != row["card"]:
            line += f" → {role_name(ctx, row['role'])}"
        lines.append(line)
    return "\n".join(lines)


def authors_text(ctx: RenderContext, posts: list[dict[str, Any]]) -> str:
    return "\n".join(ctx.t("asesino_social.ui.author_line", post=p["post"], character=ctx.t(p["character"]),
                           seat=seat_name(ctx, p["seat"])) for p in posts)


def timeline_text(ctx: RenderContext, entries: list[dict[str, Any]]) -> str:
    """The timeline grouped by day, one line per action."""
    lines: list[str] = []
    day = None
    for entry in entries:
        if entry["day"] != day:
            day = entry["day"]
            lines.append(ctx.t("asesino_social.ui.timeline_day", day=day))
        detail = ctx.t(f"asesino_social.detail.{entry['detail']}") if entry.get("detail") else ""
        lines.append("• " + ctx.t(f"asesino_social.timeline.{entry['kind']}", seat=seat_name(ctx, entry["seat"]),
                                  target=seat_name(ctx, entry.get("target")), detail=detail, ref=entry.get("ref"),
                                  day=entry["day"]))
    return "\n".join(lines)


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def public_line(ctx: RenderContext, event: Event) -> str | None:
    """A line of the public status; the long end-of-game lists go to the final embed instead."""
    if event.key in ("asesino_social.end.timeline", "asesino_social.end.authors", "asesino_social.end.roles"):
        return None
    return event_text(ctx, event)


def medium_post(ctx: RenderContext, event: Event) -> discord.Embed:
    """A post in the official medium: anonymous posts under the character's name, letters, notes, the end."""
    params = params_text(ctx, event.params, event.seat_params)
    if event.key == "asesino_social.anonymous_post":
        embed = discord.Embed(title=params["character"], description=clip(params["text"], EMBED_LIMIT),
                              colour=discord.Colour.dark_grey())
        embed.set_footer(text=ctx.t("asesino_social.ui.post_footer", post=event.params["post"]))
        return embed
    if event.key == "asesino_social.letter":
        return discord.Embed(title=ctx.t("asesino_social.ui.letter_title", seat=params["seat"], day=params["day"]),
                             description=clip(params["text"], EMBED_LIMIT), colour=COLOUR)
    if event.key == "asesino_social.clue":
        return discord.Embed(title=ctx.t("asesino_social.ui.clue_title", day=params["day"]),
                             description=clip(params["text"], EMBED_LIMIT), colour=discord.Colour.dark_purple())
    if event.key == "asesino_social.note":
        return discord.Embed(title=ctx.t("asesino_social.ui.note_title", interviewee=params["interviewee"],
                                         day=params["day"]),
                             description=clip(params["text"], EMBED_LIMIT), colour=COLOUR)
    return discord.Embed(description=clip(event_text(ctx, event), EMBED_LIMIT), colour=discord.Colour.gold())


def table_embed(ctx: RenderContext, view: dict[str, Any]) -> discord.Embed:
    """The public status from ``engine.view(state, None)``: the day and its end, the murder tally, the players,
    open judgements; once over, every card, the anonymous authors and the timeline."""
    embed = discord.Embed(title=ctx.t("asesino_social.ui.title"), colour=COLOUR)
    if view["over"]:
        embed.description = clip(timeline_text(ctx, view["timeline"]), EMBED_LIMIT)
        embed.add_field(name=ctx.t("asesino_social.ui.roles"), value=clip(roles_text(ctx, view["roles"]), FIELD_LIMIT),
                        inline=False)
        posts = [{"post": int(k), "character": next(p["character"] for p in view["posts"] if p["id"] == int(k)),
                  "seat": v} for k, v in view["authors"].items()]
        embed.add_field(name=ctx.t("asesino_social.ui.authors"),
                        value=clip(authors_text(ctx, posts), FIELD_LIMIT) or ctx.t("asesino_social.ui.none"),
                        inline=False)
        return embed
    embed.description = ctx.t("asesino_social.ui.day_line", day=view["day"], ends=stamp(view["day_ends_at"]),
                              at=stamp(view["day_ends_at"], "f"))
    embed.add_field(name=ctx.t("asesino_social.ui.murders"), value=f"{view['murders']} / {view['murders_to_win']}")
    players = []
    for row in view["seats"]:
        mark = "💀" if not row["alive"] else ("⚖️" if row["deprived"] else "🟢")
        shown = f" ({role_name(ctx, row['shown_card'])})" if row["shown_card"] else ""
        players.append(f"{mark} {ctx.shown_name(row['seat'])}{shown}")
    embed.add_field(name=ctx.t("asesino_social.ui.players"), value=clip("\n".join(players), FIELD_LIMIT),
                    inline=False)
    open_ones = [j for j in view["judgements"] if j["status"] == "open"]
    if open_ones:
        lines = [ctx.t("asesino_social.ui.judgement_line", judgement=j["id"], accused=ctx.shown_name(j["accused"]),
                       backers=len(j["backers"]), ends=stamp(j["expires_at"])) for j in open_ones]
        embed.add_field(name=ctx.t("asesino_social.ui.judgements"), value=clip("\n".join(lines), FIELD_LIMIT),
                        inline=False)
    embed.set_footer(text=ctx.t("asesino_social.ui.footer"))
    return embed


def secrets_embed(ctx: RenderContext, view: dict[str, Any]) -> discord.Embed:
    """The private view of one player: card, character, what is still available today and their inbox."""
    me = view["me"]
    embed = discord.Embed(title=ctx.t("secrets.title"), colour=COLOUR)
    embed.add_field(name=ctx.t("asesino_social.ui.card"), value=role_name(ctx, me["card"]))
    if me["role"] != me["card"]:
        embed.add_field(name=ctx.t("asesino_social.ui.role_now"), value=role_name(ctx, me["role"]))
    embed.add_field(name=ctx.t("asesino_social.ui.character"), value=ctx.t(me["character"]))
    if me.get("partner") is not None:
        embed.add_field(name=ctx.t("asesino_social.ui.partner"), value=seat_name(ctx, me["partner"]))
    if me.get("collected_cards"):
        embed.add_field(name=ctx.t("asesino_social.ui.collected"), value=", ".join(
            f"{seat_name(ctx, c['seat'])}: {role_name(ctx, c['card'])}" for c in me["collected_cards"]), inline=False)
    if me.get("inspections"):
        embed.add_field(name=ctx.t("asesino_social.ui.inspections"), value=clip("\n".join(
            ctx.t("asesino_social.ui.inspection_line", day=i["day"], target=seat_name(ctx, i["target"]),
                  card=role_name(ctx, i["card"])) for i in me["inspections"]), FIELD_LIMIT), inline=False)
    status = "dead" if not me["alive"] else ("deprived" if me["deprived"] else "alive")
    embed.add_field(name=ctx.t("asesino_social.ui.status"), value=ctx.t(f"asesino_social.ui.status_{status}"),
                    inline=False)
    inbox = [ctx.t("asesino_social.ui.inbox_line", day=item["day"], text=ctx.t(item["key"], **params_text(
        ctx, item["params"]))) for item in me["inbox"][-8:]]
    if inbox:
        embed.add_field(name=ctx.t("asesino_social.ui.inbox"), value=clip("\n".join(inbox), FIELD_LIMIT),
                        inline=False)
    return embed

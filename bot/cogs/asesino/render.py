"""Text and embeds of Asesino en Serie (tabletop and 2-4 player modes), built only from engine events and views.

Event parameters are turned into words here: card kinds (``card``, ``role``, ``hand``, ``cards``...) are named
from the catalogue (``asesino.card.<kind>``), seats (declared by the engines: ``target``, ``killer``,
``winners``...) become player names, columns and positions are shown 1-based and ``reason`` (a catalogue key) is
rendered.

The public embeds (:func:`tabletop_embed`, :func:`small_embed`) read only ``engine.view(state, None)``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import discord

from bot.ui import COLOUR, RenderContext
from games.asesino.common import card_key
from games.core import Event

CARD_KEYS = frozenset({"card", "role", "identity", "effect"})
CARD_LIST_KEYS = frozenset({"hand", "cards", "effects", "order", "gave", "got", "lost"})
ONE_BASED_KEYS = frozenset({"column", "first_column", "second_column", "first_index", "second_index"})
MURDERS_TO_WIN = 3
ZWSP = "\u200b"
PLAYER_TEXT_KEYS = frozenset({"words", "text"})


def neutral(text: str) -> str:
    """Player-written ``text`` that can neither ping nor display a name: a zero-width space breaks user, role and
    channel mentions (``<@id>``, ``<@&id>``, ``<#id>``) and ``@everyone`` / ``@here``, which then show as typed."""
    for token in ("<@", "<#"):
        text = text.replace(token, token[0] + ZWSP + token[1])
    return text.replace("@everyone", "@" + ZWSP + "everyone").replace("@here", "@" + ZWSP + "here")


def card_name(ctx: RenderContext, card: str) -> str:
    return ctx.t(card_key(card))  # type: ignore[arg-type]


def card_list(ctx: RenderContext, cards: list[Any]) -> str:
    """Card kinds, or journalist ``{"column", "index", "card"}`` dicts, as a comma-separated list."""
    parts = []
    for card in cards:
        if isinstance(card, dict):
            parts.append(ctx.t("asesino.ui.card_at", column=card["column"] + 1, index=card["index"] + 1,
                               card=card_name(ctx, card["card"])))
        else:
            parts.append(card_name(ctx, card))
    return ", ".join(parts) or ctx.t("asesino.ui.none")


def words(ctx: RenderContext, params: dict[str, Any], declared: Iterable[str] = ()) -> dict[str, Any]:
    """Event, refusal or outcome ``params`` ready for the catalogue: names (the ``declared`` seats and the
    engine's ``seat_params``), card names, 1-based columns, rendered reasons."""
    out = ctx.seat_params(params, declared)
    for key, value in params.items():
        if key in CARD_KEYS and isinstance(value, str):
            out[key] = card_name(ctx, value)
        elif key in CARD_LIST_KEYS and isinstance(value, list):
            out[key] = card_list(ctx, value)
        elif key in ONE_BASED_KEYS and isinstance(value, int):
            out[key] = value + 1
        elif key == "reason" and isinstance(value, str):
            out[key] = ending_text(ctx, value, params.get("roles") or {})
        elif key in PLAYER_TEXT_KEYS and isinstance(value, str):
            out[key] = neutral(value) if value else "…"
    return out


def params_of(ctx: RenderContext, event: Event) -> dict[str, Any]:
    """``event.params`` ready for the catalogue (see :func:`words`)."""
    return words(ctx, event.params, event.seat_params)


def ending_text(ctx: RenderContext, reason: str, roles: dict[str, str]) -> str:
    """The ending ``reason`` (a catalogue key) as it really happened at this table: "the Killer wins" alone when
    no Accomplice was dealt (``roles``: seat -> role, shown at the end); in the 2-4 player mode, the cards running
    out before every column was settled is said so, with the murders counted."""
    if reason == "asesino.end.three_deaths" and roles and "accomplice" not in roles.values():
        return ctx.t("asesino.end.three_deaths.alone")
    if reason == "asesino.end.all_revealed" and ctx.table.state is not None and ctx.table.mode == "small":
        view = ctx.table.engine.view(ctx.table.state, None)
        if not all(column["revealed"] for column in view["columns"]):
            return ctx.t("asesino.end.cards_ran_out", count=len(view["murders"]), total=MURDERS_TO_WIN)
    return ctx.t(reason)


def event_line(ctx: RenderContext, event: Event) -> str:
    return ctx.t(event.key, **params_of(ctx, event))


# --- private messages ------------------------------------------------------------------------------------------
def intro_embed(ctx: RenderContext, event: Event) -> discord.Embed:
    """The start-of-game DM, saying each thing once: who you are (the title), what you hold (the hand, one card a
    line) and what to do next."""
    role = event.params.get("role") or event.params.get("identity") or ""
    title = "asesino.ui.identity_title" if "identity" in event.params else "asesino.ui.intro_title"
    embed = discord.Embed(title=ctx.t(title, role=card_name(ctx, role)),
                          description=ctx.t("asesino.ui.intro_next", channel=f"<#{ctx.table.channel_id}>"),
                          colour=COLOUR)
    hand = event.params.get("hand") or []
    embed.add_field(name=ctx.t("asesino.ui.hand"), value="\n".join(f"• {card_name(ctx, c)}" for c in hand) or "-",
                    inline=False)
    return embed


def hand_embed(ctx: RenderContext, seat: int, view: dict[str, Any]) -> discord.Embed:
    """A seat's private view: role/identity, hand, partner and the face-down cards they played."""
    role = view.get("role") or view.get("identity")
    embed = discord.Embed(title=ctx.t("asesino.ui.secrets_title", role=card_name(ctx, role or "victim")),
                          colour=COLOUR)
    hand = view.get("hand") or []
    embed.add_field(name=ctx.t("asesino.ui.hand"), value="\n".join(f"• {card_name(ctx, c)}" for c in hand)
                    or ctx.t("asesino.ui.empty_hand"), inline=False)
    if view.get("partner") is not None:
        embed.add_field(name=ctx.t("asesino.ui.partner"), value=ctx.shown_name(view["partner"]), inline=False)
    plays = [ctx.t("asesino.ui.my_play", target=ctx.shown_name(p["target"]), position=p["position"] + 1,
                   card=card_name(ctx, p["card"])) for p in view.get("my_plays") or []]
    plays += [ctx.t("asesino.ui.my_card", column=p["column"] + 1, index=p["index"] + 1,
                    card=card_name(ctx, p["card"])) for p in view.get("my_cards") or []]
    if plays:
        embed.add_field(name=ctx.t("asesino.ui.my_plays"), value="\n".join(plays)[:1000], inline=False)
    return embed


# --- the public table ------------------------------------------------------------------------------------------
def _waiting_line(ctx: RenderContext, view: dict[str, Any]) -> str | None:
    waiting = view.get("waiting")
    if not waiting:
        return None
    seat = waiting["seat"]
    return ctx.t(f"asesino.ui.waiting.{waiting['kind']}", seat=ctx.shown_name(seat) if seat is not None else "")


def _roles_field(ctx: RenderContext, embed: discord.Embed, view: dict[str, Any]) -> None:
    roles = view.get("roles")
    if roles:
        lines = [f"{ctx.shown_name(int(seat))}: {card_name(ctx, role)}" for seat, role in sorted(
            roles.items(), key=lambda kv: int(kv[0]))]
        embed.add_field(name=ctx.t("asesino.ui.roles"), value="\n".join(lines), inline=False)


def tabletop_embed(ctx: RenderContext, view: dict[str, Any]) -> discord.Embed:
    """The public table of the tabletop mode: per player the hand size, the cards in front (x/3), seal order,
    revealed cards and death; the turn, the direction and the murder count."""
    direction = {True: "clockwise", False: "counterclockwise", None: "unset"}[view["clockwise"]]
    lines = [ctx.t(f"asesino.ui.direction.{direction}"),
             ctx.t("asesino.ui.deaths", deaths=len(view["deaths"]), total=MURDERS_TO_WIN)]
    waiting = _waiting_line(ctx, view)
    if waiting:
        lines.insert(0, waiting)
    embed = discord.Embed(title=f"{ctx.t('game.asesino')} — {ctx.t('mode.asesino.tabletop')}",
                          description="\n".join(lines), colour=COLOUR)
    for seat in view["seats"]:
        index = seat["seat"]
        marks = []
        if view["waiting"] and view["waiting"]["seat"] == index:
            marks.append("▶️")
        if seat["murdered"]:
            marks.append("☠️")
        elif seat["sealed"]:
            marks.append("🔒")
        value = [ctx.t("asesino.ui.hand_size", count=seat["hand_size"]),
                 ctx.t("asesino.ui.front", marks="🂠" * seat["cards_in_front"] + "▫️" * (3 - seat["cards_in_front"]),
                       count=seat["cards_in_front"])]
        if seat["sealed"]:
            value.append(ctx.t("asesino.ui.sealed", order=seat["sealing"]))
        if seat["resolved"]:
            value.append(ctx.t("asesino.ui.revealed", cards=card_list(ctx, seat["revealed"])))
        if seat["murdered"]:
            value.append(ctx.t("asesino.ui.murdered"))
        embed.add_field(name=f"{' '.join(marks)} {ctx.shown_name(index)}".strip()[:250], value="\n".join(value))
    _roles_field(ctx, embed, view)
    return embed


def _slot_line(ctx: RenderContext, slot: dict[str, Any]) -> str:
    who = ctx.shown_name(slot["by"]) if slot["by"] is not None else ctx.t("asesino.ui.dealt")
    declared = ctx.t(f"asesino.ui.declared.{slot['declared']}") if slot["declared"] else ""
    shown = card_name(ctx, slot["card"]) if slot["card"] is not None else "🂠"
    return " · ".join(part for part in (shown, who, declared) if part)


def small_embed(ctx: RenderContext, view: dict[str, Any]) -> discord.Embed:
    """The public table of the 2-4 player mode: the six columns (cards face down with who played them and
    what they declared, face-up cards named), the murder register, hand sizes and whose turn it is."""
    murders = ", ".join(str(c + 1) for c in view["murders"]) or ctx.t("asesino.ui.none")
    lines = [ctx.t("asesino.ui.register", count=len(view["murders"]), total=MURDERS_TO_WIN, columns=murders),
             ctx.t("asesino.ui.hands", hands=", ".join(f"{ctx.shown_name(seat)} {size}"
                                                       for seat, size in enumerate(view["hand_sizes"])))]
    waiting = _waiting_line(ctx, view)
    if waiting:
        lines.insert(0, waiting)
    embed = discord.Embed(title=f"{ctx.t('game.asesino')} — {ctx.t('mode.asesino.small')}",
                          description="\n".join(lines), colour=COLOUR)
    for column in view["columns"]:
        state = ("☠️" if column["murder"] else "✅") if column["revealed"] else ("🔒" if column["sealed"] else "")
        name = f"{ctx.t('asesino.ui.column', column=column['column'] + 1)} {state}".strip()
        value = "\n".join(_slot_line(ctx, slot) for slot in column["slots"]) or ctx.t("asesino.ui.empty_column")
        embed.add_field(name=name, value=value[:1000])
    _roles_field(ctx, embed, view)
    return embed


def series_embed(ctx: RenderContext, totals: dict[int, float], winners: list[int], names: dict[int, str],
                 series_id: int, played: int, total: int) -> discord.Embed:
    """Standings after ``played`` of ``total`` rounds (``totals``: user id -> points, ``names``: user id -> name
    for message text); the winners (user ids) once over."""
    done = played >= total
    title = ctx.t("asesino.series.final" if done else "asesino.series.standings", played=played, total=total,
                 count=total, series=series_id)
    lines = [f"{names[user]}: {points:g}" for user, points in sorted(totals.items(), key=lambda kv: -kv[1])]
    embed = discord.Embed(title=title, description="\n".join(lines) or "-", colour=discord.Colour.gold())
    if done:
        embed.add_field(name=ctx.t("asesino.series.winner"), value=", ".join(names[u] for u in winners) or "-")
    return embed

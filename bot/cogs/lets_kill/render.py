"""Let's Kill! text and embeds, built only from engine views and events. Card ids become the cards' names
(proper names from the card edition, shown as printed in every language); seats become players' names."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import discord

from bot.budget import clip, fit_lines, size
from bot.ui import COLOUR, RenderContext
from games.core import Event
from games.lets_kill.cards import CARDS
from games.lets_kill.models import (
    ChooseCards,
    Declare,
    DiscardHand,
    PlaceVictim,
    PlayCard,
    Pledge,
    Respond,
)

FIELD_LIMIT = 1024
#: of Discord's 6000 units for all of a message's embeds, the table's own (title, description, fields, footer): the
#: rest is for the living table's "last moves" field (1024 and its name) and the result embed at the end
TABLE_BUDGET = 4000
DISCARD_SHOWN = 3  # the discard pile's top cards on the table (/status shows it all)
CARD_KEYS = ("card", "weapon", "victim")
LIST_KEYS = ("cards", "victims")


def card_name(card_id: str | None) -> str:
    return CARDS[card_id].name if card_id in CARDS else str(card_id)


def card_line(ctx: RenderContext, card_id: str) -> str:
    """A card with what a player needs to use it: "Wood Chipper — Weapon · Messy, Sharp & Pointy · body count 2"."""
    card = CARDS[card_id]
    attributes = ", ".join(ctx.t(f"lets_kill.attr.{a}") for a in card.attributes)
    kind = {"weapon": "lets_kill.kind.weapon", "victim": "lets_kill.kind.victim",
            "surprise": f"lets_kill.kind.surprise.{card.face}", "event": f"lets_kill.kind.event.{card.subtype}"}
    return f"{card.name} — " + ctx.t(kind.get(card.type, "lets_kill.kind.victim"), attributes=attributes,
                                     body_count=card.body_count, points=card.points)


def card_names(ids: list[str]) -> str:
    return ", ".join(card_name(c) for c in ids)


def words(ctx: RenderContext, params: dict[str, Any], declared: Iterable[str] = ()) -> dict[str, Any]:
    """``params`` with seats as names, card ids as card names, a window type and a missing Location in words."""
    out = ctx.seat_params(params, declared)
    for key in CARD_KEYS:
        if isinstance(params.get(key), str):
            out[key] = card_name(params[key])
    for key in LIST_KEYS:
        if isinstance(params.get(key), list):
            out[key] = card_names(params[key]) or "—"
    if "location" in params:
        out["location"] = card_name(params["location"]) if params["location"] else ctx.t("lets_kill.ui.town")
    if isinstance(params.get("window"), str):
        out["window"] = ctx.t(f"lets_kill.window_name.{params['window']}")
    return out


def event_text(ctx: RenderContext, event: Event) -> str:
    return ctx.t(event.key, **words(ctx, event.params, event.seat_params))


def fit(ctx: RenderContext, lines: list[str], limit: int) -> str:
    """``lines`` joined within ``limit`` characters, ending in "…and N more" when some do not fit."""
    out: list[str] = []
    for i, line in enumerate(lines):
        more = ctx.t("lets_kill.ui.more", count=len(lines) - i)
        if len("\n".join([*out, line])) + len(more) + 1 > limit and i < len(lines) - 1 or \
                len("\n".join([*out, line])) > limit:
            out.append(more)
            break
        out.append(line)
    return "\n".join(out)[:limit] or "—"


def _victim(entry: dict[str, Any]) -> str:
    """A Victim in play: name, printed points, 🂠 when a Surprise hides under it."""
    return f"{card_name(entry['card'])} · {CARDS[entry['card']].points}" + (" 🂠" if entry["surprise"] else "")


def _room(loc: dict[str, Any]) -> str:
    """" (2/3)" for a Location with a capacity (Victims on it / capacity), else nothing."""
    capacity = [e.arg("n") for e in CARDS[loc["card"]].effects_of("static", "capacity")]
    return f" ({len(loc['victims'])}/{min(capacity)})" if capacity else ""


def _welcome(ctx: RenderContext, loc: dict[str, Any]) -> str:
    """" · Old" for a Location that only takes Victims with some attributes, else nothing."""
    allowed = [e.arg("allowed") for e in CARDS[loc["card"]].effects_of("static", "placement_restriction")]
    names = sorted({ctx.t(f"lets_kill.attr.{a}") for f in allowed if f is not None and not f.negate for a in f.attrs})
    return f" · {' / '.join(names)}" if names else ""


def _incident_cards(inc: dict[str, Any]) -> str:
    """The Weapon, then any Media Event and attached Events: "Cake + Breaking News"."""
    return " + ".join(card_name(c) for c in [inc["weapon"], inc["media"], *inc["attached"]] if c)


def _incident_victims(inc: dict[str, Any]) -> str:
    """The Victims, each with its revealed Surprise: "Tyler Nodd (Everyone's Favourite Neighbour)"."""
    surprises = inc["surprises"]
    return ", ".join(card_name(v) + (f" ({card_name(surprises[v])})" if v in surprises else "")
                     for v in inc["victims"])


def _area(ctx: RenderContext, view: dict[str, Any]) -> list[tuple[str, str]]:
    """Every Location in play with its Victims, then the Victims out on the town, one compact line each, never cut
    (the 43 Victims and 12 Locations of the deck take under 1,500 characters); a list longer than a field goes on
    in a second field."""
    area = [(f"📍 {card_name(loc['card'])}{_room(loc)}{_welcome(ctx, loc)}", [_victim(v) for v in loc["victims"]])
            for loc in view["locations"]]
    area.append((ctx.t("lets_kill.ui.town_field"), [_victim(v) for v in view["town"]]))
    fields: list[tuple[str, str]] = []
    for name, lines in area:
        chunks = [""]
        for line in lines:
            if chunks[-1] and size(chunks[-1]) + 1 + size(line) > FIELD_LIMIT:
                chunks.append("")
            chunks[-1] = f"{chunks[-1]}\n{line}" if chunks[-1] else line
        fields += [(name if i == 0 else f"{name} ({i + 1})", chunk or ctx.t("lets_kill.ui.no_victims"))
                   for i, chunk in enumerate(chunks)]
    return fields


def discard_line(ctx: RenderContext, view: dict[str, Any], shown: int | None = None) -> str | None:
    """The Let's Kill discard pile's face-up cards, top first (all, or the ``shown`` top ones; README ruling 6)."""
    cards = view.get("discard", [])
    if not cards:
        return None
    top = cards if shown is None else cards[:shown]
    more = len(cards) - len(top)
    names = card_names(top) + (f", {ctx.t('lets_kill.ui.more', count=more)}" if more else "")
    return ctx.t("lets_kill.ui.discard_top", cards=names)


def table_embed(ctx: RenderContext, view: dict[str, Any]) -> discord.Embed:
    """The play area: every Location with its Victims and every Victim out on the town (never cut), each player's
    score, hand size and Incidents, deck sizes, the top of the discard pile, what the game waits for, and a legend
    of the table's marks. Within :data:`TABLE_BUDGET` whatever the contents: only the Incidents are cut to fit."""
    decks = view["decks"]
    lines = [ctx.t("lets_kill.ui.decks", lets_kill=decks["lets_kill"], victims=decks["victims"],
                   discards=decks["lets_kill_discard"])]
    if (discard := discard_line(ctx, view, DISCARD_SHOWN)) is not None:
        lines.append(discard)
    pending = view.get("pending")
    if pending:
        lines.append(ctx.t(f"lets_kill.ui.pending.{pending['kind']}", **words(ctx, {
            "seat": pending["seat"], "victim": pending.get("victim"), "window": pending.get("window"),
            "seats": pending.get("waiting", [])})))
    if view.get("shootout"):
        duel = view["shootout"]
        lines.append(ctx.t("lets_kill.ui.shootout", **words(ctx, {
            "seat": duel["target"], "target_total": duel["target_total"], "posse_total": duel["posse_total"]})))
    if view.get("declared_by") is not None:
        lines.append(ctx.t("lets_kill.ui.declared", seat=ctx.shown_name(view["declared_by"])))
    embed = discord.Embed(title=ctx.t("game.lets_kill"), description=clip("\n".join(lines), 1000), colour=COLOUR)
    embed.set_footer(text=ctx.t("lets_kill.ui.legend"))
    area = _area(ctx, view)
    players = []
    for seat in range(view["players"]):
        incidents = [ctx.t("lets_kill.ui.incident_line", incident=inc["id"], weapon=_incident_cards(inc),
                           victims=_incident_victims(inc), score=inc["score"])
                     for inc in view["incidents"] if inc["owner"] == seat]
        if view["skips"][seat]:
            incidents.insert(0, ctx.t("lets_kill.ui.skips", skips=view["skips"][seat]))
        title = clip(ctx.t("lets_kill.ui.player_field", seat=ctx.shown_name(seat), score=view["scores"][seat],
                           hand=view["hand_sizes"][seat]), 256)
        players.append((title, "\n".join(incidents) or ctx.t("lets_kill.ui.no_incidents")))
    used = size(embed.title or "") + size(embed.description or "") + size(embed.footer.text or "")
    used += sum(size(name) + size(value) for name, value in area) + sum(size(name) for name, _ in players)
    room = min(FIELD_LIMIT, max(60, (TABLE_BUDGET - used) // max(1, len(players))))
    for name, value in [*area, *((n, fit_lines(v, room, ctx.language)) for n, v in players)]:
        embed.add_field(name=name, value=value, inline=False)
    return embed


def status_embeds(ctx: RenderContext, view: dict[str, Any]) -> list[discord.Embed]:
    """What ``/status`` adds under the table: the whole face-up discard pile, top first (README ruling 6)."""
    line = discard_line(ctx, view)
    return [] if line is None else [discord.Embed(description=clip(line, 4000), colour=COLOUR)]


def secrets_embed(ctx: RenderContext, view: dict[str, Any]) -> discord.Embed:
    """A seat's hand and the face-down Surprises it knows (placed or peeked)."""
    embed = discord.Embed(title=ctx.t("secrets.title"), colour=COLOUR)
    hand = [f"• {card_line(ctx, c)}" for c in view.get("hand", [])]
    embed.add_field(name=ctx.t("lets_kill.ui.hand"), value=fit(ctx, hand, FIELD_LIMIT) if hand
                    else ctx.t("lets_kill.ui.empty"), inline=False)
    known = [f"{card_name(v)}: {card_name(s)}" for v, s in view.get("known", {}).items()]
    if known:
        embed.add_field(name=ctx.t("lets_kill.ui.known"), value=fit(ctx, known, FIELD_LIMIT), inline=False)
    return embed


def action_label(ctx: RenderContext, action: Any, owners: dict[int, int]) -> str:
    """A select option's label (at most 100 characters) for a legal action; ``owners``: Incident id -> seat."""
    if isinstance(action, PlaceVictim):
        text = ctx.t("lets_kill.action.place", location=card_name(action.location))
    elif isinstance(action, PlayCard):
        target = card_names(action.victims)
        if action.location:
            target += f" → {card_name(action.location)}"
        if action.incident is not None:
            target = ctx.t("lets_kill.action.incident", incident=action.incident,
                           seat=ctx.name(owners.get(action.incident, 0)))
        if action.seat is not None:
            target = ctx.name(action.seat)
        key = "lets_kill.action.play_on" if target else "lets_kill.action.play"
        text = ctx.t(key, card=card_name(action.card), target=target)
    elif isinstance(action, DiscardHand):
        text = ctx.t("lets_kill.action.discard_hand")
    elif isinstance(action, Respond):
        if action.card is None:
            text = ctx.t("lets_kill.action.pass")
        else:
            extra = card_name(action.victim) if action.victim else ""
            if action.card and CARDS[action.card].effects_of("response", "move_victim"):
                extra = card_name(action.location) if action.location else ctx.t("lets_kill.ui.town")
            text = ctx.t("lets_kill.action.respond", card=card_name(action.card)) + (f" → {extra}" if extra else "")
    elif isinstance(action, Pledge):
        total = sum(CARDS[c].body_count or 0 for c in action.cards)
        text = ctx.t("lets_kill.action.pledge", cards=card_names(action.cards), total=total) if action.cards \
            else ctx.t("lets_kill.action.no_pledge")
    elif isinstance(action, ChooseCards):
        peeked = all(CARDS[c].type == "victim" for c in action.cards)  # Stakeout names Victims, not cards
        key = "lets_kill.action.choose_surprises" if peeked else "lets_kill.action.choose"
        text = ctx.t(key, cards=card_names(action.cards)) if action.cards else ctx.t("lets_kill.action.choose_none")
    elif isinstance(action, Declare):
        text = ctx.t("lets_kill.action.declare" if action.declare else "lets_kill.action.no_declare")
    else:
        text = str(action)
    return text[:100]

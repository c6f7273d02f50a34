"""A Step-2 play built step by step in an ephemeral panel, so every legal move can be made from Discord however many
there are: the card, then what it needs besides Victims (an Incident, a player, a destination), then its Victims
(the sets in one select, or, when there are more than a select holds, the place and then a multi-select of the
Victims there), then their order (a Weapon's declaration order, W1; Free Samples' arrival order, §9.10).

The move so far (:class:`Partial`) travels in the components' ``arg`` (no colons, within Discord's 100 characters
for a custom_id); the legal plays are read anew at each step from ``legal_actions`` (each listed set stands for
every order of its Victims: ``LetsKill.free_order``) and the components carry the table version, so a panel drawn
before the game moved on is refused as stale. The engine still checks the finished move.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import permutations
from typing import Any

import discord

from bot.cogs.lets_kill import render
from bot.cogs.reference.held import card_effect
from bot.errors import UserError
from bot.ui import RenderContext
from games.lets_kill.cards import CARDS
from games.lets_kill.models import PlayCard
from games.lets_kill.rules import position

OPTIONS = 25  # a select's options
ORDER_AT_ONCE = 4  # up to 4 Victims, every order fits one select (4! = 24); more are ordered one at a time
FIELDS = ("location", "incident", "seat")
UNSET = "*"
TOWN = "~"


@dataclass(frozen=True)
class Partial:
    """A play being built: the card, the other targets fixed so far (``UNSET`` until chosen; ``None`` is a choice),
    the place of its Victims (a Location, ``TOWN``, or ``UNSET``), its Victims (``None`` until chosen) and the
    order fixed so far."""

    card: str
    location: Any = UNSET
    incident: Any = UNSET
    seat: Any = UNSET
    place: str = UNSET
    victims: tuple[str, ...] | None = None
    order: tuple[str, ...] = ()

    def encode(self) -> str:
        def one(value: Any) -> str:
            return UNSET if value == UNSET else "" if value is None else str(value)

        victims = UNSET if self.victims is None else _ids(self.victims)
        return "/".join([self.card, one(self.location), one(self.incident), one(self.seat), self.place, victims,
                         _ids(self.order)])

    @classmethod
    def decode(cls, arg: str) -> Partial:
        """Raises ``UserError("lets_kill.bad_choice")`` for an ``arg`` no panel drew."""
        parts = arg.split("/")
        if len(parts) != 7 or parts[0] not in CARDS:
            raise UserError("lets_kill.bad_choice")
        card, location, incident, seat, place, victims, order = parts

        def number(text: str) -> Any:
            if text == UNSET or not text:
                return UNSET if text == UNSET else None
            if not text.isdigit():
                raise UserError("lets_kill.bad_choice")
            return int(text)

        return cls(card=card, location=location if location in (UNSET,) else (location or None),
                   incident=number(incident), seat=number(seat), place=place,
                   victims=None if victims == UNSET else _cards(victims), order=_cards(order))


def _ids(victims: tuple[str, ...] | list[str]) -> str:
    """Victim ids without their leading ``V`` (every Victim's id starts with it), comma-separated."""
    return ",".join(v[1:] for v in victims)


def _cards(text: str) -> tuple[str, ...]:
    ids = tuple(f"V{v}" for v in text.split(",") if v)
    if any(v not in CARDS for v in ids):
        raise UserError("lets_kill.bad_choice")
    return ids


@dataclass(frozen=True)
class Panel:
    """The next control of a play being built: a select (``name``, ``arg``, options, how many may be picked)."""

    name: str
    arg: str
    options: list[discord.SelectOption]
    placeholder: str
    min_values: int = 1
    max_values: int = 1


def card_panel(ctx: RenderContext, legal: list[Any]) -> Panel:
    """Step one: the cards with a legal play, in hand order, and throwing away the hand when that is legal."""
    cards = list(dict.fromkeys(a.card for a in legal if isinstance(a, PlayCard)))
    options = [discord.SelectOption(label=render.card_name(c)[:100], value=c,
                                    description=card_effect(c, ctx.language)) for c in cards]
    options += [discord.SelectOption(label=render.action_label(ctx, a, {}), value=f"!{i}")
                for i, a in enumerate(legal) if not isinstance(a, PlayCard)]
    return Panel("card", "", options[:OPTIONS], ctx.t("lets_kill.ui.pick_card"))


def advance(partial: Partial, name: str, values: list[str]) -> Partial:
    """``partial`` with the answer ``values`` of its panel ``name``. Raises ``UserError("lets_kill.bad_choice")``
    for an answer that panel could not give."""
    if name == "vic" and not values:  # a multi-select left empty: no Victim (Stakeout may peek at none)
        return replace(partial, victims=())
    if not values:
        raise UserError("lets_kill.bad_choice")
    value = values[0]
    if name == "tgt":
        field, _, raw = value.partition("=")
        if field not in FIELDS:
            raise UserError("lets_kill.bad_choice")
        parsed: Any = None if not raw else raw if field == "location" else int(raw) if raw.isdigit() else UNSET
        if parsed == UNSET:
            raise UserError("lets_kill.bad_choice")
        return replace(partial, **{field: parsed})
    if name == "place":
        return replace(partial, place=value)
    if name == "vic":  # a set (one value, "05,06,") or the Victims of a multi-select ("V05", "V06")
        victims = _cards(value) if len(values) == 1 and value.endswith(",") else tuple(values)
        if any(v not in CARDS or CARDS[v].type != "victim" for v in victims):
            raise UserError("lets_kill.bad_choice")
        return replace(partial, victims=victims)
    if name == "ord":
        order = _cards(value)
        if partial.victims is None or not set(order) <= set(partial.victims):
            raise UserError("lets_kill.bad_choice")
        return replace(partial, order=order)
    raise UserError("lets_kill.bad_choice")


def step(ctx: RenderContext, state: Any, legal: list[Any], partial: Partial) -> Panel | PlayCard:
    """The next panel of ``partial``, or the finished play. Raises ``UserError("lets_kill.bad_choice")`` when no
    legal play is left that matches the choices so far."""
    moves = [a for a in legal if isinstance(a, PlayCard) and a.card == partial.card and
             all(getattr(partial, f) == UNSET or getattr(a, f) == getattr(partial, f) for f in FIELDS)]
    if not moves:
        raise UserError("lets_kill.bad_choice")
    for field in FIELDS:
        values = list(dict.fromkeys(getattr(a, field) for a in moves))
        if getattr(partial, field) == UNSET and len(values) > 1:
            return _field_panel(ctx, state, partial, field, values, moves)
    fixed = replace(partial, **{f: getattr(moves[0], f) for f in FIELDS if getattr(partial, f) == UNSET})
    if fixed.victims is None:
        sets = list(dict.fromkeys(tuple(a.victims) for a in moves))
        if len(sets) == 1:
            fixed = replace(fixed, victims=sets[0])
        else:
            return _victims_panel(ctx, state, fixed, sets)
    victims = list(fixed.victims or ())
    rest = [v for v in victims if v not in fixed.order]
    if len(rest) > 1:
        return _order_panel(ctx, fixed, rest)
    return PlayCard(card=fixed.card, victims=[*fixed.order, *rest], location=fixed.location,
                    incident=fixed.incident, seat=fixed.seat)


def _field_panel(ctx: RenderContext, state: Any, partial: Partial, field: str, values: list[Any],
                 moves: list[PlayCard]) -> Panel:
    owners = {inc.id: inc.owner for inc in state.incidents}
    options = []
    for value in values[:OPTIONS]:
        description = None
        if value is None:  # the play without this target (Free Samples moving nobody)
            label = ctx.t("lets_kill.ui.no_target")
        elif field == "location":
            label = render.card_name(value)
            description = card_effect(value, ctx.language)
        elif field == "incident":
            label = ctx.t("lets_kill.action.incident", incident=value, seat=ctx.name(owners.get(value, 0)))
        else:
            label = ctx.name(value)
        options.append(discord.SelectOption(label=label[:100], value=f"{field}={'' if value is None else value}",
                                            description=description))
    return Panel("tgt", partial.encode(), options, ctx.t("lets_kill.ui.pick_target",
                                                         card=render.card_name(partial.card)))


def _victims_panel(ctx: RenderContext, state: Any, partial: Partial, sets: list[tuple[str, ...]]) -> Panel:
    """The Victim sets in one select when they fit; else the place first (when they lie in several places), then
    a multi-select of the Victims there (the engine checks the set)."""
    weapon = CARDS[partial.card].type == "weapon"  # a declaration is at one place (W1); other plays are not
    title = ctx.t("lets_kill.ui.aim", weapon=render.card_name(partial.card)) if weapon else \
        ctx.t("lets_kill.ui.pick_victims", card=render.card_name(partial.card))
    if weapon and partial.place != UNSET:
        sets = [s for s in sets if s and _place(state, s[0]) == partial.place]
    if len(sets) <= OPTIONS:
        options = [discord.SelectOption(label=(render.card_names(list(s)) or ctx.t("lets_kill.ui.no_target"))[:100],
                                        value=_ids(s) + ",") for s in sets]
        return Panel("vic", partial.encode(), options, title)
    places = list(dict.fromkeys(_place(state, s[0]) for s in sets if s))
    if weapon and len(places) > 1:
        options = [discord.SelectOption(label=(render.card_name(p) if p != TOWN else ctx.t("lets_kill.ui.town_field"))
                                        [:100], value=p) for p in places[:OPTIONS]]
        return Panel("place", partial.encode(), options, ctx.t("lets_kill.ui.pick_place",
                                                               card=render.card_name(partial.card)))
    victims = list(dict.fromkeys(v for s in sets for v in s))[:OPTIONS]
    options = [discord.SelectOption(label=render.card_name(v)[:100], value=v, description=card_effect(v, ctx.language))
               for v in victims]
    fewest, most = min(len(s) for s in sets), max(len(s) for s in sets)
    return Panel("vic", partial.encode(), options, title, min_values=fewest, max_values=min(most, len(options)))


def _place(state: Any, victim: str) -> str:
    _, loc = position(state, victim)
    return loc or TOWN


def _order_panel(ctx: RenderContext, partial: Partial, rest: list[str]) -> Panel:
    """Every order of the Victims left when they are few (4! = 24 fits a select), else which one comes next."""
    if len(rest) <= ORDER_AT_ONCE:
        orders = [[*partial.order, *p] for p in permutations(rest)]
    else:
        orders = [[*partial.order, v] for v in rest]
    options = [discord.SelectOption(label=" → ".join(render.card_name(v) for v in order[len(partial.order):])[:100],
                                    value=_ids(order) + ",") for order in orders]
    key = "lets_kill.ui.pick_order" if len(rest) <= ORDER_AT_ONCE else "lets_kill.ui.pick_next"
    return Panel("ord", partial.encode(), options[:OPTIONS], ctx.t(key, card=render.card_name(partial.card)))

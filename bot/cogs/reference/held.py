"""What a player holds, as reference entries: read from the seat's own private view (``engine.view(state, seat)``),
so nothing another seat hides can appear; and the one-line effect a move menu's option carries.

View shapes read (each game's ``views.py``): Let's Kill! ``hand`` (card ids) and ``known`` (Victim -> the face-down
Surprise the seat knows); Verdugo ``you.role`` and ``you.dealt``; Asesino tabletop ``role`` / 2-4 players
``identity`` and ``hand``; the social mode ``me.role``; Cereal Killer the seat's role (``roles[seat]``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import discord

from bot.budget import EMBED_DESCRIPTION, OPTION_TEXT, clip, fit_lines
from bot.cogs.reference.entries import EXECUTIONER, Entry, lookup
from bot.i18n import t
from bot.ui import COLOUR
from games.lets_kill.cards import CARDS


def _lets_kill(view: dict[str, Any]) -> Iterator[str]:
    for card in (*view.get("hand", []), *view.get("known", {}).values()):
        if card in CARDS:
            yield f"lets_kill:{CARDS[card].type}:{card.split('-')[0]}"


def _verdugo(view: dict[str, Any], seat: int) -> Iterator[str]:
    if view.get("executioner") == seat:  # this round's Executioner holds no card, but has a part to look up
        yield f"verdugo:role:{EXECUTIONER}"
    you = view.get("you") or {}
    if you.get("role"):
        yield f"verdugo:role:{you['role']}"
    if you.get("dealt"):
        yield f"verdugo:object:{you['dealt']}"


def _asesino(view: dict[str, Any]) -> Iterator[str]:
    me = view.get("me")
    if isinstance(me, dict) and me.get("role"):
        yield f"asesino:social:{me['role']}"
        return
    for card in (view.get("role") or view.get("identity"), *view.get("hand", [])):
        if card:
            yield f"asesino:card:{card}"


def _cereal_killer(view: dict[str, Any], seat: int) -> Iterator[str]:
    roles = view.get("roles") or []
    if 0 <= seat < len(roles):
        yield f"cereal_killer:role:{roles[seat]}"


def held(game: str, seat: int, view: dict[str, Any]) -> list[Entry]:
    """The entries of what ``seat`` holds (its role, cards, objects), once each, in the view's order; ``[]`` for
    a game the reference does not know."""
    keys: Iterator[str]
    if game == "lets_kill":
        keys = _lets_kill(view)
    elif game == "verdugo":
        keys = _verdugo(view, seat)
    elif game == "asesino":
        keys = _asesino(view)
    elif game == "cereal_killer":
        keys = _cereal_killer(view, seat)
    else:
        return []
    found = (lookup(key) for key in dict.fromkeys(keys))
    return [entry for entry in found if entry is not None]


def held_embed(entries: list[Entry], language: str) -> discord.Embed | None:
    """"What your cards do": one ``**name**: text`` line per entry, within an embed description; ``None`` when
    there is nothing to explain."""
    if not entries:
        return None
    lines = "\n".join(f"**{e.name(language)}**: {e.text(language)}" for e in entries)
    return discord.Embed(title=t("ref.held", language), colour=COLOUR,
                         description=fit_lines(lines, EMBED_DESCRIPTION, language))


def effect(key: str, language: str) -> str | None:
    """A select option's description: what the entry ``key`` (``<game>:<kind>:<id>``) does, clipped to Discord's
    100 units; ``None`` for an unknown key."""
    entry = lookup(key)
    return None if entry is None else clip(entry.text(language), OPTION_TEXT)


def card_effect(card: str, language: str) -> str | None:
    """:func:`effect` of a Let's Kill! card id (``W10``, ``E08-2``)."""
    return effect(f"lets_kill:{CARDS[card].type}:{card.split('-')[0]}", language) if card in CARDS else None

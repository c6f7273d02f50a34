"""The host's Options form on a lobby: change the game's options before the start instead of cancelling and
opening the game again (issue 21). The form is a persistent :class:`bot.modals.GameModal` named
:data:`bot.modals.LOBBY_OPTIONS`, one text input per option the mode has (Discord allows five), each filled with
the current value; what is typed is read as ``/newgame`` reads it (a number, yes/no in the lobby's language or in
English, a choice by its value or its name) and checked by the store like ``/newgame`` (the same refusals, naming
the option as Discord shows it)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from bot.cogs.lobby.options import ROUNDS, LobbyOption, mode_options
from bot.i18n import catalog
from bot.modals import LOBBY_OPTIONS, GameModal
from games.core import get_game

if TYPE_CHECKING:
    from bot.tables import Table

MAX_INPUTS = 5  # text inputs a Discord modal holds


def form_options(table: Table) -> list[LobbyOption]:
    """The options of ``table``'s mode the form offers (the engine's own, not a series' ``rounds``: that is fixed
    when the lobby opens), at most :data:`MAX_INPUTS`."""
    fields = table.engine.Options.model_fields
    return [o for o in mode_options(get_game(table.game), table.mode) if o.name != ROUNDS and o.name in fields
            ][:MAX_INPUTS]


def typed_value(option: LobbyOption, value: Any, language: str) -> str:
    """``value`` as the form shows it to be edited: yes/no in words, a choice or a number as it is written."""
    if value is None:
        return ""
    if option.kind is bool:
        return catalog(language).render("option.yes" if value else "option.no")
    return str(value)


def options_modal(table: Table, language: str) -> GameModal:
    """The form for ``table``'s lobby, opened at its version."""
    modal = GameModal(table.id, table.version, LOBBY_OPTIONS, title=catalog(language).render("lobby.options_form"))
    for option in form_options(table):
        modal.add_item(discord.ui.TextInput(
            label=option.label(language)[:45], custom_id=option.name, required=False, max_length=100,
            default=typed_value(option, table.options.get(option.name), language) or None,
            placeholder=option.description(language)[:100]))
    return modal


def read_value(option: LobbyOption, text: str, language: str) -> Any:
    """What the host typed for ``option``: a yes/no (in ``language`` or English), a choice (its value or its
    name, any case), a number; anything else is passed on as typed, for the store to refuse by name."""
    folded = text.strip().casefold()
    if option.kind is bool:
        for lang in (language, "en"):
            for word, meaning in (("option.yes", True), ("option.no", False)):
                if folded == catalog(lang).render(word).casefold():
                    return meaning
        return {"true": True, "false": False, "1": True, "0": False}.get(folded, text)
    if option.choices:
        return next((v for v in option.choices
                     if folded in (str(v).casefold(), option.choice_label(v, language).casefold())), text)
    for kind in (int, float) if option.kind in (int, float) else ():
        try:
            return kind(folded)
        except ValueError:
            continue
    return text.strip()


def submitted_options(table: Table, values: dict[str, Any], language: str) -> dict[str, Any]:
    """The options the form's submitted ``values`` (``option name -> text``) make: an input left empty keeps
    the current value."""
    changed = {o.name: read_value(o, str(values[o.name]), language) for o in form_options(table)
               if str(values.get(o.name, "")).strip()}
    return {**table.options, **changed}

"""Modals as persistent as buttons: a game modal's ``custom_id`` carries the game, the table version it was opened
at, a handler name and an argument (``coroner:m:<game>:<version>:<name>:<arg>``), and every submit is handled
from that id by :func:`install_modal_router` (routed to the game's :meth:`bot.ui.GameUI.on_modal`), never by the
Python object that opened it (a crafted id past what the columns hold is refused as stale, as components' are).
So a submit is answered after a restart and however late it comes; the object only renders the form."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import discord

from bot.components import out_of_range
from bot.errors import send_error
from bot.tables.model import TableError

if TYPE_CHECKING:
    from bot.app import Coroner

TEMPLATE = re.compile(r"coroner:m:(?P<game_id>\d+):(?P<version>\d+):(?P<name>[a-z_]+):(?P<arg>[^:]*)")
#: the name of the host's Options form on a lobby (routed to the lobby, not to a game's UI)
LOBBY_OPTIONS = "lobby_options"
#: seconds discord.py keeps the form object (memory only: submits are handled from the custom_id at any time)
KEEP = 900


class GameModal(discord.ui.Modal):
    """A game's form; add its ``discord.ui.TextInput`` items (their ``custom_id`` name the submitted values).
    Raises ``ValueError`` when the id would pass Discord's 100 characters."""

    def __init__(self, game_id: int, version: int, name: str, arg: str = "", *, title: str) -> None:
        custom_id = f"coroner:m:{game_id}:{version}:{name}:{arg}"
        if len(custom_id) > 100 or not TEMPLATE.fullmatch(custom_id):
            raise ValueError(f"bad modal id {custom_id!r}")
        super().__init__(title=title[:45], timeout=KEEP, custom_id=custom_id)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        """Nothing here: the router answers every submit (in this process or after a restart)."""


def submitted_values(components: Iterable[dict[str, Any]]) -> dict[str, str | list[str]]:
    """``custom_id -> value`` of the fields in a modal submit's ``components`` (rows or labels, nested): a text
    input's text, or the list of a select's picked values (empty when nothing was picked)."""
    values: dict[str, str | list[str]] = {}
    for component in components:
        if "custom_id" in component and "value" in component:
            values[str(component["custom_id"])] = str(component["value"])
        elif "custom_id" in component and isinstance(component.get("values"), list):
            values[str(component["custom_id"])] = [str(v) for v in component["values"]]
        values |= submitted_values(component.get("components") or [])
        if isinstance(component.get("component"), dict):
            values |= submitted_values([component["component"]])
    return values


def install_modal_router(bot: Coroner) -> None:
    """Answer every game modal submit through :meth:`bot.app.Coroner.on_game_modal`."""

    async def on_interaction(interaction: discord.Interaction) -> None:
        if interaction.type is not discord.InteractionType.modal_submit:
            return
        data: dict[str, Any] = dict(interaction.data or {})
        match = TEMPLATE.fullmatch(str(data.get("custom_id", "")))
        if match is None:
            return
        game_id, version = int(match["game_id"]), int(match["version"])
        if out_of_range(game_id, version):  # a crafted id: refused before it reaches a query
            await send_error(bot, interaction, TableError("table.stale"))
            return
        await bot.on_game_modal(interaction, game_id, version, match["name"], match["arg"],
                                submitted_values(data.get("components") or []))

    bot.add_listener(on_interaction, "on_interaction")

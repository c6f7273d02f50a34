"""Persistent components: their ``custom_id`` carries the game id (and the table version they were drawn at), so
they keep working after a restart and a click on an outdated message is recognised as stale.

Templates: ``coroner:lobby:<game>:<action>`` for lobby buttons (and the Cancel confirmation's),
``coroner:lobbysel:<game>:<action>``
for the host's lobby select, ``coroner:g:<game>:<version>:<name>:<arg>`` for
game buttons, ``coroner:s:<game>:<version>:<name>:<arg>`` for game selects (the picked values reach the
handler), ``coroner:us:<game>:<version>:<name>:<arg>`` for a game's member picker and
``coroner:h:<what>:<game>:<page>`` for the history's buttons. ``version`` 0 means "any version" (e.g.
the My secrets button). Every number is bounded by :data:`~bot.db.base.MAX_ROW_ID` as it is parsed (see
:class:`_Bounded`): a crafted id past what the columns hold is refused as stale before it reaches a query.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, TypeVar, cast

import discord

from bot.db.base import MAX_ROW_ID
from bot.errors import send_error
from bot.tables.model import TableError

if TYPE_CHECKING:
    from bot.app import Coroner

Item = TypeVar("Item", bound="_Bounded")


def out_of_range(*numbers: int) -> bool:
    """Whether a number parsed from a custom_id (a component's here, a modal's in :mod:`bot.modals`) is past
    :data:`~bot.db.base.MAX_ROW_ID`: no game id, version or page is that large, so the id was crafted."""
    return any(n > MAX_ROW_ID for n in numbers)


class _Bounded:
    """What every persistent component shares: a click on one whose custom_id carries a number past
    :data:`~bot.db.base.MAX_ROW_ID` (no game id, version or page is that large: a crafted id; PostgreSQL's integer
    columns would refuse it) is answered with ``table.stale`` and goes no further."""

    stale = False

    @staticmethod
    def parsed(item: Item, *numbers: int) -> Item:
        """``item`` as parsed from a custom_id with ``numbers`` in it, marked stale when one is out of range."""
        item.stale = out_of_range(*numbers)
        return item

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        """False (after an ephemeral ``table.stale`` reply) for a stale item; discord.py then skips its callback."""
        if self.stale:
            await send_error(cast("Coroner", interaction.client), interaction, TableError("table.stale"))
        return not self.stale


class LobbyButton(_Bounded, discord.ui.DynamicItem[discord.ui.Button],
                  template=r"coroner:lobby:(?P<game_id>\d+):(?P<action>[a-z_]+)"):
    """Join / Leave / Start / Cancel on a lobby message, and the host's Add AI / Remove AI / Options on a second
    row."""

    def __init__(self, game_id: int, action: str, *, label: str = "", style: discord.ButtonStyle | None = None) -> None:
        styles = {"join": discord.ButtonStyle.success, "start": discord.ButtonStyle.primary,
                  "cancel": discord.ButtonStyle.danger}
        super().__init__(discord.ui.Button(label=label or action, style=style or styles.get(action,
                         discord.ButtonStyle.secondary), custom_id=f"coroner:lobby:{game_id}:{action}"),
                         row=1 if action.endswith("_ai") or action == "options" else 0)
        self.game_id = game_id
        self.action = action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> LobbyButton:
        button = cast(discord.ui.Button, item)
        game_id = int(match["game_id"])
        return cls.parsed(cls(game_id, match["action"], label=button.label or "", style=button.style), game_id)

    async def callback(self, interaction: discord.Interaction) -> None:
        bot = cast("Coroner", interaction.client)
        await bot.get_cog("Lobby").on_lobby_button(interaction, self.game_id, self.action)  # type: ignore[union-attr]


class LobbySelect(_Bounded, discord.ui.DynamicItem[discord.ui.Select],
                  template=r"coroner:lobbysel:(?P<game_id>\d+):(?P<action>[a-z_]+)"):
    """The host's select on a lobby message (``kick``: remove a joined player before the start), on its own row."""

    def __init__(self, game_id: int, action: str, *, options: list[discord.SelectOption] | None = None,
                 placeholder: str | None = None) -> None:
        super().__init__(discord.ui.Select(custom_id=f"coroner:lobbysel:{game_id}:{action}",
                                           options=options or [discord.SelectOption(label="-")],
                                           placeholder=placeholder), row=2)
        self.game_id = game_id
        self.action = action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> LobbySelect:
        select = cast(discord.ui.Select, item)
        game_id = int(match["game_id"])
        return cls.parsed(cls(game_id, match["action"], options=list(select.options) or None,
                              placeholder=select.placeholder), game_id)

    async def callback(self, interaction: discord.Interaction) -> None:
        bot = cast("Coroner", interaction.client)
        await bot.get_cog("Lobby").on_lobby_button(  # type: ignore[union-attr]
            interaction, self.game_id, self.action, values=list(self.item.values))


class GameButton(_Bounded, discord.ui.DynamicItem[discord.ui.Button],
                 template=r"coroner:g:(?P<game_id>\d+):(?P<version>\d+):(?P<name>[a-z_]+):(?P<arg>[^:]*)"):
    """A button of a running game, routed to the game's :class:`~bot.ui.GameUI.on_component`."""

    def __init__(self, game_id: int, version: int, name: str, arg: str = "", *, label: str = "",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary, emoji: str | None = None,
                 disabled: bool = False, row: int | None = None) -> None:
        super().__init__(discord.ui.Button(label=label or None, style=style, emoji=emoji, disabled=disabled,
                                           custom_id=f"coroner:g:{game_id}:{version}:{name}:{arg}"), row=row)
        self.game_id, self.version, self.name, self.arg = game_id, version, name, arg

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> GameButton:
        button = cast(discord.ui.Button, item)
        game_id, version = int(match["game_id"]), int(match["version"])
        return cls.parsed(cls(game_id, version, match["name"], match["arg"], label=button.label or "",
                              style=button.style), game_id, version)

    async def callback(self, interaction: discord.Interaction) -> None:
        bot = cast("Coroner", interaction.client)
        await bot.on_game_component(interaction, self.game_id, self.version, self.name, self.arg, [])


class GameSelect(_Bounded, discord.ui.DynamicItem[discord.ui.Select],
                 template=r"coroner:s:(?P<game_id>\d+):(?P<version>\d+):(?P<name>[a-z_]+):(?P<arg>[^:]*)"):
    """A select menu of a running game; the picked values are passed to the game's handler."""

    def __init__(self, game_id: int, version: int, name: str, arg: str = "", *,
                 options: list[discord.SelectOption] | None = None, placeholder: str | None = None,
                 min_values: int = 1, max_values: int = 1, row: int | None = None) -> None:
        super().__init__(discord.ui.Select(custom_id=f"coroner:s:{game_id}:{version}:{name}:{arg}",
                                           options=options or [discord.SelectOption(label="-")],
                                           placeholder=placeholder, min_values=min_values,
                                           max_values=max_values), row=row)
        self.game_id, self.version, self.name, self.arg = game_id, version, name, arg

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> GameSelect:
        select = cast(discord.ui.Select, item)
        game_id, version = int(match["game_id"]), int(match["version"])
        return cls.parsed(cls(game_id, version, match["name"], match["arg"], options=list(select.options) or None,
                              placeholder=select.placeholder, min_values=select.min_values,
                              max_values=select.max_values), game_id, version)

    async def callback(self, interaction: discord.Interaction) -> None:
        bot = cast("Coroner", interaction.client)
        await bot.on_game_component(interaction, self.game_id, self.version, self.name, self.arg,
                                    list(self.item.values))


class GameUserSelect(_Bounded, discord.ui.DynamicItem[discord.ui.UserSelect],
                     template=r"coroner:us:(?P<game_id>\d+):(?P<version>\d+):(?P<name>[a-z_]+):(?P<arg>[^:]*)"):
    """A member picker of a running game (Discord's user select: any member of the server); the handler gets the
    picked members' ids as strings, and who is a bot among them in ``interaction.extras["picked_bots"]`` (ids)."""

    def __init__(self, game_id: int, version: int, name: str, arg: str = "", *, placeholder: str | None = None,
                 row: int | None = None) -> None:
        super().__init__(discord.ui.UserSelect(custom_id=f"coroner:us:{game_id}:{version}:{name}:{arg}",
                                               placeholder=placeholder), row=row)
        self.game_id, self.version, self.name, self.arg = game_id, version, name, arg

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> GameUserSelect:
        select = cast(discord.ui.UserSelect, item)
        game_id, version = int(match["game_id"]), int(match["version"])
        return cls.parsed(cls(game_id, version, match["name"], match["arg"], placeholder=select.placeholder),
                          game_id, version)

    async def callback(self, interaction: discord.Interaction) -> None:
        bot = cast("Coroner", interaction.client)
        picked = list(self.item.values)
        interaction.extras["picked_bots"] = {user.id for user in picked if user.bot}
        await bot.on_game_component(interaction, self.game_id, self.version, self.name, self.arg,
                                    [str(user.id) for user in picked])


class HistoryButton(_Bounded, discord.ui.DynamicItem[discord.ui.Button],
                    template=r"coroner:h:(?P<what>list|game|file):(?P<game_id>\d+):(?P<page>\d+)"):
    """A button of ``/history`` (:mod:`bot.cogs.history`): a page of the server's finished games (``list``, game
    0), a page of one game's timeline (``game``; the finished table's History button opens page 0) or its export
    (``file``)."""

    def __init__(self, what: str, game_id: int, page: int, *, label: str = "", emoji: str | None = None,
                 disabled: bool = False, style: discord.ButtonStyle = discord.ButtonStyle.secondary) -> None:
        super().__init__(discord.ui.Button(label=label or None, emoji=emoji, disabled=disabled, style=style,
                                           custom_id=f"coroner:h:{what}:{game_id}:{page}"))
        self.what, self.game_id, self.page = what, game_id, page

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> HistoryButton:
        game_id, page = int(match["game_id"]), int(match["page"])
        return cls.parsed(cls(match["what"], game_id, page), game_id, page)

    async def callback(self, interaction: discord.Interaction) -> None:
        bot = cast("Coroner", interaction.client)
        await bot.get_cog("History").on_history_button(  # type: ignore[union-attr]
            interaction, self.what, self.game_id, self.page)


def game_button(game_id: int, version: int, name: str, arg: str = "", **kwargs: Any) -> GameButton:
    return GameButton(game_id, version, name, arg, **kwargs)


def secrets_button(game_id: int, label: str) -> GameButton:
    """The "My secrets" button: works at any version, shows the clicker's private view ephemerally."""
    return GameButton(game_id, 0, "secrets", label=label, style=discord.ButtonStyle.secondary, emoji="🔒")


def watch_button(game_id: int, label: str) -> GameButton:
    """The living table's "Watch" button: an onlooker joins the game's thread of the dead and watchers
    (:mod:`bot.threads`)."""
    return GameButton(game_id, 0, "watch", label=label, style=discord.ButtonStyle.secondary, emoji="👁️")


def host_button(game_id: int, label: str) -> GameButton:
    """The "Host" button on a running table: opens the host's panel (:mod:`bot.cogs.host`) for the table's host or
    a server manager; works at any version."""
    return GameButton(game_id, 0, "host", "panel", label=label, style=discord.ButtonStyle.secondary, emoji="🛠️")


def view_of(*items: discord.ui.Item[Any]) -> discord.ui.View:
    """A persistent view (``timeout=None``) holding ``items``."""
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view

"""A crafted component custom_id with a number past what the id columns hold (``MAX_ROW_ID``) is refused as stale
before its handler (and a query) sees it; the largest number that fits goes through."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.components import GameButton, GameSelect, HistoryButton, LobbyButton
from bot.db.base import MAX_ROW_ID
from bot.i18n import t
from bot.modals import install_modal_router


class Response:
    def __init__(self) -> None:
        self.sent: list[tuple[str, bool]] = []

    def is_done(self) -> bool:
        return False

    async def send_message(self, text: str, *, ephemeral: bool = False) -> None:
        self.sent.append((text, ephemeral))


async def language(guild_id: int | None) -> str:
    return "en"


BIG = MAX_ROW_ID + 1


@pytest.mark.parametrize(("factory", "custom_id"), [
    (LobbyButton, f"coroner:lobby:{BIG}:add_ai"),
    (GameButton, f"coroner:g:{BIG}:1:secrets:"), (GameButton, f"coroner:g:1:{BIG}:secrets:"),
    (GameSelect, f"coroner:s:{BIG}:1:vote:"), (GameSelect, f"coroner:s:1:{BIG}:vote:"),
    (HistoryButton, f"coroner:h:list:0:{BIG}"), (HistoryButton, f"coroner:h:game:{BIG}:0"),
    (HistoryButton, f"coroner:h:file:{10**40}:0"),
])
@pytest.mark.parametrize("past", [True, False])
async def test_a_number_past_the_columns_is_refused_as_stale(factory: Any, custom_id: str, past: bool) -> None:
    if not past:  # the same id with the largest number that fits
        custom_id = custom_id.replace(str(BIG), str(MAX_ROW_ID)).replace(str(10**40), str(MAX_ROW_ID))
    match = factory.__discord_ui_compiled_template__.fullmatch(custom_id)
    assert match is not None
    base: discord.ui.Item[Any] = (discord.ui.Select(custom_id=custom_id, options=[discord.SelectOption(label="-")])
                                  if factory is GameSelect else discord.ui.Button(label="x", custom_id=custom_id))
    response = Response()
    interaction: Any = SimpleNamespace(client=SimpleNamespace(language=language), guild_id=1, response=response)
    item = await factory.from_custom_id(interaction, base, match)
    assert await item.interaction_check(interaction) is not past
    assert response.sent == ([("⛔ " + t("table.stale", "en"), True)] if past else [])


@pytest.mark.parametrize("past", [True, False])
async def test_a_modal_submit_past_the_columns_is_refused_as_stale(past: bool) -> None:
    """The modal router bounds a submitted ``coroner:m:`` id the same way before it routes the submit."""
    routed: list[tuple[int, int]] = []

    async def on_game_modal(interaction: Any, game_id: int, version: int, *_: Any) -> None:
        routed.append((game_id, version))

    listeners: list[Any] = []
    bot: Any = SimpleNamespace(language=language, on_game_modal=on_game_modal,
                               add_listener=lambda listener, name: listeners.append(listener))
    install_modal_router(bot)
    number = BIG if past else MAX_ROW_ID
    response = Response()
    interaction: Any = SimpleNamespace(client=bot, guild_id=1, response=response,
                                       type=discord.InteractionType.modal_submit,
                                       data={"custom_id": f"coroner:m:{number}:1:move:", "components": []})
    await listeners[0](interaction)
    assert (routed, response.sent) == (([], [("⛔ " + t("table.stale", "en"), True)]) if past
                                       else ([(MAX_ROW_ID, 1)], []))

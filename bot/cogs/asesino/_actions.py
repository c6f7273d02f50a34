"""Component plumbing shared by the Asesino UIs: who may click, ephemeral panels, the free-text modal and
applying a move through ``bot.tables.act`` with the version the component was drawn at."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from bot.budget import fit_modal
from bot.components import GameSelect, game_button, view_of
from bot.errors import UserError, send_error
from bot.tables import TableService
from bot.ui import SILENT, GameUI, RenderContext
from games.asesino.common import SPEECH_MAX, WORDS_MAX

if TYPE_CHECKING:
    from bot.tables import Table

#: status-message components; every other component lives on an ephemeral panel shown to the player
STATUS_COMPONENTS = frozenset({"direction", "pass", "turn"})


class SpeechModal(discord.ui.Modal):
    """One free-text field; on submit the text completes ``action`` (``words`` or ``text``) and is played."""

    def __init__(self, ui: ActionsMixin, table: Table, version: int, title: str, label: str, field: str,
                 action: dict[str, Any], max_length: int) -> None:
        super().__init__(title=title)
        self.ui, self.table, self.version, self.field, self.action = ui, table, version, field, action
        self.text: discord.ui.TextInput[Any] = discord.ui.TextInput(
            label=label, custom_id=field, style=discord.TextStyle.paragraph, required=False,
            max_length=max_length)
        self.add_item(self.text)
        fit_modal(self)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        try:
            await self.ui.act(interaction, self.table, self.version, self.action | {self.field: self.text.value})
        except Exception as exc:  # noqa: BLE001 - refusals become ephemeral replies
            await send_error(interaction.client, interaction, exc, self.table)  # type: ignore[arg-type]


class ActionsMixin(GameUI):
    """``on_component`` routing for the Asesino UIs (subclasses provide ``on_turn`` and ``on_step``)."""

    async def on_turn(self, interaction: discord.Interaction, table: Table, seat: int, kind: str) -> None:
        raise NotImplementedError

    async def on_step(self, interaction: discord.Interaction, table: Table, seat: int, name: str, arg: str,
                      version: int, values: list[str]) -> bool:
        raise NotImplementedError

    async def on_component(self, interaction: discord.Interaction, table: Table, name: str, arg: str,
                           version: int, values: list[str]) -> None:
        """Only the seat the game waits on gets past the table service's gate (anyone else, and an outdated
        panel, get its refusal and nothing changes)."""
        seat, waiting = TableService.check_turn(table, interaction.user.id, version)
        if name == "turn":
            await self.on_turn(interaction, table, seat, waiting.kind)
        elif name == "pass":
            await self.act(interaction, table, version, {"type": "pass"}, from_status=True)
        elif not await self.on_step(interaction, table, seat, name, arg, version, values):
            raise UserError("error.unexpected")

    # --- helpers -------------------------------------------------------------------------------------------
    async def act(self, interaction: discord.Interaction, table: Table, version: int, action: dict[str, Any], *,
                  from_status: bool = False) -> None:
        """Play ``action`` through :meth:`bot.ui.GameUI.play`. From an ephemeral panel the panel is replaced by a
        short confirmation; from the status message (or a modal) the click is acknowledged without touching the
        public message."""
        bot: Any = interaction.client
        if from_status or interaction.type == discord.InteractionType.modal_submit:
            await interaction.response.defer(ephemeral=True, thinking=True)
            await self.play(bot, table, interaction.user.id, action, version=version)
            await interaction.followup.send(await bot.t(interaction.guild_id, "asesino.ui.done"), ephemeral=True)
            return
        await interaction.response.defer()
        await self.play(bot, table, interaction.user.id, action, version=version)
        await interaction.edit_original_response(content=await bot.t(interaction.guild_id, "asesino.ui.done"),
                                                 view=None)

    @staticmethod
    def select(ctx: RenderContext, name: str, options: list[discord.SelectOption], *, arg: str = "",
               version: int | None = None, min_values: int = 1, max_values: int = 1) -> GameSelect:
        return GameSelect(ctx.table.id, ctx.table.version if version is None else version, name, arg,
                          options=options[:25], min_values=min_values, max_values=min(max_values, len(options)))

    @staticmethod
    def skip_button(ctx: RenderContext, kind: str) -> Any:
        return game_button(ctx.table.id, ctx.table.version, "skip", kind, label=ctx.t("asesino.ui.skip"),
                           style=discord.ButtonStyle.secondary)

    async def ephemeral(self, interaction: discord.Interaction, ctx: RenderContext, key: str,
                        *items: discord.ui.Item[Any], **params: Any) -> None:
        await interaction.response.send_message(ctx.t(key, **params), view=view_of(*items), ephemeral=True,
                                                allowed_mentions=SILENT)

    def speech_modal(self, ctx: RenderContext, kind: str, action: dict[str, Any], *,
                     version: int | None = None) -> SpeechModal:
        """``kind``: ``words`` (a declaration, <= 200 characters), ``statement`` or ``last_words``."""
        field = "words" if kind == "words" else "text"
        limit = WORDS_MAX if kind == "words" else SPEECH_MAX
        return SpeechModal(self, ctx.table, ctx.table.version if version is None else version,
                           ctx.t(f"asesino.ui.modal.{kind}"), ctx.t(f"asesino.ui.modal.{kind}.label"), field,
                           action, limit)

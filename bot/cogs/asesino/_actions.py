"""Component plumbing shared by the Asesino UIs: who may click, ephemeral panels, the free-text modal and
applying a move through ``bot.tables.act`` with the version the component was drawn at."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from bot.components import GameSelect, game_button, view_of
from bot.errors import UserError
from bot.modals import GameModal
from bot.tables import TableService
from bot.ui import SILENT, GameUI, RenderContext
from games.asesino.common import SPEECH_MAX, WORDS_MAX

if TYPE_CHECKING:
    from bot.tables import Table

#: status-message components; every other component lives on an ephemeral panel shown to the player
STATUS_COMPONENTS = frozenset({"direction", "pass", "turn"})


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

    async def on_modal(self, interaction: discord.Interaction, table: Table, name: str, arg: str, version: int,
                       values: dict[str, str]) -> None:
        """A speech modal (``arg``: ``statement``, ``last_words`` or ``words.<card>.<target>`` for a declaration's
        words), also after a restart: the text completes the action, played at the version the modal was opened
        at (a later submit is refused as out of date)."""
        if name != "speech":
            raise UserError("error.unexpected")
        kind, _, rest = arg.partition(".")
        if kind == "words":
            card, _, target = rest.rpartition(".")
            action: dict[str, Any] = {"type": "declare", "card": card, "target": int(target),
                                      "words": values.get("words", "")}
        else:
            action = {"type": kind, "text": values.get("text", "")}
        await self.act(interaction, table, version, action)

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
                     version: int | None = None) -> GameModal:
        """``kind``: ``words`` (a declaration's words, <= 200 characters; ``action`` names its card and target),
        ``statement`` or ``last_words``. Answered by :meth:`on_modal`."""
        field = "words" if kind == "words" else "text"
        limit = WORDS_MAX if kind == "words" else SPEECH_MAX
        arg = f"words.{action['card']}.{action['target']}" if kind == "words" else kind
        modal = GameModal(ctx.table.id, ctx.table.version if version is None else version, "speech", arg,
                          title=ctx.t(f"asesino.ui.modal.{kind}"))
        modal.add_item(discord.ui.TextInput(label=ctx.t(f"asesino.ui.modal.{kind}.label")[:45], custom_id=field,
                                            style=discord.TextStyle.paragraph, required=False, max_length=limit))
        return modal

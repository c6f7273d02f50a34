"""Component plumbing shared by the Asesino UIs: who may click, the move modals opened from the table's button (a
select per choice, under a label, and free text), and applying a move through ``bot.tables.act`` with the version
the component was drawn at. A modal opened from the table message is answered by the table's own edit, so a move
costs one interaction callback and nothing of the bot's REST budget."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import discord

from bot.budget import fit_modal
from bot.errors import UserError, send_error
from bot.tables import TableService
from bot.ui import GameUI, RenderContext
from games.asesino.common import SPEECH_MAX, WORDS_MAX

if TYPE_CHECKING:
    from bot.tables import Table

Answers = dict[str, Any]  # a modal's answers: field name -> picked values (a select) or text (a text field)


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


class MoveModal(discord.ui.Modal):
    """A move asked in one modal: ``fields`` are ``(name, label, component)``; on submit ``build(answers)`` makes
    the engine action (raising :class:`UserError` for an incomplete answer), played at the table's ``version``."""

    def __init__(self, ui: ActionsMixin, table: Table, version: int, title: str,
                 fields: list[tuple[str, str, discord.ui.Select[Any] | discord.ui.TextInput[Any]]],
                 build: Callable[[Answers], dict[str, Any]]) -> None:
        super().__init__(title=title[:45])
        self.ui, self.table, self.version, self.build, self.fields = ui, table, version, build, fields
        for _, label, component in fields:
            self.add_item(discord.ui.Label(text=label[:45], component=component))

    async def on_submit(self, interaction: discord.Interaction) -> None:
        answers = {name: list(c.values) if isinstance(c, discord.ui.Select) else c.value for name, _, c in self.fields}
        try:
            await self.ui.act(interaction, self.table, self.version, self.build(answers))
        except Exception as exc:  # noqa: BLE001 - refusals become ephemeral replies
            await send_error(interaction.client, interaction, exc, self.table)  # type: ignore[arg-type]


class ActionsMixin(GameUI):
    """``on_component`` routing for the Asesino UIs (subclasses provide ``on_turn`` and ``on_step``)."""

    async def on_turn(self, interaction: discord.Interaction, table: Table, seat: int, kind: str) -> None:
        raise NotImplementedError

    async def on_step(self, interaction: discord.Interaction, table: Table, seat: int, name: str, arg: str,
                      version: int, values: list[str]) -> bool:
        """A table component other than the turn and pass buttons; False when ``name`` is not one."""
        return False

    async def on_component(self, interaction: discord.Interaction, table: Table, name: str, arg: str,
                           version: int, values: list[str]) -> None:
        """Only the seat the game waits on gets past the table service's gate (anyone else, and an outdated
        control, get its refusal and nothing changes)."""
        seat, waiting = TableService.check_turn(table, interaction.user.id, version)
        if name == "turn":
            await self.on_turn(interaction, table, seat, waiting.kind)
        elif name == "pass":
            await self.act(interaction, table, version, {"type": "pass"})
        elif not await self.on_step(interaction, table, seat, name, arg, version, values):
            raise UserError("error.unexpected")

    # --- helpers -------------------------------------------------------------------------------------------
    async def act(self, interaction: discord.Interaction, table: Table, version: int, action: dict[str, Any]) -> None:
        """Play ``action`` through :meth:`bot.ui.GameUI.play`, answering ``interaction`` with the table's edit (every
        Asesino control is on the table message or in a modal opened from it)."""
        await self.play(interaction.client, table, interaction.user.id, action, version=version,
                        interaction=interaction)

    @staticmethod
    def pick(ctx: RenderContext, name: str, options: list[discord.SelectOption], *, min_values: int = 1,
             max_values: int = 1) -> discord.ui.Select[Any]:
        """A select for a move modal (optional when ``min_values`` is 0), with its placeholder."""
        return discord.ui.Select(custom_id=name, options=options[:25], min_values=min_values,
                                 max_values=max(1, min(max_values, len(options))), required=min_values > 0,
                                 placeholder=ctx.t(f"asesino.ui.placeholder.{name}")[:150])

    @staticmethod
    def words_field(ctx: RenderContext) -> discord.ui.TextInput[Any]:
        return discord.ui.TextInput(custom_id="words", style=discord.TextStyle.paragraph, required=False,
                                    max_length=WORDS_MAX, placeholder=ctx.t("asesino.ui.placeholder.words")[:100])

    def move_modal(self, ctx: RenderContext, kind: str,
                   fields: list[tuple[str, discord.ui.Select[Any] | discord.ui.TextInput[Any]]],
                   build: Callable[[Answers], dict[str, Any]]) -> MoveModal:
        """The modal of prompt ``kind`` (titled like the table's button), each field labelled
        ``asesino.ui.field.<name>``."""
        title = ctx.t("asesino.ui.take_turn" if kind in ("turn", "declare_all") else f"asesino.ui.control.{kind}")
        return MoveModal(self, ctx.table, ctx.table.version, title,
                         [(name, ctx.t(f"asesino.ui.field.{name}"), component) for name, component in fields], build)

    def speech_modal(self, ctx: RenderContext, kind: str, action: dict[str, Any]) -> SpeechModal:
        """The modal of a ``statement`` or ``last_words`` prompt."""
        return SpeechModal(self, ctx.table, ctx.table.version, ctx.t(f"asesino.ui.modal.{kind}"),
                           ctx.t(f"asesino.ui.modal.{kind}.label"), "text", action, SPEECH_MAX)

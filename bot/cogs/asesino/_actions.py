"""Component plumbing shared by the Asesino UIs: who may click, the move modals opened from the table's button (a
select per choice, under a label, and free text; persistent :class:`bot.modals.GameModal` forms, so a submit is
played after a restart too), and applying a move through ``bot.tables.act`` with the version the component (or
the modal) was drawn at. A modal opened from the table message is answered by the table's own edit, so a move
costs one interaction callback and nothing of the bot's REST budget."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from bot.budget import fit_modal
from bot.errors import UserError
from bot.modals import GameModal
from bot.tables import TableService
from bot.ui import GameUI, RenderContext
from games.asesino.common import SPEECH_MAX, WORDS_MAX

if TYPE_CHECKING:
    from bot.tables import Table

Answers = dict[str, Any]  # a modal's answers: field name -> picked values (a select) or text (a text field)
SPEECH = frozenset({"statement", "last_words"})


def speech_modal(table: Table, version: int, kind: str, title: str, label: str) -> GameModal:
    """One free-text field (``text``) for a ``statement`` or ``last_words`` prompt; its submit is played by
    :meth:`ActionsMixin.on_modal` as ``{"type": kind, "text": ...}``, also after a restart."""
    modal = GameModal(table.id, version, "speech", kind, title=title)
    modal.add_item(discord.ui.TextInput(label=label[:45], custom_id="text", style=discord.TextStyle.paragraph,
                                        required=False, max_length=SPEECH_MAX))
    fit_modal(modal)
    return modal


def move_modal(table: Table, version: int, kind: str, title: str,
               fields: list[tuple[str, discord.ui.Select[Any] | discord.ui.TextInput[Any]]]) -> GameModal:
    """A move asked in one modal: ``fields`` are ``(label, component)`` (a select or a text field, the component's
    ``custom_id`` naming the answer); its submit is played by :meth:`ActionsMixin.on_modal` through the UI's
    :meth:`~ActionsMixin.build_move` for ``kind``, at the table ``version``, also after a restart."""
    modal = GameModal(table.id, version, "move", kind, title=title)
    for label, component in fields:
        modal.add_item(discord.ui.Label(text=label[:45], component=component))
    return modal


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

    async def on_modal(self, interaction: discord.Interaction, table: Table, name: str, arg: str, version: int,
                       values: dict[str, Any]) -> None:
        """A move modal's submit (also after a restart): ``speech`` (``arg``: ``statement`` or ``last_words``) or
        ``move`` (``arg``: the prompt kind, made an action by :meth:`build_move`), played at ``version``."""
        if name == "speech" and arg in SPEECH:
            action = {"type": arg, "text": str(values.get("text", ""))}
        elif name == "move":
            try:
                action = self.build_move(arg, values)
            except (KeyError, IndexError, ValueError, AttributeError):  # a form that does not match the prompt
                raise UserError("error.unexpected") from None
        else:
            raise UserError("error.unexpected")
        await self.act(interaction, table, version, action)

    def build_move(self, kind: str, answers: Answers) -> dict[str, Any]:
        """The engine action (JSON) for the answers of the move modal of prompt ``kind`` (select ids -> picked
        values, text ids -> text); raises :class:`UserError` for an incomplete answer."""
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
                   fields: list[tuple[str, discord.ui.Select[Any] | discord.ui.TextInput[Any]]]) -> GameModal:
        """The modal of prompt ``kind`` (titled like the table's button), each field labelled
        ``asesino.ui.field.<name>``."""
        title = ctx.t("asesino.ui.take_turn" if kind in ("turn", "declare_all") else f"asesino.ui.control.{kind}")
        return move_modal(ctx.table, ctx.table.version, kind, title,
                          [(ctx.t(f"asesino.ui.field.{name}"), component) for name, component in fields])

    def speech_modal(self, ctx: RenderContext, kind: str) -> GameModal:
        """The modal of a ``statement`` or ``last_words`` prompt."""
        return speech_modal(ctx.table, ctx.table.version, kind, ctx.t(f"asesino.ui.modal.{kind}"),
                            ctx.t(f"asesino.ui.modal.{kind}.label"))

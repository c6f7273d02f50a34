"""How a game looks on Discord: the :class:`GameUI` base every game's ``bot/cogs/<game>/ui.py`` extends, and its
registry.

The adapter renders only from engine views and events: public messages from ``engine.view(state, None)`` and
public events, DMs from ``engine.view(state, seat)`` and seat events. A GameUI never decides a rule.

Seat parameters of events, refusals and outcomes (declared by the engine, see :func:`games.core.seat_keys`) are
rendered as the players' names. Every move a player makes goes through :meth:`GameUI.play`.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

import discord

from bot.budget import fit_message
from bot.deadline import in_time
from bot.i18n import catalog
from bot.tables.model import TableError, TimerPlan
from games.core import SYSTEM_SEAT, Event, IllegalAction, Outcome, seat_keys

if TYPE_CHECKING:
    from bot.tables import ActResult, Table

COLOUR = discord.Colour.dark_red()
MAX_FIELDS = 25  # Discord refuses an embed with more fields
SILENT = discord.AllowedMentions(everyone=False, roles=False, users=False, replied_user=False)
PINGS_USERS = discord.AllowedMentions(everyone=False, roles=False, users=True, replied_user=False)


@dataclass(frozen=True)
class Attachment:
    """A file to attach (bytes, so a message can be re-sent) with its alt text for people who cannot see it
    (Discord keeps at most 1024 characters of it)."""

    name: str
    data: bytes
    description: str = ""


@dataclass
class Outgoing:
    """One message to send: text, embeds, components and files; ``language`` words the budget's "…and N more"."""

    content: str | None = None
    embeds: list[discord.Embed] = field(default_factory=list)
    view: discord.ui.View | None = None
    files: list[Attachment] = field(default_factory=list)
    mentions: bool = False
    #: with ``mentions``: ping only these users (a message whose text holds names players chose)
    only_pings: tuple[int, ...] = ()
    language: str = "en"

    def discord_files(self) -> list[discord.File]:
        return [discord.File(io.BytesIO(f.data), filename=f.name, description=f.description[:1024] or None)
                for f in self.files]

    def kwargs(self, *, edit: bool = False) -> dict[str, Any]:
        """Keyword arguments for ``Messageable.send`` / ``followup.send`` / ``response.send_message`` (or, with
        ``edit``, for ``Message.edit`` / ``response.edit_message``: the whole message is replaced), budgeted as a
        whole by :func:`bot.budget.fit_message` so Discord never refuses them."""
        fitted = fit_message(self.content, self.embeds, self.view, language=self.language)
        out: dict[str, Any] = {"allowed_mentions": SILENT if not self.mentions else PINGS_USERS if not self.only_pings
                               else discord.AllowedMentions(everyone=False, roles=False, replied_user=False,
                                                            users=[discord.Object(u) for u in self.only_pings])}
        if fitted.content or edit:
            out["content"] = fitted.content
        if fitted.embeds or edit:
            out["embeds"] = fitted.embeds
        if self.view is not None or edit:
            out["view"] = self.view
        if self.files or edit:
            out["attachments" if edit else "files"] = self.discord_files()
        return out


def text_name(name: str) -> str:
    """A player's ``name`` for message text: markdown escaped (``*_~|`` and backticks anywhere, ``>`` at a line's
    start) and mentions broken (``@everyone``, ``@here``, ``<@id>``, ``<@&id>`` get a zero-width space after the
    ``@``), so it shows as typed and can neither format the message around it nor show as another member."""
    return discord.utils.escape_mentions(discord.utils.escape_markdown(name))


@dataclass
class RenderContext:
    """What a renderer knows: the table (ids, seats, version), the language and how to name a seat."""

    table: Table
    language: str

    def t(self, key: str, /, **params: Any) -> str:
        return catalog(self.language).render(key, **params)

    def has(self, key: str) -> bool:
        return catalog(self.language).has(key)

    def name(self, seat: int) -> str:
        """``seat``'s name as typed, for places Discord shows without markdown (button and select option labels,
        placeholders, modal titles, autocomplete choices); message text uses :meth:`shown_name`. Seats whose
        display names collide get a suffix telling them apart (:meth:`bot.tables.Table.shown_name`)."""
        return self.table.shown_name(seat)

    def shown_name(self, seat: int) -> str:
        """``seat``'s name for message text (contents, embeds): markdown escaped (:func:`text_name`), so a name
        full of ``*_~|>`` and backticks shows as typed."""
        return text_name(self.name(seat))

    def mention(self, seat: int) -> str:
        """A mention of ``seat``'s person; the name for a seat the computer plays (a computer player's, or an
        away person's: never pinged)."""
        user_id = self.table.user_of(seat)
        return f"<@{user_id}>" if user_id and seat not in self.table.ai_seats() else self.name(seat)

    def seat_params(self, params: dict[str, Any], declared: Iterable[str] = (), *,
                    mention: bool = False) -> dict[str, Any]:
        """``params`` with their seats (``declared``, the engine's ``seat_params`` and the conventional names, see
        :func:`games.core.seat_keys`) shown as names (or mentions); a list of seats becomes a comma-separated
        list. A name is markdown-escaped (a player may be called ``**x**``): it reads as typed in a message line."""
        show: Callable[[int], str] = self.mention if mention else self.shown_name
        out = dict(params)
        engine_seats = self.table.engine.seat_params  # declared by every engine (Engine.seat_params)
        for key in seat_keys(params, (*declared, *engine_seats)):
            value = params.get(key)
            if isinstance(value, int) and not isinstance(value, bool):
                out[key] = show(value)
            elif isinstance(value, list | tuple):
                out[key] = ", ".join(show(v) for v in value if isinstance(v, int))
        return out

    def event_text(self, event: Event, *, mention: bool = False) -> str:
        return self.t(event.key, **self.seat_params(event.params, event.seat_params, mention=mention))


#: the interaction a move is being made with: the delivery answers it with the table's edit when it came from the
#: table message (:func:`bot.live_table.LiveTable.show`)
ANSWERING: ContextVar[discord.Interaction | None] = ContextVar("coroner_answering", default=None)


@contextmanager
def answering(interaction: discord.Interaction | None) -> Iterator[None]:
    """While inside, a table update of ``interaction``'s own message answers ``interaction``."""
    token = ANSWERING.set(interaction)
    try:
        yield
    finally:
        ANSWERING.reset(token)


def on_table(interaction: discord.Interaction, table: Table) -> bool:
    """Whether ``interaction`` came from ``table``'s table message (a component on it, or a modal it opened)."""
    message = interaction.message
    return message is not None and message.id in (table.table_message_id, table.lobby_message_id)


class GameUI:
    """Discord presentation of one game. Override what the generic version does not show well."""

    game: str = ""
    mode: str | None = None  # None: every mode of ``game`` without a UI of its own
    #: seat-event keys that only repeat the move their player just made: never sent (DMs only on a change)
    echo_keys: frozenset[str] = frozenset()
    #: catalogue keys of the result's scores: one seat's score (a plural entry taking ``count``) and the title of
    #: the scores (``None``: "Points", or "Points this round" in a series)
    score_key: str = "leaderboard.points"
    scores_title_key: str | None = None

    def outcome_text(self, ctx: RenderContext, outcome: Outcome) -> str:
        """How the game ended, in words (under the result's title)."""
        return ctx.t(outcome.reason, **self.words(ctx, outcome.params, outcome.seat_params))

    def echoes(self, event: Event, events: list[Event]) -> bool:
        """Whether the seat ``event`` only repeats the move its player just made (then it is not sent: DMs only on a
        change); ``events`` are the whole step's. By default: its key is one of :attr:`echo_keys`."""
        return event.key in self.echo_keys

    def fresh_table(self, table: Table, events: list[Event]) -> bool:
        """Whether this step is worth a new table message (e.g. a death reveal, a round end) rather than an edit
        of the living table; ``table`` is the table after the step. None by default."""
        return False

    def step_timers(self, table: Table, timeout_at: datetime) -> list[TimerPlan]:
        """Timers of this game's own that a step arms beside the turn timers (e.g. a prompt's own deadline at
        ``timeout_at``, the turn's time limit); ``table`` is the table after the step. None by default."""
        return []

    def clock_timers(self, table: Table) -> list[TimerPlan]:
        """The timers of the game's own clock (:meth:`games.core.Engine.due`) that the step which produced
        ``table`` arms, recorded in its transaction like the turn timers (e.g. the social mode's next day end);
        ``table`` is the table after the step. None by default."""
        return []

    def series_embed(self, ctx: RenderContext, rounds: list[dict[int, float]], names: dict[int, str], series_id: int,
                     played: int, total: int) -> discord.Embed | None:
        """The standings posted after ``played`` of ``total`` rounds of a points series (``rounds``: user id ->
        points, one dict a round, every player scored in the round, seated at the last table or not; ``names``: user
        id -> name for message text, markdown escaped), for a mode whose engine declares ``features.series``;
        ``None`` (the default): nothing is posted. ``ctx`` is the last round's table."""
        return None

    # --- playing ---------------------------------------------------------------------------------------------
    async def play(self, bot: Any, table: Table, user_id: int | None, action: dict[str, Any], *,
                   version: int | None = None, interaction: discord.Interaction | None = None,
                   seat: int | None = None, timed_out: bool = False, manager: bool = False) -> ActResult:
        """The one path every move of every game is played through (a click, a modal, a DM, a computer player, a
        time limit's default, the game's clock, a host's action): :meth:`complete_action` (not for the game's
        clock), then
        ``bot.tables.act`` (the only gate for turn, staleness and game over; ``version``: the table version the
        control was drawn at, ``None`` for controls valid at any version), then :meth:`after_play`. Raises what
        :meth:`bot.tables.TableService.act` raises; :func:`bot.errors.error_text` renders it.

        ``interaction``: the click or modal that made the move. When it came from the table message (a component
        on it, or a modal one opened) and is not answered yet, the step's table is its answer
        (``response.edit_message``, callback type 7: the edited table is the acknowledgement, no "Done."); if the
        step showed nothing public it is acknowledged without a change. A move still running after
        :data:`bot.deadline.DEFER_AFTER` is deferred first (type 6, :func:`bot.deadline.in_time`) and the table
        edited after, so Discord's 3 seconds hold whatever the database does: a caller that answers the
        interaction itself afterwards uses :func:`bot.deadline.edit_answer`.

        ``seat`` (with ``user_id`` None): the bot's move for that seat: a computer player (:mod:`bot.ai_seats`), the
        default after a time limit (``timed_out``, :mod:`bot.turns`) or the game's own clock (``SYSTEM_SEAT``); the
        same door, checks and follow-up (:meth:`after_play`) as a person's. ``manager``: the person manages the
        server, so a host action of theirs is the host's (``HOST_SEAT``)."""
        assert (user_id is None) != (seat is None), "a move is a person's or the bot's for a seat"
        if seat != SYSTEM_SEAT:  # the game's own clock stamps its moves itself (Engine.due)
            action = self.complete_action(bot, action)
        with answering(interaction):
            acting = bot.tables.act(table.id, user_id, action, expected_version=version, seat=seat,
                                    timed_out=timed_out, manager=manager, table=table)  # (not read again)
            try:
                result = await (acting if interaction is None else in_time(interaction, acting))
            except (IllegalAction, TableError):
                bot.metrics.move(table.game, accepted=False)
                raise
        bot.metrics.move(table.game, accepted=True)
        if interaction is not None:  # the step is committed and shown (or left to the process showing the game)
            bot.metrics.clicked_to_table(table.game, (discord.utils.utcnow() - interaction.created_at).total_seconds())
        if interaction is not None and not interaction.response.is_done() and on_table(interaction, table):
            await interaction.response.defer()
        await self.after_play(bot, result)
        return result

    def complete_action(self, bot: Any, action: dict[str, Any]) -> dict[str, Any]:
        """``action`` with what the bot adds to every move of this game (e.g. the time, for real-time games)."""
        return action

    async def after_play(self, bot: Any, result: ActResult) -> None:
        """Called after each accepted move made through :meth:`play` (a person's, or the bot's for a seat: e.g. arm
        the timers the new state needs)."""

    def words(self, ctx: RenderContext, params: dict[str, Any], declared: Iterable[str] = ()) -> dict[str, Any]:
        """Event, refusal or outcome ``params`` ready for the catalogue: seats (``declared`` and the
        conventional names) as the players' names; games override it to put their own values in words."""
        return ctx.seat_params(params, declared)

    def public_event(self, ctx: RenderContext, event: Event) -> str | None:
        """One line of the public log for ``event`` (``None`` hides it)."""
        return ctx.event_text(event)

    def private_event(self, ctx: RenderContext, seat: int, event: Event) -> Outgoing:
        """A DM to ``seat`` for a seat-audience ``event``."""
        return Outgoing(embeds=[discord.Embed(description=ctx.event_text(event), colour=COLOUR)])

    def medium_event(self, ctx: RenderContext, event: Event) -> Outgoing:
        """A post to the official medium channel for a medium-audience ``event``."""
        return Outgoing(embeds=[discord.Embed(description=ctx.event_text(event), colour=COLOUR)])

    def table_embed(self, ctx: RenderContext, view: dict[str, Any]) -> discord.Embed:
        """The public status embed, built only from the public ``view``."""
        embed = discord.Embed(title=ctx.t(f"game.{ctx.table.game}"), colour=COLOUR)
        scalars = [(k, v) for k, v in view.items() if isinstance(v, str | int | float | bool)]
        for key, value in scalars[:MAX_FIELDS]:
            embed.add_field(name=key.replace("_", " "), value=str(value))
        return embed

    def status_embeds(self, ctx: RenderContext, view: dict[str, Any]) -> list[discord.Embed]:
        """Embeds ``/status`` shows under the table, from the public ``view``: what the living table has no room
        for (e.g. a whole discard pile). None by default."""
        return []

    def table_files(self, ctx: RenderContext, view: dict[str, Any]) -> list[Attachment]:
        """Files (e.g. a board image) attached to the public status, from the public ``view``."""
        return []

    def secrets_embed(self, ctx: RenderContext, seat: int, view: dict[str, Any]) -> discord.Embed:
        """The private "My secrets" embed of ``seat``, from ``engine.view(state, seat)``."""
        embed = discord.Embed(title=ctx.t("secrets.title"), colour=COLOUR)
        for key, value in list(view.items())[:MAX_FIELDS]:
            embed.add_field(name=key.replace("_", " "), value=f"{value}"[:1000] or "-", inline=False)
        return embed

    def secrets_items(self, ctx: RenderContext, seat: int, view: dict[str, Any]) -> list[discord.ui.Item[Any]]:
        """Components under "My secrets" (ephemeral, ``seat``'s own view), so what a DM carries can be done in the
        channel too (e.g. the Cereal Killer's answer buttons); persistent like :meth:`turn_items`. None by
        default."""
        return []

    def turn_items(self, ctx: RenderContext, view: dict[str, Any]) -> list[discord.ui.Item[Any]]:
        """Components for the public status message (e.g. a "Take my turn" button). Each must be persistent:
        use :func:`bot.components.game_button`."""
        return []

    def check_open(self, config: Any) -> None:
        """Called before a lobby of this mode opens (``/newgame``, and a booking with ``starts_in``) with the
        server's ``config``: raise :class:`bot.errors.UserError` when the server cannot play it (e.g. the social
        mode without an official medium), so nobody joins a lobby that could never start."""

    async def prepare_start(self, bot: Any, table: Table, config: Any) -> dict[str, Any]:
        """Called before the host's Start: raise :class:`bot.errors.UserError` to refuse (e.g. the social mode
        without an official medium), or return options to add from the server's ``config``."""
        return {}

    def option_suggestions(self, option: str, typed: str, language: str) -> list[tuple[str, str]]:
        """``/newgame``'s autocomplete of this mode's free-text lobby option ``option`` while the host has typed
        ``typed``: ``(name shown in language, value)`` pairs, best first (the lobby keeps 25, each cut to
        Discord's 100 characters); none by default."""
        return []

    def lobby_lines(self, table: Table, language: str) -> list[str]:
        """Extra lines for the lobby embed (e.g. which role each joined player will get); none by default."""
        return []

    def move_timeout(self, table: Table, config: Any) -> int:
        """Seconds the awaited player has for the current move: the ``/config`` prompt time when the engine's
        :class:`~games.core.Waiting` is a prompt (last words, a Killer's answer...), else the turn time."""
        waiting = table.engine.waiting(table.state)
        if waiting is not None and waiting.pace == "prompt":
            return int(config.prompt_timeout_seconds)
        return int(config.turn_timeout_seconds)

    async def on_cancelled(self, bot: Any, table: Table) -> None:
        """A running game was cancelled (e.g. take back roles the game gave out)."""

    def accepts_dm(self, table: Table, seat: int | None) -> bool:
        """Whether a DM from ``seat`` is for this game now (e.g. the Killer while its route is due)."""
        return False

    def claims_dm(self, table: Table, seat: int | None, content: str) -> bool:
        """Whether the DM ``content`` from ``seat`` is plainly meant for this game although it takes none from
        them now (:meth:`accepts_dm` is False: e.g. a ``letter:`` on a day with no letter to write). It then goes
        to :meth:`on_dm` all the same, whose refusal (the rules' own) says when such a message is taken, instead of
        "none of your games is waiting for a message". None by default."""
        return False

    async def on_dm(self, bot: Any, message: discord.Message, table: Table, seat: int, content: str) -> None:
        """A DM from ``seat`` (``content`` without any ``#game`` prefix). Raise IllegalAction/UserError to
        refuse: the refusal is answered in the DM."""
        raise NotImplementedError

    async def on_component(self, interaction: discord.Interaction, table: Table, name: str, arg: str,
                           version: int, values: list[str]) -> None:
        """A click on a game component ``name`` (with ``arg``) created at table ``version``; ``values`` are the
        picked options of a select (empty for a button). Raise IllegalAction/TableError/UserError to refuse."""
        raise NotImplementedError(name)

    async def on_modal(self, interaction: discord.Interaction, table: Table, name: str, arg: str, version: int,
                       values: dict[str, Any]) -> None:
        """The submit of a :class:`bot.modals.GameModal` ``name`` (with ``arg``) opened at table ``version``;
        ``values`` maps its text inputs' ids to what was typed and its selects' ids to the picked values (a list),
        see :func:`bot.modals.submitted_values`. Also after a restart, however late. Raise
        IllegalAction/TableError/UserError to refuse."""
        raise NotImplementedError(name)


_UIS: dict[tuple[str, str | None], GameUI] = {}


def register_ui(ui: GameUI) -> GameUI:
    _UIS[(ui.game, ui.mode)] = ui
    return ui


def ui_for(game: str, mode: str | None = None) -> GameUI:
    """The registered UI of ``game`` in ``mode`` (else of the whole game, else the generic one)."""
    return _UIS.get((game, mode)) or _UIS.get((game, None)) or GameUI()

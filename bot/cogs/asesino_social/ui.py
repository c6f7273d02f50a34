"""The social mode's :class:`~bot.ui.GameUI`: start checks, status components, the private "My actions" panel,
modals for free text, and DMs.

Components (persistent, version 0 — in a real-time game everyone acts at once, so the engine, not the message
version, decides what is still allowed):

* ``social_actions[:<page>]``: "My actions" on the status message; answers ephemerally with the clicker's actions
  today (page 0; a "More actions" button on the panel opens the next page when there are more kinds than fit).
* ``social_target:<kind>``: a target select (``recruit``, ``crime``, ``protect``, ``inspect``, ``interview``,
  ``maniac_kill``, ``open_judgement``); results come by DM (the engine's seat events).
* ``social_write:<kind>``: a modal for ``publish_note``, ``write_letter`` or ``anonymous_post`` (refused before the
  modal opens when the engine would refuse the action, e.g. a dead player's post).
* ``social_back:<judgement id>``: "Back this judgement" on the status message while a judgement is open.

DM grammar (also told in the role DM): ``note: <text>`` saves the Journalist's note; ``letter: <text>`` (or any
text from a player who may write a Farewell Letter today) saves the letter; other text from the Journalist or
their interviewee during an open interview is passed on to the other side as the action ``interview_say`` (so the
history and a replay show the talk).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import discord

from bot.budget import CONTENT, clip, fit_modal
from bot.cogs.asesino_social import _review, render
from bot.cogs.asesino_social.days import catch_up, clock_timers, handed_over
from bot.cogs.asesino_social.dead import apply_dead_role
from bot.cogs.asesino_social.specials import OPTION, special_suggestions
from bot.components import GameSelect, game_button, view_of
from bot.errors import UserError
from bot.i18n import t
from bot.modals import GameModal
from bot.reach import cannot_post
from bot.replies import in_reply, own_events, replying
from bot.ui import COLOUR, SILENT, GameUI, Outgoing, RenderContext
from games.asesino.social import SYSTEM_SEAT, SocialOptions
from games.asesino.social.actions import CLUE_LIMIT, TEXT_LIMIT
from games.asesino.social.engine import PLACEHOLDER
from games.asesino.social.rules import dead_reason, idle_reason, interview_pair, may_send_clue, may_write_letter
from games.core import Event, IllegalAction

if TYPE_CHECKING:
    from bot.app import Coroner
    from bot.tables import ActResult, Table, TimerPlan


TARGET_KINDS = ("recruit", "crime", "protect", "inspect", "interview", "maniac_kill", "open_judgement")
TARGET_FIELD = {"crime": "victim", "open_judgement": "accused"}
WRITE_KINDS = ("publish_note", "write_letter", "request_review", "send_clue", "anonymous_post")
#: DM commands (English and Spanish) -> the text action they send
DM_COMMANDS = {"note": "publish_note", "nota": "publish_note", "letter": "write_letter", "carta": "write_letter",
               "review": "request_review", "revision": "request_review", "revisión": "request_review",
               "clue": "send_clue", "pista": "send_clue"}
MAX_SELECTS = 4
#: the interview's talk, typed in the text modal from the interview thread's "Say…" button (:mod:`bot.threads`)
TALK = "interview_say"
DAY_OVER = "asesino_social.day_over"
#: what only confirms a move to the player who made it (their answer, or its seen card): shown in the answer of the
#: select or form that made it, not by DM (issue 20; :mod:`bot.replies`). A crime's outcome goes to the pair: the
#: one who struck reads it in that answer, the partner by DM (like every move made by DM).
OWN_RESULTS = frozenset({
    "asesino_social.recruit.done", "asesino_social.protect.done", "asesino_social.inspect.result",
    "asesino_social.attack.killed", "asesino_social.attack.foiled", "asesino_social.note.saved",
    "asesino_social.letter.saved", "asesino_social.review.sent", "asesino_social.clue.saved"})


def check_now(bot: Coroner, table: Table, seat: int, action: dict[str, Any]) -> None:
    """Raise the engine's refusal of ``action`` by ``seat`` now, before asking the player for text; changes
    nothing (``apply`` is pure and its result is dropped). Raises :class:`IllegalAction`."""
    engine = table.engine
    engine.apply(table.state, seat, engine.parse_action({**action, "at": bot.clock.now().isoformat()}))


def open_modal_checked(bot: Coroner, table: Table, seat: int, kind: str) -> GameModal:
    """The text modal for ``kind`` (a note, a Farewell Letter, an anonymous post or a clue; answered by
    :meth:`SocialUI.on_modal`, also after a restart), or the engine's refusal (a dead player's post, a letter on
    the wrong day...). A day already over is no refusal: the modal opens at once (it must be the first answer) and
    its submission ends the overdue days first, then counts for the new day."""
    try:
        check_now(bot, table, seat, {"type": kind, "text": PLACEHOLDER})
    except IllegalAction as exc:
        if exc.code != DAY_OVER:
            raise
    ctx = RenderContext(table, table.language)
    modal = GameModal(table.id, table.version, "text", kind, title=ctx.t(f"asesino_social.ui.modal.{kind}"))
    modal.add_item(discord.ui.Label(text=ctx.t("asesino_social.ui.modal.text"), component=discord.ui.TextInput(
        custom_id="text", style=discord.TextStyle.paragraph, required=True, max_length=text_limit(kind))))
    return fit_modal(modal)


def saved_reply(table: Table, key: str) -> Outgoing:
    """The private answer to a saved letter, note or anonymous post (``key``: ``asesino_social.ui.saved.<kind>``,
    or ``...saved_here.anonymous_post`` when the medium refused it), in the game's language."""
    return Outgoing(content=t(key, table.language), language=table.language)


def seat_or_refuse(table: Table, user_id: int) -> int:
    seat = table.seat_of(user_id)
    if seat is None:
        raise UserError("secrets.not_a_player")
    return seat


class SocialUI(GameUI):
    game = "asesino"
    mode = "social"

    # --- playing (every component, command and DM goes through :meth:`GameUI.play`) --------------------------
    async def play(self, bot: Any, table: Table, user_id: int | None, action: dict[str, Any],
                   **kwargs: Any) -> ActResult:
        """Every overdue day is ended first (ruling "Time": an action counts for the day its timestamp falls in,
        and after downtime the bot ends every overdue day, in order, before it applies anything else); then
        :meth:`GameUI.play` with the same arguments. The clock's own moves (``seat=SYSTEM_SEAT``, from
        :func:`~bot.cogs.asesino_social.days.catch_up`) are applied as they are. Nothing due: the move is made on
        ``table`` as the caller read it (not read again). Then the dead role as the move calls for
        (:func:`~bot.cogs.asesino_social.dead.apply_dead_role`: the dead get it; at the end every one gives it
        back)."""
        if kwargs.get("seat") != SYSTEM_SEAT:
            table = await catch_up(bot, table.id, table) or table
        result = await super().play(bot, table, user_id, action, **kwargs)
        await apply_dead_role(bot, table, result.table)
        return result

    def complete_action(self, bot: Any, action: dict[str, Any]) -> dict[str, Any]:
        """Real time: every move carries ``at = bot.clock.now()``."""
        return {**action, "at": bot.clock.now().isoformat()}

    async def after_play(self, bot: Any, result: ActResult) -> None:
        """A letter sent for review is shown to the host (the dead role: :meth:`play`; the judgement's expiry:
        :meth:`clock_timers`)."""
        await _review.offer(bot, result)

    def clock_timers(self, table: Table) -> list[TimerPlan]:
        """A day's end (the deal's day 1 included) and a judgement's expiry, armed by the step that starts the day
        or opens the judgement (:func:`~bot.cogs.asesino_social.days.clock_timers`)."""
        return clock_timers(table)

    def fresh_table(self, table: Table, events: list[Event]) -> bool:
        """Never: a death and a day's end edit the living table like every step (its "last moves" show them); it
        is posted anew only once the chat has scrolled it away (``/config`` ``table_repost_after``), which in a
        long real-time day is what happens when people talk. A new message each time cost two REST calls (the
        post and stripping the old table) and pushed the chat up (issue 20)."""
        return False

    def echoes(self, event: Event, events: list[Event]) -> bool:
        """A move's own confirmation (:data:`OWN_RESULTS`) is the answer of the select or form that made it; an
        idle reminder to a seat the day's end hands to the computer is said by the notice that follows
        (:func:`~bot.cogs.asesino_social.days.handed_over`)."""
        return in_reply(event, OWN_RESULTS) or handed_over(event)

    async def on_cancelled(self, bot: Any, table: Table) -> None:
        """A cancelled game gives the dead role back too (best effort)."""
        await apply_dead_role(bot, table, table)

    async def on_modal(self, interaction: discord.Interaction, table: Table, name: str, arg: str, version: int,
                       values: dict[str, Any]) -> None:
        """A note, Farewell Letter or anonymous post (``arg``) typed in the text modal, played as the player's
        action whenever it is submitted (the game runs in real time: no version check)."""
        if name != "text":
            raise UserError("error.unexpected")
        bot: Coroner = interaction.client  # type: ignore[assignment]
        await interaction.response.defer(ephemeral=True, thinking=True)
        seat = table.seat_of(interaction.user.id)
        with replying(seat):
            await self.play(bot, table, interaction.user.id, {"type": arg, "text": values.get("text", "")})
        saved = f"asesino_social.ui.saved.{arg}"
        if arg == "anonymous_post":  # posted at once: where it went (bot.delivery.Delivery.post_medium)
            medium = (await bot.config(table.guild_id)).medium_channel_id
            if medium is None or cannot_post(bot.get_channel(medium)):
                saved = "asesino_social.ui.saved_here.anonymous_post"
        await interaction.followup.send(ephemeral=True, **saved_reply(table, saved).kwargs())

    # --- rendering ------------------------------------------------------------------------------------------
    def words(self, ctx: RenderContext, params: dict[str, Any], declared: Iterable[str] = ()) -> dict[str, Any]:
        return render.params_text(ctx, params, declared)

    def public_event(self, ctx: RenderContext, event: Event) -> str | None:
        return render.public_line(ctx, event)

    def private_event(self, ctx: RenderContext, seat: int, event: Event) -> Outgoing:
        text = render.event_text(ctx, event)
        if event.key == "asesino_social.intro.role":
            text += "\n\n" + ctx.t("asesino_social.ui.dm_help")
        return Outgoing(embeds=[discord.Embed(description=render.clip(text, render.EMBED_LIMIT), colour=COLOUR)])

    def medium_event(self, ctx: RenderContext, event: Event) -> Outgoing:
        return Outgoing(embeds=[render.medium_post(ctx, event)])

    def table_embed(self, ctx: RenderContext, view: dict[str, Any]) -> discord.Embed:
        return render.table_embed(ctx, view)

    def secrets_embed(self, ctx: RenderContext, seat: int, view: dict[str, Any]) -> discord.Embed:
        return render.secrets_embed(ctx, view)

    def turn_items(self, ctx: RenderContext, view: dict[str, Any]) -> list[discord.ui.Item[Any]]:
        game_id = ctx.table.id
        items: list[discord.ui.Item[Any]] = [
            game_button(game_id, 0, "social_actions", label=ctx.t("asesino_social.ui.my_actions"),
                        style=discord.ButtonStyle.primary, emoji="🗝️"),
            game_button(game_id, 0, "social_write", "anonymous_post", label=ctx.t("asesino_social.ui.post_button"),
                        emoji="✉️"),
        ]
        for judgement in [j for j in view["judgements"] if j["status"] == "open"][:15]:
            items.append(game_button(game_id, 0, "social_back", str(judgement["id"]), style=discord.ButtonStyle.danger,
                                     label=ctx.t("asesino_social.ui.back", judgement=judgement["id"],
                                                 accused=ctx.name(judgement["accused"]))))
        return items

    # --- start ----------------------------------------------------------------------------------------------
    def option_suggestions(self, option: str, typed: str, language: str) -> list[tuple[str, str]]:
        """``special_roles``: the role table's specials (:mod:`bot.cogs.asesino_social.specials`)."""
        return special_suggestions(typed, language) if option == OPTION else []

    def check_open(self, config: Any) -> None:
        """No lobby without an official medium (``asesino_social.ui.no_medium``): the game cannot start."""
        if config.medium_channel_id is None:
            raise UserError("asesino_social.ui.no_medium")

    async def prepare_start(self, bot: Any, table: Table, config: Any) -> dict[str, Any]:
        """Refuse without an official medium (``asesino_social.ui.no_medium``: it may have been unset since the
        lobby opened, :meth:`check_open`); otherwise the day options and the
        maximum length from the server config (a ``max_days`` the lobby chose wins) and ``started_at = now`` (the
        deal arms day 1's end: :meth:`clock_timers`)."""
        if config.medium_channel_id is None:
            raise UserError("asesino_social.ui.no_medium")
        if missing := cannot_post(bot.get_channel(config.medium_channel_id)):  # (its permissions changed since)
            raise UserError("asesino_social.ui.medium_cannot_post", channel=f"<#{config.medium_channel_id}>",
                            missing=missing)
        started = bot.clock.now()
        options = {"day_length_minutes": max(10, config.day_length_minutes), "boundary": config.day_boundary,
                   "time_zone": config.timezone, "started_at": started.isoformat(),
                   "judgement_window_minutes": max(1, config.response_window_seconds // 60),
                   "max_days": _max_days(table.options, config.social_max_days)}
        return options

    # --- components -----------------------------------------------------------------------------------------
    async def on_component(self, interaction: discord.Interaction, table: Table, name: str, arg: str,
                           version: int, values: list[str]) -> None:
        bot: Coroner = interaction.client  # type: ignore[assignment]
        if name == _review.BUTTON:
            await _review.decide(bot, interaction, table, arg)
            return
        seat = seat_or_refuse(table, interaction.user.id)
        ctx = RenderContext(table, table.language)
        if name == "social_actions":
            await self.show_actions(interaction, table, seat, ctx, int(arg) if arg.isdigit() else 0)
        elif name == "social_write" and (arg in WRITE_KINDS or arg == TALK):  # TALK: the interview thread's button
            await interaction.response.send_modal(open_modal_checked(bot, table, seat, arg))
        elif name == "social_target" and arg in TARGET_KINDS and values:
            await interaction.response.defer(ephemeral=True, thinking=True)
            action = {"type": arg, TARGET_FIELD.get(arg, "target"): int(values[0])}
            with replying(seat):  # (the table is edited through the click that opened the panel: bot.panels)
                result = await self.play(bot, table, interaction.user.id, action, interaction=interaction)
            after = RenderContext(result.table, result.table.language)
            lines = [render.event_text(after, e) for e in own_events(result.events, seat, OWN_RESULTS)]
            await interaction.followup.send(clip("\n".join([ctx.t(f"asesino_social.ui.done.{arg}"), *lines]),
                                                 CONTENT), ephemeral=True, allowed_mentions=SILENT)
        elif name == "social_back" and arg.isdigit():  # public: the table's edit is the acknowledgement
            await self.play(bot, table, interaction.user.id, {"type": "back_judgement", "judgement": int(arg)},
                            interaction=interaction)
        else:
            raise UserError("asesino_social.ui.unknown")

    async def show_actions(self, interaction: discord.Interaction, table: Table, seat: int, ctx: RenderContext,
                           page: int = 0) -> None:
        """The clicker's actions today, from ``legal_actions`` for their seat (only to them): one target select per
        kind of action, :data:`MAX_SELECTS` to a page with a "More actions" button to the next page; the text
        buttons come with the first page."""
        legal = table.engine.legal_actions(table.state, seat)
        if not legal:
            raise IllegalAction(idle_reason(table.state, seat))
        kinds = {action.type for action in legal}
        pages = action_pages([k for k in TARGET_KINDS if k in kinds])
        page = min(max(page, 0), len(pages) - 1)
        items: list[discord.ui.Item[Any]] = []
        for kind in pages[page]:
            field = TARGET_FIELD.get(kind, "target")
            targets = [getattr(a, field) for a in legal if a.type == kind]
            options = [discord.SelectOption(label=ctx.name(t)[:100], value=str(t)) for t in targets][:25]
            items.append(GameSelect(table.id, 0, "social_target", kind, options=options,
                                    placeholder=ctx.t(f"asesino_social.ui.pick.{kind}")))
        if page == 0:
            items += [game_button(table.id, 0, "social_write", kind, label=ctx.t(f"asesino_social.ui.write.{kind}"))
                      for kind in WRITE_KINDS if kind in kinds]
        if page + 1 < len(pages):
            items.append(game_button(table.id, 0, "social_actions", str(page + 1), emoji="➡️",
                                     label=ctx.t("asesino_social.ui.more_actions", page=page + 2, pages=len(pages))))
        me = table.state.seats[seat]
        lines = [ctx.t("asesino_social.ui.actions_intro", day=table.state.day)]
        if me.judged_day is not None:
            lines.append(ctx.t("asesino_social.deprived"))
        if not me.alive:
            lines.append(ctx.t(dead_reason(table.state, seat)))
        bot: Coroner = interaction.client  # type: ignore[assignment]
        await bot.delivery.live.panels.show(interaction, (table.table_message_id, table.lobby_message_id),
                                            "\n".join(lines), view_of(*items), allowed_mentions=SILENT)

    # --- DMs ------------------------------------------------------------------------------------------------
    def accepts_dm(self, table: Table, seat: int | None) -> bool:
        """A player who may write a Farewell Letter or send a clue today, or either side of an open interview."""
        if seat is None or table.state is None or table.state.result is not None:
            return False
        state = table.state
        return may_write_letter(state, seat) or may_send_clue(state, seat) or seat in interview_pair(state)

    def claims_dm(self, table: Table, seat: int | None, content: str) -> bool:
        """A DM command of this game (``letter:``, ``clue:``, ``note:``, ``review:`` and their Spanish words) with
        a text, from a seated player of a running game: the engine's refusal says when it is taken."""
        head, colon, rest = content.strip().partition(":")
        return (seat is not None and table.state is not None and table.state.result is None and bool(colon)
                and head.strip().lower() in DM_COMMANDS and bool(rest.strip()))

    async def on_dm(self, bot: Any, message: discord.Message, table: Table, seat: int, content: str) -> None:
        text = content.strip()
        head, _, rest = text.partition(":")
        command = head.strip().lower()
        if command in DM_COMMANDS and rest.strip():
            await self.play(bot, table, message.author.id, _text_action(DM_COMMANDS[command], rest.strip()))
            return
        if not text:
            raise UserError("asesino_social.ui.dm_help")
        for allowed, kind in ((may_write_letter, "write_letter"), (may_send_clue, "send_clue")):
            if allowed(table.state, seat):
                await self.play(bot, table, message.author.id, _text_action(kind, text))
                return
        if seat in interview_pair(table.state):  # the interview's talk: an action, so the history shows it
            await self.play(bot, table, message.author.id, {"type": "interview_say", "text": text[:TEXT_LIMIT]})
            await message.channel.send(RenderContext(table, table.language).t("asesino_social.ui.relayed"),
                                       allowed_mentions=SILENT)
            return
        raise UserError("asesino_social.ui.dm_help")


def text_limit(kind: str) -> int:
    """The most characters the text action ``kind`` takes (``games.asesino.social.actions``)."""
    return CLUE_LIMIT if kind == "send_clue" else TEXT_LIMIT


def _text_action(kind: str, text: str) -> dict[str, Any]:
    """The action ``kind`` carrying a player's DM ``text``. Raises ``UserError`` (``asesino_social.ui.too_long``)
    past the action's :func:`text_limit`, which a DM of up to 4,000
    characters can pass: the player is told the limit instead of "could not be understood"."""
    limit = text_limit(kind)
    if len(text) > limit:
        raise UserError("asesino_social.ui.too_long", length=len(text), limit=limit)
    return {"type": kind, "text": text}


def _max_days(options: dict[str, Any], configured: int) -> int:
    """The lobby's ``max_days`` when the host chose one (it differs from the default), else the server's."""
    chosen = options.get("max_days")
    default = SocialOptions.model_fields["max_days"].default
    return chosen if isinstance(chosen, int) and chosen != default else configured


def action_pages(kinds: list[str], per_page: int | None = None) -> list[list[str]]:
    """``kinds`` of target actions in pages of ``per_page`` (default :data:`MAX_SELECTS`: one select per row,
    leaving a row for the buttons); one empty page when there is none."""
    size = per_page or MAX_SELECTS
    return [kinds[i:i + size] for i in range(0, len(kinds), size)] or [[]]


#: the social mode's UI (registered by the cog's ``setup``)
SOCIAL = SocialUI()

"""The lobby embed and its buttons."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from pydantic import ValidationError

from bot.budget import FIELD_VALUE, clip
from bot.cogs.lobby.options import mode_options
from bot.cogs.lobby.options_form import form_options
from bot.components import LobbyButton, LobbySelect, view_of
from bot.errors import error_text
from bot.i18n import catalog
from bot.ui import COLOUR, RenderContext, ui_for
from games.core import IllegalAction, SeatInfo, get_engine, get_game

if TYPE_CHECKING:
    from bot.tables import Table, TableService


def lobby_embed(table: Table, language: str, expires_at_ts: int | None, *, expired: bool = False) -> discord.Embed:
    """Title, host, the player list with the mode's limits, and the expiry as a Discord timestamp."""
    cat = catalog(language)
    mode = get_game(table.game).mode(table.mode)
    embed = discord.Embed(
        title=cat.render("lobby.title", game=cat.render(f"game.{table.game}"),
                         mode=cat.render(f"mode.{table.game}.{table.mode}")),
        colour=COLOUR,
    )
    players = "\n".join(f"{s.seat + 1}. {seat_line(table, s.seat, language)}" for s in table.seats) \
        or cat.render("lobby.empty")
    embed.add_field(name=cat.render("lobby.players", count=len(table.seats), min=mode.min_players,
                                    max=mode.max_players), value=players, inline=False)
    # a lobby nobody sits at has no host: whoever joins next hosts it (:meth:`bot.tables.TableService.join`)
    host = f"<@{table.host_id}>" if table.user_ids() or table.status != "lobby" else cat.render("lobby.no_host")
    embed.add_field(name=cat.render("lobby.host"), value=host)
    extra = ui_for(table.game, table.mode).lobby_lines(table, language)
    if extra:
        embed.add_field(name="\u200b", value="\n".join(extra)[:1024], inline=False)
    problem = seated_problem(table, language)
    if problem:  # checked against the table as soon as it is known: the host can change the option before Start
        embed.add_field(name=cat.render("lobby.options_problem"), value=clip(problem, FIELD_VALUE), inline=False)
    defaults = get_engine(table.game, table.mode).Options().model_dump(mode="json")
    chosen = {k: v for k, v in table.options.items() if defaults.get(k, object()) != v}
    if chosen and table.status == "lobby":
        offered = {option.name: option for option in mode_options(get_game(table.game), table.mode)}
        shown = [f"{o.label(language)}: {o.value_label(v, language)}" if (o := offered.get(k)) else f"{k}: {v}"
                 for k, v in chosen.items()]
        embed.add_field(name=cat.render("lobby.options"), value=", ".join(shown)[:1000])
    if table.status == "lobby" and expires_at_ts:
        embed.set_footer(text=cat.render("lobby.expires_hint"))
        embed.description = cat.render("lobby.expires", when=f"<t:{expires_at_ts}:R>")
    elif table.status != "lobby":
        embed.description = cat.render("lobby.status.expired" if expired else f"lobby.status.{table.status}")
    return embed


def seated_problem(table: Table, language: str) -> str | None:
    """Why Start would be refused with the options and the players seated now (an option the table does not fit,
    e.g. ``first_executioner:7`` with 4 players), in ``language``: the engine's own refusal from dealing the game
    as it stands (``engine.setup``, pure). ``None`` when it would deal, when the seat count is not yet within the
    mode's limits (Start says so itself) or when the options still need the server's settings."""
    mode = table.engine.mode
    if table.status != "lobby" or not mode.min_players <= len(table.seats) <= mode.max_players:
        return None
    try:
        options = table.engine.Options.model_validate(table.options)
        table.engine.setup(options, [SeatInfo(names=s.names) for s in table.seats], 0)
    except IllegalAction as exc:
        return error_text(language, exc, table).removeprefix("⛔ ")
    except ValidationError:  # options filled in from the server's settings at Start (the social mode's clock)
        return None
    return None


def lobby_heading(table: Table) -> dict[str, None]:
    """What an edit of the lobby message does to its text above the embed (a series' "Round 1 of 2"): a closed
    lobby (expired or cancelled) drops it, ``{"content": None}``; an open one keeps it, ``{}``."""
    return {} if table.status == "lobby" else {"content": None}


async def lobby_expires_at(tables: TableService, table: Table) -> int | None:
    """When the lobby ``table`` expires (a Unix timestamp, seconds), from its pending ``lobby_expire`` timer;
    ``None`` when it has none (started, closed, or its timer already fired)."""
    if table.status == "lobby":  # (remembered: no read per render)
        due = await tables.lobby_expires(table.id)
    else:
        due = next((t.due_at for t in await tables.pending_timers(table.id) if t.kind == "lobby_expire"), None)
    return int(due.timestamp()) if due is not None else None


def seat_line(table: Table, seat: int, language: str) -> str:
    """A seat as the lobby lists it: a person's mention, or a computer player's name marked as such."""
    user_id = table.user_of(seat)
    if user_id is not None:
        return f"<@{user_id}>"
    return catalog(language).render("lobby.ai_player", name=RenderContext(table, language).name(seat))


def lobby_view(table: Table, language: str) -> discord.ui.View | None:
    if table.status != "lobby":
        return None
    cat = catalog(language)
    actions = ("join", "leave", "start", "cancel", "add_ai", "remove_ai",
               *(("options",) if form_options(table) else ()))
    items: list[discord.ui.Item[Any]] = [LobbyButton(table.id, action, label=cat.render(f"lobby.button.{action}"))
                                         for action in actions]
    ctx = RenderContext(table, language)
    joined = [seat for seat in table.seats if seat.user_id is not None and seat.user_id != table.host_id]
    if joined:  # the host's "Remove a player" (anyone else is refused privately)
        options = [discord.SelectOption(label=ctx.name(seat.seat)[:100], value=str(seat.user_id)) for seat in joined]
        items.append(LobbySelect(table.id, "kick", options=options, placeholder=cat.render("lobby.kick.placeholder")))
    return view_of(*items)


def cancel_confirmation(table: Table) -> dict[str, Any]:
    """The private question before a cancel (``send_message`` keywords): "Cancel this game?" with Cancel the game
    (``cancel_yes``) and Back (``cancel_no``, nothing changes)."""
    cat = catalog(table.language)
    key = "lobby.cancel.confirm_game" if table.status == "active" else "lobby.cancel.confirm_lobby"
    return {"content": cat.render(key, id=table.id),
            "view": view_of(LobbyButton(table.id, "cancel_yes", label=cat.render("lobby.cancel.yes"),
                                        style=discord.ButtonStyle.danger),
                            LobbyButton(table.id, "cancel_no", label=cat.render("lobby.cancel.no")))}

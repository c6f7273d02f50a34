"""The lobby role's ping (``/config lobbyrole``): one line naming the role, posted with the lobby when it opens (by
``/newgame`` or at a scheduled lobby's time), whose ``allowed_mentions`` let exactly that role be pinged, never
``@everyone``, a user or another role. Later edits of the lobby message never ping again (Discord pings on create
only), and a series' next round opens without it (its players are seated already)."""

from __future__ import annotations

import discord

from bot.i18n import t


def ping_mentions(role_id: int) -> discord.AllowedMentions:
    """Mentions limited to the role ``role_id``: no ``@everyone``/``@here``, no users, no other role."""
    return discord.AllowedMentions(everyone=False, users=False, roles=[discord.Object(id=role_id)],
                                   replied_user=False)


def ping_line(role_id: int, game: str, language: str) -> str:
    """``<@&role> A lobby of <game> is open: join!`` in ``language``."""
    return t("lobby.ping", language, role=f"<@&{role_id}>", game=t(f"game.{game}", language))


def with_ping(note: str | None, role_id: int | None, game: str, language: str) -> tuple[str | None, dict[str, object]]:
    """The lobby message's content (``note`` under the ping line) and its ``allowed_mentions``: the role's when
    ``role_id`` is set, none otherwise."""
    if role_id is None:
        return note, {}
    line = ping_line(role_id, game, language)
    return (f"{line}\n{note}" if note else line), {"allowed_mentions": ping_mentions(role_id)}

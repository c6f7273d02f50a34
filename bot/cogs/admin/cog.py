"""``/config``: per-server settings with declared defaults (``bot.guild_config.GuildConfig``). Unknown keys and bad
values are refused and nothing changes."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands
from pydantic import ValidationError

from bot.errors import UserError
from bot.guild_config import update_config
from bot.ui import COLOUR, SILENT

if TYPE_CHECKING:
    from bot.bot import CoronerBot


class Admin(commands.GroupCog, group_name="config", group_description=_("Server settings for Coroner")):
    """``/config show|medium|language|days|timeouts|gamechannel|deadrole``."""

    def __init__(self, bot: CoronerBot) -> None:
        self.bot = bot
        super().__init__()

    async def interaction_check(self, interaction: discord.Interaction) -> bool:  # type: ignore[override]
        member = interaction.user
        if not isinstance(member, discord.Member) or not member.guild_permissions.manage_guild:
            raise app_commands.MissingPermissions(["manage_guild"])
        return True

    async def _update(self, interaction: discord.Interaction, **changes: Any) -> None:
        assert interaction.guild_id is not None
        if not changes:
            raise UserError("config.nothing_to_change")
        try:
            async with self.bot.sessions() as session, session.begin():
                await update_config(session, interaction.guild_id, **changes)
        except (ValidationError, ValueError) as exc:
            detail = exc.errors()[0]["msg"] if isinstance(exc, ValidationError) else str(exc)
            raise UserError("config.invalid", detail=detail) from None
        self.bot.forget_config(interaction.guild_id)
        await self._show(interaction, changed=True)

    async def _show(self, interaction: discord.Interaction, *, changed: bool = False) -> None:
        config = await self.bot.config(interaction.guild_id)
        t = self.bot.t
        embed = discord.Embed(title=await t(interaction.guild_id, "config.title"), colour=COLOUR)
        if changed:
            embed.description = await t(interaction.guild_id, "config.saved")
        for key, value in config.model_dump().items():
            if key.endswith("channel_id") and value:
                value = f"<#{value}>"
            elif key == "game_channel_ids":
                value = " ".join(f"<#{c}>" for c in value) or await t(interaction.guild_id, "config.any_channel")
            elif key.endswith("role_id") and value:
                value = f"<@&{value}>"
            embed.add_field(name=await t(interaction.guild_id, f"config.key.{key}"), value=str(value if value
                            is not None else "—"))
        await interaction.response.send_message(embed=embed, ephemeral=True, allowed_mentions=SILENT)

    @app_commands.command(name="show", description=_("Show this server's settings"))
    async def show(self, interaction: discord.Interaction) -> None:
        await self._show(interaction)

    @app_commands.command(name="medium", description=_("Set the official medium channel (social mode)"))
    @app_commands.describe(channel=_("The channel where the bot publishes letters, notes and anonymous posts"))
    async def medium(self, interaction: discord.Interaction, channel: discord.TextChannel) -> None:
        await self._update(interaction, medium_channel_id=channel.id)

    @app_commands.command(name="language", description=_("The language the bot speaks in this server"))
    @app_commands.choices(language=[app_commands.Choice(name="English", value="en"),
                                    app_commands.Choice(name="Español", value="es")])
    async def language(self, interaction: discord.Interaction, language: app_commands.Choice[str]) -> None:
        await self._update(interaction, language=language.value)

    @app_commands.command(name="days", description=_("Day length, day boundary time and time zone (social mode)"))
    @app_commands.describe(length_minutes=_("How long a day lasts, in minutes (default 1440)"),
                           boundary=_("The time of day a new day starts, HH:MM"),
                           timezone=_("An IANA time zone such as Europe/Madrid"),
                           max_days=_("How many days a social game lasts at most (default 14)"))
    async def days(self, interaction: discord.Interaction, length_minutes: app_commands.Range[int, 10, 10080] | None
                   = None, boundary: str | None = None, timezone: str | None = None,
                   max_days: app_commands.Range[int, 1, 365] | None = None) -> None:
        changes = {k: v for k, v in {"day_length_minutes": length_minutes, "day_boundary": boundary,
                                     "timezone": timezone, "social_max_days": max_days}.items() if v is not None}
        await self._update(interaction, **changes)

    @app_commands.command(name="timeouts", description=_("Turn, prompt, response-window and lobby time limits"))
    @app_commands.describe(turn_seconds=_("Seconds a player has for a turn"),
                           prompt_seconds=_("Seconds for last words, statements and accusations"),
                           response_window_seconds=_("Seconds a response window stays open"),
                           lobby_minutes=_("Minutes before an idle lobby expires"),
                           ping_seconds=_("Seconds a player may take before the bot pings them"),
                           repost_after=_("Messages under the table before the bot posts it again"))
    async def timeouts(self, interaction: discord.Interaction,
                       turn_seconds: app_commands.Range[int, 10, 86400] | None = None,
                       prompt_seconds: app_commands.Range[int, 10, 86400] | None = None,
                       response_window_seconds: app_commands.Range[int, 5, 86400] | None = None,
                       lobby_minutes: app_commands.Range[int, 1, 1440] | None = None,
                       ping_seconds: app_commands.Range[int, 5, 86400] | None = None,
                       repost_after: app_commands.Range[int, 1, 100] | None = None) -> None:
        changes = {k: v for k, v in {"turn_timeout_seconds": turn_seconds, "prompt_timeout_seconds": prompt_seconds,
                                     "response_window_seconds": response_window_seconds,
                                     "lobby_timeout_minutes": lobby_minutes, "turn_ping_seconds": ping_seconds,
                                     "table_repost_after": repost_after}.items() if v is not None}
        await self._update(interaction, **changes)

    @app_commands.command(name="gamechannel", description=_("Allow or disallow games in a channel (none = anywhere)"))
    async def gamechannel(self, interaction: discord.Interaction, channel: discord.TextChannel) -> None:
        current = list((await self.bot.config(interaction.guild_id)).game_channel_ids)
        updated = [c for c in current if c != channel.id] if channel.id in current else [*current, channel.id]
        await self._update(interaction, game_channel_ids=updated)

    @app_commands.command(name="deadrole", description=_("A role given to dead players in the social mode"))
    async def deadrole(self, interaction: discord.Interaction, role: discord.Role | None = None) -> None:
        await self._update(interaction, dead_role_id=role.id if role else None)

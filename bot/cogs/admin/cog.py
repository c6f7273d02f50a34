"""``/config``: per-server settings. A guild-only command group whose default permission is Manage Server (members
never see it); the runtime check refuses anyone without it all the same. Option ranges and choices come from the one
declaration, :class:`bot.guild_config.GuildConfig`; a refused value is worded in the server's language and nothing
changes."""

from __future__ import annotations

import zoneinfo
from functools import cache
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.deadline import acknowledge_if_slow, respond
from bot.errors import UserError
from bot.guild_config import SettingRefused, choices, option_range, update_config
from bot.reach import cannot_post
from bot.ui import COLOUR, SILENT

if TYPE_CHECKING:
    from bot.app import Coroner

DayLength = option_range("day_length_minutes")
SocialMaxDays = option_range("social_max_days")
TurnSeconds = option_range("turn_timeout_seconds")
PromptSeconds = option_range("prompt_timeout_seconds")
WindowSeconds = option_range("response_window_seconds")
LobbyMinutes = option_range("lobby_timeout_minutes")
PingSeconds = option_range("turn_ping_seconds")
RepostAfter = option_range("table_repost_after")
ComputerAfter = option_range("timeouts_to_computer")
LANGUAGE_NAMES = {"en": "English", "es": "Español"}
#: the setting of the declaration each value option of ``/config days`` and ``/config timeouts`` changes
OPTION_SETTINGS = {
    "length_minutes": "day_length_minutes", "boundary": "day_boundary", "timezone": "timezone",
    "max_days": "social_max_days", "turn_seconds": "turn_timeout_seconds", "prompt_seconds": "prompt_timeout_seconds",
    "response_window_seconds": "response_window_seconds", "lobby_minutes": "lobby_timeout_minutes",
    "ping_seconds": "turn_ping_seconds", "repost_after": "table_repost_after",
    "computer_after": "timeouts_to_computer",
}


def _changes(**given: Any) -> dict[str, Any]:
    """The settings the given options change (options left empty change nothing)."""
    return {OPTION_SETTINGS[option]: value for option, value in given.items() if value is not None}


@cache
def time_zones() -> tuple[str, ...]:
    """Every IANA time zone name this system knows, sorted."""
    return tuple(sorted(zoneinfo.available_timezones()))


@app_commands.guild_only()
@app_commands.default_permissions(manage_guild=True)
class Admin(commands.GroupCog, group_name="config", group_description=_("Server settings for Coroner")):
    """``/config show|medium|language|days|timeouts|deadrole|lobbyrole`` and
    ``/config gamechannel add|remove|clear``."""

    gamechannel = app_commands.Group(name="gamechannel", description=_("Channels where games may be opened"))

    def __init__(self, bot: Coroner) -> None:
        self.bot = bot
        super().__init__()

    async def interaction_check(self, interaction: discord.Interaction) -> bool:  # type: ignore[override]
        member = interaction.user
        if not isinstance(member, discord.Member) or not member.guild_permissions.manage_guild:
            raise app_commands.MissingPermissions(["manage_guild"])
        await acknowledge_if_slow(interaction, ephemeral=True, thinking=True)  # before every /config query
        return True

    async def _update(self, interaction: discord.Interaction, **changes: Any) -> None:
        assert interaction.guild_id is not None
        if not changes:
            raise UserError("config.nothing_to_change")
        try:
            async with self.bot.sessions() as session, session.begin():
                await update_config(session, interaction.guild_id, **changes)
        except SettingRefused as refused:
            setting = await self.bot.t(interaction.guild_id, f"config.key.{refused.setting}")
            raise UserError(refused.code, setting=setting, **refused.params) from None
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
        await respond(interaction, embed=embed, ephemeral=True, allowed_mentions=SILENT)

    @app_commands.command(name="show", description=_("Show this server's settings"))
    async def show(self, interaction: discord.Interaction) -> None:
        await self._show(interaction)

    @app_commands.command(name="medium", description=_("Set the official medium channel (social mode)"))
    @app_commands.describe(channel=_("The channel where the bot publishes letters, notes and anonymous posts"))
    async def medium(self, interaction: discord.Interaction, channel: discord.TextChannel) -> None:
        """Raises ``UserError("config.medium.cannot_post")`` for a channel the bot cannot post the medium's posts
        in (:func:`bot.reach.cannot_post`: Discord would refuse every one), naming what it lacks."""
        if missing := cannot_post(interaction.guild and interaction.guild.get_channel(channel.id)):
            raise UserError("config.medium.cannot_post", channel=channel.mention, missing=missing)
        await self._update(interaction, medium_channel_id=channel.id)

    @app_commands.command(name="language", description=_("The language the bot speaks in this server"))
    @app_commands.choices(language=[app_commands.Choice(name=LANGUAGE_NAMES[code], value=code)
                                    for code in choices("language")])
    async def language(self, interaction: discord.Interaction, language: app_commands.Choice[str]) -> None:
        await self._update(interaction, language=language.value)

    async def timezone_autocomplete(self, interaction: discord.Interaction,
                                    current: str) -> list[app_commands.Choice[str]]:
        """IANA time zones containing what was typed (``madrid`` finds ``Europe/Madrid``), at most 25."""
        typed = current.strip().lower().replace(" ", "_")
        return [app_commands.Choice(name=zone, value=zone) for zone in time_zones() if typed in zone.lower()][:25]

    @app_commands.command(name="days", description=_("Day length, day boundary time and time zone (social mode)"))
    @app_commands.describe(length_minutes=_("How long a day lasts, in minutes (default 1440)"),
                           boundary=_("The time of day a new day starts, HH:MM"),
                           timezone=_("An IANA time zone such as Europe/Madrid"),
                           max_days=_("How many days a social game lasts at most (default 14)"))
    @app_commands.autocomplete(timezone=timezone_autocomplete)
    async def days(self, interaction: discord.Interaction, length_minutes: DayLength | None = None,
                   boundary: str | None = None, timezone: str | None = None,
                   max_days: SocialMaxDays | None = None) -> None:
        await self._update(interaction, **_changes(length_minutes=length_minutes, boundary=boundary,
                                                   timezone=timezone, max_days=max_days))

    @app_commands.command(name="timeouts", description=_("Turn, prompt, response-window and lobby time limits"))
    @app_commands.describe(turn_seconds=_("Seconds a player has for a turn"),
                           prompt_seconds=_("Seconds for last words, statements and accusations"),
                           response_window_seconds=_("Seconds a response window stays open"),
                           lobby_minutes=_("Minutes before an idle lobby expires"),
                           ping_seconds=_("Seconds a player may take before the bot pings them"),
                           repost_after=_("Messages under the table before the bot posts it again"),
                           computer_after=_("Timeouts in a row before the computer plays the seat"))
    async def timeouts(self, interaction: discord.Interaction, turn_seconds: TurnSeconds | None = None,
                       prompt_seconds: PromptSeconds | None = None,
                       response_window_seconds: WindowSeconds | None = None,
                       lobby_minutes: LobbyMinutes | None = None, ping_seconds: PingSeconds | None = None,
                       repost_after: RepostAfter | None = None, computer_after: ComputerAfter | None = None) -> None:
        await self._update(interaction, **_changes(
            turn_seconds=turn_seconds, prompt_seconds=prompt_seconds, response_window_seconds=response_window_seconds,
            lobby_minutes=lobby_minutes, ping_seconds=ping_seconds, repost_after=repost_after,
            computer_after=computer_after))

    @app_commands.command(name="deadrole", description=_("A role given to dead players in the social mode"))
    @app_commands.describe(role=_("The role; leave empty to give none"))
    async def deadrole(self, interaction: discord.Interaction, role: discord.Role | None = None) -> None:
        await self._update(interaction, dead_role_id=role.id if role else None)

    @app_commands.command(name="lobbyrole", description=_("A role pinged once when a lobby opens"))
    @app_commands.describe(role=_("The role; leave empty to ping nobody"))
    async def lobbyrole(self, interaction: discord.Interaction, role: discord.Role | None = None) -> None:
        """Raises ``UserError("config.lobbyrole.everyone")`` for @everyone (never pinged: that would be everyone) and
        ``UserError("config.lobbyrole.not_mentionable")`` for a role Discord would not let the bot ping: one not
        marked mentionable while the bot lacks Mention Everyone (the invite's permissions do not include it), whose
        lobby ping would silently notify nobody."""
        if role is not None and role.is_default():
            raise UserError("config.lobbyrole.everyone")
        if role is not None and not role.mentionable and not interaction.app_permissions.mention_everyone:
            raise UserError("config.lobbyrole.not_mentionable", role=role.mention)
        await self._update(interaction, lobby_role_id=role.id if role else None)

    # --- /config gamechannel add|remove|clear -------------------------------------------------------------
    async def _game_channels(self, interaction: discord.Interaction) -> list[int]:
        return list((await self.bot.config(interaction.guild_id)).game_channel_ids)

    @gamechannel.command(name="add", description=_("Allow games in a channel (then only in the listed channels)"))
    @app_commands.describe(channel=_("The channel to allow"))
    async def gamechannel_add(self, interaction: discord.Interaction, channel: discord.TextChannel) -> None:
        current = await self._game_channels(interaction)
        if channel.id in current:
            raise UserError("config.gamechannel.already", channel=channel.mention)
        await self._update(interaction, game_channel_ids=[*current, channel.id])

    @gamechannel.command(name="remove", description=_("Stop allowing games in a channel"))
    @app_commands.describe(channel=_("The channel to remove from the list"))
    async def gamechannel_remove(self, interaction: discord.Interaction, channel: discord.TextChannel) -> None:
        current = await self._game_channels(interaction)
        if channel.id not in current:
            raise UserError("config.gamechannel.not_listed", channel=channel.mention)
        await self._update(interaction, game_channel_ids=[c for c in current if c != channel.id])

    @gamechannel.command(name="clear", description=_("Allow games in every channel again"))
    async def gamechannel_clear(self, interaction: discord.Interaction) -> None:
        await self._update(interaction, game_channel_ids=[])

"""The double's world: users, guilds, roles, members and channels, each able to render Discord's JSON.

Mutating a guild (adding a channel, role or member) while the bot is connected dispatches the gateway event that
Discord would send (CHANNEL_CREATE, GUILD_ROLE_CREATE, GUILD_MEMBER_ADD).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tests.discord_double import permissions as perm
from tests.discord_double._ids import iso_now

if TYPE_CHECKING:
    from tests.discord_double.interactions import InteractionHandle
    from tests.discord_double.messages import StoredMessage
    from tests.discord_double.server import DiscordDouble

TEXT, DM, CATEGORY, PUBLIC_THREAD, PRIVATE_THREAD = 0, 1, 4, 11, 12


@dataclass(eq=False)
class User:
    """A Discord account. Scripted users act through the coroutine methods (slash, click, select, ...)."""

    _double: DiscordDouble = field(repr=False)
    id: int
    username: str
    global_name: str | None = None
    bot: bool = False
    dms_closed: bool = False
    locale: str = "en-US"
    dm_channel_id: int | None = None

    def payload(self) -> dict[str, Any]:
        """Discord's user object."""
        data: dict[str, Any] = {
            "id": str(self.id),
            "username": self.username,
            "global_name": self.global_name,
            "discriminator": "0",
            "avatar": None,
            "public_flags": 0,
            "flags": 0,
            "primary_guild": None,
        }
        if self.bot:
            data["bot"] = True
        return data

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    # --- scripted actions (see tests.discord_double.interactions) -------------------------------------------------
    async def slash(self, channel: Channel, command: str, /, options: dict[str, Any] | None = None,
                    **kwargs: Any) -> InteractionHandle:
        """Run ``/command`` ("config medium" for a subcommand) in ``channel`` with the given option values."""
        return await self._double._actions.slash(self, channel, command, {**(options or {}), **kwargs})

    async def autocomplete(self, channel: Channel, command: str, focused: str, /,
                           options: dict[str, Any] | None = None, **kwargs: Any) -> InteractionHandle:
        """Type into option ``focused`` of ``/command``; the response's ``choices`` hold the bot's suggestions."""
        return await self._double._actions.slash(self, channel, command, {**(options or {}), **kwargs},
                                                 focused=focused)

    async def click(self, message: StoredMessage, custom_id: str | None = None, *,
                    label: str | None = None) -> InteractionHandle:
        """Press the button with this ``custom_id`` (or ``label``) on ``message``."""
        return await self._double._actions.component(self, message, custom_id, label=label, values=None)

    async def select(self, message: StoredMessage, custom_id: str, values: list[str]) -> InteractionHandle:
        """Choose ``values`` in the select menu ``custom_id`` on ``message``."""
        return await self._double._actions.component(self, message, custom_id, label=None, values=values)

    async def submit_modal(self, source: InteractionHandle, values: dict[str, Any]) -> InteractionHandle:
        """Submit the modal the bot opened in answer to ``source``; ``values`` maps field custom_id to text."""
        return await self._double._actions.submit_modal(self, source, values)

    async def dm_bot(self, content: str) -> StoredMessage:
        """Send ``content`` to the bot in this user's DM channel (MESSAGE_CREATE without guild_id)."""
        return await self._double._actions.user_message(self, self._double.dm_channel(self), content)

    async def say(self, channel: Channel, content: str) -> StoredMessage:
        """Post ``content`` as this user in a guild channel."""
        return await self._double._actions.user_message(self, channel, content)

    def dms(self, *, from_bot: bool = True) -> list[StoredMessage]:
        """Messages in this user's DM channel with the bot (only the bot's by default), oldest first."""
        if self.dm_channel_id is None:
            return []
        msgs = self._double.messages(self._double.channels[self.dm_channel_id])
        return [m for m in msgs if m.author.bot] if from_bot else msgs

    def ephemerals(self) -> list[StoredMessage]:
        """Ephemeral messages the bot showed to this user, oldest first."""
        return [m for m in self._double.all_messages() if m.visible_to == self.id and not m.deleted]


@dataclass(eq=False)
class Role:
    id: int
    name: str
    permissions: int = 0
    position: int = 0
    managed: bool = False
    #: "Allow anyone to @mention this role": without it only a member with Mention Everyone pings it
    mentionable: bool = False

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id), "name": self.name, "permissions": str(self.permissions), "position": self.position,
            "color": 0, "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False, "managed": self.managed, "mentionable": self.mentionable, "icon": None,
            "unicode_emoji": None,
            "flags": 0,
        }


@dataclass(eq=False)
class Member:
    user: User
    guild: Guild = field(repr=False)
    nick: str | None = None
    role_ids: list[int] = field(default_factory=list)
    joined_at: str = field(default_factory=iso_now)

    def payload(self, *, with_user: bool = True, channel: Channel | None = None) -> dict[str, Any]:
        """Discord's guild member object; with ``channel`` it carries the computed ``permissions`` string."""
        data: dict[str, Any] = {
            "nick": self.nick, "roles": [str(r) for r in self.role_ids], "joined_at": self.joined_at,
            "premium_since": None, "deaf": False, "mute": False, "pending": False, "flags": 0, "avatar": None,
            "communication_disabled_until": None, "banner": None,
        }
        if with_user:
            data["user"] = self.user.payload()
        if channel is not None:
            data["permissions"] = str(self.permissions(channel))
        return data

    def permissions(self, channel: Channel | None = None) -> int:
        return perm.channel_permissions(self.guild, self, channel)


@dataclass(eq=False)
class Channel:
    id: int
    name: str
    type: int = TEXT
    guild: Guild | None = field(default=None, repr=False)
    parent_id: int | None = None
    position: int = 0
    topic: str | None = None
    overwrites: list[dict[str, Any]] = field(default_factory=list)
    recipient: User | None = field(default=None, repr=False)
    owner_id: int | None = None
    messages: list[StoredMessage] = field(default_factory=list, repr=False)
    #: a thread's members: user id -> when they joined (ISO); its metadata below
    thread_members: dict[int, str] = field(default_factory=dict, repr=False)
    archived: bool = False
    locked: bool = False
    invitable: bool = True
    auto_archive_duration: int = 1440
    archive_timestamp: str = field(default_factory=iso_now, repr=False)

    @property
    def is_thread(self) -> bool:
        return self.type in (PUBLIC_THREAD, PRIVATE_THREAD)

    def thread_member_payload(self, user_id: int) -> dict[str, Any]:
        """Discord's thread member object for ``user_id`` (a member of this thread)."""
        return {"id": str(self.id), "user_id": str(user_id), "join_timestamp": self.thread_members[user_id],
                "flags": 0}

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    def payload(self) -> dict[str, Any]:
        """Discord's channel object (guild text/category channel, thread or DM)."""
        if self.type == DM:
            assert self.recipient is not None
            return {"id": str(self.id), "type": DM, "recipients": [self.recipient.payload()],
                    "last_message_id": self._last_id(), "flags": 0}
        data: dict[str, Any] = {
            "id": str(self.id), "type": self.type, "name": self.name, "position": self.position,
            "permission_overwrites": self.overwrites, "parent_id": str(self.parent_id) if self.parent_id else None,
            "nsfw": False, "rate_limit_per_user": 0, "flags": 0, "last_message_id": self._last_id(),
        }
        if self.guild is not None:
            data["guild_id"] = str(self.guild.id)
        if self.type == TEXT:
            data.update(topic=self.topic, default_auto_archive_duration=1440)
        if self.is_thread:
            metadata: dict[str, Any] = {"archived": self.archived, "auto_archive_duration": self.auto_archive_duration,
                                        "archive_timestamp": self.archive_timestamp, "locked": self.locked}
            if self.type == PRIVATE_THREAD:
                metadata["invitable"] = self.invitable
            data.update(
                owner_id=str(self.owner_id), message_count=len(self.messages),
                member_count=min(len(self.thread_members), 50), total_message_sent=len(self.messages),
                thread_metadata=metadata,
            )
            del data["permission_overwrites"], data["position"]
        return data

    def _last_id(self) -> str | None:
        return str(self.messages[-1].id) if self.messages else None


@dataclass(eq=False)
class Guild:
    """A guild. Build it with ``double.add_guild`` and populate it with the ``add_*`` methods."""

    _double: DiscordDouble = field(repr=False)
    id: int
    name: str
    locale: str = "en-US"
    owner_id: int = 0
    roles: dict[int, Role] = field(default_factory=dict)
    channels: dict[int, Channel] = field(default_factory=dict, repr=False)
    members: dict[int, Member] = field(default_factory=dict, repr=False)

    @property
    def everyone(self) -> Role:
        return self.roles[self.id]

    def add_text_channel(self, name: str, *, category: Channel | None = None, topic: str | None = None,
                         overwrites: list[dict[str, Any]] | None = None) -> Channel:
        """Create a text channel (dispatching CHANNEL_CREATE if the bot is connected)."""
        return self._add_channel(name, TEXT, parent_id=category.id if category else None, topic=topic,
                                 overwrites=overwrites or [])

    def add_category(self, name: str) -> Channel:
        return self._add_channel(name, CATEGORY)

    def _add_channel(self, name: str, type_: int, **kw: Any) -> Channel:
        channel = Channel(id=self._double.ids.next(), name=name, type=type_, guild=self,
                          position=len(self.channels), **kw)
        self.channels[channel.id] = channel
        self._double.channels[channel.id] = channel
        self._double._dispatch_guild(self, "CHANNEL_CREATE", channel.payload())
        return channel

    def add_role(self, name: str, permissions: int = 0, *, managed: bool = False, mentionable: bool = False) -> Role:
        """Create a role (dispatching GUILD_ROLE_CREATE if the bot is connected)."""
        role = Role(id=self._double.ids.next(), name=name, permissions=permissions, position=len(self.roles),
                    managed=managed, mentionable=mentionable)
        self.roles[role.id] = role
        self._double._dispatch_guild(self, "GUILD_ROLE_CREATE", {"guild_id": str(self.id), "role": role.payload()})
        return role

    def role_named(self, name: str) -> Role | None:
        return next((r for r in self.roles.values() if r.name == name), None)

    def add_member(self, user: User, *, nick: str | None = None, manage_guild: bool = False,
                   roles: list[Role] | tuple[Role, ...] = (), permissions: int = 0) -> Member:
        """Make ``user`` a member; ``manage_guild``/``permissions`` are granted through a role of their own."""
        role_ids = [r.id for r in roles]
        if manage_guild:
            permissions |= perm.MANAGE_GUILD
        if permissions:
            role_ids.append(self.add_role(f"perms-{user.username}", permissions).id)
        member = Member(user=user, guild=self, nick=nick, role_ids=role_ids)
        self.members[user.id] = member
        self._double._dispatch_guild(self, "GUILD_MEMBER_ADD", {**member.payload(), "guild_id": str(self.id)},
                                     intent=1 << 1)
        return member

    def member(self, user: User) -> Member:
        return self.members[user.id]

    def payload(self) -> dict[str, Any]:
        """The GUILD_CREATE / GET /guilds/{id} payload, including channels, roles and every member."""
        text_like = [c for c in self.channels.values() if c.type in (TEXT, CATEGORY)]
        threads = [c for c in self.channels.values() if c.is_thread and not c.archived]  # active threads only
        return {
            "id": str(self.id), "name": self.name, "icon": None, "splash": None, "discovery_splash": None,
            "owner_id": str(self.owner_id), "afk_channel_id": None, "afk_timeout": 300, "verification_level": 0,
            "default_message_notifications": 0, "explicit_content_filter": 0, "features": [], "mfa_level": 0,
            "system_channel_id": None, "system_channel_flags": 0, "rules_channel_id": None, "vanity_url_code": None,
            "description": None, "banner": None, "premium_tier": 0, "premium_subscription_count": 0,
            "preferred_locale": self.locale, "public_updates_channel_id": None, "nsfw_level": 0,
            "premium_progress_bar_enabled": False, "emojis": [], "stickers": [], "application_id": None,
            "roles": [r.payload() for r in self.roles.values()],
            "joined_at": iso_now(), "large": False, "unavailable": False, "member_count": len(self.members),
            "members": [m.payload() for m in self.members.values()],
            "channels": [c.payload() for c in text_like], "threads": [c.payload() for c in threads],
            "voice_states": [], "presences": [], "stage_instances": [], "guild_scheduled_events": [],
        }

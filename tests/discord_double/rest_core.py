"""REST routes for the bot's identity, application commands, DM channels, guilds, members, roles and channels."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from aiohttp import web

from tests.discord_double.commands import check_commands
from tests.discord_double.faults import BODY, discord_error, json_response
from tests.discord_double.model import DM, TEXT, Channel, Guild, Member
from tests.discord_double.permissions import MANAGE_CHANNELS, MANAGE_ROLES, MANAGE_THREADS, require, require_role_below
from tests.discord_double.rest_threads import edit_thread

if TYPE_CHECKING:
    from tests.discord_double.server import DiscordDouble

NO_CONTENT = 204


def register(router: web.UrlDispatcher, prefix: str, double: DiscordDouble) -> None:
    r = _CoreRoutes(double)
    for method, path, handler in [
        ("GET", "/gateway/bot", r.gateway_bot), ("GET", "/gateway", r.gateway),
        ("GET", "/users/@me", r.me), ("GET", "/users/{user_id}", r.user),
        ("GET", "/oauth2/applications/@me", r.application), ("GET", "/applications/@me", r.application),
        ("POST", "/users/@me/channels", r.create_dm),
        ("GET", "/applications/{app}/commands", r.list_commands),
        ("PUT", "/applications/{app}/commands", r.put_commands),
        ("POST", "/applications/{app}/commands", r.upsert_command),
        ("GET", "/applications/{app}/guilds/{guild_id}/commands", r.list_commands),
        ("PUT", "/applications/{app}/guilds/{guild_id}/commands", r.put_commands),
        ("POST", "/applications/{app}/guilds/{guild_id}/commands", r.upsert_command),
        ("DELETE", "/applications/{app}/commands/{command_id}", r.delete_command),
        ("DELETE", "/applications/{app}/guilds/{guild_id}/commands/{command_id}", r.delete_command),
        ("GET", "/guilds/{guild_id}", r.guild), ("GET", "/guilds/{guild_id}/channels", r.guild_channels),
        ("POST", "/guilds/{guild_id}/channels", r.create_channel),
        ("GET", "/guilds/{guild_id}/roles", r.roles), ("POST", "/guilds/{guild_id}/roles", r.create_role),
        ("GET", "/guilds/{guild_id}/members", r.members), ("GET", "/guilds/{guild_id}/members/{user_id}", r.member),
        ("PATCH", "/guilds/{guild_id}/members/{user_id}", r.edit_member),
        ("PUT", "/guilds/{guild_id}/members/{user_id}/roles/{role_id}", r.add_role),
        ("DELETE", "/guilds/{guild_id}/members/{user_id}/roles/{role_id}", r.remove_role),
        ("GET", "/channels/{channel_id}", r.channel), ("PATCH", "/channels/{channel_id}", r.edit_channel),
        ("DELETE", "/channels/{channel_id}", r.delete_channel),
        ("PUT", "/channels/{channel_id}/permissions/{target_id}", r.put_overwrite),
        ("DELETE", "/channels/{channel_id}/permissions/{target_id}", r.delete_overwrite),
    ]:
        router.add_route(method, prefix + path, handler)


class _CoreRoutes:
    def __init__(self, double: DiscordDouble) -> None:
        self.d = double

    # --- identity ------------------------------------------------------------------------------------------------
    async def gateway_bot(self, request: web.Request) -> web.Response:
        limit = {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1}
        return json_response({"url": self.d.gateway_url, "shards": self.d.shard_count, "session_start_limit": limit})

    async def gateway(self, request: web.Request) -> web.Response:
        return json_response({"url": self.d.gateway_url})

    async def me(self, request: web.Request) -> web.Response:
        return json_response({**self.d.bot_user.payload(), "verified": True, "mfa_enabled": False, "locale": "en-US"})

    async def user(self, request: web.Request) -> web.Response:
        user = self.d.users.get(int(request.match_info["user_id"]))
        return json_response(user.payload()) if user else discord_error(404, 10013, "Unknown User")

    async def application(self, request: web.Request) -> web.Response:
        bot = self.d.bot_user
        owner = next((u for u in self.d.users.values() if not u.bot), bot)
        return json_response({
            "id": str(self.d.application_id), "name": bot.username, "description": "", "icon": None,
            "bot_public": True, "bot_require_code_grant": False, "owner": owner.payload(), "team": None,
            "verify_key": "0" * 64, "flags": 0, "bot": bot.payload(), "summary": "", "rpc_origins": [],
            "tags": [], "redirect_uris": [], "approximate_guild_count": len(self.d.guilds), "type": None,
            "flags_new": "0", "interactions_endpoint_url": None, "role_connections_verification_url": None,
            "approximate_user_install_count": 0, "approximate_user_authorization_count": 0,
            "explicit_content_filter": 0, "eligible_oauth2_scopes": [],
        })

    async def create_dm(self, request: web.Request) -> web.Response:
        user = self.d.users.get(int(request[BODY]["recipient_id"]))
        if user is None:
            return discord_error(400, 50035, "Invalid Form Body")
        return json_response(self.d.dm_channel(user).payload())

    # --- application commands ------------------------------------------------------------------------------------
    def _command_list(self, request: web.Request) -> list[dict[str, Any]] | None:
        if int(request.match_info["app"]) != self.d.application_id:
            return None
        gid = request.match_info.get("guild_id")
        if gid is None:
            return self.d.global_commands
        return self.d.guild_commands.setdefault(int(gid), [])

    def _stored(self, data: dict[str, Any], existing: list[dict[str, Any]], gid: str | None) -> dict[str, Any]:
        kind = data.get("type", 1)
        prev = next((c for c in existing if c["name"] == data["name"] and c["type"] == kind), None)
        cmd = {
            "id": prev["id"] if prev else str(self.d.ids.next()), "application_id": str(self.d.application_id),
            "version": str(self.d.ids.next()), "type": kind, "name": data["name"],
            "name_localizations": data.get("name_localizations"), "description": data.get("description", ""),
            "description_localizations": data.get("description_localizations"), "options": data.get("options", []),
            "default_member_permissions": _str_or_none(data.get("default_member_permissions")),
            "dm_permission": data.get("dm_permission", True), "nsfw": data.get("nsfw", False),
            "contexts": data.get("contexts"), "integration_types": data.get("integration_types") or [0],
        }
        if gid is not None:
            cmd["guild_id"] = gid
        return cmd

    async def list_commands(self, request: web.Request) -> web.Response:
        cmds = self._command_list(request)
        return json_response(cmds) if cmds is not None else discord_error(404, 10002, "Unknown Application")

    async def put_commands(self, request: web.Request) -> web.Response:
        cmds = self._command_list(request)
        if cmds is None:
            return discord_error(404, 10002, "Unknown Application")
        body = request[BODY] or []
        check_commands(body, bulk=True)
        keys = [(c["name"], c.get("type", 1)) for c in body]
        if len(keys) != len(set(keys)):
            return discord_error(400, 50035, "Invalid Form Body",
                                 {"_errors": [{"code": "APPLICATION_COMMANDS_DUPLICATE_NAME"}]})
        gid = request.match_info.get("guild_id")
        new = [self._stored(c, cmds, gid) for c in body]
        cmds[:] = new
        return json_response(new)

    async def upsert_command(self, request: web.Request) -> web.Response:
        cmds = self._command_list(request)
        if cmds is None:
            return discord_error(404, 10002, "Unknown Application")
        check_commands([request[BODY]], bulk=False)
        cmd = self._stored(request[BODY], cmds, request.match_info.get("guild_id"))
        cmds[:] = [c for c in cmds if c["id"] != cmd["id"]] + [cmd]
        return json_response(cmd, status=201)

    async def delete_command(self, request: web.Request) -> web.Response:
        cmds = self._command_list(request) or []
        cmds[:] = [c for c in cmds if c["id"] != request.match_info["command_id"]]
        return web.Response(status=NO_CONTENT)

    # --- guilds, members, roles ------------------------------------------------------------------------------------
    def _guild(self, request: web.Request) -> Guild | None:
        return self.d.guilds.get(int(request.match_info["guild_id"]))

    def _require(self, guild: Guild, needed: int, channel: Channel | None = None) -> None:
        require(guild, guild.members.get(self.d.bot_user.id), channel, needed)

    def _below_bot(self, guild: Guild, role_ids: list[int]) -> None:
        """Refuse (50013) to give or take a role at or above the bot's highest role."""
        me = guild.members[self.d.bot_user.id]
        for role_id in role_ids:
            role = guild.roles.get(role_id)
            if role is not None and role.id != guild.id:
                require_role_below(guild, me, role.position)

    def _member(self, request: web.Request) -> tuple[Guild | None, Member | None]:
        guild = self._guild(request)
        member = guild.members.get(int(request.match_info["user_id"])) if guild else None
        return guild, member

    async def guild(self, request: web.Request) -> web.Response:
        guild = self._guild(request)
        if guild is None:
            return discord_error(404, 10004, "Unknown Guild")
        data = guild.payload()
        for key in ("members", "channels", "threads", "voice_states", "presences", "joined_at", "large"):
            data.pop(key)
        return json_response(data)

    async def guild_channels(self, request: web.Request) -> web.Response:
        guild = self._guild(request)
        if guild is None:
            return discord_error(404, 10004, "Unknown Guild")
        return json_response([c.payload() for c in guild.channels.values() if c.type in (0, 4)])

    async def create_channel(self, request: web.Request) -> web.Response:
        guild = self._guild(request)
        if guild is None:
            return discord_error(404, 10004, "Unknown Guild")
        self._require(guild, MANAGE_CHANNELS)
        body = request[BODY]
        parent = body.get("parent_id")
        channel = guild._add_channel(body["name"], body.get("type", TEXT), topic=body.get("topic"),
                                     parent_id=int(parent) if parent else None,
                                     overwrites=_overwrites(body.get("permission_overwrites")))
        return json_response(channel.payload(), status=201)

    async def roles(self, request: web.Request) -> web.Response:
        guild = self._guild(request)
        if guild is None:
            return discord_error(404, 10004, "Unknown Guild")
        return json_response([r.payload() for r in guild.roles.values()])

    async def create_role(self, request: web.Request) -> web.Response:
        guild = self._guild(request)
        if guild is None:
            return discord_error(404, 10004, "Unknown Guild")
        self._require(guild, MANAGE_ROLES)
        body = request[BODY] or {}
        role = guild.add_role(body.get("name", "new role"), int(body.get("permissions") or 0))
        return json_response(role.payload())

    async def members(self, request: web.Request) -> web.Response:
        guild = self._guild(request)
        if guild is None:
            return discord_error(404, 10004, "Unknown Guild")
        after = int(request.query.get("after", 0))
        limit = int(request.query.get("limit", 1))
        found = sorted((m for m in guild.members.values() if m.user.id > after), key=lambda m: m.user.id)
        return json_response([m.payload() for m in found[:limit]])

    async def member(self, request: web.Request) -> web.Response:
        _, member = self._member(request)
        return json_response(member.payload()) if member else discord_error(404, 10007, "Unknown Member")

    async def edit_member(self, request: web.Request) -> web.Response:
        guild, member = self._member(request)
        if guild is None or member is None:
            return discord_error(404, 10007, "Unknown Member")
        body = request[BODY] or {}
        if "nick" in body:
            member.nick = body["nick"]
        if "roles" in body:
            wanted = [int(r) for r in body["roles"]]
            self._require(guild, MANAGE_ROLES)
            self._below_bot(guild, list(set(wanted) ^ set(member.role_ids)))
            member.role_ids = wanted
        self._member_updated(guild, member)
        return json_response(member.payload())

    async def add_role(self, request: web.Request) -> web.Response:
        return self._change_role(request, add=True)

    async def remove_role(self, request: web.Request) -> web.Response:
        return self._change_role(request, add=False)

    def _change_role(self, request: web.Request, *, add: bool) -> web.Response:
        guild, member = self._member(request)
        if guild is None or member is None:
            return discord_error(404, 10007, "Unknown Member")
        role_id = int(request.match_info["role_id"])
        if role_id not in guild.roles:
            return discord_error(404, 10011, "Unknown Role")
        self._require(guild, MANAGE_ROLES)
        self._below_bot(guild, [role_id])
        if add and role_id not in member.role_ids:
            member.role_ids.append(role_id)
        elif not add and role_id in member.role_ids:
            member.role_ids.remove(role_id)
        self._member_updated(guild, member)
        return web.Response(status=NO_CONTENT)

    def _member_updated(self, guild: Guild, member: Member) -> None:
        self.d._dispatch_guild(guild, "GUILD_MEMBER_UPDATE", {**member.payload(), "guild_id": str(guild.id)})

    # --- channels --------------------------------------------------------------------------------------------------
    def _channel(self, request: web.Request) -> Channel | None:
        return self.d.channels.get(int(request.match_info["channel_id"]))

    async def channel(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        return json_response(channel.payload()) if channel else discord_error(404, 10003, "Unknown Channel")

    async def edit_channel(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        if channel is None or channel.type == DM or channel.guild is None:
            return discord_error(404, 10003, "Unknown Channel")
        if channel.is_thread:
            return json_response(edit_thread(self.d, channel, request[BODY] or {}))
        self._require(channel.guild, MANAGE_CHANNELS, channel)
        body = request[BODY] or {}
        channel.name = body.get("name", channel.name)
        channel.topic = body.get("topic", channel.topic)
        if "permission_overwrites" in body:
            channel.overwrites = _overwrites(body["permission_overwrites"])
        if "parent_id" in body:
            channel.parent_id = int(body["parent_id"]) if body["parent_id"] else None
        self._channel_updated(channel)
        return json_response(channel.payload())

    async def delete_channel(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        if channel is None or channel.guild is None:
            return discord_error(404, 10003, "Unknown Channel")
        # a thread is deleted with Manage Threads (Discord's "Delete/Close Channel"), any other channel with Manage
        # Channels
        self._require(channel.guild, MANAGE_THREADS if channel.is_thread else MANAGE_CHANNELS, channel)
        del self.d.channels[channel.id]
        del channel.guild.channels[channel.id]
        self.d._dispatch_guild(channel.guild, "CHANNEL_DELETE", channel.payload())
        return json_response(channel.payload())

    async def put_overwrite(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        if channel is None or channel.guild is None:
            return discord_error(404, 10003, "Unknown Channel")
        self._require(channel.guild, MANAGE_ROLES, channel)
        target = request.match_info["target_id"]
        body = request[BODY] or {}
        new = _overwrites([{**body, "id": target}])[0]
        channel.overwrites = [o for o in channel.overwrites if o["id"] != target] + [new]
        self._channel_updated(channel)
        return web.Response(status=NO_CONTENT)

    async def delete_overwrite(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        if channel is None or channel.guild is None:
            return discord_error(404, 10003, "Unknown Channel")
        self._require(channel.guild, MANAGE_ROLES, channel)
        channel.overwrites = [o for o in channel.overwrites if o["id"] != request.match_info["target_id"]]
        self._channel_updated(channel)
        return web.Response(status=NO_CONTENT)

    def _channel_updated(self, channel: Channel) -> None:
        if channel.guild is not None:
            self.d._dispatch_guild(channel.guild, "CHANNEL_UPDATE", channel.payload())


def _str_or_none(value: Any) -> str | None:
    return None if value is None else str(value)


def _overwrites(raw: list[dict[str, Any]] | None) -> list[dict[str, Any]]:
    return [{"id": str(o["id"]), "type": int(o.get("type", 0)), "allow": str(o.get("allow") or 0),
             "deny": str(o.get("deny") or 0)} for o in raw or []]

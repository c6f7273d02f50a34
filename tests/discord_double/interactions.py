"""What scripted users do (slash commands, autocomplete, clicks, selects, modal submits, messages) and the handle
through which a test reads the bot's answer to an interaction.

The payloads follow Discord's INTERACTION_CREATE: id, application_id, type, token, version, guild_id, channel,
channel_id, member (with computed ``permissions``) or user, app_permissions, locale, guild_locale, context, data
and, for components, the message. Slash options are typed from the commands the bot registered.
"""

from __future__ import annotations

import asyncio
import secrets
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tests.discord_double.clock import ANSWER_SLACK, REAL_TIME_MARGIN, real_clock
from tests.discord_double.commands import integer_value, option_value_problem
from tests.discord_double.limits import TEXT_INPUT, check_text_input
from tests.discord_double.messages import EPHEMERAL, StoredMessage
from tests.discord_double.model import Channel, Member, Role, User
from tests.discord_double.permissions import DEFAULT_EVERYONE
from tests.discord_double.rest_threads import user_sees

if TYPE_CHECKING:
    from tests.discord_double.server import DiscordDouble

APPLICATION_COMMAND, COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 2, 3, 4, 5
SELECT_TYPES = (3, 5, 6, 7, 8)
DEFERRED_TYPES = (5, 6)


@dataclass
class ModalField:
    custom_id: str
    type: int
    label: str | None
    required: bool
    raw: dict[str, Any] = field(repr=False)


@dataclass
class Modal:
    """A modal the bot opened: its custom_id, title, raw components and the fields a user can fill."""

    custom_id: str
    title: str
    components: list[dict[str, Any]] = field(repr=False)
    fields: list[ModalField]

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Modal:
        fields = []
        for top in data.get("components", []):
            children = [(top["component"], top.get("label"))] if top.get("type") == 18 else [
                (c, c.get("label")) for c in top.get("components", [])]
            for child, label in children:
                if "custom_id" in child:
                    fields.append(ModalField(child["custom_id"], child["type"], label,
                                             child.get("required", True), child))
        return cls(data["custom_id"], data.get("title", ""), data.get("components", []), fields)

    def field(self, custom_id: str) -> ModalField:
        return next(f for f in self.fields if f.custom_id == custom_id)

    def submission(self, values: dict[str, Any]) -> list[dict[str, Any]]:
        """The ``data.components`` of a MODAL_SUBMIT filling in ``values`` (custom_id -> text or list of values)."""
        known = {f.custom_id for f in self.fields}
        unknown = set(values) - known
        if unknown:
            raise LookupError(f"modal {self.custom_id!r} has no field(s) {sorted(unknown)}; fields: {sorted(known)}")
        for f in self.fields:
            if f.type == TEXT_INPUT:
                check_text_input(f.custom_id, f.raw, f.required, values.get(f.custom_id, f.raw.get("value")))

        def leaf(c: dict[str, Any]) -> dict[str, Any]:
            out = {"type": c["type"], "custom_id": c["custom_id"], **({"id": c["id"]} if "id" in c else {})}
            if c["type"] == 4:
                out["value"] = str(values.get(c["custom_id"], c.get("value") or ""))
            else:
                out["values"] = list(values.get(c["custom_id"], []))
            return out

        result = []
        for top in self.components:
            base = {"type": top["type"], **({"id": top["id"]} if "id" in top else {})}
            if top.get("type") == 18:
                result.append({**base, "component": leaf(top["component"])})
            elif top.get("type") == 1:
                result.append({**base, "components": [leaf(c) for c in top.get("components", [])]})
            else:
                result.append(base)
        return result


@dataclass
class Response:
    """The bot's interaction callback. ``message`` is the message it created or updated (live, edits apply).

    ``content``/``embeds``/``components`` are as of the callback; ``deferred`` is true for types 5 and 6.
    """

    type: int
    data: dict[str, Any]
    message: StoredMessage | None = None
    modal: Modal | None = None
    choices: list[dict[str, Any]] | None = None
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    flags: int = 0

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def deferred(self) -> bool:
        return self.type in DEFERRED_TYPES


class InteractionHandle:
    """One interaction a scripted user started. ``await handle.response()`` waits for the bot's callback."""

    def __init__(self, double: DiscordDouble, payload: dict[str, Any], user: User, channel: Channel,
                 source_message: StoredMessage | None) -> None:
        self._double = double
        self.payload = payload
        self.id = int(payload["id"])
        self.token: str = payload["token"]
        self.type: int = payload["type"]
        self.user = user
        self.channel = channel
        self.source_message = source_message
        self.original_id: int | None = None
        self.followups: list[StoredMessage] = []
        self.trigger: InteractionHandle | None = None  # for a modal submit: the interaction that opened the modal
        self.shard_id: int | None = None  # the gateway shard it was dispatched to
        self.dispatched_at = double.clock()  # the deadlines (3 s, 15 min) run from here, on the double's clock
        self.answer: Response | None = None
        self._answered = asyncio.Event()

    def __repr__(self) -> str:
        return f"<InteractionHandle id={self.id} type={self.type} data={self.payload['data']}>"

    def meta(self) -> dict[str, Any]:
        """Discord's ``interaction_metadata`` for messages answering this interaction."""
        meta: dict[str, Any] = {"id": str(self.id), "type": self.type, "user": self.user.payload(),
                                "authorizing_integration_owners": self.payload["authorizing_integration_owners"]}
        if self.type == APPLICATION_COMMAND:
            meta["name"] = self.payload["data"]["name"]
        if self.source_message is not None and self.type == COMPONENT:
            meta["interacted_message_id"] = str(self.source_message.id)
        if self.type == MODAL_SUBMIT and self.trigger is not None:
            meta["triggering_interaction_metadata"] = self.trigger.meta()
        return meta

    def _answer(self, response: Response) -> None:
        self.answer = response
        self._answered.set()

    async def response(self, timeout: float | None = None) -> Response:
        """The callback, waiting up to ``timeout`` seconds of real time. By default as long as the double accepts
        it on the real clock (its initial-response deadline: Discord's 3 s unless the test allowed a margin, see
        :mod:`~tests.discord_double.clock`; a later callback is refused with 10062) plus :data:`ANSWER_SLACK` for
        an answer sent in time to arrive, and a generous while on a manual clock, whose deadline the test moves
        itself. A test of the bot's speed lowers ``double.initial_response_deadline``."""
        limit = timeout if timeout is not None else (
            self._double.initial_response_deadline + ANSWER_SLACK if self._double.clock is real_clock
            else self._double.interaction_timeout + REAL_TIME_MARGIN)
        try:
            await asyncio.wait_for(self._answered.wait(), timeout=limit)
        except TimeoutError:
            raise AssertionError(
                f"the bot did not answer interaction {self.payload['data']} within {limit}s "
                "(Discord would show 'The application did not respond')"
            ) from None
        assert self.answer is not None
        return self.answer

    @property
    def original(self) -> StoredMessage | None:
        """The response message (for component updates: the clicked message), as it is now."""
        return self._double.message(self.original_id) if self.original_id else None

    async def wait_followups(self, count: int = 1, timeout: float | None = None) -> list[StoredMessage]:
        """Wait until at least ``count`` follow-ups were sent; returns them all."""
        await self._double.wait_for(lambda: len(self.followups) >= count, timeout, f"{count} follow-up(s)")
        return self.followups

    async def wait_original(self, timeout: float | None = None) -> StoredMessage:
        """Wait until the response message exists and is no longer a deferred "thinking" placeholder."""
        await self._double.wait_for(lambda: self.original is not None and not self.original.loading, timeout,
                                    "the original response to be filled in")
        assert self.original is not None
        return self.original


class Actions:
    """Builds and dispatches what scripted users do; reached through ``User`` methods."""

    def __init__(self, double: DiscordDouble) -> None:
        self.d = double

    def _command(self, channel: Channel, name: str) -> dict[str, Any]:
        pools = ([self.d.guild_commands.get(channel.guild.id, [])] if channel.guild else []) + [
            self.d.global_commands]
        for pool in pools:
            for cmd in pool:
                if cmd["name"] == name and cmd["type"] == 1:
                    return cmd
        known = sorted({c["name"] for pool in pools for c in pool})
        raise LookupError(f"/{name} is not registered where {channel.name or 'the DM'} is (did the bot sync?): "
                          f"{known}")

    async def slash(self, user: User, channel: Channel, command: str, given: dict[str, Any],
                    focused: str | None = None) -> InteractionHandle:
        if self.d.slash_call_shape is not None:
            command, given = self.d.slash_call_shape(command, given)
        root, *path = command.split()
        cmd = self._command(channel, root)
        node, chain = cmd, []
        for part in path:
            sub = next((o for o in node.get("options", []) if o["type"] in (1, 2) and o["name"] == part), None)
            if sub is None:
                raise LookupError(f"/{command}: no subcommand {part!r} under {node['name']!r}")
            chain.append(sub)
            node = sub
        resolved: dict[str, dict[str, Any]] = {}
        opts = self._options(command, node.get("options", []), given, channel, resolved, focused)
        for sub in reversed(chain):
            opts = [{"type": sub["type"], "name": sub["name"], "options": opts}]
        data: dict[str, Any] = {"id": cmd["id"], "name": cmd["name"], "type": 1, "options": opts}
        if resolved:
            data["resolved"] = resolved
        if cmd.get("guild_id"):
            data["guild_id"] = cmd["guild_id"]
        return self._send(user, channel, AUTOCOMPLETE if focused else APPLICATION_COMMAND, data)

    def _options(self, command: str, specs: list[dict[str, Any]], given: dict[str, Any], channel: Channel,
                 resolved: dict[str, dict[str, Any]], focused: str | None) -> list[dict[str, Any]]:
        by_name = {o["name"]: o for o in specs}
        unknown = set(given) - set(by_name)
        if unknown:
            raise LookupError(f"/{command} has no option(s) {sorted(unknown)}; it has {sorted(by_name)}")
        missing = [n for n, o in by_name.items() if o.get("required") and n not in given]
        if missing and focused is None:
            raise ValueError(f"/{command} needs option(s) {missing}")
        out = []
        for name, value in given.items():
            spec = by_name[name]
            entry: dict[str, Any] = {"name": name, "type": spec["type"]}
            if name == focused:
                entry.update(value=str(value), focused=True)
            else:
                entry["value"] = self._value(spec, value, channel, resolved)
            out.append(entry)
        return out

    def _value(self, spec: dict[str, Any], value: Any, channel: Channel, resolved: dict[str, dict[str, Any]]) -> Any:
        kind = spec["type"]
        if kind in (6, 7, 8, 9):
            return self._resolve(value, channel, resolved)
        converted = {3: str, 4: integer_value, 5: bool, 10: float}.get(kind, lambda v: v)(value)
        choices = spec.get("choices")
        if choices and converted not in [c["value"] for c in choices]:
            raise ValueError(f"option {spec['name']!r} only accepts {[c['value'] for c in choices]}")
        if problem := option_value_problem(spec, converted):
            raise ValueError(f"option {spec['name']!r}: {problem} (Discord does not send it)")
        return converted

    def _resolve(self, value: Any, channel: Channel, resolved: dict[str, dict[str, Any]]) -> str:
        """Snowflake string for a user/member/channel/role, adding it to ``resolved`` as Discord does."""
        guild = channel.guild
        if isinstance(value, Member):
            value = value.user
        if isinstance(value, User):
            resolved.setdefault("users", {})[str(value.id)] = value.payload()
            if guild is not None and value.id in guild.members:
                member = guild.members[value.id].payload(with_user=False, channel=channel)
                resolved.setdefault("members", {})[str(value.id)] = member
            return str(value.id)
        if isinstance(value, Channel):
            data = {**value.payload(), "permissions": str(self._member_perms(channel, value))}
            resolved.setdefault("channels", {})[str(value.id)] = data
            return str(value.id)
        if isinstance(value, Role):
            resolved.setdefault("roles", {})[str(value.id)] = value.payload()
            return str(value.id)
        raise TypeError(f"cannot use {value!r} as a user/channel/role option value")

    def _member_perms(self, channel: Channel, target: Channel) -> int:
        guild = channel.guild
        return guild.members[self.d.bot_user.id].permissions(target) if guild else 0

    async def component(self, user: User, message: StoredMessage, custom_id: str | None, *, label: str | None,
                        values: list[str] | None) -> InteractionHandle:
        if message.deleted:
            raise LookupError(f"message {message.id} was deleted")
        if message.visible_to is not None and message.visible_to != user.id:
            raise PermissionError(f"{user.username} cannot see ephemeral message {message.id}")
        comp = message.component(custom_id, label=label)
        if comp.get("disabled"):
            raise AssertionError(f"component {comp.get('custom_id')!r} ({comp.get('label')!r}) is disabled")
        kind = comp["type"]
        if kind == 2 and (values is not None or "custom_id" not in comp):
            raise ValueError(f"{comp!r} is a button without a custom_id or was used as a select")
        data: dict[str, Any] = {"custom_id": comp["custom_id"], "component_type": kind}
        channel = self.d.channels[message.channel_id]
        if kind in SELECT_TYPES:
            if values is None:
                raise ValueError(f"{comp['custom_id']!r} is a select: use select()")
            lo, hi = comp.get("min_values", 1), comp.get("max_values", 1)
            if not lo <= len(values) <= hi:
                raise ValueError(f"select {comp['custom_id']!r} takes {lo}..{hi} values, got {values}")
            if kind == 3:
                allowed = [o["value"] for o in comp.get("options", [])]
                if set(values) - set(allowed):
                    raise ValueError(f"select {comp['custom_id']!r} offers only {allowed}")
                data["values"] = list(values)
            else:
                resolved: dict[str, dict[str, Any]] = {}
                data["values"] = [self._resolve(v, channel, resolved) for v in values]
                data["resolved"] = resolved
        return self._send(user, channel, COMPONENT, data, message=message)

    async def submit_modal(self, user: User, source: InteractionHandle, values: dict[str, Any]) -> InteractionHandle:
        answer = source.answer
        if answer is None or answer.modal is None:
            raise LookupError(f"the bot opened no modal in answer to {source!r}")
        modal = answer.modal
        data = {"custom_id": modal.custom_id, "components": modal.submission(values)}
        handle = self._send(user, source.channel, MODAL_SUBMIT, data, message=source.source_message)
        handle.trigger = source
        return handle

    async def user_message(self, user: User, channel: Channel, content: str) -> StoredMessage:
        from tests.discord_double.rest_messages import dispatch_message

        if channel.guild is not None and user.id not in channel.guild.members:
            raise LookupError(f"{user.username} is not a member of {channel.guild.name}")
        if not user_sees(channel, user.id):
            raise LookupError(f"{user.username} cannot see the private thread {channel.name}")
        msg = StoredMessage(id=self.d.ids.next(), channel_id=channel.id,
                            guild_id=channel.guild.id if channel.guild else None, author=user, content=content)
        channel.messages.append(msg)
        dispatch_message(self.d, msg, "MESSAGE_CREATE")
        return msg

    def _send(self, user: User, channel: Channel, itype: int, data: dict[str, Any],
              message: StoredMessage | None = None) -> InteractionHandle:
        guild, iid = channel.guild, self.d.ids.next()
        if not self.d.gateway.owners(guild.id if guild else None):
            where = f"the shard of {guild.name}" if guild else "shard 0 (DMs)"
            raise RuntimeError(f"no bot session holds {where} on the double's gateway")
        payload: dict[str, Any] = {
            "id": str(iid), "application_id": str(self.d.application_id), "type": itype, "data": data,
            "token": f"itok-{iid}-{secrets.token_urlsafe(16)}", "version": 1, "locale": user.locale,
            "channel_id": str(channel.id), "entitlements": [], "attachment_size_limit": self.d.attachment_size_limit,
            "authorizing_integration_owners": {"0": str(guild.id)} if guild else {"1": str(user.id)},
            "context": 0 if guild else 1,
        }
        if guild is not None:
            if user.id not in guild.members:
                raise LookupError(f"{user.username} is not a member of {guild.name}")
            if not user_sees(channel, user.id):
                raise LookupError(f"{user.username} cannot see the private thread {channel.name}")
            bot_perms = guild.members[self.d.bot_user.id].permissions(channel)
            payload.update(
                guild_id=str(guild.id), guild_locale=guild.locale, app_permissions=str(bot_perms),
                guild={"id": str(guild.id), "locale": guild.locale, "features": []},
                member=guild.members[user.id].payload(channel=channel),
                channel={**channel.payload(), "permissions": str(guild.members[user.id].permissions(channel))},
            )
        else:
            payload.update(user=user.payload(), channel=channel.payload(), app_permissions=str(DEFAULT_EVERYONE))
        if message is not None:
            payload["message"] = message.payload()
        handle = InteractionHandle(self.d, payload, user, channel, message)
        self.d.interactions[handle.token] = handle
        reached = self.d.gateway.dispatch("INTERACTION_CREATE", payload, guild_id=guild.id if guild else None)
        handle.shard_id = reached[0].shard_id
        return handle


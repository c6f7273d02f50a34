"""Interaction callbacks (types 1, 4-9) and the webhook routes the bot uses for follow-ups and @original.

Discord's rules that matter to a bot are enforced: one callback per interaction (40060), update/deferred-update
only for component interactions (and modal submits coming from one), autocomplete answers only to autocomplete,
no modal in answer to a modal; the first follow-up after a deferred "thinking" response fills in that message.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from aiohttp import web

from tests.discord_double.faults import BODY, FILES, ApiError, json_response
from tests.discord_double.gateway import INTENT_DM_MESSAGES, INTENT_GUILD_MESSAGES
from tests.discord_double.interactions import AUTOCOMPLETE, COMPONENT, MODAL_SUBMIT, InteractionHandle, Modal, Response
from tests.discord_double.limits import invalid_form_body, modal_problems
from tests.discord_double.mentions import pinged
from tests.discord_double.messages import EPHEMERAL, StoredMessage
from tests.discord_double.rest_messages import create_message, edit_message

if TYPE_CHECKING:
    from tests.discord_double.server import DiscordDouble

PONG, MESSAGE, DEFERRED_MESSAGE, DEFERRED_UPDATE, UPDATE, CHOICES, MODAL = 1, 4, 5, 6, 7, 8, 9


def register(router: web.UrlDispatcher, prefix: str, double: DiscordDouble) -> None:
    r = _InteractionRoutes(double)
    hook = "/webhooks/{app}/{token}"
    for method, path, handler in [
        ("POST", "/interactions/{interaction_id}/{token}/callback", r.callback),
        ("POST", hook, r.followup),
        ("GET", hook + "/messages/{message_id}", r.get_message),
        ("PATCH", hook + "/messages/{message_id}", r.edit_message),
        ("DELETE", hook + "/messages/{message_id}", r.delete_message),
    ]:
        router.add_route(method, prefix + path, handler)


def _invalid(reason: str) -> ApiError:
    return ApiError(400, 50035, "Invalid Form Body",
                    {"type": {"_errors": [{"code": "INTERACTION_RESPONSE_TYPE_INVALID", "message": reason}]}})


class _InteractionRoutes:
    def __init__(self, double: DiscordDouble) -> None:
        self.d = double

    def _create(self, handle: InteractionHandle, body: dict[str, Any] | None, files: list[dict[str, Any]],
                *, loading: bool = False) -> StoredMessage:
        return create_message(self.d, handle.channel, self.d.bot_user, body, files, visible_to=handle.user.id,
                              webhook_id=self.d.application_id, interaction=handle.meta(), loading=loading)

    async def callback(self, request: web.Request) -> web.Response:
        handle = self.d.interactions.get(request.match_info["token"])
        if handle is None or str(handle.id) != request.match_info["interaction_id"]:
            raise ApiError(404, 10062, "Unknown interaction")
        if self.d.clock() - handle.dispatched_at > self.d.initial_response_deadline:
            raise ApiError(404, 10062, "Unknown interaction")  # the 3-second initial response deadline passed
        if handle.answer is not None:
            raise ApiError(400, 40060, "Interaction has already been acknowledged.")
        body = request[BODY] or {}
        kind, data = body.get("type"), body.get("data") or {}
        from_component = handle.type == COMPONENT or (handle.type == MODAL_SUBMIT and handle.source_message)
        if (handle.type == AUTOCOMPLETE) != (kind == CHOICES):
            raise _invalid("autocomplete interactions take exactly the choices response (8)")
        if kind in (DEFERRED_UPDATE, UPDATE) and not from_component:
            raise _invalid("only component interactions can update their message")
        if kind == MODAL and handle.type == MODAL_SUBMIT:
            raise _invalid("a modal submit cannot be answered with another modal")
        if kind == MODAL and (problems := modal_problems(data)):
            raise invalid_form_body(problems, ("data",))
        msg: StoredMessage | None = None
        response = Response(type=kind, data=data)
        if kind == MESSAGE:
            msg = self._create(handle, data, request[FILES])
        elif kind == DEFERRED_MESSAGE:
            msg = self._create(handle, {"flags": int(data.get("flags") or 0) & EPHEMERAL}, [], loading=True)
        elif kind in (DEFERRED_UPDATE, UPDATE):
            msg = handle.source_message
            assert msg is not None
            if kind == UPDATE:
                edit_message(self.d, msg, data, request[FILES])
        elif kind == CHOICES:
            response.choices = list(data.get("choices") or [])
        elif kind == MODAL:
            response.modal = Modal.from_data(data)
        elif kind != PONG:
            raise _invalid(f"unsupported interaction response type {kind}")
        if msg is not None:
            handle.original_id = msg.id
            response.message = msg
            snap = msg.snapshot()
            response.content, response.embeds, response.components = snap["content"], snap["embeds"], snap[
                "components"]
            response.flags = msg.flags
        handle._answer(response)
        result: dict[str, Any] = {"interaction": {
            "id": str(handle.id), "type": handle.type, "response_message_loading": kind == DEFERRED_MESSAGE,
            "response_message_ephemeral": bool(msg and msg.ephemeral)}}
        if msg is not None:
            result["interaction"]["response_message_id"] = str(msg.id)
        if msg is not None and kind in (MESSAGE, UPDATE):  # Discord returns a resource only for these
            result["resource"] = {"type": kind, "message": msg.payload()}
        return json_response(result)

    def _handle(self, request: web.Request) -> InteractionHandle:
        handle = self.d.interactions.get(request.match_info["token"])
        if handle is None or int(request.match_info["app"]) != self.d.application_id or handle.answer is None:
            raise ApiError(404, 10015, "Unknown Webhook")
        if self.d.clock() - handle.dispatched_at > self.d.followup_lifetime:
            raise ApiError(401, 50027, "Invalid Webhook Token")  # interaction tokens live 15 minutes
        return handle

    def _target(self, request: web.Request, handle: InteractionHandle) -> StoredMessage:
        raw = request.match_info["message_id"]
        mid = handle.original_id if raw == "@original" else int(raw)
        candidates = ([handle.original] if handle.original else []) + handle.followups
        msg = next((m for m in candidates if m.id == mid and not m.deleted), None)
        if msg is None:
            raise ApiError(404, 10008, "Unknown Message")
        return msg

    async def followup(self, request: web.Request) -> web.Response:
        handle = self._handle(request)
        original = handle.original
        if original is not None and original.loading and not original.deleted and not handle.followups:
            body = {k: v for k, v in (request[BODY] or {}).items() if k != "flags"}
            msg = edit_message(self.d, original, body, request[FILES])
            # filling in the "thinking" message is its creation for the people it mentions
            pings = pinged(handle.channel, self.d.bot_user, msg.content, body.get("allowed_mentions"))
            msg.pings = pings & {handle.user.id} if msg.ephemeral else pings
        else:
            msg = self._create(handle, request[BODY], request[FILES])
        handle.followups.append(msg)
        if request.query.get("wait", "false").lower() in ("true", "1"):
            return json_response(msg.payload())
        return web.Response(status=204)

    async def get_message(self, request: web.Request) -> web.Response:
        return json_response(self._target(request, self._handle(request)).payload())

    async def edit_message(self, request: web.Request) -> web.Response:
        handle = self._handle(request)
        msg = self._target(request, handle)
        loading = msg.loading
        edited = edit_message(self.d, msg, request[BODY], request[FILES])
        if loading:  # filling in the "thinking" message is its creation for the people it mentions (as a follow-up)
            allowed = (request[BODY] or {}).get("allowed_mentions")
            pings = pinged(handle.channel, self.d.bot_user, edited.content, allowed)
            edited.pings = pings & {handle.user.id} if edited.ephemeral else pings
        return json_response(edited.payload())

    async def delete_message(self, request: web.Request) -> web.Response:
        msg = self._target(request, self._handle(request))
        msg.deleted = True
        if not msg.ephemeral:
            data = {"id": str(msg.id), "channel_id": str(msg.channel_id)}
            if msg.guild_id:
                data["guild_id"] = str(msg.guild_id)
            intent = INTENT_GUILD_MESSAGES if msg.guild_id else INTENT_DM_MESSAGES
            self.d.gateway.dispatch("MESSAGE_DELETE", data, guild_id=msg.guild_id, intent=intent)
        return web.Response(status=204)

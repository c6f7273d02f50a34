"""The strict double refuses at request time what Discord refuses, each with Discord's status and error code."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from tests.discord_double import DiscordDouble
from tests.discord_double.permissions import MANAGE_ROLES, README_MINIMAL, SEND_MESSAGES, VIEW_CHANNEL
from tests.discord_double.schema import needs_spec
from tests.discord_double.server import TOKEN, env_latency
from tests.discord_double_tests.strict_support import Strict, callback, code_of, error_codes, strict, webhook

__all__ = ["strict"]


def button(custom_id: str) -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": custom_id, "custom_id": custom_id}


SELECT = {"type": 3, "custom_id": "pick", "options": [{"label": "a", "value": "a"}]}


@pytest.mark.parametrize(("body", "error"), [
    ({"embeds": [{"description": "d" * 3001}, {"description": "d" * 3000}]}, "MAX_EMBED_SIZE_EXCEEDED"),
    ({"components": [{"type": 1, "components": [button(f"b{i}")]} for i in range(6)]}, "BASE_TYPE_MAX_LENGTH"),
    ({"components": [{"type": 1, "components": [SELECT, button("b")]}]}, "COMPONENT_LAYOUT_WIDTH_EXCEEDED"),
    ({"components": [{"type": 1, "components": [button(f"b{i}") for i in range(6)]}]},
     "COMPONENT_LAYOUT_WIDTH_EXCEEDED"),
    ({"components": [{"type": 1, "components": [button("same")]}, {"type": 1, "components": [button("same")]}]},
     "COMPONENT_CUSTOM_ID_DUPLICATED"),
])
async def test_over_limit_messages_are_refused_with_50035(strict: Strict, body: dict[str, Any], error: str) -> None:
    """6,001 embed characters over two embeds, 6 rows, a select beside a button, 6 buttons in a row, a repeated
    custom_id: 400 / 50035 with Discord's error code, and nothing is posted."""
    strict.double.check_request_schema = False  # the spec catches some of these too, with less precise codes
    status, _, answer = await strict.post(f"/channels/{strict.channel.id}/messages", {"content": "x", **body})
    assert (status, code_of(answer)) == (400, 50035) and error in error_codes(answer)
    assert strict.double.messages(strict.channel) == []


@needs_spec
async def test_a_schema_violation_is_refused_at_request_time(strict: Strict) -> None:
    """A body the OpenAPI spec rejects (``tts`` not a boolean) is answered 400 / 50035 at once, not at teardown."""
    status, _, answer = await strict.post(f"/channels/{strict.channel.id}/messages", {"content": "x", "tts": "yes"})
    assert (status, code_of(answer)) == (400, 50035) and "tts" in answer["errors"]
    assert strict.double.messages(strict.channel) == []


async def test_an_edit_that_empties_a_message_is_refused_with_50006(strict: Strict) -> None:
    """Removing the only content of a message answers 400 / 50006 and leaves it as it was."""
    _, _, sent = await strict.post(f"/channels/{strict.channel.id}/messages", {"content": "keep me"})
    status, answer = await strict.patch(f"/channels/{strict.channel.id}/messages/{sent['id']}", {"content": ""})
    assert (status, code_of(answer)) == (400, 50006)
    assert strict.double.last_message(strict.channel).content == "keep me"


async def test_a_modal_with_six_inputs_is_refused(strict: Strict) -> None:
    """A modal holds at most 5 text inputs: a sixth answers 400 / 50035."""
    handle = await strict.interaction()
    rows = [{"type": 1, "components": [{"type": 4, "custom_id": f"t{i}", "label": "L", "style": 1}]}
            for i in range(6)]
    status, _, answer = await strict.post(callback(handle), {"type": 9, "data": {
        "custom_id": "m", "title": "Title", "components": rows}})
    assert (status, code_of(answer)) == (400, 50035) and handle.answer is None
    strict.double.strict = False


@pytest.mark.parametrize(("after", "status", "code"), [(2.9, 200, None), (3.01, 404, 10062)])
async def test_the_initial_response_is_due_three_seconds_after_dispatch(strict: Strict, after: float, status: int,
                                                                        code: int | None) -> None:
    """On the double's clock, a callback 2.9 s after dispatch is accepted; 3.01 s after it is Unknown interaction."""
    handle = await strict.interaction()
    strict.clock.advance(after)
    got, _, answer = await strict.post(callback(handle), {"type": 4, "data": {"content": "pong"}})
    assert (got, code_of(answer)) == (status, code)


async def test_follow_ups_expire_after_fifteen_minutes(strict: Strict) -> None:
    """The interaction token works for follow-ups for 15 minutes; after that it is 401 / 50027."""
    handle = await strict.interaction()
    await strict.post(callback(handle), {"type": 5})
    strict.clock.advance(14 * 60)
    status, _, _ = await strict.post(webhook(handle) + "?wait=true", {"content": "in time"})
    assert status == 200
    strict.clock.advance(61)
    status, _, answer = await strict.post(webhook(handle) + "?wait=true", {"content": "too late"})
    assert (status, code_of(answer)) == (401, 50027)


async def test_the_bot_has_exactly_the_readme_permissions_by_default(strict: Strict) -> None:
    """The bot's own role holds 117760 (View Channels, Send Messages, Embed Links, Attach Files, Read History) and
    nothing else, Administrator least of all."""
    guild = strict.channel.guild
    assert guild is not None
    (role,) = [r for r in guild.roles.values() if r.id in guild.member(strict.double.bot_user).role_ids]
    assert role.managed and role.permissions == README_MINIMAL == 117760


@pytest.mark.parametrize(("deny", "code"), [(SEND_MESSAGES, 50013), (VIEW_CHANNEL, 50001)])
async def test_a_channel_the_bot_may_not_post_in_refuses_with_403(strict: Strict, deny: int, code: int) -> None:
    """Send Messages denied: 403 / 50013 Missing Permissions; View Channel denied: 403 / 50001 Missing Access."""
    guild = strict.channel.guild
    assert guild is not None
    strict.channel.overwrites = [{"id": str(guild.id), "type": 0, "allow": "0", "deny": str(deny)}]
    status, _, answer = await strict.post(f"/channels/{strict.channel.id}/messages", {"content": "x"})
    assert (status, code_of(answer)) == (403, code)


async def test_roles_need_manage_roles_and_a_higher_bot_role(strict: Strict) -> None:
    """Without Manage Roles a role change is 403 / 50013; with it, a role above the bot's is still refused."""
    guild = strict.channel.guild
    assert guild is not None
    low, high = guild.add_role("low"), guild.add_role("high")
    high.position = 1000
    url = f"/api/v10/guilds/{guild.id}/members/{strict.alice.id}/roles/"
    async with strict.http.put(url + str(low.id)) as resp:
        assert (resp.status, code_of(await resp.json())) == (403, 50013)
    strict.double.set_bot_permissions(guild, README_MINIMAL | MANAGE_ROLES)
    async with strict.http.put(url + str(low.id)) as resp:
        assert resp.status == 204
    async with strict.http.put(url + str(high.id)) as resp:
        assert (resp.status, code_of(await resp.json())) == (403, 50013)
    assert guild.member(strict.alice).role_ids.count(low.id) == 1 and high.id not in guild.member(strict.alice).role_ids


@pytest.mark.parametrize("authorization", [None, "Bot wrong-token", TOKEN])
async def test_a_request_without_the_bot_token_is_401(strict: Strict, authorization: str | None) -> None:
    """No token, a wrong token or a token without the ``Bot`` prefix: 401 Unauthorized."""
    headers = {"Authorization": authorization or ""}
    status, _, answer = await strict.post(f"/channels/{strict.channel.id}/messages", {"content": "x"},
                                          headers=headers)
    assert (status, answer) == (401, {"message": "401: Unauthorized", "code": 0})


async def test_a_route_bucket_answers_429_with_discords_headers(strict: Strict) -> None:
    """Five messages per 5 s per channel (Discord's limit): the 6th is a 429 naming its bucket; headers count down."""
    strict.double.rate_limits.route("POST", r"/channels/\d+/messages$", limit=5, per=5.0)
    remaining = []
    for _ in range(5):
        status, headers, _ = await strict.post(f"/channels/{strict.channel.id}/messages", {"content": "x"})
        assert status == 200 and headers["X-RateLimit-Limit"] == "5"
        remaining.append(int(headers["X-RateLimit-Remaining"]))
        bucket = headers["X-RateLimit-Bucket"]
    status, headers, answer = await strict.post(f"/channels/{strict.channel.id}/messages", {"content": "x"})
    assert remaining == [4, 3, 2, 1, 0]
    assert status == 429 and answer["global"] is False and 0 < answer["retry_after"] <= 5
    assert headers["X-RateLimit-Bucket"] == bucket and headers["X-RateLimit-Scope"] == "user"
    assert float(headers["Retry-After"]) > 0 and "X-RateLimit-Global" not in headers
    other = strict.channel.guild.add_text_channel("other")  # type: ignore[union-attr]
    status, _, _ = await strict.post(f"/channels/{other.id}/messages", {"content": "x"})
    assert status == 200  # a bucket per channel


async def test_the_global_limit_answers_429_global_but_spares_interaction_callbacks(strict: Strict) -> None:
    """Past the global limit every route is refused with a global 429, but interaction callbacks still go through."""
    handle = await strict.interaction()
    strict.double.rate_limits.global_limit = 2
    statuses = [(await strict.post(f"/channels/{strict.channel.id}/messages", {"content": "x"}))[0] for _ in range(3)]
    status, headers, answer = await strict.post(f"/channels/{strict.channel.id}/messages", {"content": "x"})
    assert statuses == [200, 200, 429] and status == 429
    assert answer["global"] is True and headers["X-RateLimit-Global"] == "true"
    assert headers["X-RateLimit-Scope"] == "global"
    status, _, _ = await strict.post(callback(handle), {"type": 4, "data": {"content": "pong"}})
    assert status == 200


@pytest.mark.parametrize(("command", "error"), [
    ({"name": "Ping", "description": "d"}, "APPLICATION_COMMAND_INVALID_NAME"),
    ({"name": "new game", "description": "d"}, "APPLICATION_COMMAND_INVALID_NAME"),
    ({"name": "x" * 33, "description": "d"}, "APPLICATION_COMMAND_INVALID_NAME"),
    ({"name": "ping", "description": "d", "name_localizations": {"es-ES": "Partida"}},
     "APPLICATION_COMMAND_INVALID_NAME"),
    ({"name": "ping", "description": "d", "name_localizations": {"es": "partida"}}, "ENUM_TYPE_COERCE"),
    ({"name": "ping", "description": ""}, "BASE_TYPE_BAD_LENGTH"),
    ({"name": "ping", "description": "d", "description_localizations": {"es-ES": "x" * 101}},
     "BASE_TYPE_BAD_LENGTH"),
    ({"name": "ping", "description": "d", "options": [
        {"type": 3, "name": "a", "description": "d"}, {"type": 3, "name": "b", "description": "d",
                                                        "required": True}]},
     "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID"),
    ({"name": "ping", "description": "d", "options": [{"type": 3, "name": "Opt", "description": "d"}]},
     "APPLICATION_COMMAND_INVALID_NAME"),
])
async def test_command_names_and_translations_are_checked_like_discord(strict: Strict, command: dict[str, Any],
                                                                       error: str) -> None:
    """Upper case, spaces, 33 characters, a bad translation or locale, an empty description, a required option
    after an optional one: 400 / 50035, and nothing is registered."""
    strict.double.check_request_schema = False  # the spec catches some of these too, with less precise codes
    async with strict.http.put(f"/api/v10/applications/{strict.double.application_id}/commands",
                               json=[command]) as resp:
        answer = await resp.json()
        assert (resp.status, code_of(answer)) == (400, 50035) and error in error_codes(answer)
    assert strict.double.global_commands == []


async def test_valid_spanish_command_names_are_accepted(strict: Strict) -> None:
    """Lower-case accented names are letters: ``configuración`` is a valid translation."""
    command = {"name": "config", "description": "Settings", "name_localizations": {"es-ES": "configuración"},
               "description_localizations": {"es-ES": "Ajustes"}}
    async with strict.http.put(f"/api/v10/applications/{strict.double.application_id}/commands",
                               json=[command]) as resp:
        assert resp.status == 200


def test_under_ci_a_missing_schema_fails_instead_of_skipping(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With ``CI=true`` the double refuses to start without the OpenAPI file; without CI it skips, saying why."""
    monkeypatch.setenv("CI", "true")
    with pytest.raises(RuntimeError, match="under CI"):
        DiscordDouble(spec_path=tmp_path / "openapi.json")
    monkeypatch.delenv("CI")
    assert "not found" in (DiscordDouble(spec_path=tmp_path / "openapi.json").schema_check_skipped_reason or "")


def test_latency_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """``COR_DOUBLE_LATENCY_MS=100`` gives every REST request 0.1 s of latency; unset means none."""
    monkeypatch.setenv("COR_DOUBLE_LATENCY_MS", "100")
    assert env_latency() == 0.1 and DiscordDouble().latency == 0.1
    monkeypatch.delenv("COR_DOUBLE_LATENCY_MS")
    assert env_latency() == 0.0 and os.environ.get("COR_DOUBLE_LATENCY_MS") is None


@needs_spec
async def test_the_doubles_replies_and_payloads_are_checked(strict: Strict, monkeypatch: pytest.MonkeyPatch) -> None:
    """A reply or a gateway payload of the double's that the spec rejects is recorded and fails the test."""
    async with strict.http.get("/api/v10/users/@me") as resp:
        assert resp.status == 200
    assert strict.double.reply_violations == []
    strict.double.gateway.dispatch("MESSAGE_CREATE", {"id": "1"})
    async with strict.http.get(f"/api/v10/channels/{strict.channel.id}") as resp:
        assert resp.status == 200
    monkeypatch.setattr(type(strict.alice), "payload", lambda self: {"id": str(self.id)})
    async with strict.http.get(f"/api/v10/users/{strict.alice.id}") as resp:
        assert resp.status == 200
    assert [v.what for v in strict.double.reply_violations] == ["payload", "reply"]
    with pytest.raises(AssertionError, match="schema violation"):
        strict.double.assert_clean()


async def multipart(strict: Strict, path: str, body: dict[str, Any], files: dict[str, bytes]) -> tuple[int, Any]:
    """POST ``body`` as ``payload_json`` with ``files`` (name -> data) the way discord.py uploads them."""
    form = aiohttp.FormData()
    form.add_field("payload_json", json.dumps(body), content_type="application/json")
    for i, (name, data) in enumerate(files.items()):
        form.add_field(f"files[{i}]", data, filename=name, content_type="application/octet-stream")
    async with strict.http.post(f"/api/v10{path}", data=form) as resp:
        return resp.status, await resp.json(content_type=None)


async def test_a_file_over_the_upload_limit_is_refused_with_40005(strict: Strict) -> None:
    """A file of the limit exactly is stored with its bytes; one byte more answers 413 / 40005 and posts nothing."""
    strict.double.attachment_size_limit = 1000  # the check is the same at 10 MiB, without moving 10 MiB around
    path = f"/channels/{strict.channel.id}/messages"
    status, sent = await multipart(strict, path, {"content": "x", "attachments": [{"id": 0, "filename": "a.txt"}]},
                                   {"a.txt": b"a" * 1000})
    assert status == 200 and [a["filename"] for a in sent["attachments"]] == ["a.txt"]
    assert strict.double.last_message(strict.channel).attachments[0].data == b"a" * 1000
    status, answer = await multipart(strict, path, {"content": "y"}, {"b.txt": b"b" * 1001})
    assert (status, code_of(answer)) == (413, 40005)
    assert [m.content for m in strict.double.messages(strict.channel)] == ["x"]


async def test_the_upload_limit_defaults_to_10_mib_and_is_told_to_the_bot(strict: Strict) -> None:
    """Like a server without boosts: 10 MiB, the ``attachment_size_limit`` of every interaction."""
    assert strict.double.attachment_size_limit == 10 * 1024 * 1024
    handle = await strict.interaction()
    assert handle.payload["attachment_size_limit"] == 10 * 1024 * 1024
    status, _, _ = await strict.post(callback(handle), {"type": 4, "data": {"content": "ok"}})
    assert status == 200


async def test_over_long_texts_are_refused_wherever_they_are_sent(strict: Strict) -> None:
    """2,001 characters are refused (400 / 50035, ``BASE_TYPE_MAX_LENGTH``) in a channel message's edit, in a DM,
    in an interaction's answer and in its follow-up, as Discord refuses them; nothing changes."""
    strict.double.check_request_schema = False  # the spec catches these too, with less precise codes
    long = {"content": "x" * 2001}
    status, _, posted = await strict.post(f"/channels/{strict.channel.id}/messages", {"content": "short"})
    assert status == 200
    edited = await strict.patch(f"/channels/{strict.channel.id}/messages/{posted['id']}", long)
    status, _, dm = await strict.post("/users/@me/channels", {"recipient_id": str(strict.alice.id)})
    assert status == 200
    sent = await strict.post(f"/channels/{dm['id']}/messages", long)
    handle = await strict.interaction()
    answered = await strict.post(callback(handle), {"type": 4, "data": long})
    await strict.post(callback(handle), {"type": 5})
    followed = await strict.post(webhook(handle) + "?wait=true", long)
    for status, answer in (edited, sent[::2], answered[::2], followed[::2]):
        assert (status, code_of(answer)) == (400, 50035) and "BASE_TYPE_MAX_LENGTH" in error_codes(answer)
    shown = [(m.content, m.loading) for m in strict.double.messages(strict.channel)]
    assert shown == [("short", False), ("", True)]  # the deferred answer still "thinking", not filled in

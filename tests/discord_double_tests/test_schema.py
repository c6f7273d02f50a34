"""Request-body validation against Discord's OpenAPI description."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import aiohttp
import pytest

from tests.discord_double import DiscordDouble
from tests.discord_double.schema import load_validator, needs_spec
from tests.discord_double.server import TOKEN


@needs_spec
@pytest.mark.parametrize(
    ("method", "path", "body", "bad_field"),
    [
        ("POST", "/channels/1/messages", {"content": 5}, "content"),
        ("POST", "/channels/1/messages", {"embeds": [{"title": ["x"]}]}, "embeds/0/title"),
        ("POST", "/interactions/1/tok/callback", {"type": 4, "data": {"flags": "x"}}, "<body>"),
        ("PATCH", "/webhooks/1/tok/messages/@original", {"content": {"a": 1}}, "content"),
        ("PUT", "/channels/1/permissions/2", {"type": 1, "allow": "lots"}, "allow"),
    ],
)
def test_validator_rejects_bad_bodies(method: str, path: str, body: Any, bad_field: str) -> None:
    """Malformed bodies are reported with the spec template and the failing field."""
    validator = load_validator()
    assert validator is not None
    violation = validator.validate(method, path, body)
    assert violation is not None and violation.method == method
    assert violation.errors[0].startswith(bad_field)


@needs_spec
@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("POST", "/channels/1/messages", {"content": "hi", "embeds": [{"title": "t"}], "components": []}),
        ("POST", "/users/@me/channels", {"recipient_id": 1576580174458126342}),
        ("POST", "/interactions/1/tok/callback", {"type": 5, "data": {"flags": 64}}),
        ("PUT", "/channels/1/permissions/2", {"type": 1, "allow": "1024", "deny": 2048}),
        ("POST", "/guilds/1/roles", {"name": "alive", "permissions": "0"}),
        ("GET", "/unknown/route", {"anything": True}),
    ],
)
def test_validator_accepts_good_bodies(method: str, path: str, body: Any) -> None:
    """Well-formed bodies (integer snowflakes, string permissions) and routes the spec lacks are not reported."""
    validator = load_validator()
    assert validator is not None
    assert validator.validate(method, path, body) is None


@needs_spec
def test_literal_segment_wins_over_template() -> None:
    """/messages/@original matches its own spec entry, not /messages/{message_id}."""
    validator = load_validator()
    assert validator is not None
    match = validator.match("PATCH", "/webhooks/1/tok/messages/@original")
    assert match is not None and match[0].endswith("/messages/@original")


@needs_spec
async def test_bad_body_over_http_is_recorded(double: DiscordDouble) -> None:
    """A bad JSON body is refused with 400 / 50035 and lands in schema_violations (the fixture would fail the
    test)."""
    channel = double.add_guild("g").add_text_channel("c")
    async with aiohttp.ClientSession(headers={"Authorization": f"Bot {TOKEN}"}) as http:
        url = f"{double.api_base}/api/v10/channels/{channel.id}/messages"
        async with http.post(url, json={"content": "ok", "tts": "yes"}) as resp:
            assert resp.status == 400 and (await resp.json())["code"] == 50035  # refused at request time
    assert [v.template for v in double.schema_violations] == ["/channels/{channel_id}/messages"]
    with pytest.raises(AssertionError, match="schema violation"):
        double.assert_clean()
    double.strict = False


async def test_missing_spec_skips_the_check_and_says_why(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Outside CI, without the spec file nothing is validated and schema_check_skipped_reason names the path (under
    CI a missing spec fails instead: see test_strict_refusals)."""
    monkeypatch.delenv("CI", raising=False)
    missing = tmp_path / "openapi.json"
    double = DiscordDouble(spec_path=missing)
    assert double.schema_check_skipped_reason is not None and str(missing) in double.schema_check_skipped_reason
    async with double:
        channel = double.add_guild("g").add_text_channel("c")
        async with aiohttp.ClientSession(headers={"Authorization": f"Bot {TOKEN}"}) as http:
            url = f"{double.api_base}/api/v10/channels/{channel.id}/messages"
            async with http.post(url, json={"content": "ok", "tts": "yes"}) as resp:
                assert resp.status == 200
        assert double.schema_violations == []

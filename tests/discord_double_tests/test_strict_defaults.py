"""The double is as strict as Discord by default (issue 22): Discord's exact 3 s for an interaction's first answer
(a margin only when a test asks for one by name), Discord's per-channel buckets, nonces forgotten after a few
minutes, and who a message pings computed from its content and ``allowed_mentions``."""

from __future__ import annotations

import pytest

from tests.discord_double import DiscordDouble
from tests.discord_double.ratelimits import DISCORD_ROUTES
from tests.discord_double.server import NONCE_MEMORY
from tests.discord_double_tests.strict_support import Strict, callback, strict  # noqa: F401


def test_the_first_answer_is_due_within_discords_exact_three_seconds_on_the_real_clock() -> None:
    """No margin unless asked for by name."""
    double = DiscordDouble()
    assert double.initial_response_deadline == 3.0
    double.allow_margin(2.5)
    assert double.initial_response_deadline == 5.5


@pytest.mark.parametrize(("margin", "status"), [(None, 404), (1.0, 200)])
async def test_an_answer_after_three_seconds_is_refused_unless_a_margin_was_asked_for(
        strict: Strict, margin: float | None, status: int) -> None:  # noqa: F811
    handle = await strict.interaction()
    if margin is not None:
        strict.double.allow_margin(margin)
    strict.clock.advance(3.5)
    got, _, answer = await strict.post(callback(handle), {"type": 4, "data": {"content": "late"}})
    assert got == status
    if status == 404:
        assert answer["code"] == 10062


async def test_a_channel_takes_discords_five_messages_per_bucket_by_default(strict: Strict) -> None:  # noqa: F811
    """Without a test's own numbers: Discord's 5 messages per channel, counted down in the headers, the 5th saying
    the bucket is used up (discord.py waits for its reset), a 6th at once is a 429 with retry_after; the window
    runs sped up (100 times by default; 2 here, so that a loaded machine cannot reach the reset mid-test)."""
    assert ("POST", r"^/channels/\d+/messages$", 5, 5.0) in DISCORD_ROUTES
    assert strict.double.rate_limits.speed == 100
    strict.double.rate_limits.speed = 2
    path = f"/channels/{strict.channel.id}/messages"
    remaining = []
    for _ in range(5):
        status, headers, _ = await strict.post(path, {"content": "x"})
        assert status == 200 and headers["X-RateLimit-Limit"] == "5"
        remaining.append(int(headers["X-RateLimit-Remaining"]))
    assert remaining == [4, 3, 2, 1, 0]
    assert 0 < float(headers["X-RateLimit-Reset-After"]) <= 2.5
    assert strict.double.rate_limits.exhausted == [("POST", path)]
    status, headers, answer = await strict.post(path, {"content": "x"})
    assert status == 429 and answer["global"] is False and 0 < answer["retry_after"] <= 2.5
    assert headers["X-RateLimit-Scope"] == "user" and "Retry-After" in headers


async def test_the_edits_of_a_channels_messages_share_one_bucket(strict: Strict) -> None:  # noqa: F811
    strict.double.rate_limits.speed = 1  # Discord's own seconds: nothing resets during the test
    path = f"/channels/{strict.channel.id}/messages"
    ids = []
    for _ in range(2):
        _, _, message = await strict.post(path, {"content": "x"})
        ids.append(message["id"])
    statuses = [(await strict.patch(f"{path}/{ids[n % 2]}", {"content": f"e{n}"}))[0] for n in range(6)]
    assert statuses == [200] * 5 + [429]


async def test_a_nonce_is_remembered_for_a_few_minutes_only(strict: Strict) -> None:  # noqa: F811
    """``enforce_nonce``: the same nonce within the memory returns the first message; after it, a second message."""
    path = f"/channels/{strict.channel.id}/messages"
    body = {"content": "hand", "nonce": "d1-7", "enforce_nonce": True}
    _, _, first = await strict.post(path, body)
    strict.clock.advance(NONCE_MEMORY - 1)
    _, _, again = await strict.post(path, body)
    assert again["id"] == first["id"] and len(strict.channel.messages) == 1
    strict.clock.advance(2)
    _, _, late = await strict.post(path, body)
    assert late["id"] != first["id"] and [m.content for m in strict.channel.messages] == ["hand", "hand"]


@pytest.mark.parametrize(("allowed", "pinged"), [
    (None, {"alice", "bob"}),
    ({"parse": []}, set()),
    ({"parse": ["users"]}, {"alice", "bob"}),
    ({"parse": [], "users": ["BOB"]}, {"bob"}),
    ({"parse": ["everyone"]}, set()),
])
async def test_a_message_pings_what_its_allowed_mentions_let_through(
        strict: Strict, allowed: dict | None, pinged: set[str]) -> None:  # noqa: F811
    bob = strict.double.add_user("bob")
    strict.channel.guild.add_member(bob)  # type: ignore[union-attr]
    if allowed is not None and "users" in allowed:
        allowed = {**allowed, "users": [str(bob.id)]}
    body = {"content": f"{strict.alice.mention} and {bob.mention}",
            "embeds": [{"description": strict.alice.mention}]}
    if allowed is not None:
        body["allowed_mentions"] = allowed
    await strict.post(f"/channels/{strict.channel.id}/messages", body)
    names = {strict.double.users[i].username for i in strict.channel.messages[-1].pings}
    assert names == pinged


async def test_everyone_roles_and_replies_ping_only_when_allowed_and_an_edit_pings_nobody(
        strict: Strict) -> None:  # noqa: F811
    guild = strict.channel.guild
    assert guild is not None
    role = guild.add_role("players", 0, mentionable=True)
    closed = guild.add_role("closed", 0)  # not mentionable, and the bot has no Mention Everyone
    bob = strict.double.add_user("bob")
    guild.add_member(bob)
    guild.members[bob.id].role_ids.append(role.id)
    guild.members[strict.alice.id].role_ids.append(closed.id)
    path = f"/channels/{strict.channel.id}/messages"
    await strict.post(path, {"content": "@everyone", "allowed_mentions": {"parse": ["everyone"]}})
    assert {strict.alice.id, bob.id} <= strict.channel.messages[-1].pings
    assert strict.double.bot_user.id not in strict.channel.messages[-1].pings
    await strict.post(path, {"content": f"<@&{role.id}> <@&{closed.id}>", "allowed_mentions": {"parse": ["roles"]}})
    assert strict.channel.messages[-1].pings == {bob.id}  # alice's role is not mentionable
    await strict.alice.say(strict.channel, "hi")
    said = strict.channel.messages[-1]
    reference = {"message_id": str(said.id)}
    await strict.post(path, {"content": "re", "message_reference": reference, "allowed_mentions": {"parse": []}})
    assert strict.channel.messages[-1].pings == frozenset()
    await strict.post(path, {"content": "re", "message_reference": reference,
                             "allowed_mentions": {"parse": [], "replied_user": True}})
    assert strict.channel.messages[-1].pings == {strict.alice.id}
    _, _, quiet = await strict.post(path, {"content": "quiet"})
    await strict.patch(f"{path}/{quiet['id']}", {"content": f"now {bob.mention}"})
    assert strict.double.message(int(quiet["id"])).pings == frozenset()  # type: ignore[union-attr]

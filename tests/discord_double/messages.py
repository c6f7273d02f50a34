"""Messages as the double stores them, with helpers to read their text and find their components."""

from __future__ import annotations

import copy
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from tests.discord_double._ids import iso_now
from tests.discord_double.model import User

EPHEMERAL = 1 << 6
LOADING = 1 << 7


@dataclass(eq=False)
class StoredAttachment:
    id: int
    filename: str
    data: bytes
    content_type: str | None
    url: str
    description: str | None = None

    def payload(self) -> dict[str, Any]:
        data = {"id": str(self.id), "filename": self.filename, "size": len(self.data), "url": self.url,
                "proxy_url": self.url, "content_type": self.content_type, "description": self.description}
        return {k: v for k, v in data.items() if v is not None or k not in ("description", "content_type")}


@dataclass(eq=False)
class StoredMessage:
    """One message. Edits apply in place; ``history`` keeps the earlier versions (oldest first).

    ``visible_to`` is the user id an ephemeral message was shown to; ``interaction_id`` is set on interaction
    responses and follow-ups; ``deleted`` is set instead of removing the message.
    """

    id: int
    channel_id: int
    guild_id: int | None
    author: User
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[StoredAttachment] = field(default_factory=list)
    flags: int = 0
    allowed_mentions: dict[str, Any] | None = None
    message_reference: dict[str, Any] | None = None
    tts: bool = False
    timestamp: str = field(default_factory=iso_now)
    edited_timestamp: str | None = None
    interaction_id: int | None = None
    interaction_meta: dict[str, Any] | None = None
    webhook_id: int | None = None
    visible_to: int | None = None
    deleted: bool = False
    nonce: str | None = None
    #: when the nonce was sent, on the double's clock (Discord remembers a nonce for a few minutes only)
    nonce_at: float | None = None
    history: list[dict[str, Any]] = field(default_factory=list, repr=False)
    #: the users this message notified when it was created (:func:`tests.discord_double.mentions.pinged`:
    #: mentions in its content as its ``allowed_mentions`` let them; an edit pings nobody)
    pings: frozenset[int] = frozenset()

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        """True while this is a deferred "thinking" response nobody has filled in yet."""
        return bool(self.flags & LOADING)

    @property
    def text(self) -> str:
        """Content, embed titles/descriptions/fields/footers and text displays joined by newlines (for asserts)."""
        parts = [self.content]
        for e in self.embeds:
            parts += [e.get("title") or "", e.get("description") or ""]
            for f in e.get("fields", []):
                parts += [f.get("name", ""), f.get("value", "")]
            parts.append((e.get("footer") or {}).get("text", ""))
        parts += [c.get("content", "") for c in self.walk_components() if c.get("type") == 10]
        return "\n".join(p for p in parts if p)

    def walk_components(self) -> Iterator[dict[str, Any]]:
        """Every component, depth first (rows, containers, sections' accessories included)."""
        return walk_components(self.components)

    def component(self, custom_id: str | None = None, *, label: str | None = None) -> dict[str, Any]:
        """The component with this custom_id (or label); raises LookupError listing what exists."""
        for c in self.walk_components():
            if (custom_id is not None and c.get("custom_id") == custom_id) or (
                label is not None and c.get("label") == label
            ):
                return c
        have = [(c.get("custom_id"), c.get("label")) for c in self.walk_components() if "custom_id" in c]
        raise LookupError(f"no component custom_id={custom_id!r} label={label!r} on message {self.id}: {have}")

    def buttons(self) -> list[dict[str, Any]]:
        return [c for c in self.walk_components() if c.get("type") == 2]

    def selects(self) -> list[dict[str, Any]]:
        return [c for c in self.walk_components() if c.get("type") in (3, 5, 6, 7, 8)]

    def snapshot(self) -> dict[str, Any]:
        return copy.deepcopy({
            "content": self.content, "embeds": self.embeds, "components": self.components, "flags": self.flags,
            "attachments": [a.filename for a in self.attachments], "edited_timestamp": self.edited_timestamp,
        })

    def payload(self) -> dict[str, Any]:
        """Discord's message object."""
        data: dict[str, Any] = {
            "id": str(self.id), "channel_id": str(self.channel_id), "type": 0 if self.interaction_id is None else 20,
            "author": self.author.payload(), "content": self.content, "timestamp": self.timestamp,
            "edited_timestamp": self.edited_timestamp, "tts": self.tts, "mention_everyone": False,
            "mentions": self._mentions(), "mention_roles": [], "attachments": [a.payload() for a in self.attachments],
            "embeds": copy.deepcopy(self.embeds), "components": copy.deepcopy(self.components), "pinned": False,
            "flags": self.flags,
        }
        if self.guild_id is not None:
            data["guild_id"] = str(self.guild_id)
        if self.nonce is not None:
            data["nonce"] = self.nonce
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
            data["application_id"] = str(self.webhook_id)
        if self.interaction_meta is not None:
            data["interaction_metadata"] = self.interaction_meta
        if self.message_reference is not None:
            data["message_reference"] = self.message_reference
            if self.message_reference.get("message_id") is not None:
                data["type"] = 19
        return data

    def _mentions(self) -> list[dict[str, Any]]:
        users = self.author._double.users
        ids = dict.fromkeys(int(x) for x in re.findall(r"<@!?(\d+)>", self.content))
        return [users[i].payload() for i in ids if i in users]


def numbered(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A copy of ``components`` as Discord stores them: every component has an ``id`` (Discord numbers those the
    sender left without one 1, 2, 3... in depth-first order, skipping ids already used) and emoji drop null keys."""
    out = copy.deepcopy(components)
    used = {c["id"] for c in walk_components(out) if isinstance(c.get("id"), int)}
    next_id = 1
    for c in walk_components(out):
        if isinstance(c.get("emoji"), dict):  # Discord answers a unicode emoji as {"name": ...} alone
            c["emoji"] = {k: v for k, v in c["emoji"].items() if v is not None}
        if not isinstance(c.get("id"), int):
            while next_id in used:
                next_id += 1
            c["id"] = next_id
            used.add(next_id)
    return out


def walk_components(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Depth-first walk over a component tree (action rows, labels, containers, sections)."""
    for c in components:
        yield c
        yield from walk_components(c.get("components", []))
        for key in ("component", "accessory"):
            if isinstance(c.get(key), dict):
                yield from walk_components([c[key]])

"""Discord's rate limits: per-route buckets keyed by their major parameter (channel, guild, webhook), a global
limit of 50 requests a second per bot, and 429 answers with Discord's headers and body.

By default the double applies Discord's own buckets (:data:`DISCORD_ROUTES`: a channel takes 5 messages per 5 s,
5 edits per 5 s) and its global limit of 50 requests a second; other routes get the wide ``default`` bucket.
Interaction callbacks and interaction webhooks are exempt from the global limit, as on Discord.

Windows run on real time (``time.monotonic``), not on the double's clock: discord.py sleeps for real on
``Retry-After``/``X-RateLimit-Reset-After`` (``asyncio.sleep`` in its ``Ratelimit``), so a bucket must refill in
real time. So that the suite never waits real seconds, a route bucket's window runs :attr:`RateLimits.speed`
times faster than Discord's (100: Discord's 5 s are 50 ms here), its counts are Discord's: the bot sees Discord's
``X-RateLimit-Remaining`` count down to 0 and discord.py waits for the reset (milliseconds) or takes the 429 and
its ``retry_after`` as on Discord. A test of rate limiting sets ``speed = 1`` for Discord's own time (or its own
numbers with :meth:`route`). The global limit runs on real time.

Source: Discord API reference, "Rate Limits".
"""

from __future__ import annotations

import hashlib
import re
import time
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from tests.discord_double.faults import json_response

#: ids after these segments are "major parameters": each value gets its own bucket
_MAJOR = re.compile(r"(?<!channels/)(?<!guilds/)(?<!webhooks/)(?<!interactions/)\b\d{6,}\b")
#: interaction callbacks and interaction webhooks: no bot token, no global limit
INTERACTION_ROUTES = re.compile(r"^/(interactions/\d+/[^/]+/callback|webhooks/\d+/[^/]+)")


@dataclass
class _Window:
    limit: int
    per: float
    started: float = 0.0
    used: int = 0

    def take(self, now: float) -> float | None:
        """Count one request; ``None`` when allowed, else the seconds until the window resets."""
        if now - self.started >= self.per:
            self.started, self.used = now, 0
        if self.used >= self.limit:
            return self.per - (now - self.started)
        self.used += 1
        return None

    def reset_after(self, now: float) -> float:
        return max(0.0, self.per - (now - self.started))


#: Discord's per-route limits the double applies by default: (method, path regex, requests, per seconds), keyed
#: by the major parameter (the channel); the edits of every message of a channel share one bucket
DISCORD_ROUTES: tuple[tuple[str, str, int, float], ...] = (
    ("POST", r"^/channels/\d+/messages$", 5, 5.0),
    ("PATCH", r"^/channels/\d+/messages/\d+$", 5, 5.0),
)


def _discord_routes() -> list[tuple[str, re.Pattern[str], int, float, bool]]:
    return [(method, re.compile(regex), limit, per, True) for method, regex, limit, per in DISCORD_ROUTES]


@dataclass
class RateLimits:
    """The double's limits; ``enabled = False`` turns them off. ``hits`` counts the 429s answered, ``exhausted``
    the answers that told the bot a bucket was used up (``X-RateLimit-Remaining: 0``: discord.py waits for its
    reset before the next request of that bucket)."""

    enabled: bool = True
    global_limit: int = 50
    global_per: float = 1.0
    default: tuple[int, float] = (50, 1.0)
    #: how many times faster than Discord's a route bucket's window runs (1: Discord's own seconds)
    speed: float = 100.0
    #: (method, path regex, requests, per seconds, on Discord's time: sped up by :attr:`speed`)
    routes: list[tuple[str, re.Pattern[str], int, float, bool]] = field(default_factory=_discord_routes)
    exhausted: list[tuple[str, str]] = field(default_factory=list)
    hits: list[tuple[str, str, bool]] = field(default_factory=list)
    _buckets: dict[str, _Window] = field(default_factory=dict, repr=False)
    _global: _Window | None = field(default=None, repr=False)

    def route(self, method: str, path_regex: str, *, limit: int, per: float) -> None:
        """Give requests matching ``method`` and ``path_regex`` (searched after ``/api/v10``) their own limit of
        ``limit`` requests per ``per`` seconds of real time (not sped up)."""
        self.routes.insert(0, (method.upper(), re.compile(path_regex), limit, per, False))

    def _limits(self, method: str, path: str) -> tuple[int, float]:
        """(requests, per seconds of real time) for a request."""
        for m, regex, limit, per, discord_time in self.routes:
            if m in (method, "*") and regex.search(path):
                return limit, per / self.speed if discord_time else per
        return self.default

    def check(self, method: str, path: str) -> tuple[web.Response | None, dict[str, str]]:
        """``(429 response or None, headers for the answer)`` for one request."""
        if not self.enabled:
            return None, {}
        now = time.monotonic()
        key = f"{method} {_MAJOR.sub(':id', path)}"
        exempt = bool(INTERACTION_ROUTES.match(path))
        if not exempt:
            if self._global is None:
                self._global = _Window(self.global_limit, self.global_per)
            wait = self._global.take(now)
            if wait is not None:
                self.hits.append((method, path, True))
                return _too_many(wait, None, scope="global"), {}
        limit, per = self._limits(method, path)
        window = self._buckets.setdefault(key, _Window(limit, per))
        bucket = hashlib.sha1(key.encode()).hexdigest()[:16]
        wait = window.take(now)
        if wait is not None:
            self.hits.append((method, path, False))
            return _too_many(wait, (limit, bucket), scope="user"), {}
        reset_after = window.reset_after(now)
        if window.used >= limit:
            self.exhausted.append((method, path))
        return None, {
            "X-RateLimit-Limit": str(limit), "X-RateLimit-Remaining": str(max(0, limit - window.used)),
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}", "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": bucket,
        }


def _too_many(wait: float, bucket: tuple[int, str] | None, *, scope: str) -> web.Response:
    wait = max(wait, 0.001)
    headers = {"Retry-After": f"{wait:.3f}", "X-RateLimit-Scope": scope, "Via": "1.1 google"}
    body: dict[str, Any] = {"message": "You are being rate limited.", "retry_after": round(wait, 3),
                            "global": bucket is None, "code": 0}
    if bucket is None:
        headers["X-RateLimit-Global"] = "true"
    else:
        limit, name = bucket
        headers.update({"X-RateLimit-Limit": str(limit), "X-RateLimit-Remaining": "0",
                        "X-RateLimit-Reset": f"{time.time() + wait:.3f}", "X-RateLimit-Reset-After": f"{wait:.3f}",
                        "X-RateLimit-Bucket": name})
    return json_response(body, status=429, headers=headers)

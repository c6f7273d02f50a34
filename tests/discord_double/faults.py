"""One-off faults the tests inject into REST routes (a 429 with retry-after, a 500, ...), and Discord's errors."""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass
from typing import Any

from aiohttp import web

BODY: web.RequestKey[Any] = web.RequestKey("discord_double_body", object)
FILES: web.RequestKey[list[dict[str, Any]]] = web.RequestKey("discord_double_files", list)


def json_response(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    """A JSON response with exactly ``Content-Type: application/json`` (discord.py compares it verbatim)."""
    return web.Response(body=json.dumps(data).encode(), status=status,
                        headers={**(headers or {}), "Content-Type": "application/json"})


def discord_error(status: int, code: int, message: str, errors: dict[str, Any] | None = None) -> web.Response:
    """A JSON error body shaped like Discord's ``{"message", "code"[, "errors"]}``."""
    body: dict[str, Any] = {"message": message, "code": code}
    if errors:
        body["errors"] = errors
    return json_response(body, status=status)


class ApiError(Exception):
    """Raised by a route handler to answer with a Discord error (the middleware turns it into the response)."""

    def __init__(self, status: int, code: int, message: str, errors: dict[str, Any] | None = None) -> None:
        super().__init__(f"{status} {code} {message}")
        self.response = discord_error(status, code, message, errors)


@dataclass(eq=False)
class Fault:
    """Answer the next ``remaining`` requests matching ``method`` and ``path_regex`` with ``status``.

    ``hits`` counts how many requests it answered. ``path_regex`` is searched in the path after ``/api/v10``.
    """

    method: str
    path_regex: str
    status: int
    retry_after: float = 0.01
    remaining: int = 1
    hits: int = 0
    delay: float = 0.0  # for :meth:`DiscordDouble.delay_once`: seconds the request is held, then handled normally

    def matches(self, method: str, path: str) -> bool:
        wanted = self.method in (method.upper(), "*")
        return self.remaining > 0 and wanted and re.search(self.path_regex, path) is not None

    def response(self) -> web.Response:
        self.remaining -= 1
        self.hits += 1
        if self.status == 429:
            reset = time.time() + self.retry_after
            headers = {
                "X-RateLimit-Limit": "5", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": f"{reset:.3f}",
                "X-RateLimit-Reset-After": f"{self.retry_after:.3f}", "X-RateLimit-Bucket": "double-bucket",
                "X-RateLimit-Scope": "user", "Retry-After": f"{self.retry_after:.3f}", "Via": "1.1 google",
            }
            body = {"message": "You are being rate limited.", "retry_after": self.retry_after, "global": False,
                    "code": 0}
            return json_response(body, status=429, headers=headers)
        if self.status >= 500:
            return discord_error(self.status, 0, f"{self.status}: Internal Server Error")
        return discord_error(self.status, 0, f"{self.status}: injected by test")

"""A REST-only forwarding proxy on 127.0.0.1, standing in for a shared rate-limit proxy (nirn-proxy,
twilight-http-proxy) in front of every bot process: each ``/api/...`` request is passed to ``upstream`` as is
(method, path, query, headers, body) and its answer (status, headers, body, 429s included) passed back. Like those
proxies it serves no gateway: a bot behind it must learn the gateway's URL from ``GET /gateway/bot``.

    async with RestProxy(double.api_base) as proxy:     # DISCORD_API_BASE=proxy.base for every process
        ...; proxy.forwarded                            # [(method, path, status), ...] in arrival order
"""

from __future__ import annotations

from typing import Any

import aiohttp
from aiohttp import web

#: headers that describe one hop, not the message (RFC 9110 section 7.6.1), plus what aiohttp recomputes
HOP_HEADERS = {"connection", "keep-alive", "proxy-authenticate", "proxy-authorization", "te", "trailer",
               "transfer-encoding", "upgrade", "host", "content-length", "content-encoding"}


class RestProxy:
    """Forwards ``/api/...`` to ``upstream`` (an ``http://host:port`` base) and records what it forwarded."""

    def __init__(self, upstream: str) -> None:
        self.upstream = upstream.rstrip("/")
        self.forwarded: list[tuple[str, str, int]] = []
        self._runner: web.AppRunner | None = None
        self._http: aiohttp.ClientSession | None = None
        self.port = 0

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def start(self) -> RestProxy:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("*", "/api/{tail:.*}", self._forward)
        self._http = aiohttp.ClientSession()  # answers decoded: content-encoding is dropped
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        return self

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
        if self._http is not None:
            await self._http.close()

    async def __aenter__(self) -> RestProxy:
        return await self.start()

    async def __aexit__(self, *exc: Any) -> None:
        await self.stop()

    async def _forward(self, request: web.Request) -> web.Response:
        assert self._http is not None
        headers = {k: v for k, v in request.headers.items() if k.lower() not in HOP_HEADERS}
        async with self._http.request(request.method, self.upstream + request.rel_url.raw_path_qs, headers=headers,
                                      data=await request.read(), allow_redirects=False) as answer:
            body = await answer.read()
            back = {k: v for k, v in answer.headers.items() if k.lower() not in HOP_HEADERS}
            status = answer.status
        self.forwarded.append((request.method, request.path, status))
        return web.Response(status=status, body=body, headers=back)

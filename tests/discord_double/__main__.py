"""``python -m tests.discord_double``: serve the loopback Discord on 127.0.0.1 until SIGTERM or SIGINT, with one
server and its ``games`` channel, for a bot running in another process (the container check of
``scripts/check_container.py`` runs the real image against it). Prints ``api <base URL> token <token>`` once it
listens, then nothing; at exit prints how many requests it served and how many it did not know (an unknown route
or a body the spec refuses), and exits 1 if there were any of those."""

from __future__ import annotations

import asyncio
import signal
import sys

from tests.discord_double.server import TOKEN, DiscordDouble


async def serve() -> int:
    double = DiscordDouble()
    guild = double.add_guild("Container Check", locale="en-US")
    guild.add_text_channel("games")
    await double.start()
    print(f"api {double.api_base} token {TOKEN}", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    await stop.wait()
    await double.stop()
    unknown = len(double.unknown_requests) + len(double.schema_violations)
    print(f"served {len(double.requests)} requests, {unknown} unknown or refused by the spec", flush=True)
    return 1 if unknown else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(serve()))

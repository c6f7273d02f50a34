"""Click-to-table latency and the bot's own CPU per move (not part of the test run; prints numbers, asserts nothing):
the bot in its own OS process (the crash test's bot, Hot Potato) on a SQLite file, its scripted players keeping a
game going in each of ``--channels`` channels (1 and 6 by default) for ``--seconds``.

Per configuration: accepted moves per second, p50/p99 from a pass's click to the table showing its step, REST calls
per move outside interaction callbacks, and the bot process's CPU time per accepted move (user + system, read from
``/proc/<pid>/stat`` at both ends of the window, so a loaded machine does not distort it).

Run: ``.venv/bin/python -m tests.bench.bench_latency`` (``--seconds``, ``--channels 1 6``).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import tempfile
import time
from pathlib import Path

from tests.bench.bench_scale import CALLBACK, CRASH_BOT, ScaleRun, Throughput
from tests.support.processes import Cluster

TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of process ``pid`` so far (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


class LatencyRun(ScaleRun):
    async def measure(self, seconds: float) -> tuple[Throughput, float]:
        """One bot process: the window's throughput and the bot's CPU seconds in it."""
        await self.world(1)
        try:
            cluster = Cluster(self.double.api_base, self.db_url, self.workdir, [[0]], command=CRASH_BOT,
                              env={"LOG_LEVEL": "WARNING"})
            async with cluster:
                pid = cluster[0].pid
                assert pid is not None
                self.running.set()
                players = [asyncio.create_task(self.play(c)) for c in self.channels]
                async with asyncio.timeout(120):  # warm up: a game runs in every channel
                    while len({c.game_id for c in self.accepted}) < len(self.channels):
                        await asyncio.sleep(0.05)
                accepted, latencies, requests = len(self.accepted), len(self.latencies), len(self.double.requests)
                cpu, started = cpu_seconds(pid), time.perf_counter()
                await asyncio.sleep(seconds)  # a benchmark measures real time
                elapsed, cpu = time.perf_counter() - started, cpu_seconds(pid) - cpu
                window = self.double.requests[requests:]
                done = len(self.accepted) - accepted
                sample = self.latencies[latencies:]
                self.finished = True
                await asyncio.gather(*players, return_exceptions=True)
            callbacks = sum(1 for r in window if CALLBACK.match(r.path))
            return Throughput(done, elapsed, sample, len(window) - callbacks, callbacks), cpu
        finally:
            await self.close()


async def run(args: argparse.Namespace, workdir: Path) -> None:
    print("| busy channels | accepted moves/s | click -> table p50 / p99 | REST calls / move | bot CPU / move |")
    print("|---|---|---|---|---|")
    for channels in args.channels:
        latency = LatencyRun(channels=channels, db_url=f"sqlite+aiosqlite:///{workdir / f'c{channels}'}.db",
                             workdir=workdir)
        throughput, cpu = await latency.measure(args.seconds)
        rate, latencies, rest = throughput.cells()
        print(f"| {channels} | {rate} | {latencies} | {rest} | "
              f"{cpu * 1000 / max(throughput.accepted, 1):.1f} ms |", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.bench.bench_latency", description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="measured play per configuration (default 10)")
    parser.add_argument("--channels", type=int, nargs="*", default=[1, 6], help="busy channels (default 1 6)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="coroner-latency-") as tmp:
        asyncio.run(run(args, Path(tmp)))


if __name__ == "__main__":
    main()

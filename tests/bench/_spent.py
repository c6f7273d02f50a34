"""What bot OS processes spent over a measured window, read from outside them: their CPU (Linux ``/proc``) and the
SQL statements and commits they counted themselves (their Prometheus ``/metrics``); and one window's throughput
row. Shared by the scale and latency benchmarks."""

from __future__ import annotations

import os
import statistics
from dataclasses import dataclass
from pathlib import Path

import aiohttp
from prometheus_client.parser import text_string_to_metric_families

from tests.support.processes import Cluster

TICKS = os.sysconf("SC_CLK_TCK")


@dataclass
class Throughput:
    """One measured window: passes accepted, its length (s), click-to-table latencies (s), REST requests outside
    interaction callbacks and callbacks (with their webhook follow-ups) the double answered in it; and, from the bot
    processes themselves, their CPU seconds (user + system, from ``/proc``), the part of it their main threads
    spent (the rest: aiosqlite's worker threads and the like), and the SQL statements and commits they counted
    (``coroner_sql_statements_total``, ``coroner_sql_commits_total`` on their ``METRICS_PORT``)."""

    accepted: int
    seconds: float
    latencies: list[float]
    rest: int
    callbacks: int
    cpu: float = 0.0
    main_cpu: float = 0.0
    statements: float = 0.0
    commits: float = 0.0

    def cells(self) -> tuple[str, str, str]:
        q = statistics.quantiles(self.latencies, n=100) if len(self.latencies) > 1 else [0.0] * 99
        per = max(self.accepted, 1)
        return (f"{self.accepted / self.seconds:.1f}", f"{q[49] * 1000:.0f} / {q[98] * 1000:.0f} ms",
                f"{self.rest / per:.2f} (+ {self.callbacks / per:.2f} callbacks)")

    def costs(self) -> tuple[str, str]:
        """The bot's CPU per move (ms; its main thread's in brackets) and its statements and commits per move."""
        per = max(self.accepted, 1)
        return (f"{self.cpu * 1000 / per:.1f} ms ({self.main_cpu * 1000 / per:.1f} main thread)",
                f"{self.statements / per:.1f} / {self.commits / per:.2f}")


def cpu_seconds(pid: int, thread: int | None = None) -> float:
    """User + system CPU seconds of process ``pid`` so far, or of its thread ``thread`` (Linux ``/proc``)."""
    where = f"/proc/{pid}/stat" if thread is None else f"/proc/{pid}/task/{thread}/stat"
    fields = Path(where).read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


async def sql_counts(port: int) -> tuple[float, float]:
    """(statements, commits) a bot process counted so far, read from its ``/metrics`` on ``port``."""
    async with aiohttp.ClientSession() as http, http.get(f"http://127.0.0.1:{port}/metrics") as response:
        text = await response.text()
    found = dict.fromkeys(("coroner_sql_statements_total", "coroner_sql_commits_total"), 0.0)
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name in found:
                found[sample.name] += sample.value
    return found["coroner_sql_statements_total"], found["coroner_sql_commits_total"]


class Window:
    """What the bot processes of ``cluster`` have spent so far (CPU, main-thread CPU, SQL statements and commits);
    subtract two to get a window's."""

    def __init__(self, cpu: float, main: float, statements: float, commits: float) -> None:
        self.cpu, self.main, self.statements, self.commits = cpu, main, statements, commits

    @classmethod
    async def read(cls, cluster: Cluster, ports: list[int]) -> Window:
        pids = [p.pid for p in cluster.processes if p.pid is not None]
        counts = [await sql_counts(port) for port in ports]
        return cls(sum(cpu_seconds(pid) for pid in pids), sum(cpu_seconds(pid, pid) for pid in pids),
                   sum(c[0] for c in counts), sum(c[1] for c in counts))

    def __sub__(self, other: Window) -> Window:
        return Window(self.cpu - other.cpu, self.main - other.main, self.statements - other.statements,
                      self.commits - other.commits)

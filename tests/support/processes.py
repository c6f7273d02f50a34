"""Bot OS processes for tests and benchmarks: one process (:class:`BotProcess`) or a cluster of them holding
disjoint shards over one database (:class:`Cluster`), all against the Discord double running in the test's own
process.

A process is ``python -m bot run`` (the operator's command) unless told otherwise, configured only through its
environment: ``DISCORD_TOKEN``, ``DISCORD_API_BASE`` (the double, or a REST proxy in front of it),
``DATABASE_URL``, ``SHARD_COUNT`` and ``SHARD_IDS``. Its stdout and stderr go to a log file; it counts as ready
when it prints its ready line (``coroner ... ready as ...``, logged once every shard it holds is connected).
:meth:`BotProcess.kill` is SIGKILL (nothing is flushed or closed: a crash), :meth:`BotProcess.terminate` SIGTERM (a
graceful stop); a stopped process can be started again.

    async with Cluster(double.api_base, db_url, tmp_path, [[0], [1]]) as cluster:   # migrates once, starts both
        await cluster[1].kill(); ...; await cluster[1].start()
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import os
import re
import signal
import socket
import sys
from collections.abc import Sequence
from pathlib import Path

from tests.discord_double.server import TOKEN

ROOT = Path(__file__).resolve().parents[2]
BOT_COMMAND = ("-m", "bot", "run")
READY_LINE = re.compile(r" ready as |^ready$")  # the bot's ready line, or the crash test bot's "ready"
PR_SET_PDEATHSIG = 1  # prctl(2)
START_TIMEOUT = 60.0  # seconds; a start on a loaded 2-core machine can take a while


def free_port() -> int:
    """A TCP port on 127.0.0.1 free now (the OS picks it), for a process's metrics endpoint."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _die_with_parent() -> None:
    """In the child before it runs: on Linux, be SIGKILLed when the test process dies, so an interrupted run
    leaves no bot reconnecting forever on a shared machine (elsewhere: nothing)."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


class BotProcess:
    """One bot process, started, killed and restarted on demand. ``env`` adds to (and overrides) the test's own
    environment; the log file collects every start's output."""

    def __init__(self, name: str, env: dict[str, str], log: Path, command: Sequence[str] = BOT_COMMAND) -> None:
        self.name = name
        # the double sends a shard's servers at once: no need for discord.py's 2-second wait after the last one
        # (GUILD_READY_SECONDS=2 in the test's environment measures a start as in production)
        self.env = {"GUILD_READY_SECONDS": "0.05", **os.environ, "PYTHONPATH": str(ROOT), "LOG_LEVEL": "INFO", **env}
        self.log = log
        self.command = tuple(command)
        self.proc: asyncio.subprocess.Process | None = None
        self.starts = 0
        self._reader: asyncio.Task[None] | None = None

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.returncode is None

    @property
    def pid(self) -> int | None:
        return self.proc.pid if self.proc is not None else None

    async def start(self, timeout: float = START_TIMEOUT) -> None:
        """Start the process and wait for its ready line. Raises ``RuntimeError`` (with the log's end) when it
        exits first, ``TimeoutError`` when it is not ready in ``timeout`` seconds (it is killed then)."""
        if self.running:
            raise RuntimeError(f"{self.name} is already running")
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable, *self.command, cwd=ROOT, env=self.env, stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT, preexec_fn=_die_with_parent)
        self.starts += 1
        ready = asyncio.get_running_loop().create_future()
        self._reader = asyncio.create_task(self._read(self.proc, ready), name=f"{self.name}-output")
        try:
            await asyncio.wait_for(asyncio.shield(ready), timeout)
        except BaseException:
            await self.kill()
            raise

    async def _read(self, proc: asyncio.subprocess.Process, ready: asyncio.Future[None]) -> None:
        """Copy the process's output into the log; resolve ``ready`` at the ready line (or fail it at exit)."""
        assert proc.stdout is not None
        with self.log.open("ab") as log:
            log.write(f"--- {self.name} start {self.starts} (pid {proc.pid})\n".encode())
            while line := await proc.stdout.readline():
                log.write(line)
                log.flush()
                if not ready.done() and READY_LINE.search(line.decode(errors="replace").strip()):
                    ready.set_result(None)
        if not ready.done():
            ready.set_exception(RuntimeError(f"{self.name} exited before it was ready:\n{self.tail()}"))

    async def kill(self) -> None:
        """SIGKILL the process (a crash: nothing is flushed or closed) and reap it."""
        proc, reader = self.proc, self._reader
        if proc is not None and proc.returncode is None:
            proc.send_signal(signal.SIGKILL)
            await proc.wait()
        if reader is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(reader, 5)
        self.proc, self._reader = None, None

    async def terminate(self, timeout: float = 20.0) -> int | None:
        """SIGTERM the process (a graceful stop, as ``docker stop`` sends) and reap it: its exit status (negative:
        the signal that ended it), or None when it had to be SIGKILLed after ``timeout`` seconds."""
        proc, reader = self.proc, self._reader
        if proc is None or proc.returncode is not None:
            return None if proc is None else proc.returncode
        proc.send_signal(signal.SIGTERM)
        try:
            code: int | None = await asyncio.wait_for(proc.wait(), timeout)
        except TimeoutError:
            proc.send_signal(signal.SIGKILL)
            await proc.wait()
            code = None
        if reader is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(reader, 5)
        self.proc, self._reader = None, None
        return code

    def rss(self) -> int:
        """The process's resident memory (bytes, from ``/proc``; Linux only)."""
        assert self.pid is not None
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
        raise RuntimeError(f"no VmRSS for {self.name}")

    def tail(self, chars: int = 4000) -> str:
        """The end of the log (for a failure message)."""
        try:
            return self.log.read_text(errors="replace")[-chars:]
        except OSError:
            return "(no log)"


class Cluster:
    """Bot processes over one database, process ``i`` holding the shards ``shards[i]`` of ``shard_count``
    (default: every shard named), against the double at ``api_base`` (default ``double.api_base``; a REST proxy
    in front of it works too). Only the first process registers the slash commands. :meth:`start` upgrades the
    database once (from this process) before any bot starts, as the compose file's ``migrate`` service does."""

    def __init__(self, api_base: str, db_url: str, workdir: Path, shards: Sequence[Sequence[int]], *,
                 shard_count: int | None = None, env: dict[str, str] | None = None,
                 command: Sequence[str] = BOT_COMMAND) -> None:
        self.db_url = db_url
        self.shard_count = shard_count or max(s for ids in shards for s in ids) + 1
        self.processes = [
            BotProcess(f"bot{i}", {"DISCORD_TOKEN": TOKEN, "DISCORD_API_BASE": api_base, "DATABASE_URL": db_url,
                                   "SHARD_COUNT": str(self.shard_count), "SHARD_IDS": ",".join(map(str, ids)),
                                   "SYNC_COMMANDS": "true" if i == 0 else "false", **(env or {})},
                       workdir / f"bot{i}.log", command)
            for i, ids in enumerate(shards)]
        self.shards = [list(ids) for ids in shards]

    def __getitem__(self, index: int) -> BotProcess:
        return self.processes[index]

    def holding(self, shard_id: int) -> BotProcess:
        """The process that holds ``shard_id``."""
        return next(p for p, ids in zip(self.processes, self.shards, strict=True) if shard_id in ids)

    async def start(self) -> None:
        """Upgrade the database, then start every process at once; return when all are ready."""
        from bot.db.check import open_database

        engine = await open_database(self.db_url)
        await engine.dispose()
        await asyncio.gather(*(p.start() for p in self.processes))

    async def stop(self) -> None:
        """SIGKILL every process still running (the tests look at the database, not at a clean shutdown)."""
        await asyncio.gather(*(p.kill() for p in self.processes))

    async def __aenter__(self) -> Cluster:
        try:
            await self.start()
        except BaseException:
            await self.stop()
            raise
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    def logs(self, chars: int = 3000) -> str:
        """The end of every process's log (for a failure message)."""
        return "\n".join(f"=== {p.name}\n{p.tail(chars)}" for p in self.processes)

"""Click-to-table latency and what a move costs the bot (not part of the test run; prints numbers, asserts nothing):
the bot in its own OS process (the crash test's bot, Hot Potato) on a SQLite file, its scripted players keeping a
game going in each of ``--channels`` channels (1 and 6 by default) for ``--seconds`` (:meth:`ScaleRun.throughput`).

Per configuration: accepted moves per second, p50/p99 from a pass's click to the table showing its step, REST calls
per move outside interaction callbacks, the bot process's CPU time per accepted move (user + system, read from
``/proc/<pid>/stat`` at both ends of the window, so a loaded machine does not distort it; its main thread's part in
brackets, the rest is mostly aiosqlite's worker thread running SQLite), and the SQL statements and commits per move
the bot counted itself (``coroner_sql_statements_total``, ``coroner_sql_commits_total`` on its ``METRICS_PORT``).

``--profile DIR`` samples the bot process with py-spy (``pip install py-spy``; root or ptrace rights) during each
window, writes its stacks to ``DIR/channels-N.txt`` (folded: one stack and its sample count a line) and prints the
functions the bot's Python spent the most samples in (``--gil``: only while holding the GIL, so waiting is not
counted).

``--stages DIR`` traces where each click's time goes (:mod:`tests.bench.stages`: the bot as
:mod:`tests.bench._traced_bot`, stage medians over all moves and the slowest 2 %, then the slowest moves with what ran
meanwhile). Two diagnoses take the Discord double out of the way (their numbers are not the benchmark's):
``--global-limit N`` raises Discord's global limit of 50 requests a second (a pass costs 2.2 requests outside
callbacks, a table edit and the new holder's DM, so ~23 passes a second use it up: then discord.py waits out the
rest of the second after a 429), ``--no-spec`` skips the double's OpenAPI checks (half of this process's CPU).

``--think S`` paces the players: after a pass is accepted each waits a random time, exponentially distributed with
a mean of S seconds, before its next click (so each channel's clicks come as a Poisson process, not in lockstep
with the other channels'). By default (0) every channel clicks as soon as its pass is answered, so the bot runs
flat out (about 23 passes a second, the double's global limit of 50 requests a second at 2.2 requests a pass) and
the p99 is that of a full queue; with ``--think 0.5`` six channels offer about 10 passes a second, the latency of
a busy but not saturated bot.

Run: ``.venv/bin/python -m tests.bench.bench_latency`` (``--seconds``, ``--channels 1 6``, ``--think S``,
``--profile DIR``, ``--stages DIR``).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import shutil
import sys
import tempfile
from collections import Counter
from collections.abc import Awaitable, Callable
from pathlib import Path

from tests.bench.bench_scale import ScaleRun
from tests.bench.stages import StagedRun, attribute, report

PY_SPY = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
_LINE = re.compile(r":\d+\)$")


def profiler(out: Path) -> Callable[[list[int], float], Awaitable[None]]:
    """A ``during`` for :meth:`ScaleRun.throughput`: py-spy records the (one) bot process into ``out``."""

    async def record(pids: list[int], seconds: float) -> None:
        proc = await asyncio.create_subprocess_exec(
            PY_SPY, "record", "--pid", str(pids[0]), "--duration", str(int(seconds)), "--rate", "200", "--gil",
            "--nonblocking", "--format", "raw", "--output", str(out),
            stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL)
        await proc.wait()

    return record


def hot_spots(folded: Path, top: int = 25) -> list[str]:
    """The functions with the most samples in py-spy's ``folded`` stacks: inclusive (anywhere on the stack) and
    self (at its top), as shares of all samples."""
    inclusive: Counter[str] = Counter()
    own: Counter[str] = Counter()
    total = 0
    for line in folded.read_text().splitlines():
        if not line.strip():
            continue
        stack, count = line.rsplit(" ", 1)
        frames = [_LINE.sub(")", frame) for frame in stack.split(";")]
        total += int(count)
        for frame in set(frames):
            inclusive[frame] += int(count)
        own[frames[-1]] += int(count)
    lines = [f"{total} samples; inclusive:"]
    lines += [f"  {100 * n / total:5.1f}% {f}" for f, n in inclusive.most_common(top)]
    lines += ["self:", *(f"  {100 * n / total:5.1f}% {f}" for f, n in own.most_common(top))]
    return lines


async def run(args: argparse.Namespace, workdir: Path) -> None:
    profiles: list[Path] = []
    stages: list[tuple[int, list[str]]] = []
    print("| busy channels | accepted moves/s | click -> table p50 / p99 | REST calls / move | bot CPU / move "
          "| SQL statements / commits per move |")
    print("|---|---|---|---|---|---|")
    for channels in args.channels:
        out = args.profile / f"channels-{channels}.txt" if args.profile else None
        db_url = f"sqlite+aiosqlite:///{workdir / f'c{channels}'}.db"
        if args.stages:
            latency: ScaleRun = StagedRun(channels=channels, db_url=db_url, workdir=workdir,
                                          trace=args.stages / f"trace-{channels}.txt")
        else:
            latency = ScaleRun(channels=channels, db_url=db_url, workdir=workdir)
        latency.global_limit, latency.spec, latency.think = args.global_limit, not args.no_spec, args.think
        own = os.times()
        throughput = await latency.throughput(1, args.seconds, during=profiler(out) if out else None)
        own_cpu = sum(os.times()[:2]) - sum(own[:2])
        print("| " + " | ".join((str(channels), *throughput.cells(), *throughput.costs())) + " |", flush=True)
        if isinstance(latency, StagedRun):
            refused = Counter(latency.refused).most_common(3)
            limits = latency.double.rate_limits
            hits = Counter("global" if g else f"{m} route" for m, _, g in limits.hits)
            stages.append((channels, [f"refused passes: {len(latency.refused)} {refused}; 429s (whole run): "
                                      f"{dict(hits)}, buckets used up: {len(limits.exhausted)}; this process's "
                                      f"CPU over the whole run: {own_cpu:.1f} s",
                                      *report(attribute(latency, len(throughput.latencies)))]))
        if out is not None:
            profiles.append(out)
    for channels, lines in stages:
        print(f"\nstages, {channels} busy channel{'s' if channels > 1 else ''}:", *lines, sep="\n")
    for out in profiles:
        print(f"\n{out}:", *(hot_spots(out) if out.exists() else ["(py-spy wrote nothing)"]), sep="\n")


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.bench.bench_latency", description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="measured play per configuration (default 10)")
    parser.add_argument("--channels", type=int, nargs="*", default=[1, 6], help="busy channels (default 1 6)")
    parser.add_argument("--profile", type=Path, default=None, help="sample the bot with py-spy into this folder")
    parser.add_argument("--think", type=float, default=0.0,
                        help="mean seconds (exponential) each channel's player waits after a pass is accepted before "
                             "its next click (default 0: at once, so the bot runs saturated and p99 is a full queue's)")
    parser.add_argument("--global-limit", type=int, default=None,
                        help="the double's global limit, requests/s (default Discord's 50; a diagnosis, not a result)")
    parser.add_argument("--no-spec", action="store_true",
                        help="the double skips its OpenAPI checks (half its CPU; a diagnosis, not a result)")
    parser.add_argument("--stages", type=Path, default=None,
                        help="trace where each click's time goes (tests.bench.stages) into this folder")
    args = parser.parse_args()
    for folder in (args.profile, args.stages):
        if folder:
            folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="coroner-latency-") as tmp:
        asyncio.run(run(args, Path(tmp)))


if __name__ == "__main__":
    main()

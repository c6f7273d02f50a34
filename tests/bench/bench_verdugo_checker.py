"""The larger Verdugo rules-checker run (not part of the test run): seeded random legal matches through the engine,
every step compared with the independent checker in ``tests/games/verdugo/checker``.

Run: ``.venv/bin/python -m tests.bench.bench_verdugo_checker [SEEDS]`` (default 20 seeds). For each player count
4-8 and each seed it plays a ``tour`` match, an ``open`` match with the Cheese variant, a ``treasury`` match and a
stressed ``open`` match (permuted deals, a nearly empty Treasury); prints matches, steps, illegal actions tried, the
cards and events exercised, and every disagreement. Exits 1 when there is one."""

from __future__ import annotations

import sys
import time
from collections import Counter

from tests.games.verdugo.checker.compare import play


def main(seeds: int = 20) -> int:
    started = time.perf_counter()
    matches = steps = illegal = 0
    seen: Counter[str] = Counter()
    problems: list[str] = []
    for players in range(4, 9):
        for seed in range(seeds):
            runs = (dict(match="tour"), dict(match="open", variant=True), dict(match="treasury"),
                    dict(match="open", stress=True, probes=False))
            for kwargs in runs:
                report = play(players, seed, **kwargs)  # type: ignore[arg-type]
                matches += 1
                steps += report.steps
                illegal += report.illegal_tried
                seen += report.seen
                problems += report.problems
    print(f"{matches} matches, {steps} steps, {illegal} illegal actions tried, "
          f"{time.perf_counter() - started:.0f} s")
    print("exercised:", ", ".join(f"{k} {v}" for k, v in sorted(seen.items())))
    for problem in problems:
        print(problem)
    print(f"{len(problems)} disagreements")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 20))

"""The Let's Kill! rules checker over many seeded random matches (not part of the test run).

Run: ``.venv/bin/python -m tests.bench.bench_lets_kill_checker [first_seed] [last_seed]`` (default 0 100): plays
each seed at 3, 4 and 5 players, compares every step with ``tests/games/lets_kill/checker``, and prints the tally and
every disagreement (exit status 1 if any)."""

from __future__ import annotations

import sys
import time
from collections import Counter

from tests.games.lets_kill.checker.compare import Disagreement, Tally, compare_match


def main(first: int = 0, last: int = 100) -> int:
    tally, found, example = Tally(), Counter[str](), {}
    started = time.perf_counter()
    for seed in range(first, last):
        for players in (3, 4, 5):
            try:
                compare_match(players, seed, tally)
            except Disagreement as problem:
                key = str(problem).split(": ", 1)[1][:60]
                found[key] += 1
                example.setdefault(key, str(problem))
    print(f"{tally} in {time.perf_counter() - started:.1f} s")
    for key, count in found.most_common():
        print(f"{count} x {example[key]}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(*(int(a) for a in sys.argv[1:3])))

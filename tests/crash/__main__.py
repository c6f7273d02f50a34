"""``python -m tests.crash [--moves 1000] [--games 4] [--kills 10] [--seed 1] [--db-url URL]``: the crash test at
full size. Prints moves sent/accepted/lost/duplicated; exits 1 when a move was lost or duplicated, a message was
sent twice or a table was left stuck."""

from __future__ import annotations

import argparse
import asyncio
import sys

from tests.crash.run import crash_test


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.crash", description=__doc__)
    parser.add_argument("--moves", type=int, default=1000, help="accepted moves to reach (default 1000)")
    parser.add_argument("--games", type=int, default=4, help="channels playing at once (default 4)")
    parser.add_argument("--kills", type=int, default=10, help="SIGKILLs at random points (default 10)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--db-url", default=None, help="SQLAlchemy URL (default: a fresh SQLite file)")
    args = parser.parse_args()
    report = asyncio.run(crash_test(moves=args.moves, games=args.games, kills=args.kills, seed=args.seed,
                                    db_url=args.db_url))
    print("\n".join(report.lines()))
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())

"""Benchmark (not part of the test run): how much each game's computer players beat random play in their role.

For every game, mode and role: seeded engine-only games (``bot.simulate.driver.play``, no timeouts) with the role's
seats playing the game's policy and every other seat random-legal, against the same seeds with every seat
random-legal; prints one table of win rates (a shared win counts) with a 95% interval on the difference, and for
the scoring games (Let's Kill!, Verdugo) the role's mean final score (points, Crowns) as well.

Run: ``.venv/bin/python -m tests.bench.bench_ai [--games N] [--only GAME]`` (about two minutes with the default N;
asserts nothing)."""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot.simulate.driver import default_options, play, seat_infos
from games.core import Outcome, get_engine
from games.core.ai import RANDOM, policy_for


@dataclass(frozen=True)
class Role:
    """A role of one game set-up: its ``seats`` in a dealt state, and whether an outcome is a win for it."""

    game: str
    mode: str
    players: int
    name: str
    seats: Callable[[Any], list[int]]
    won: Callable[[Outcome, Any, list[int]], bool] = lambda outcome, state, seats: any(
        seat in outcome.winners for seat in seats)
    #: share of --games played: the social mode is slow (a day is many moves); the fast roles whose gain is a few
    #: points (a small Asesino table, a Verdugo seat: one Executioner round in five) need hundreds of games for the
    #: 95% interval to resolve it
    games: float = 1.0


#: games whose outcome scores are the players' points (the card modes score a series: not compared here)
SCORED = frozenset({"lets_kill", "verdugo"})


def _evil(state: Any) -> list[int]:
    """The Killer's side of a dealt Asesino card game."""
    return [seat for seat, p in enumerate(state.seats)
            if getattr(p, "role", None) in ("killer", "accomplice") or getattr(p, "identity", None) in (
                "killer", "accomplice")]


def _good(state: Any) -> list[int]:
    return [seat for seat in range(len(state.seats)) if seat not in _evil(state)]


ROLES: list[Role] = [
    Role("cereal_killer", "classic", 2, "Killer", lambda s: [0]),
    Role("cereal_killer", "classic", 2, "Detective", lambda s: [1]),
    Role("cereal_killer", "classic", 3, "Killer", lambda s: [0]),
    Role("cereal_killer", "classic", 3, "Detective + Lola", lambda s: [1, 2]),
    Role("asesino", "tabletop", 6, "Killer's side", _evil),
    Role("asesino", "tabletop", 6, "good side", _good),
    *(Role("asesino", "small", n, side, fn, games=8) for n in (2, 3, 4)
      for side, fn in (("Killer's side", _evil), ("good side", _good))),
    Role("asesino", "social", 8, "Killer", lambda s: [s.killer],
         won=lambda outcome, state, seats: state.killer in outcome.winners, games=0.1),
    Role("asesino", "social", 8, "accusers", lambda s: [i for i in range(s.players) if i != s.killer],
         won=lambda outcome, state, seats: state.killer not in outcome.winners, games=0.1),
    Role("lets_kill", "classic", 4, "seat 0", lambda s: [0], games=0.5),
    Role("verdugo", "classic", 5, "seat 0", lambda s: [0], games=10),
]


def win_rate(role: Role, games: int, *, with_policy: bool) -> tuple[float, float | None]:
    """The share of ``games`` seeded games (seeds 0..games-1) the role wins, and its seats' mean final score
    (``None`` for games without scores)."""
    engine = get_engine(role.game, role.mode)
    policy = policy_for(role.game, role.mode) if with_policy else RANDOM
    wins, scores = 0, []
    for seed in range(games):
        seats = role.seats(engine.setup(default_options(engine), seat_infos(role.players), seed))
        policies = {seat: policy if seat in seats else RANDOM for seat in range(role.players)}
        game = play(role.game, role.mode, role.players, seed, policies=policies, timeout_rate=0.0)
        outcome = engine.outcome(game.state)
        assert outcome is not None
        wins += role.won(outcome, game.state, seats)
        if outcome.scores and role.game in SCORED:
            scores.append(sum(outcome.scores[seat] for seat in seats) / len(seats))
    return wins / games, (sum(scores) / len(scores) if scores else None)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=80, help="games per role and per side of the comparison")
    parser.add_argument("--only", help="one game id")
    args = parser.parse_args(argv)
    print(f"{'game':<14}{'mode':<10}{'n':>3}  {'role':<18}{'games':>6}{'random':>8}{'policy':>8}{'gain':>8}"
          f"{'±95%':>7}  {'score random → policy':<22}{'secs':>5}")
    for role in ROLES:
        if args.only and role.game != args.only:
            continue
        games = max(10, int(args.games * role.games))
        started = time.perf_counter()
        base, base_score = win_rate(role, games, with_policy=False)
        ours, our_score = win_rate(role, games, with_policy=True)
        spread = 1.96 * math.sqrt((base * (1 - base) + ours * (1 - ours)) / games)
        score = "" if base_score is None or our_score is None else f"{base_score:.2f} → {our_score:.2f}"
        print(f"{role.game:<14}{role.mode:<10}{role.players:>3}  {role.name:<18}{games:>6}{base:>8.0%}{ours:>8.0%}"
              f"{ours - base:>+8.0%}{spread:>7.0%}  {score:<22}{time.perf_counter() - started:>5.0f}", flush=True)


if __name__ == "__main__":
    main()

"""Statistics counted from :class:`~bot.cogs.stats.records.Record` rows: pure functions, no database, no Discord.

A member's: games played and won per game, per mode and per role; the current and the best run of wins (over
all games, oldest first); the favourite role (the most played; ties go to more wins, then the name); points (or
Crowns) per game. A server's game: win rates per role and per side (a side wins a game when its seats won),
the average length of a game (minutes and moves) and the most active players.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from bot.cogs.stats.records import Record

#: which side a role plays on, per game (games without sides are absent)
SIDES: dict[str, dict[str, str]] = {
    "asesino": {"killer": "evil", "accomplice": "evil"},
    "cereal_killer": {"killer": "killer"},
}
#: the side of every other role of a game with sides
OTHER_SIDE: dict[str, str] = {"asesino": "good", "cereal_killer": "hunters"}


def side_of(game: str, role: str | None) -> str | None:
    """``evil``/``good`` (Asesino), ``killer``/``hunters`` (Cereal Killer), ``None`` otherwise or without a role."""
    if role is None or game not in SIDES:
        return None
    return SIDES[game].get(role, OTHER_SIDE[game])


@dataclass(frozen=True, slots=True)
class Tally:
    """Played and won; ``rate`` is won / played (0.0 when nothing was played)."""

    played: int = 0
    won: int = 0

    @property
    def rate(self) -> float:
        return self.won / self.played if self.played else 0.0

    def add(self, won: bool) -> Tally:
        return Tally(self.played + 1, self.won + int(won))


@dataclass
class PlayerStats:
    """One member's statistics; ``results`` are their games' outcomes, oldest first (for the chart)."""

    total: Tally = Tally()
    by_game: dict[str, Tally] = field(default_factory=dict)
    by_mode: dict[tuple[str, str], Tally] = field(default_factory=dict)
    by_role: dict[tuple[str, str], Tally] = field(default_factory=dict)
    points: dict[str, float] = field(default_factory=dict)
    current_streak: int = 0
    best_streak: int = 0
    favourite_role: tuple[str, str] | None = None
    results: list[bool] = field(default_factory=list)


def player_stats(records: list[Record]) -> PlayerStats:
    """The statistics of one member's ``records`` (as :func:`~bot.cogs.stats.records.records` returns them)."""
    stats = PlayerStats()
    run = 0
    for r in sorted(records, key=lambda r: (r.at, r.game_id)):
        stats.total = stats.total.add(r.won)
        stats.by_game[r.game] = stats.by_game.get(r.game, Tally()).add(r.won)
        stats.by_mode[(r.game, r.mode)] = stats.by_mode.get((r.game, r.mode), Tally()).add(r.won)
        if r.role is not None:
            stats.by_role[(r.game, r.role)] = stats.by_role.get((r.game, r.role), Tally()).add(r.won)
        stats.points[r.game] = stats.points.get(r.game, 0.0) + r.points
        run = run + 1 if r.won else 0
        stats.best_streak = max(stats.best_streak, run)
        stats.results.append(r.won)
    stats.current_streak = run
    if stats.by_role:
        stats.favourite_role = min(stats.by_role, key=lambda k: (-stats.by_role[k].played, -stats.by_role[k].won, k))
    return stats


@dataclass
class GameStats:
    """A server's statistics of one game: ``games`` finished games counted, ``minutes``/``moves`` their average
    length (``None`` without games or times), ``active`` the most active members as ``(user_id, games)``."""

    games: int = 0
    by_role: dict[str, Tally] = field(default_factory=dict)
    by_side: dict[str, Tally] = field(default_factory=dict)
    minutes: float | None = None
    moves: float | None = None
    active: list[tuple[int, int]] = field(default_factory=list)


def game_stats(records: list[Record], top: int = 5) -> GameStats:
    """The statistics of one game's ``records`` in a server."""
    stats = GameStats()
    per_game: dict[int, list[Record]] = {}
    for r in records:
        per_game.setdefault(r.game_id, []).append(r)
        if r.role is not None:
            stats.by_role[r.role] = stats.by_role.get(r.role, Tally()).add(r.won)
    stats.games = len(per_game)
    for seats in per_game.values():
        sides: dict[str, bool] = {}
        for r in seats:
            side = side_of(r.game, r.role)
            if side is not None:
                sides[side] = sides.get(side, False) or r.won
        for side, won in sides.items():
            stats.by_side[side] = stats.by_side.get(side, Tally()).add(won)
    firsts = [seats[0] for seats in per_game.values()]
    timed = [r.minutes for r in firsts if r.minutes is not None]
    stats.minutes = sum(timed) / len(timed) if timed else None
    stats.moves = sum(r.moves for r in firsts) / len(firsts) if firsts else None
    counts = Counter(r.user_id for r in records)
    stats.active = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:top]
    return stats

"""The ``/stats`` embeds and chart attachments, in the server's language and within Discord's limits."""

from __future__ import annotations

from collections import Counter

import discord

from bot.achievements import achievement_name
from bot.budget import FIELD_VALUE, fit_lines
from bot.cogs.reference.entries import lookup
from bot.cogs.stats.chart import results_chart, win_rates_chart
from bot.cogs.stats.compute import GameStats, PlayerStats, Tally
from bot.i18n import t
from bot.i18n.catalog import plain_number
from bot.ui import COLOUR, Attachment

PLAYER_CHART = "results.png"
GAME_CHART = "win-rates.png"
#: reference kinds a game's roles are named by, first match wins
ROLE_KINDS = ("role", "card", "social")


def role_name(game: str, role: str, language: str) -> str:
    """A role's name from the card reference (``asesino:card:killer``, ``cereal_killer:role:lola``...)."""
    for kind in ROLE_KINDS:
        entry = lookup(f"{game}:{kind}:{role}")
        if entry is not None:
            return entry.name(language)
    return role


def tally(language: str, tally: Tally) -> str:
    """``"5 played, 3 won (60%)"``."""
    return t("stats.tally", language, played=tally.played, won=tally.won, rate=round(100 * tally.rate),
             count=tally.played)


def _field(embed: discord.Embed, name: str, lines: list[str], language: str) -> None:
    if lines:
        embed.add_field(name=name, value=fit_lines("\n".join(lines), FIELD_VALUE, language), inline=False)


def player_embed(name: str, stats: PlayerStats, achievements: list[tuple[str, str]], language: str,
                 ) -> tuple[discord.Embed, list[Attachment]]:
    """A member's statistics (``name`` already escaped), their achievements as ``(game, id)`` (oldest first; each
    shown once, ``×N`` when earned N times) and, after two games or more, the line of their results over time."""
    embed = discord.Embed(title=t("stats.player.title", language, name=name), colour=COLOUR)
    if not stats.total.played:
        embed.description = t("stats.none", language)
        return embed, []
    embed.description = t("stats.player.total", language, tally=tally(language, stats.total),
                          current=stats.current_streak, best=stats.best_streak)
    games = [t("stats.line.game", language, game=t(f"game.{g}", language), tally=tally(language, n),
               points=t("stats.points", language, count=plain_number(stats.points.get(g, 0.0))))
             for g, n in sorted(stats.by_game.items())]
    _field(embed, t("stats.by_game", language), games, language)
    modes = [f"{t(f'game.{g}', language)} · {t(f'mode.{g}.{m}', language)}: {tally(language, n)}"
             for (g, m), n in sorted(stats.by_mode.items())]
    _field(embed, t("stats.by_mode", language), modes, language)
    roles = [f"{t(f'game.{g}', language)} · {role_name(g, r, language)}: {tally(language, n)}"
             for (g, r), n in sorted(stats.by_role.items())]
    _field(embed, t("stats.by_role", language), roles, language)
    if stats.favourite_role is not None:
        game, role = stats.favourite_role
        embed.add_field(name=t("stats.favourite", language),
                        value=f"{role_name(game, role, language)} ({t(f'game.{game}', language)})", inline=False)
    earned = [t("stats.achievement", language, name=achievement_name(g, a, language), game=t(f"game.{g}", language))
              + (f" ×{n}" if n > 1 else "") for (g, a), n in Counter(achievements).items()]
    _field(embed, t("stats.achievements", language), earned, language)
    files: list[Attachment] = []
    if len(stats.results) >= 2:
        wins = sum(stats.results)
        alt = t("stats.chart.results.alt", language, name=name, games=len(stats.results), wins=wins,
                rate=round(100 * wins / len(stats.results)), count=len(stats.results))
        png = results_chart(t("stats.chart.results.title", language), stats.results,
                            t("stats.chart.rate", language), t("stats.chart.games", language))
        files.append(Attachment(PLAYER_CHART, png, alt[:1024]))
        embed.set_image(url=f"attachment://{PLAYER_CHART}")
    return embed, files


def game_embed(game: str, stats: GameStats, language: str) -> tuple[discord.Embed, list[Attachment]]:
    """A server's statistics of ``game`` and, when it has roles, the bar chart of their win rates."""
    name = t(f"game.{game}", language)
    embed = discord.Embed(title=t("stats.game.title", language, game=name), colour=COLOUR)
    if not stats.games:
        embed.description = t("stats.none", language)
        return embed, []
    length = t("stats.game.length", language, count=stats.games, games=stats.games,
               moves=round(stats.moves or 0))
    if stats.minutes is not None:
        length += " " + t("stats.game.minutes", language, minutes=round(stats.minutes))
    embed.description = length
    roles = sorted(stats.by_role.items(), key=lambda kv: (-kv[1].played, kv[0]))
    _field(embed, t("stats.by_role", language),
           [f"{role_name(game, r, language)}: {tally(language, n)}" for r, n in roles], language)
    _field(embed, t("stats.by_side", language),
           [f"{t(f'stats.side.{s}', language)}: {tally(language, n)}" for s, n in sorted(stats.by_side.items())],
           language)
    _field(embed, t("stats.active", language),
           [t("stats.line.active", language, user=f"<@{u}>", count=n) for u, n in stats.active], language)
    files: list[Attachment] = []
    if roles:
        bars = [(role_name(game, r, language), n.rate, n.played) for r, n in roles[:12]]
        alt = t("stats.chart.roles.alt", language, game=name,
                rates="; ".join(f"{label} {round(100 * rate)}%" for label, rate, _ in bars))
        png = win_rates_chart(t("stats.chart.roles.title", language, game=name), bars,
                              t("stats.chart.rate", language))
        files.append(Attachment(GAME_CHART, png, alt[:1024]))
        embed.set_image(url=f"attachment://{GAME_CHART}")
    return embed, files

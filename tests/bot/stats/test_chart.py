"""Chart images: deterministic, under 300 KB, with alt text, and close to the golden images (small tolerance:
the same library draws the same pixels; a different FreeType may move anti-aliasing a little)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

from bot.cogs.stats._render import game_embed, player_embed
from bot.cogs.stats.chart import MAX_BYTES, results_chart, win_rates_chart
from bot.cogs.stats.compute import GameStats, PlayerStats, Tally

GOLDEN = Path(__file__).with_name("golden")
BARS = [("Killer", 0.5, 4), ("Víctima", 0.25, 12), ("Detective", 1.0, 2), ("Médico", 0.0, 3)]
RESULTS = [True, False, False, True, True, False, True]
CHARTS = {
    "win_rates.png": lambda: win_rates_chart("Asesino: win rate per role", BARS, "win rate (%)"),
    "results.png": lambda: results_chart("Win rate after each game", RESULTS, "win rate (%)", "games"),
}


def _difference(a: bytes, b: bytes) -> float:
    """Mean absolute difference of two PNGs' RGB pixels, 0 (same) to 255."""
    first, second = (Image.open(io.BytesIO(x)).convert("RGB") for x in (a, b))
    assert first.size == second.size == (720, 360)
    return ImageStat.Stat(ImageChops.difference(first, second).convert("L")).mean[0]


@pytest.mark.parametrize("name", sorted(CHARTS))
def test_a_chart_is_deterministic_small_and_matches_its_golden_image(name: str) -> None:
    """Two drawings are the same bytes, under 300 KB, and within 2/255 of the golden image on average."""
    png = CHARTS[name]()
    assert png == CHARTS[name]()
    assert len(png) < MAX_BYTES
    assert _difference(png, (GOLDEN / name).read_bytes()) < 2.0


def test_the_golden_images_differ_from_other_numbers() -> None:
    """The comparison can fail: other numbers are far from the golden image."""
    other = win_rates_chart("Asesino: win rate per role", [(n, 1 - r, p) for n, r, p in BARS], "win rate (%)")
    assert _difference(other, (GOLDEN / "win_rates.png").read_bytes()) > 2.0


def test_a_players_embed_carries_the_results_chart_with_alt_text() -> None:
    """After two games the member's embed shows the line, described in words for who cannot see it."""
    stats = PlayerStats(total=Tally(3, 2), by_game={"verdugo": Tally(3, 2)}, points={"verdugo": 12.0},
                        current_streak=1, best_streak=1, results=[True, False, True])
    embed, files = player_embed("Ana", stats, [("cereal_killer", "no_trace")], "en")
    assert embed.image.url == "attachment://results.png" and files[0].name == "results.png"
    assert files[0].description == ("Line chart of Ana's win rate after each game: 3 games, 2 won, 67% in the "
                                    "end.")
    assert embed.description == "All games: 3 played, 2 won (67%). Current run of wins: 1; best run: 1."
    fields = {f.name: f.value for f in embed.fields}
    assert fields["Per game"] == "Verdugo: 3 played, 2 won (67%) · 12 points"
    assert fields["Achievements"].startswith("🏅 ")


def test_a_games_embed_charts_the_win_rate_per_role() -> None:
    """The server's game statistics name roles by the card reference and chart them."""
    stats = GameStats(games=2, by_role={"killer": Tally(2, 1), "detective": Tally(2, 1)},
                      by_side={"killer": Tally(2, 1), "hunters": Tally(2, 1)}, minutes=14.0, moves=30.0,
                      active=[(100, 2)])
    embed, files = game_embed("cereal_killer", stats, "es")
    assert embed.title == "Cereal Killer: estadísticas de este servidor"
    assert embed.description == "2 partidas terminadas; de media 30 jugadas. Una partida dura de media 14 minutos."
    fields = {f.name: f.value for f in embed.fields}
    assert fields["Por rol"] == "Detective: ganadas 1 de 2 (50%)\nAsesino: ganadas 1 de 2 (50%)"
    assert fields["Quién más juega"] == "<@100>: 2 partidas"
    assert files[0].description.startswith("Gráfico de barras") and len(files[0].data) < MAX_BYTES


def test_nothing_counted_says_so_without_a_chart() -> None:
    """No finished games: a sentence, no image."""
    embed, files = player_embed("Ana", PlayerStats(), [], "en")
    assert files == [] and embed.description.startswith("No finished games counted yet")

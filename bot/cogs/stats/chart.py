"""Chart images for ``/stats`` drawn with matplotlib's Agg backend (no display): a bar chart of win rates per role
and a line of a member's results over time.

Deterministic: a fixed size, DPI, font (DejaVu Sans, shipped with matplotlib) and style, and no metadata that
changes (the PNG's "Software" tag is left out), so the same numbers give the same bytes on the same library
version. Each image is 720 x 360 pixels, well under :data:`MAX_BYTES`, and comes with alt text (Discord keeps
1024 characters) saying in words what it shows.
"""

from __future__ import annotations

import io

import matplotlib

matplotlib.use("Agg")

from matplotlib.figure import Figure  # noqa: E402 -- after choosing the backend

MAX_BYTES = 300_000
SIZE = (7.2, 3.6)  # inches, at 100 dpi
DPI = 100
BAR = "#992d22"
STYLE = {"font.family": "DejaVu Sans", "font.size": 10, "axes.spines.top": False, "axes.spines.right": False,
         "svg.hashsalt": "coroner"}


def _png(figure: Figure) -> bytes:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=DPI, metadata={"Software": None})
    data = buffer.getvalue()
    if len(data) > MAX_BYTES:
        raise ValueError(f"chart of {len(data)} bytes is over {MAX_BYTES}")
    return data


def win_rates_chart(title: str, bars: list[tuple[str, float, int]], axis: str) -> bytes:
    """A PNG bar chart: one bar per ``(label, rate 0..1, games played)``, the rate as a percentage on top of each
    bar with the games played under it; ``axis`` labels the y axis."""
    with matplotlib.rc_context(STYLE):
        figure = Figure(figsize=SIZE)
        ax = figure.add_subplot()
        labels = [label for label, _, _ in bars]
        rates = [100 * rate for _, rate, _ in bars]
        drawn = ax.bar(range(len(bars)), rates, color=BAR)
        ax.bar_label(drawn, labels=[f"{r:.0f}% ({n})" for r, (_, _, n) in zip(rates, bars, strict=True)], padding=2)
        ax.set_xticks(range(len(bars)), labels, rotation=0 if len(bars) <= 6 else 30,
                      ha="center" if len(bars) <= 6 else "right")
        ax.set_ylim(0, 110)
        ax.set_ylabel(axis)
        ax.set_title(title)
        figure.tight_layout()
        return _png(figure)


def results_chart(title: str, results: list[bool], axis: str, xlabel: str) -> bytes:
    """A PNG line of the running win rate (in %) after each game of ``results`` (oldest first), wins marked."""
    with matplotlib.rc_context(STYLE):
        figure = Figure(figsize=SIZE)
        ax = figure.add_subplot()
        wins, rates = 0, []
        for index, won in enumerate(results, start=1):
            wins += int(won)
            rates.append(100 * wins / index)
        games = list(range(1, len(results) + 1))
        ax.plot(games, rates, color=BAR, linewidth=2)
        ax.scatter([g for g, w in zip(games, results, strict=True) if w],
                   [r for r, w in zip(rates, results, strict=True) if w], color=BAR, zorder=3, s=18)
        ax.set_ylim(0, 105)
        ax.set_xlim(0.5, max(len(results), 1) + 0.5)
        ax.set_ylabel(axis)
        ax.set_xlabel(xlabel)
        ax.set_title(title)
        figure.tight_layout()
        return _png(figure)

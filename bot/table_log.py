"""The living table's "Last moves" log: the public lines of a game's last few steps, stored with its
:class:`bot.db.models.LiveTableState` row as ``[{"step": outbox id or None, "lines": [str], "keep": bool}]``
(oldest first) and shown in the table embed (:mod:`bot.live_table`)."""

from __future__ import annotations

from typing import Any

from bot.budget import clip, size

LOG_STEPS = 4  # steps whose public lines stay in "Last moves"
LOG_CHARS = 1000  # UTF-16 units: the log is a field value (Discord: 1024)


def appended(steps: list[Any], step: int | None, lines: list[str], *, anew: bool = False,
             keep: bool = False) -> list[Any]:
    """The stored log (``[{"step": outbox id or None, "lines": [str], "keep": bool}]``, oldest first) after a step
    with public ``lines`` (``anew``: the log of a new table message, which starts with this step; ``keep``: that
    step is a phase the game declared worth its own message, :meth:`bot.ui.GameUI.fresh_table`, so the message is
    never edited into a later step, see :func:`kept`). A step already in it (shown again after a crash) is not added
    twice; only the last :data:`LOG_STEPS` steps are kept."""
    kept_steps = [] if anew else list(steps)
    if (lines or keep) and (step is None or all(entry.get("step") != step for entry in kept_steps)):
        kept_steps.append({"step": step, "lines": list(lines), **({"keep": True} if keep else {})})
    return kept_steps[-LOG_STEPS:]


def kept(steps: list[Any]) -> bool:
    """Whether the table message with the stored log ``steps`` shows a phase worth its own message (a round's
    reveal, a death): the next step goes into a new message and this one stays as it is (without its buttons)."""
    return any(entry.get("keep") for entry in steps)


def shown(steps: list[Any]) -> list[str]:
    """The log's lines to show (oldest first) within :data:`LOG_CHARS` UTF-16 units (as Discord and
    :mod:`bot.budget` count them): older lines are dropped first and the cut is shown as "…"; a single line too
    long for the field is cut with "…"."""
    lines: list[str] = []
    used = 0
    for line in reversed([line for entry in steps for line in entry["lines"]]):
        if used + size(line) + 1 > LOG_CHARS:
            lines.append(clip(line, LOG_CHARS) if not lines else "…")
            break
        lines.append(line)
        used += size(line) + 1
    return list(reversed(lines))

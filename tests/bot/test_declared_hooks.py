"""What a game has is declared (issue 20): ``bot/`` and the engine contract never probe an engine, a game's UI or
an AI policy for an optional hook with ``getattr``/``hasattr``; the engine's ``features``
(:class:`games.core.Features`), :class:`bot.ui.GameUI`'s and :class:`games.core.ai.Policy`'s methods (with their
defaults) say it."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: the names a probed object's source may not mention: an engine, a game's UI, a policy
PROBED = ("engine", "ui", "policy")


def probes(source: str) -> list[str]:
    """The ``getattr``/``hasattr`` calls in ``source`` whose object is an engine, a UI or a policy (its first
    argument's source names one of :data:`PROBED`, e.g. ``ui``, ``table.engine``, ``policy_for(game, mode)``)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("getattr", "hasattr")
                and node.args):
            target = ast.unparse(node.args[0])
            words = target.replace("(", ".").replace(")", ".").replace("_", ".").split(".")
            if any(word in PROBED for word in words):
                found.append(f"{node.lineno}: {ast.unparse(node)}")
    return found


def test_no_engine_ui_or_policy_is_probed_for_a_hook() -> None:
    files = [*sorted((ROOT / "bot").rglob("*.py")), *sorted((ROOT / "games" / "core").rglob("*.py"))]
    found = {str(path.relative_to(ROOT)): hits for path in files if (hits := probes(path.read_text()))}
    assert found == {}


def test_the_check_finds_a_probe() -> None:
    source = ("a = getattr(ui, 'series_embed', None)\nb = hasattr(table.engine, 'due')\n"
              "c = getattr(policy_for(g, m), 'at_table', None)\nd = getattr(settings, 'token')\n")
    assert probes(source) == ["1: getattr(ui, 'series_embed', None)", "2: hasattr(table.engine, 'due')",
                              "3: getattr(policy_for(g, m), 'at_table', None)"]

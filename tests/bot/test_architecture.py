"""Architecture: ``bot/`` has no import circle (imports under ``if TYPE_CHECKING:`` counted: a type is a
dependency too) and imports nothing inside a function (the way a circle is usually hidden)."""

from __future__ import annotations

import ast
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: the comment that marks an import inside a function as a truly optional heavy dependency (none today)
OPTIONAL = "# optional dependency:"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules(package: str = "bot") -> dict[str, Path]:
    return {module_name(path): path for path in sorted((ROOT / package).rglob("*.py"))}


def imported(name: str, path: Path, node: ast.Import | ast.ImportFrom) -> list[str]:
    """The dotted names ``node`` imports (``from a import b`` gives ``a.b``: ``b`` may be a module)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    base = node.module or ""
    if node.level:  # relative: from the module's package, one level up per extra dot
        package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        package = package[: len(package) - (node.level - 1)]
        base = ".".join([*package, *([node.module] if node.module else [])])
    return [f"{base}.{alias.name}" for alias in node.names]


def import_graph(mods: dict[str, Path]) -> dict[str, set[str]]:
    """``module -> the package's modules it imports`` (anywhere in the file, type-only imports included), and the
    packages around each of them: importing ``a.b.c`` runs ``a/__init__.py`` and ``a/b/__init__.py`` first, so a
    circle through a package's ``__init__`` counts (the importer's own packages do not: they are being imported
    already)."""

    def target(dotted: str) -> str | None:  # the longest prefix that is one of the package's modules
        while dotted and dotted not in mods:
            dotted = dotted.rpartition(".")[0]
        return dotted or None

    def packages(dotted: str) -> list[str]:  # the packages Python runs first (their ``__init__``) to import it
        parts = dotted.split(".")
        return [p for i in range(1, len(parts)) if (p := ".".join(parts[:i])) in mods]

    graph: dict[str, set[str]] = {}
    for name, path in mods.items():
        graph[name] = set()
        own = {name, *packages(name)}  # the importer's own packages are under way already when it runs
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import | ast.ImportFrom):
                for dotted in imported(name, path, node):
                    if (t := target(dotted)) is not None:
                        graph[name] |= {m for m in (*packages(t), t) if m not in own}
    return graph


def circle(graph: dict[str, set[str]]) -> list[str]:
    """One import circle of ``graph`` (``[]``: none), as graphlib finds it."""
    try:
        TopologicalSorter(graph).prepare()
    except CycleError as exc:
        return list(exc.args[1])
    return []


def function_imports(mods: dict[str, Path]) -> list[str]:
    """``path:line`` of every import statement inside a function body (unless marked :data:`OPTIONAL`)."""
    found = []
    for path in mods.values():
        source = path.read_text(encoding="utf-8")
        lines = source.splitlines()
        for function in ast.walk(ast.parse(source)):
            if isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
                found += [f"{path.relative_to(ROOT)}:{node.lineno}" for node in ast.walk(function)
                          if isinstance(node, ast.Import | ast.ImportFrom) and OPTIONAL not in lines[node.lineno - 1]]
    return sorted(set(found))


def test_bot_has_no_import_circle() -> None:
    """No module of ``bot/`` reaches itself through imports, counting those made only for type hints."""
    assert circle(import_graph(modules())) == []


def test_bot_imports_nothing_inside_a_function() -> None:
    assert function_imports(modules()) == []


def test_the_checks_catch_a_circle_and_a_hidden_import(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The two checks above fail on what they look for: a circle closed by a type-only import (through a
    relative import and a package's ``__init__``), and an import inside a method."""
    package = tmp_path / "pkg"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from pkg.sub import B\n")
    (package / "sub" / "__init__.py").write_text("from .b import B\n")
    (package / "sub" / "b.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                                          "    from ..a import A\n")
    (package / "c.py").write_text("class C:\n    def f(self):\n        import json\n"
                                  f"    def g(self):\n        import csv  {OPTIONAL} a big one\n")
    monkeypatch.setattr(f"{__name__}.ROOT", tmp_path)
    mods = modules("pkg")
    assert import_graph(mods) == {"pkg": set(), "pkg.a": {"pkg.sub"}, "pkg.sub": {"pkg.sub.b"},
                                  "pkg.sub.b": {"pkg.a"}, "pkg.c": set()}
    assert sorted(circle(import_graph(mods))) == ["pkg.a", "pkg.a", "pkg.sub", "pkg.sub.b"]
    assert function_imports(mods) == ["pkg/c.py:3"]


def test_the_circle_check_sees_a_circle_through_a_package_init(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A low module importing one helper of a feature package runs that package's ``__init__`` first, which imports
    the feature, which imports the low module: a circle at run time that the imports' own names do not show (as
    ``bot/seat_controls.py`` importing ``bot.cogs.lobby.names`` did); a package's own modules importing each other
    through it are no circle."""
    package = tmp_path / "pkg"
    (package / "feat").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "low.py").write_text("from pkg.feat.names import n\n")
    (package / "feat" / "__init__.py").write_text("from .cog import C\n")
    (package / "feat" / "cog.py").write_text("from pkg.feat.names import n\nfrom pkg.low import x\n")
    (package / "feat" / "names.py").write_text("n = 1\n")
    monkeypatch.setattr(f"{__name__}.ROOT", tmp_path)
    graph = import_graph(modules("pkg"))
    assert graph == {"pkg": set(), "pkg.low": {"pkg.feat", "pkg.feat.names"}, "pkg.feat": {"pkg.feat.cog"},
                     "pkg.feat.cog": {"pkg.feat.names", "pkg.low"}, "pkg.feat.names": set()}
    assert set(circle(graph)) == {"pkg.feat", "pkg.feat.cog", "pkg.low"}
    (package / "low.py").write_text("n = 2\n")
    assert circle(import_graph(modules("pkg"))) == []

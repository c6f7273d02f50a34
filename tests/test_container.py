"""The container image, checked without a container engine: the Dockerfile runs as a non-root user with the database
on a volume and a health check, installs exactly requirements.lock (which pins every dependency of pyproject.toml),
and the build context leaves secrets and local files out. ``scripts/check_image.py`` (run by CI) replays the
install steps themselves in a clean virtual environment."""

from __future__ import annotations

import importlib.util
import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("check_image", ROOT / "scripts" / "check_image.py")
assert _spec is not None and _spec.loader is not None
check_image = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(check_image)

STEPS = check_image.instructions()


def _values(word: str) -> list[str]:
    return [arguments for instruction, arguments in STEPS if instruction == word]


def test_runs_as_a_non_root_user_with_the_database_on_a_volume() -> None:
    """USER is not root, /data is a VOLUME and DATABASE_URL points into it."""
    assert _values("USER") and _values("USER")[-1] not in ("root", "0")
    assert check_image.exec_form(_values("VOLUME")[0]) == ["/data"]
    env = {k: v for arguments in _values("ENV") for k, v in check_image.env_pairs(arguments).items()}
    assert env["DATABASE_URL"] == "sqlite+aiosqlite:////data/coroner.db"


def test_health_check_and_command_use_the_console_script() -> None:
    """HEALTHCHECK runs `coroner check` (settings and database, no Discord); CMD runs the bot."""
    assert check_image.exec_form(_values("HEALTHCHECK")[0]) == ["coroner", "check"]
    assert check_image.exec_form(_values("CMD")[0]) == ["coroner", "run"]


def test_dependencies_come_from_the_lock_file_only() -> None:
    """The first install is the hash-checked lock file; the project itself is installed without dependencies."""
    installs = [arguments for arguments in _values("RUN") if arguments.startswith("pip install ")]
    assert installs == ["pip install --require-hashes -r requirements.lock", "pip install --no-deps ."]


def test_lock_file_pins_every_dependency_of_pyproject() -> None:
    """requirements.lock (made by scripts/lock.sh with uv) pins each runtime dependency, with hashes."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = {re.sub(r"[-_.]+", "-", re.split(r"[\[<>=!~ ;]", dep, maxsplit=1)[0]).lower()
              for dep in project["dependencies"]}
    locked = check_image.locked_versions()
    assert sorted(wanted - set(locked)) == []
    text = (ROOT / "requirements.lock").read_text()
    hashed = re.findall(r"^\S+==\S+ \\\n\s+--hash=sha256:[0-9a-f]{64}", text, flags=re.M)
    assert len(hashed) == len(locked) > len(wanted)


def test_build_context_leaves_secrets_and_local_files_out() -> None:
    """.dockerignore keeps .env, local databases, the virtual environment and git out of the image."""
    ignored = set((ROOT / ".dockerignore").read_text().split())
    assert {".env", "*.db", ".venv", ".git"} <= ignored
    copied = {source for arguments in _values("COPY") for source in arguments.split()[:-1]}
    assert not copied & ignored


def test_the_base_is_a_build_argument_defaulting_to_the_official_image() -> None:
    """``--build-arg BASE=...`` (scripts/check_container.py's Debian-made base) or, by default, python:3.11-slim."""
    assert STEPS[:2] == [("ARG", "BASE=python:3.11-slim"), ("FROM", "${BASE}")]


def test_ci_runs_the_real_image_before_the_tests() -> None:
    """.ci/run builds and runs the image with podman where it can, else replays its steps, then runs the tests."""
    lines = [line.strip() for line in (ROOT / ".ci" / "run").read_text().splitlines()]
    order = [next(i for i, line in enumerate(lines) if line.startswith(command)) for command in
             ("python3 scripts/check_container.py", "python3 scripts/check_image.py", "exec bash scripts/test.sh")]
    assert order == sorted(order)

"""The ``coroner`` console script and the process settings."""

from __future__ import annotations

import subprocess
import sys

import pytest

from bot.cli import main
from bot.settings import Settings


def test_run_without_token_prints_one_line_and_exits_2(monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str], tmp_path) -> None:
    """`coroner run` with no DISCORD_TOKEN gives exactly one clear line on stderr and exit code 2."""
    monkeypatch.chdir(tmp_path)  # no .env here
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    assert main(["run"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1
    assert "DISCORD_TOKEN is not set" in captured.err


def test_console_script_module_exits_2_without_token(tmp_path) -> None:
    """The real process (python -m bot run) exits with status 2 and one line, before touching the network."""
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(__import__("pathlib").Path(__file__).resolve().parents[2])}
    done = subprocess.run([sys.executable, "-m", "bot", "run"], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "coroner: DISCORD_TOKEN is not set; put the bot token in the environment or in .env"]


def test_settings_defaults_and_parsing(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    """Defaults: SQLite file; SHARD_IDS accepts a comma list; the token is a secret that never prints."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "abc.def")
    monkeypatch.setenv("SHARD_IDS", "0, 2")
    monkeypatch.setenv("SHARD_COUNT", "3")
    monkeypatch.setenv("DISCORD_API_BASE", "http://127.0.0.1:9999/")
    settings = Settings()
    assert settings.database_url == "sqlite+aiosqlite:///coroner.db"
    assert settings.shard_ids == [0, 2]
    assert settings.discord_api_base == "http://127.0.0.1:9999"
    assert "abc.def" not in repr(settings)
    assert settings.discord_token is not None and settings.discord_token.get_secret_value() == "abc.def"


@pytest.mark.parametrize(("env", "expected"), [
    ({"DATABASE_URL": "bogus"}, "coroner: cannot open the database 'bogus': Could not parse SQLAlchemy URL"),
    ({"DATABASE_URL": "sqlite:///x.db"}, "coroner: cannot open the database sqlite:///x.db: The asyncio extension"),
    ({"LOG_LEVEL": "loud"}, "coroner: invalid setting LOG_LEVEL: use one of CRITICAL, ERROR, WARNING, INFO, DEBUG"),
    ({"SHARD_IDS": "5", "SHARD_COUNT": "2"}, "coroner: invalid setting combination: every SHARD_IDS value must be"),
])
def test_bad_settings_give_one_line_and_exit_2(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                                               tmp_path, env: dict[str, str], expected: str) -> None:
    """A bad DATABASE_URL (checked before logging in to Discord) or setting is one line on stderr, exit 2."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "x")
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    assert main(["run"]) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert lines[-1].startswith(expected)
    assert sum(line.startswith("coroner:") for line in lines) == 1

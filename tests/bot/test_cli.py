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
    monkeypatch.setenv("DISCORD_API_BASE", "http://127.0.0.1:9999/")
    settings = Settings()
    assert settings.database_url == "sqlite+aiosqlite:///coroner.db"
    assert settings.shard_ids == [0, 2]
    assert settings.discord_api_base == "http://127.0.0.1:9999"
    assert "abc.def" not in repr(settings)
    assert settings.discord_token is not None and settings.discord_token.get_secret_value() == "abc.def"

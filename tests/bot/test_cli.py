"""The ``coroner`` console script and the process settings: every operator mistake is one line and exit code 2,
for every subcommand, and no output shows the database password."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli import main
from bot.settings import Settings
from tests.db.backends import PG_HOST, PG_PORT, pg_database  # noqa: F401

ROOT = Path(__file__).resolve().parents[2]
SUBCOMMANDS = ("run", "migrate", "check", "replay")


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """No .env, no setting in the environment, a SQLite file in a temporary folder."""
    monkeypatch.chdir(tmp_path)
    for name in Settings.model_fields:
        monkeypatch.delenv(name.upper(), raising=False)
    monkeypatch.setenv("DATABASE_URL", f"sqlite+aiosqlite:///{tmp_path / 'coroner.db'}")
    return tmp_path


def one_line(capsys: pytest.CaptureFixture[str]) -> str:
    """The single ``coroner:`` line on stderr (fails when there are more lines or none)."""
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith("coroner: ")
    return lines[0]


@pytest.mark.parametrize("command", ["run", "check"])
def test_missing_token_is_one_line_and_exit_2(clean_env: Path, capsys: pytest.CaptureFixture[str],
                                              command: str) -> None:
    """`coroner run` and `coroner check` without DISCORD_TOKEN: exactly one line on stderr naming it, exit 2."""
    assert main([command]) == 2
    assert one_line(capsys) == "coroner: DISCORD_TOKEN is not set; put the bot token in the environment or in .env"


def test_console_script_module_exits_2_without_token(tmp_path: Path) -> None:
    """The real process (python -m bot run) exits with status 2 and one line, before touching the network."""
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "bot", "run"], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "coroner: DISCORD_TOKEN is not set; put the bot token in the environment or in .env"]


def test_settings_defaults_and_parsing(clean_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Defaults: SQLite file; SHARD_IDS accepts a comma list; the token is a secret that never prints."""
    monkeypatch.delenv("DATABASE_URL")
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


BAD_SETTINGS = [
    ({"DATABASE_URL": "bogus"}, "coroner: invalid setting DATABASE_URL: not a SQLAlchemy URL; use e.g. "),
    ({"DATABASE_URL": "sqlite:///x.db"},
     "coroner: invalid setting DATABASE_URL: sqlite:// names no async driver; write sqlite+aiosqlite:// instead"),
    ({"DATABASE_URL": "postgresql://u:hunter2@db/coroner"},
     "coroner: invalid setting DATABASE_URL: postgresql:// names no async driver; write postgresql+asyncpg://"),
    ({"DATABASE_URL": "postgresql+psycopg://u:hunter2@db/coroner"},
     "coroner: invalid setting DATABASE_URL: the driver of postgresql+psycopg:// needs the Python package 'psycopg'"),
    ({"DATABASE_URL": "nosuchdb+x://u:hunter2@h/d"}, "coroner: invalid setting DATABASE_URL: unknown database kind"),
    ({"DATABASE_URL": "sqlite+aiosqlite:////no/such/folder/x.db"},
     "coroner: cannot open the database sqlite+aiosqlite:////no/such/folder/x.db: the folder /no/such/folder does "
     "not exist (check DATABASE_URL)"),
    ({"DISCORD_API_BASE": "not-a-url"},
     "coroner: invalid setting DISCORD_API_BASE: use an http(s) URL such as http://127.0.0.1:8080, not 'not-a-url'"),
    ({"LOG_LEVEL": "loud"}, "coroner: invalid setting LOG_LEVEL: use one of CRITICAL, ERROR, WARNING, INFO, DEBUG"),
    ({"DEV_GUILD_ID": "my server"}, "coroner: invalid setting DEV_GUILD_ID: Input should be a valid integer"),
    ({"SHARD_IDS": "0,1"}, "coroner: invalid settings: SHARD_IDS needs SHARD_COUNT, the total number of shards over "
                           "all processes (e.g. SHARD_COUNT=2 SHARD_IDS=0,1)"),
    ({"SHARD_IDS": "one"}, "coroner: invalid setting SHARD_IDS: write shard numbers separated by commas, e.g. 0,1"),
    ({"SHARD_IDS": "5", "SHARD_COUNT": "2"}, "coroner: invalid settings: every SHARD_IDS value must be below "
                                             "SHARD_COUNT (2)"),
]


@pytest.mark.parametrize("command", SUBCOMMANDS)
@pytest.mark.parametrize(("env", "expected"), BAD_SETTINGS)
def test_bad_settings_give_one_line_and_exit_2(clean_env: Path, monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str], env: dict[str, str],
                                               expected: str, command: str) -> None:
    """A bad setting, database URL or driver is one line on stderr naming what to fix, exit 2, for every
    subcommand, and the password in the URL is never shown."""
    monkeypatch.setenv("DISCORD_TOKEN", "x")
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    assert main([command]) == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert lines[-1].startswith(expected)
    assert sum(line.startswith("coroner:") for line in lines) == 1
    assert "hunter2" not in captured.out + captured.err


@pytest.mark.parametrize("command", SUBCOMMANDS)
def test_unreachable_database_is_one_line_without_password(clean_env: Path, monkeypatch: pytest.MonkeyPatch,
                                                           capsys: pytest.CaptureFixture[str], command: str) -> None:
    """PostgreSQL on a port where nothing listens: one line with the URL's password masked, exit 2."""
    monkeypatch.setenv("DISCORD_TOKEN", "x")
    monkeypatch.setenv("DATABASE_URL", "postgresql+asyncpg://coroner:hunter2@127.0.0.1:1/coroner")
    assert main([command]) == 2
    captured = capsys.readouterr()
    line = captured.err.strip().splitlines()[-1]
    assert line.startswith("coroner: cannot open the database postgresql+asyncpg://coroner:***@127.0.0.1:1/coroner: ")
    assert line.endswith("(check DATABASE_URL)")
    assert "hunter2" not in captured.out + captured.err


def test_version_and_help_list_every_setting(capsys: pytest.CaptureFixture[str]) -> None:
    """`coroner --version` prints the version; `coroner run --help` lists every setting with its default."""
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out.startswith("coroner 0.")
    with pytest.raises(SystemExit):
        main(["run", "--help"])
    text = capsys.readouterr().out
    for name in Settings.model_fields:
        assert f"  {name.upper()} " in text
    assert "DATABASE_URL       default sqlite+aiosqlite:///coroner.db: SQLAlchemy URL" in text
    assert "SYNC_COMMANDS      default true:" in text


def test_check_reports_settings_and_a_database_not_created_yet(clean_env: Path, monkeypatch: pytest.MonkeyPatch,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    """`coroner check` on a fresh folder: settings listed (token as "set", never its value), the SQLite file is
    not created, exit 0; after `coroner migrate` it reports the schema up to date."""
    monkeypatch.setenv("DISCORD_TOKEN", "s3cret-token")
    assert main(["check"]) == 0
    out = capsys.readouterr().out
    assert "  DISCORD_TOKEN      set\n" in out and "s3cret-token" not in out
    assert "does not exist yet; `coroner migrate` or `coroner run` creates it" in out
    assert not (clean_env / "coroner.db").exists()
    assert main(["migrate"]) == 0
    assert capsys.readouterr().out.endswith("is up to date\n")
    assert main(["check"]) == 0
    assert "reachable, schema up to date (revision " in capsys.readouterr().out


@pytest.mark.postgres
def test_postgres_password_never_printed_even_at_debug(pg_database: tuple[str, str] | str, tmp_path: Path) -> None:  # noqa: F811
    """With a password in DATABASE_URL and LOG_LEVEL=DEBUG, migrate and check print the URL with *** only (the
    test server trusts every password)."""
    if isinstance(pg_database, str):
        pytest.skip(pg_database)
    user, name = pg_database
    env = {**os.environ, "DATABASE_URL": f"postgresql+asyncpg://{user}:pw-hunter2@{PG_HOST}:{PG_PORT}/{name}",
           "LOG_LEVEL": "DEBUG", "DISCORD_TOKEN": "x", "PYTHONPATH": str(ROOT)}
    for command in ("migrate", "check"):
        done = subprocess.run([sys.executable, "-m", "bot", command], cwd=tmp_path, env=env, capture_output=True,
                              text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        assert "pw-hunter2" not in done.stdout + done.stderr
        assert f"postgresql+asyncpg://{user}:***@" in done.stdout

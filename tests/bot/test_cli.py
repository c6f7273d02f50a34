"""The ``coroner`` console script and the process settings: every operator mistake is one line and exit code 2,
for every subcommand, and no output shows the database password."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli import main
from bot.db.check import head_revision, revision_words
from bot.settings import Settings
from tests.bench import bench_tables
from tests.bot.test_readme import table_after
from tests.db.backends import PG_HOST, PG_PORT, pg_database  # noqa: F401
from tests.discord_double.server import TOKEN

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


def test_missing_token_is_one_line_and_exit_2(clean_env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`coroner run` without DISCORD_TOKEN: exactly one line on stderr naming it, exit 2."""
    assert main(["run"]) == 2
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
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
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
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
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
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    assert main(["check"]) == 0
    out = capsys.readouterr().out
    assert "  DISCORD_TOKEN      set\n" in out and TOKEN not in out
    assert "does not exist yet; `coroner migrate` or `coroner run` creates it" in out
    assert not (clean_env / "coroner.db").exists()
    assert main(["migrate"]) == 0
    assert capsys.readouterr().out == (f"coroner: database sqlite+aiosqlite:///{clean_env / 'coroner.db'} was empty; "
                                       f"created the schema at revision {revision_words(head_revision())}\n")
    assert main(["check"]) == 0
    assert f"reachable, schema up to date (revision {revision_words(head_revision())})" in capsys.readouterr().out


@pytest.mark.postgres
def test_postgres_password_never_printed_even_at_debug(pg_database: tuple[str, str] | str, tmp_path: Path) -> None:  # noqa: F811
    """With a password in DATABASE_URL and LOG_LEVEL=DEBUG, migrate and check print the URL with *** only (the
    test server trusts every password)."""
    if isinstance(pg_database, str):
        pytest.skip(pg_database)
    user, name = pg_database
    env = {**os.environ, "DATABASE_URL": f"postgresql+asyncpg://{user}:pw-hunter2@{PG_HOST}:{PG_PORT}/{name}",
           "LOG_LEVEL": "DEBUG", "DISCORD_TOKEN": TOKEN, "PYTHONPATH": str(ROOT)}
    for command in ("migrate", "check"):
        done = subprocess.run([sys.executable, "-m", "bot", command], cwd=tmp_path, env=env, capture_output=True,
                              text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        assert "pw-hunter2" not in done.stdout + done.stderr
        assert f"postgresql+asyncpg://{user}:***@" in done.stdout


@pytest.mark.parametrize(("token", "expected"), [
    ("my-bot-token", "coroner: DISCORD_TOKEN does not look like a bot token (three parts separated by dots, the "
                     "first the bot's id); copy it again from the Developer Portal (Bot, Reset Token), not the client "
                     "secret or public key"),
    ("MTIz.abcd.efghijklmnopqrstuvwxyz", "coroner: DISCORD_TOKEN does not look like a bot token"),  # parts too short
    ("aGVsbG8td29ybGQtbm90LWFuLWlk.ZG91Ymw.ZG91YmxlLXRva2VuLW5vdC1hLXJlYWwtb25l",  # base64, but not of an id
     "coroner: DISCORD_TOKEN does not look like a bot token"),
    (f"Bot {TOKEN}", 'coroner: DISCORD_TOKEN starts with "Bot "; set the token alone (the bot adds the prefix)'),
    (f'"{TOKEN}"', "coroner: DISCORD_TOKEN is quoted; set the token without the quotes"),
    ("123456789012345678", "coroner: DISCORD_TOKEN is a number (the application id?); copy the bot token"),
])
@pytest.mark.parametrize("command", ["run", "check"])
def test_a_malformed_token_is_one_line_and_exit_2_before_any_network(
        clean_env: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], token: str,
        expected: str, command: str) -> None:
    """The token's shape is checked offline (``run`` stops there, before the database and Discord), and the
    line never repeats the token."""
    monkeypatch.setenv("DISCORD_TOKEN", token)
    monkeypatch.setenv("DISCORD_API_BASE", "http://127.0.0.1:1")  # nothing listens: a network call would say so
    assert main([command]) == 2
    captured = capsys.readouterr()
    assert [line for line in captured.err.splitlines() if line.startswith("coroner:")] == [
        next(line for line in captured.err.splitlines() if line.startswith(expected))]
    assert token.strip('"').removeprefix("Bot ") not in captured.out + captured.err
    assert not (clean_env / "coroner.db").exists()


def test_check_reports_every_problem_in_one_pass(clean_env: Path, monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """Two wrong settings, a malformed token and a database that cannot be opened: four lines, exit 2; the
    settings listing still shows every setting (the wrong ones at their default)."""
    monkeypatch.setenv("LOG_LEVEL", "loud")
    monkeypatch.setenv("DEV_GUILD_ID", "my server")
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-token")
    monkeypatch.setenv("DATABASE_URL", "sqlite+aiosqlite:////no/such/folder/x.db")
    assert main(["check"]) == 2
    captured = capsys.readouterr()
    assert captured.err.splitlines() == [
        "coroner: invalid setting DEV_GUILD_ID: Input should be a valid integer, unable to parse string as an "
        "integer",
        "coroner: invalid setting LOG_LEVEL: use one of CRITICAL, ERROR, WARNING, INFO, DEBUG",
        "coroner: cannot open the database sqlite+aiosqlite:////no/such/folder/x.db: the folder /no/such/folder "
        "does not exist (check DATABASE_URL)",
        "coroner: DISCORD_TOKEN does not look like a bot token (three parts separated by dots, the first the bot's "
        "id); copy it again from the Developer Portal (Bot, Reset Token), not the client secret or public key"]
    assert captured.out.splitlines()[0].endswith(": problems found: 4 (on stderr)")
    assert "  LOG_LEVEL          loud  (invalid)\n" in captured.out
    assert "  DEV_GUILD_ID       my server  (invalid)\n" in captured.out


def test_check_needs_no_token(clean_env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """No DISCORD_TOKEN and nothing else wrong: ``check`` does not connect to Discord, so it exits 0 saying valid
    (it exited 2), the token shown as not set, and ``run`` still refuses with its one line."""
    assert main(["check"]) == 0
    captured = capsys.readouterr()
    assert captured.out.splitlines()[0].endswith(": settings and database valid"), captured.out
    assert "  DISCORD_TOKEN      NOT SET (run needs it)\n" in captured.out
    assert captured.err == ""


def test_check_shows_the_wrong_database_url_given_masked(clean_env: Path, monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    """A DATABASE_URL without an async driver and a DISCORD_API_BASE that is not http(s): the listing shows each
    as given (password as ***), marked invalid, not the default it fell back to; the password appears nowhere."""
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setenv("DATABASE_URL", "postgresql://u:hunter2@db/coroner")
    monkeypatch.setenv("DISCORD_API_BASE", "ftp://u:hunter2@proxy")
    assert main(["check"]) == 2
    captured = capsys.readouterr()
    assert "  DATABASE_URL       postgresql://u:***@db/coroner  (invalid)\n" in captured.out
    assert "  DISCORD_API_BASE   ftp://u:***@proxy  (invalid)\n" in captured.out
    assert "coroner.db" not in captured.out and "hunter2" not in captured.out + captured.err
    assert captured.out.splitlines()[0].endswith(": problems found: 2 (on stderr)")


def test_check_and_migrate_name_the_schema_revisions_in_words(clean_env: Path, capsys: pytest.CaptureFixture[str],
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """An empty database is "reachable and empty", one left at an old revision is named with what that revision
    added, and ``migrate`` says from which revision to which it upgraded (then that it was already up to date)."""
    import asyncio

    from bot.db.migrate import downgrade_to
    from bot.db.session import create_engine

    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    url = f"sqlite+aiosqlite:///{clean_env / 'coroner.db'}"
    (clean_env / "coroner.db").touch()
    assert main(["check"]) == 0
    head = revision_words(head_revision())
    empty = f"database: {url} reachable and empty (no schema yet), newest is revision {head}; "
    assert empty in capsys.readouterr().out
    assert main(["migrate"]) == 0
    assert capsys.readouterr().out == f"coroner: database {url} was empty; created the schema at revision {head}\n"

    async def back_to_0006() -> None:
        engine = create_engine(url)
        await downgrade_to(engine, "0006")
        await engine.dispose()

    asyncio.run(back_to_0006())
    assert main(["check"]) == 0
    assert (f"database: {url} reachable, schema at revision 0006 (live tables), newest is {head}; `coroner migrate` "
            "or `coroner run` upgrades it") in capsys.readouterr().out
    assert main(["migrate"]) == 0
    assert capsys.readouterr().out == f"coroner: database {url} upgraded from revision 0006 (live tables) to {head}\n"
    assert main(["migrate"]) == 0
    assert capsys.readouterr().out == f"coroner: database {url} was already up to date (revision {head})\n"


def test_replay_reports_each_bad_file_in_one_line_and_goes_on(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                                               ) -> None:
    """Files that are no game record (an empty object, broken JSON, a missing file, a list, a record of a game
    that does not exist): one line each naming what is wrong, the next file still checked, exit 2."""
    empty, broken, listed, unknown = (tmp_path / name for name in ("empty.json", "broken.json", "list.json",
                                                                   "unknown.json"))
    empty.write_text("{}")
    broken.write_text('{"game": ')
    listed.write_text("[1, 2]")
    unknown.write_text('{"game": "chess", "mode": "blitz", "options": {}, "seats": [], "seed": 1, "actions": [], '
                       '"outcome": null}')
    missing = tmp_path / "missing.json"
    assert main(["replay", str(empty), str(broken), str(missing), str(listed), str(unknown)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.splitlines() == [
        f"coroner: {empty} is not a game record: it has no game, mode, options, seats, seed, actions, outcome",
        f"coroner: {broken} is not JSON (Expecting value at line 1, column 10)",
        f"coroner: {missing} cannot be read (No such file or directory)",
        f"coroner: {listed} is not a game record (JSON, but not an object with game, mode, options, seats, seed, "
        "actions, outcome)",
        f"coroner: {unknown} is a record of chess/blitz, which this version of coroner does not play"]


def test_bench_tables_help_prints_its_options_and_runs_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    """``python -m tests.bench.bench_tables --help``: argparse's usage and exit 0, as the other benches (it ran the
    whole benchmark: nothing is printed of it here)."""
    with pytest.raises(SystemExit) as exited:
        bench_tables.main(["--help"])
    assert exited.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: ") and "--engines-only" in out and "--table-games" in out
    assert "actions/s" not in out


def test_guild_ready_seconds_reads_the_same_in_help_check_and_the_readme(
        clean_env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """GUILD_READY_SECONDS: `coroner run --help` and the README state the model's default and meaning (the README's
    with code marks), and `coroner check` shows the default in the same words."""
    meaning = Settings.model_fields["guild_ready_seconds"].description
    assert meaning is not None and meaning.startswith("seconds each shard waits")
    with pytest.raises(SystemExit):
        main(["run", "--help"])
    assert f"  GUILD_READY_SECONDS default 2: {meaning}\n" in capsys.readouterr().out
    assert main(["check"]) == 0
    assert "  GUILD_READY_SECONDS 2\n" in capsys.readouterr().out
    row = next(r for r in table_after("## Settings", "| setting |") if r[0] == "`GUILD_READY_SECONDS`")
    assert [row[1], row[2].replace("`", "")] == ["`2`", meaning]


def test_replay_says_in_one_line_when_a_record_s_options_or_seats_cannot_be_dealt(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A record whose options the mode refuses (a wrong value, or no object at all) and one with 0 seats: one
    ``coroner:`` line each naming what is wrong, no traceback, exit 2."""
    record = {"game": "asesino", "mode": "small", "options": {}, "seats": ["a", "b", "c"], "seed": 1,
              "actions": [], "outcome": None}
    files = {name: tmp_path / f"{name}.json" for name in ("value", "text", "seatless")}
    files["value"].write_text(json.dumps({**record, "options": {"first_player": "x"}}))
    files["text"].write_text(json.dumps({**record, "options": "bogus"}))
    files["seatless"].write_text(json.dumps({**record, "seats": []}))
    assert main(["replay", *map(str, files.values())]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.splitlines() == [
        f"coroner: {files['value']} is not a replayable record: its options are not valid for asesino/small "
        "(first_player: Input should be a valid integer, unable to parse string as an integer)",
        f"coroner: {files['text']} is not a replayable record: its options are not valid for asesino/small "
        "(options: Input should be a valid dictionary or instance of SmallOptions)",
        f"coroner: {files['seatless']} is not a replayable record: it has 0 seats; asesino/small is played by 2 to 4"]

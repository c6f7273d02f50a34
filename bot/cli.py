"""The ``coroner`` console script: ``run`` (the bot), ``migrate`` (upgrade the database), ``check`` (validate the
settings and the database without connecting to Discord), ``replay`` (every finished game replayed to its stored
outcome: :mod:`bot.history.command`) and ``simulate`` (a game played by random seats, printed;
no settings, token or database: :mod:`bot.simulate`).

Whatever the operator got wrong (a setting, the database URL or driver, the token, the API base, the network) ends
in one line on stderr, ``coroner: <what to fix>``, and exit code 2; no output ever shows the database password.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Callable

from bot.bot import run_bot
from bot.db.check import inspect_database, open_database, safe_url
from bot.history.command import report, report_files
from bot.logs import configure_logging
from bot.settings import Settings, StartupError, default_text, load_settings
from bot.simulate import command as simulate
from bot.startup import coroner_version

EXIT_OPERATOR = 2


def settings_help() -> str:
    """Every setting with its default and meaning, from :class:`~bot.settings.Settings` (for ``--help``)."""
    lines = ["settings (environment or .env):"]
    for name, field in Settings.model_fields.items():
        lines.append(f"  {name.upper():<18} default {default_text(name)}: {field.description}")
    return "\n".join(lines)


def _has_token(settings: Settings) -> bool:
    return bool(settings.discord_token and settings.discord_token.get_secret_value().strip())


def _require_token(settings: Settings) -> None:
    if not _has_token(settings):
        raise StartupError("DISCORD_TOKEN is not set; put the bot token in the environment or in .env")


def _shown(settings: Settings, name: str) -> str:
    """Setting ``name`` as ``check`` prints it: the token only as set / NOT SET, the URL without password."""
    value = getattr(settings, name)
    if name == "discord_token":
        return "set" if _has_token(settings) else "NOT SET"
    if name == "database_url":
        return safe_url(value)
    if value is None:
        return default_text(name)
    if isinstance(value, bool):
        return str(value).lower()
    return ",".join(map(str, value)) if isinstance(value, list) else str(value)


def run(settings: Settings) -> int:
    _require_token(settings)
    try:
        asyncio.run(run_bot(settings))
    except KeyboardInterrupt:
        pass
    return 0


def migrate(settings: Settings) -> int:
    async def upgrade() -> None:
        engine = await open_database(settings.database_url)
        await engine.dispose()

    asyncio.run(upgrade())
    print(f"coroner: database {safe_url(settings.database_url)} is up to date")
    return 0


def check(settings: Settings) -> int:
    """Print what the settings and the database are; fail (exit 2) as ``run`` would, minus Discord itself."""
    print(f"coroner {coroner_version()}: settings valid")
    for name in Settings.model_fields:
        print(f"  {name.upper():<18} {_shown(settings, name)}")
    print(asyncio.run(inspect_database(settings.database_url)).line())
    _require_token(settings)
    return 0


def replay(settings: Settings) -> int:
    """Replay every finished game of the database and compare it with its stored outcome (exit 1 on a mismatch)."""
    return asyncio.run(report(settings.database_url))


COMMANDS: dict[str, tuple[Callable[[Settings], int], str]] = {
    "run": (run, "run the bot (upgrades the database first)"),
    "migrate": (migrate, "upgrade the database to the latest schema and exit"),
    "check": (check, "validate the settings and the database (read-only), without connecting to Discord"),
    "replay": (replay, "replay every finished game from its seed and actions and check it reaches its stored outcome"),
}


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="coroner", description="Coroner, a Discord bot for killer tabletop games",
                                  epilog=settings_help(), formatter_class=argparse.RawDescriptionHelpFormatter)
    top.add_argument("--version", action="version", version=f"coroner {coroner_version()}")
    sub = top.add_subparsers(dest="command", required=True)
    commands = {name: sub.add_parser(name, help=summary, description=summary, epilog=settings_help(),
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
                for name, (_, summary) in COMMANDS.items()}
    commands["replay"].add_argument("files", nargs="*", metavar="FILE",
                                    help="exported records (/history's JSON, simulate --json) to replay instead")
    simulate.add_parser(sub)
    return top


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if args.command == "simulate":
        return simulate.run(args)
    if args.command == "replay" and args.files:  # exported records: no settings, no database
        return report_files(args.files)
    try:
        settings = load_settings()
        configure_logging(settings.log_level)
        return COMMANDS[args.command][0](settings)
    except StartupError as exc:
        print(f"coroner: {exc}", file=sys.stderr)
        return EXIT_OPERATOR
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    raise SystemExit(main())

"""The ``coroner`` console script: ``run`` (the bot), ``migrate`` (upgrade the database) and ``check`` (validate the
settings and the database without connecting to Discord).

Whatever the operator got wrong (a setting, the database URL or driver, the token, the API base, the network) ends
in one line on stderr, ``coroner: <what to fix>``, and exit code 2; no output ever shows the database password.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Callable
from importlib.metadata import PackageNotFoundError, version

from bot.settings import Settings, StartupError, default_text, load_settings

EXIT_OPERATOR = 2


def coroner_version() -> str:
    """The installed package's version (``unknown`` when running from a bare checkout)."""
    try:
        return version("coroner")
    except PackageNotFoundError:
        return "unknown"


def settings_help() -> str:
    """Every setting with its default and meaning, from :class:`~bot.settings.Settings` (for ``--help``)."""
    lines = ["settings (environment or .env):"]
    for name, field in Settings.model_fields.items():
        lines.append(f"  {name.upper():<18} default {default_text(name)}: {field.description}")
    return "\n".join(lines)


def _require_token(settings: Settings) -> str:
    token = settings.discord_token.get_secret_value().strip() if settings.discord_token else ""
    if not token:
        raise StartupError("DISCORD_TOKEN is not set; put the bot token in the environment or in .env")
    return token


def run(settings: Settings) -> int:
    from bot.bot import run_bot

    _require_token(settings)
    try:
        asyncio.run(run_bot(settings))
    except KeyboardInterrupt:
        pass
    return 0


def migrate(settings: Settings) -> int:
    from bot.db.check import open_database, safe_url

    async def upgrade() -> None:
        engine = await open_database(settings.database_url)
        await engine.dispose()

    asyncio.run(upgrade())
    print(f"coroner: database {safe_url(settings.database_url)} is up to date")
    return 0


def check(settings: Settings) -> int:
    """Print what the settings and the database are; fail (exit 2) as ``run`` would, minus Discord itself."""
    from bot.db.check import inspect_database, safe_url

    print(f"coroner {coroner_version()}: settings valid")
    for name in Settings.model_fields:
        value = getattr(settings, name)
        if name == "discord_token":
            shown = "set" if value is not None and value.get_secret_value().strip() else "NOT SET"
        elif name == "database_url":
            shown = safe_url(value)
        elif isinstance(value, list):
            shown = ",".join(map(str, value))
        else:
            shown = default_text(name) if value is None else str(value).lower() if isinstance(value, bool) else value
        print(f"  {name.upper():<18} {shown}")
    print(asyncio.run(inspect_database(settings.database_url)).line())
    _require_token(settings)
    return 0


COMMANDS: dict[str, tuple[Callable[[Settings], int], str]] = {
    "run": (run, "run the bot (upgrades the database first)"),
    "migrate": (migrate, "upgrade the database to the latest schema and exit"),
    "check": (check, "validate the settings and the database (read-only), without connecting to Discord"),
}


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="coroner", description="Coroner, a Discord bot for killer tabletop games",
                                  epilog=settings_help(), formatter_class=argparse.RawDescriptionHelpFormatter)
    top.add_argument("--version", action="version", version=f"coroner {coroner_version()}")
    sub = top.add_subparsers(dest="command", required=True)
    for name, (_, summary) in COMMANDS.items():
        sub.add_parser(name, help=summary, description=summary, epilog=settings_help(),
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    return top


def main(argv: list[str] | None = None) -> int:
    from bot.logs import configure_logging

    args = parser().parse_args(argv)
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

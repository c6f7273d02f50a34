"""The ``coroner`` console script: ``coroner run`` (the bot), ``coroner migrate`` (upgrade the database) and
``coroner simulate`` (watch a game played by random seats, see :mod:`bot.simulate`)."""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys

from pydantic import ValidationError

from bot import simulate
from bot.settings import Settings


def _settings() -> Settings | None:
    """The settings, or ``None`` after printing one line saying which one is wrong."""
    try:
        return Settings()
    except ValidationError as exc:
        first = exc.errors()[0]
        where = " ".join(map(str, first["loc"])).upper() or "combination"
        message = str(first["msg"]).removeprefix("Value error, ")
        print(f"coroner: invalid setting {where}: {message}", file=sys.stderr)
        return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="coroner", description="Coroner, a Discord bot for killer tabletop games")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("run", help="run the bot (upgrades the database first)")
    sub.add_parser("migrate", help="upgrade the database to the latest schema and exit")
    simulate.add_parser(sub)
    args = parser.parse_args(argv)
    if args.command == "simulate":  # no settings, token or database
        return simulate.run(args)
    settings = _settings()
    if settings is None:
        return 2
    logging.basicConfig(level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("alembic").setLevel(max(logging.WARNING, logging.getLogger().level))

    if args.command == "migrate":
        from bot.db.migrate import upgrade_cli

        upgrade_cli(settings.database_url)
        print(f"coroner: database at {settings.database_url} is up to date")
        return 0

    if settings.discord_token is None or not settings.discord_token.get_secret_value().strip():
        print("coroner: DISCORD_TOKEN is not set; put the bot token in the environment or in .env", file=sys.stderr)
        return 2
    from bot.bot import StartupError, run_bot

    try:
        asyncio.run(run_bot(settings))
    except StartupError as exc:
        print(f"coroner: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

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
from bot.db.check import inspect_database, migrate_database, revision_words, safe_url
from bot.history.command import report, report_files
from bot.logs import configure_logging
from bot.settings import (
    Settings,
    StartupError,
    default_text,
    load_settings,
    masked_url,
    setting_problems,
    token_problem,
    value_text,
)
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
    """Raises :class:`StartupError` when DISCORD_TOKEN is unset or not shaped like a bot token (offline)."""
    problem = token_problem(settings.discord_token.get_secret_value() if settings.discord_token else "")
    if problem:
        raise StartupError(problem)


def _shown(settings: Settings, name: str, given: dict[str, object] | None = None) -> str:
    """Setting ``name`` as ``check`` prints it: the token only as set / NOT SET, the URL without password; a
    wrong setting as the operator gave it (``given``), marked ``(invalid)``, never the default it fell back to."""
    if name == "discord_token":  # checked before ``given``: the token is never printed, right or wrong
        return "set" if _has_token(settings) else "NOT SET (run needs it)"
    if given and name in given:
        value = given[name]
        shown = {"database_url": safe_url, "discord_api_base": masked_url}.get(name, str)(str(value))
        return f"{shown}  (invalid)"
    value = getattr(settings, name)
    return safe_url(value) if name == "database_url" else value_text(value)


def run(settings: Settings) -> int:
    _require_token(settings)
    try:
        asyncio.run(run_bot(settings))
    except KeyboardInterrupt:
        pass
    return 0


def migrate(settings: Settings) -> int:
    """Upgrade the database and say from which revision to which."""
    before, after = asyncio.run(migrate_database(settings.database_url))
    where = safe_url(settings.database_url)
    if before == after:
        print(f"coroner: database {where} was already up to date (revision {revision_words(after)})")
    elif before is None:
        print(f"coroner: database {where} was empty; created the schema at revision {revision_words(after)}")
    else:
        print(f"coroner: database {where} upgraded from revision {revision_words(before)} to "
              f"{revision_words(after)}")
    return 0


def check(settings: Settings) -> int:
    """Print what the settings and the database are; fail (exit 2) as ``run`` would, minus Discord itself (so an
    unset ``DISCORD_TOKEN`` is shown, not a problem: a token set in a wrong shape is one)."""
    return check_all(settings, [])


def check_all(settings: Settings, problems: list[str], given: dict[str, object] | None = None) -> int:
    """``coroner check`` in one pass: every setting (those in ``problems`` were wrong: shown as ``given``, marked
    invalid), the token's shape and the database; each problem found is one ``coroner:`` line on stderr, and any
    makes the exit code 2. The first line counts every problem (settings, token, database) and says "valid" only
    when there is none."""
    problems = list(problems)
    database = None
    if not any(problem.startswith("invalid setting DATABASE_URL") for problem in problems):
        try:
            database = asyncio.run(inspect_database(settings.database_url)).line()
        except StartupError as exc:
            problems.append(str(exc))
    # an unset token is no problem here (check does not connect to Discord); a token set in a wrong shape is
    token = token_problem(settings.discord_token.get_secret_value()) if _has_token(settings) else None
    if token and not any(problem.startswith("invalid setting DISCORD_TOKEN") for problem in problems):
        problems.append(token)
    print(f"coroner {coroner_version()}: " + (f"problems found: {len(problems)} (on stderr)" if problems else
                                               "settings and database valid"))
    for name in Settings.model_fields:
        print(f"  {name.upper():<18} {_shown(settings, name, given)}")
    if database is not None:
        print(database)
    for problem in problems:
        print(f"coroner: {problem}", file=sys.stderr)
    return EXIT_OPERATOR if problems else 0


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
    if args.command == "check":  # every problem in one pass, not the first only
        return _check_command()
    try:
        settings = load_settings()
        configure_logging(settings.log_level)
        return COMMANDS[args.command][0](settings)
    except StartupError as exc:
        print(f"coroner: {exc}", file=sys.stderr)
        return EXIT_OPERATOR
    except KeyboardInterrupt:
        return 130


def _check_command() -> int:
    try:
        settings, problems, given = setting_problems()
    except StartupError as exc:  # the environment could not even be decoded
        print(f"coroner: {exc}", file=sys.stderr)
        return EXIT_OPERATOR
    configure_logging(settings.log_level)
    try:
        return check_all(settings, problems, given)
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    raise SystemExit(main())

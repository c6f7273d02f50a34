"""``compose.yaml`` (no container engine runs here, so it is read, not run): PostgreSQL on a named volume, the
migrations run once by a ``migrate`` service the bots wait for, and two bot processes whose settings are valid
:class:`~bot.settings.Settings` holding disjoint shards that together cover ``SHARD_COUNT``, on the migrated
database."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from bot.settings import Settings

ROOT = Path(__file__).resolve().parents[1]
VARIABLE = re.compile(r"\$\{(?P<name>\w+)(?::(?P<op>[-?])(?P<arg>[^}]*))?\}")


def interpolate(value: str, env: dict[str, str]) -> str:
    """Compose's ``${NAME}``, ``${NAME:-default}`` and ``${NAME:?error}`` with ``env``; a missing required one
    raises ``KeyError``."""
    def one(match: re.Match[str]) -> str:
        name, op, arg = match["name"], match["op"], match["arg"]
        if env.get(name):
            return env[name]
        if op == "?":
            raise KeyError(f"{name}: {arg}")
        return arg if op == "-" else ""
    return VARIABLE.sub(one, value)


def compose() -> dict[str, Any]:
    return yaml.safe_load((ROOT / "compose.yaml").read_text())  # the SafeLoader applies `<<` merge keys


def environment(service: dict[str, Any], env: dict[str, str]) -> dict[str, str]:
    return {k: interpolate(str(v), env) for k, v in service["environment"].items()}


def test_postgres_keeps_its_data_on_a_named_volume() -> None:
    services = compose()["services"]
    assert set(services) == {"postgres", "migrate", "bot-a", "bot-b"}
    volume, _, path = services["postgres"]["volumes"][0].partition(":")
    assert path == "/var/lib/postgresql/data" and volume in compose()["volumes"]
    assert services["postgres"]["healthcheck"]["test"][0] == "CMD-SHELL"


def test_migrations_run_once_before_the_bots() -> None:
    """``migrate`` runs ``coroner migrate`` once PostgreSQL is healthy (and is not restarted); each bot starts only
    after it succeeded, on the same database."""
    services = compose()["services"]
    migrate = services["migrate"]
    assert migrate["command"] == ["coroner", "migrate"] and migrate["restart"] == "no"
    assert migrate["depends_on"] == {"postgres": {"condition": "service_healthy"}}
    url = environment(migrate, {})["DATABASE_URL"]
    assert url == "postgresql+asyncpg://coroner:coroner@postgres:5432/coroner"
    for name in ("bot-a", "bot-b"):
        bot = services[name]
        assert bot["depends_on"] == {"migrate": {"condition": "service_completed_successfully"}}
        assert bot["build"] == migrate["build"] == "." and "command" not in bot  # the image's `coroner run`
        assert environment(bot, {"DISCORD_TOKEN": "t"})["DATABASE_URL"] == url


def test_two_bots_hold_two_shards_each_with_valid_settings() -> None:
    """Each bot's environment is a valid Settings (every name a setting); SHARD_IDS 0,1 and 2,3 of SHARD_COUNT 4;
    only one registers the commands; DISCORD_API_BASE from the shell reaches both (a shared REST proxy); without
    DISCORD_TOKEN compose refuses to start."""
    services = compose()["services"]
    settings = {name: Settings(_env_file=None, **{k.lower(): v for k, v in
                                                  environment(services[name], {"DISCORD_TOKEN": "t"}).items()})
                for name in ("bot-a", "bot-b")}
    for name in settings:
        assert {k.lower() for k in services[name]["environment"]} <= set(Settings.model_fields)
    assert [(s.shard_count, s.shard_ids) for s in settings.values()] == [(4, [0, 1]), (4, [2, 3])]
    assert [s.sync_commands for s in settings.values()] == [True, False]
    proxied = [Settings(_env_file=None, **{k.lower(): v for k, v in environment(
        services[name], {"DISCORD_TOKEN": "t", "DISCORD_API_BASE": "http://proxy:8080"}).items()})
        for name in ("bot-a", "bot-b")]
    assert [s.discord_api_base for s in proxied] == ["http://proxy:8080"] * 2  # one REST proxy for both
    assert [s.discord_api_base for s in settings.values()] == [None, None]  # unset: Discord itself
    with pytest.raises(KeyError, match="set DISCORD_TOKEN to the bot token"):
        environment(services["bot-a"], {})

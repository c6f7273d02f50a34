"""The living table under the host's controls, for every shipped game and mode: paused, it says who paused it, names
nobody to move and offers no move; cancelled, it names nobody to move, keeps only its History button and reveals
what a finished game shows; both fit Discord's limits with the longest names."""

from __future__ import annotations

from typing import Any

import pytest

from bot.cogs.asesino.small_ui import SmallUI
from bot.cogs.asesino.ui import TabletopUI
from bot.cogs.asesino_social.ui import SocialUI
from bot.cogs.cereal_killer.ui import CerealUI
from bot.cogs.lets_kill.ui import LetsKillUI
from bot.cogs.verdugo.ui import VerdugoUI
from bot.ui import register_ui
from games.core import HOST_SEAT, SeatInfo, all_games, get_engine
from games.core.controls import CloseGame, PauseGame
from tests.render.test_every_message_fits import (
    NOW,
    SHIPPED,
    assert_fits,
    make_table,
    offline_delivery,
    options_for,
    payload,
)

MODES = [(g.id, m.id, m.max_players) for g in all_games() if g.id in SHIPPED for m in g.modes]
NAME = "Ｗ" * 31 + "*"
#: the field a finished game's table reveals its roles in, where it has one
ROLES_FIELD = {("asesino", "tabletop"): "Roles", ("asesino", "small"): "Roles", ("asesino", "social"): "Every card"}


@pytest.fixture(autouse=True)
def game_uis() -> None:
    """Every shipped game's UI, as the bot registers them at start."""
    for ui in (TabletopUI(), SmallUI(), SocialUI(), CerealUI(), LetsKillUI(), VerdugoUI()):
        register_ui(ui)


def dealt(game: str, mode: str, players: int) -> Any:
    engine = get_engine(game, mode)
    return engine.setup(options_for(engine, game, mode), [SeatInfo(names=(NAME,)) for _ in range(players)], 5)


def buttons(sent: dict[str, Any]) -> list[str]:
    return [c["custom_id"].split(":")[4] if c["custom_id"].startswith("coroner:g:") else c["custom_id"].split(":")[1]
            for row in sent["components"] for c in row["components"]]


@pytest.mark.parametrize(("game", "mode", "players"), MODES)
@pytest.mark.parametrize("language", ["en", "es"])
def test_a_paused_table_says_who_paused_it_and_offers_no_move(game: str, mode: str, players: int,
                                                             language: str) -> None:
    engine = get_engine(game, mode)
    state = engine.apply(dealt(game, mode, players), HOST_SEAT, PauseGame(at=NOW, by="Ana*")).state
    table = make_table(game, mode, [NAME] * players, language, state, "active")
    out = offline_delivery().status_message(table, ["⏸️"])
    assert_fits(out, "paused")
    sent = payload(out)
    assert sent["content"].startswith("⏸️") and "Ana\\*" in sent["content"] and "<@" not in sent["content"]
    assert buttons(sent) == ["secrets", "host"]


@pytest.mark.parametrize(("game", "mode", "players"), MODES)
@pytest.mark.parametrize("language", ["en", "es"])
def test_a_cancelled_table_reveals_and_names_nobody(game: str, mode: str, players: int, language: str) -> None:
    engine = get_engine(game, mode)
    running = dealt(game, mode, players)
    closed = engine.apply(running, HOST_SEAT, CloseGame(at=NOW, by="Ana")).state
    delivery = offline_delivery()
    before = payload(delivery.status_message(make_table(game, mode, [NAME] * players, language, running, "active"),
                                             []))
    out = delivery.status_message(make_table(game, mode, [NAME] * players, language, closed, "cancelled"), [])
    assert_fits(out, "cancelled")
    sent = payload(out)
    assert not sent["content"] and buttons(sent) == ["h"]
    assert sent["embeds"][0] != before["embeds"][0] or game == "lets_kill"  # a finished Let's Kill! hides no more
    if (game, mode) in ROLES_FIELD and language == "en":
        assert ROLES_FIELD[(game, mode)] in [f["name"] for f in sent["embeds"][0].get("fields", [])]

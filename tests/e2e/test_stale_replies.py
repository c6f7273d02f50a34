"""A host's control that loses a race with a move (another process, a timer) says what did not happen, in the
game's language, instead of calling the panel or the question "out of date": Pause and Resume ask to try again,
a confirmed Cancel says nothing was cancelled and how to cancel after all."""

from __future__ import annotations

from typing import Any

import pytest

from bot.tables import TableError, TableService
from tests.e2e.conftest import World, answer, refusal, until_delivered
from tests.e2e.test_host import WORDS, open_panel, start_game

pytestmark = pytest.mark.usefixtures("potato")

STALE = {
    "en": {"pause": "⛔ The game moved on at that very moment, so it was not paused. Try again.",
           "close": "⛔ The game changed while you confirmed, so nothing was cancelled. Press Cancel again if you "
                    "still want to cancel it."},
    "es": {"pause": "⛔ La partida avanzó en ese mismo momento, así que no se ha pausado. Vuelve a intentarlo.",
           "close": "⛔ La partida cambió mientras confirmabas, así que no se ha cancelado nada. Pulsa Cancelar otra "
                    "vez si aún quieres cancelarla."},
}


def _raced(monkeypatch: pytest.MonkeyPatch, kind: str) -> None:
    """Every ``kind`` action loses its race: another writer moved the game first (``table.stale``)."""
    act = TableService.act

    async def losing(self: TableService, game_id: int, user_id: int | None, action: dict[str, Any],
                     *args: Any, **kwargs: Any) -> Any:
        if action.get("type") == kind:
            raise TableError("table.stale", game_id=game_id)
        return await act(self, game_id, user_id, action, *args, **kwargs)

    monkeypatch.setattr(TableService, "act", losing)


@pytest.mark.parametrize("language", ["en", "es"])
async def test_a_pause_that_lost_a_race_says_it_did_not_pause(world: World, language: str,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    alice = world.players[0]
    async with world.running():
        table = await start_game(world, language)
        await until_delivered(world)
        panel = await open_panel(alice, table)
        _raced(monkeypatch, "pause")
        refused = await refusal(await alice.click(panel, label=WORDS[language]["pause"]))
        game = await world.tables.table_in_channel(world.games.id)
    assert refused == STALE[language]["pause"]
    assert game is not None and game.status == "active"


@pytest.mark.parametrize("language", ["en", "es"])
async def test_a_confirmed_cancel_that_lost_a_race_says_nothing_was_cancelled(world: World, language: str,
                                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    alice = world.players[0]
    async with world.running():
        await start_game(world, language)
        await until_delivered(world)
        question = await answer(await alice.slash(world.games, "cancel"))
        _raced(monkeypatch, "close")
        refused = await refusal(await alice.click(question, label=WORDS[language]["yes"]))
        game = await world.tables.table_in_channel(world.games.id)
    assert refused == STALE[language]["close"]
    assert game is not None and game.status == "active"

"""The texts added with the seat controls and the gone places fit Discord's limits whatever the names (issue 8's
budget, :mod:`bot.budget`): the newcomer's secrets DM with its controls, the old host's DM, a seat's offer and every
end of it, what the host is told, the ``gone.*`` DMs and notice, and the social game's saved replies (the medium's
fallback included), with 32-character names at 12 players (every mode at its most), in English and Spanish, checked
against the limits the Discord double refuses; over-long parameters are cut, never refused."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

import bot.cogs.asesino
import bot.cogs.asesino_social
import bot.cogs.cereal_killer
import bot.cogs.lets_kill
import bot.cogs.verdugo  # noqa: F401 - registers the games' UIs
from bot.budget import CONTENT, size
from bot.cogs.asesino_social.ui import saved_reply
from bot.gone import gone_notice, medium_notice
from bot.seat_texts import OFFER_ENDS, handed_word, host_seat_taken, newcomer_dm, offer_end, offer_message, offered_word
from bot.tables import Table
from bot.ui import Outgoing, ui_for
from games.core import SeatInfo, all_games, get_engine
from tests.discord_double.limits import message_problems
from tests.render.test_every_message_fits import make_table, options_for, payload

LANGUAGES = ("en", "es")
#: 32 characters each, at their widest: escaped markdown (2 each), astral emoji (2 UTF-16 units), wide letters
NAMES = ["_" * 32, "*" * 32, "😀" * 32, "漢" * 32, "|" * 32, "~" * 32, "`" * 32, "Ｗ" * 32, "ﷺ" * 32, "\\" * 32,
         "_*" * 16, "😀_" * 16]
WHERE = "#" + "g" * 99  # a channel's or a server's name: at most 100 characters
MODES = [(g.id, m.id, m.max_players) for g in all_games() for m in g.modes]
SAVED = ("publish_note", "write_letter", "anonymous_post", "request_review", "send_clue", "interview_say")


def fits(out: Outgoing | str, what: str) -> None:
    body = payload(out) if isinstance(out, Outgoing) else {"content": out}
    assert not message_problems(body), (what, message_problems(body))


def running(game: str, mode: str, players: int, language: str) -> Table:
    engine = get_engine(game, mode)
    names = NAMES[:players]
    state = engine.setup(options_for(engine, game, mode), [SeatInfo(names=(n,)) for n in names], 7)
    return make_table(game, mode, names, language, state, "active")


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(("game", "mode", "players"), MODES)
def test_every_seat_text_fits_with_long_names(game: str, mode: str, players: int, language: str) -> None:
    """For every seat of a full table: the newcomer's DM (secrets and controls), the old host's DM, the offer, each
    of its ends (and once the game is over), and the host's private answers."""
    before = running(game, mode, players, language)
    newcomer = 10**17 + 99
    for seat in range(players):
        after = replace(before, host_id=before.user_of((seat + 1) % players),
                        seats=tuple(replace(s, user_id=newcomer, names=(NAMES[-1],)) if s.seat == seat else s
                                    for s in before.seats))
        fits(newcomer_dm(ui_for(game, mode), before, after, seat), f"newcomer DM, seat {seat}")
        fits(host_seat_taken(before, after, seat), f"old host's DM, seat {seat}")
        fits(offer_message(before, seat, newcomer), f"offer, seat {seat}")
        for why in OFFER_ENDS:
            fits(offer_end(before, {"seat": seat, "user_id": newcomer, "why": why}), f"offer {why}, seat {seat}")
        fits(offer_end(replace(before, status="finished"), {"seat": seat, "user_id": newcomer}), "offer ended")
        fits(handed_word(before, after, seat), f"handed to the computer, seat {seat}")
        fits(offered_word(before, seat, newcomer), f"offered, seat {seat}")


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_gone_texts_and_the_saved_replies_fit(language: str) -> None:
    table = running("asesino", "social", 12, language)
    for key in ("gone.channel", "gone.server", "gone.server_unseen"):
        fits(gone_notice(table, key, WHERE), key)
    fits(medium_notice(table), "gone.medium")
    for kind in SAVED:
        fits(saved_reply(table, f"asesino_social.ui.saved.{kind}"), kind)
    fits(saved_reply(table, "asesino_social.ui.saved_here.anonymous_post"), "saved here")


@pytest.mark.parametrize("language", LANGUAGES)
def test_over_long_parameters_are_cut_not_refused(language: str) -> None:
    """A name or place far past Discord's (3,000 characters) still gives a message Discord takes: each text goes
    through the budget, which cuts it ("…")."""
    names = ["x" * 3000, "y" * 3000]
    engine = get_engine("asesino", "small")
    state = engine.setup(engine.Options(), [SeatInfo(names=(n,)) for n in names], 7)
    table = make_table("asesino", "small", names, language, state, "active")
    built: dict[str, Any] = {
        "offer": offer_message(table, 0, 5), "offer end": offer_end(table, {"seat": 1, "user_id": 5, "why": "taken"}),
        "old host": host_seat_taken(table, replace(table, host_id=table.user_of(1)), 0),
        "newcomer": newcomer_dm(ui_for("asesino", "small"), table, table, 0),
        "gone": gone_notice(table, "gone.server", "z" * 3000),
        "handed": handed_word(table, replace(table, host_id=table.user_of(1)), 0),
        "offered": offered_word(table, 1, 5)}
    for what, out in built.items():
        content = payload(out)["content"] if isinstance(out, Outgoing) else out
        assert size(content) <= CONTENT and content.endswith("…"), what
        fits(out, what)

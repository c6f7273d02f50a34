"""``coroner simulate``: every registered mode plays to its outcome in both languages with its computer players, the
same seed tells the same game, ``--json`` replays, and the public transcript never carries a seat's private
messages."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import Any

import pytest

from bot.cli import main
from bot.i18n import t
from bot.simulate.driver import play
from bot.simulate.record import replays
from bot.simulate.transcript import INDENT, transcript
from games.core import all_games, get_engine, get_game
from games.core.ai import RANDOM, policy_for

MODES = [(g.id, m.id, m.min_players, m.max_players) for g in all_games() for m in g.modes]
IDS = [f"{game}-{mode}" for game, mode, *_ in MODES]


def simulate(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(["simulate", *argv]) == 0
    out = capsys.readouterr()
    assert out.err == ""
    return out.out


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize(("game", "mode", "low", "high"), MODES, ids=IDS)
def test_every_mode_plays_to_its_outcome_in_both_languages(capsys: pytest.CaptureFixture[str], game: str, mode: str,
                                                           low: int, high: int, lang: str) -> None:
    """The command prints the header, the players and the result block ("Game over", the winners) in the language
    asked, seats as names and never a mention (smallest table in English, largest in Spanish)."""
    players = low if lang == "en" else high
    lines = simulate(capsys, game, "--mode", mode, "--players", str(players), "--seed", "7", "--lang", lang)
    lines = lines.splitlines()
    assert lines[0] == t("simulate.header", lang, game=t(f"game.{game}", lang), mode=t(f"mode.{game}.{mode}", lang),
                         count=players, seed=7)
    assert lines[1].count(", ") == players - 1
    assert t("outcome.title", lang) in lines
    assert any(line.startswith(t("outcome.winners", lang) + ": ") for line in lines)
    assert len(lines) > 6  # moves were shown between the header and the result
    assert "<@" not in "\n".join(lines)


@pytest.mark.parametrize(("game", "mode", "low", "high"), MODES, ids=IDS)
def test_the_same_seed_tells_the_same_game(capsys: pytest.CaptureFixture[str], game: str, mode: str, low: int,
                                           high: int) -> None:
    """Two runs with one seed print the same revealed transcript; another seed plays another game."""
    first = simulate(capsys, game, "--mode", mode, "--seed", "11", "--reveal")
    again = simulate(capsys, game, "--mode", mode, "--seed", "11", "--reveal")
    other = simulate(capsys, game, "--mode", mode, "--seed", "12", "--reveal")
    assert first == again
    assert first != other


@pytest.mark.parametrize(("game", "mode", "low", "high"), MODES, ids=IDS)
def test_json_replays_to_the_final_state(capsys: pytest.CaptureFixture[str], game: str, mode: str, low: int,
                                         high: int) -> None:
    """The printed actions rebuild the simulated game's final state from the seed, with the printed outcome; a
    record with one action dropped does not."""
    data = json.loads(simulate(capsys, game, "--mode", mode, "--seed", "5", "--json"))
    final = play(game, mode, low, 5)
    engine = get_engine(game, mode)
    assert data["actions"] == [{"seat": m.seat, "action": m.action} for m in final.moves]
    assert data["outcome"] == engine.outcome(final.state).model_dump(mode="json")
    assert replays(data, engine.dump_state(final.state))
    cut = {**data, "actions": data["actions"][:-1]}
    assert not replays(cut, engine.dump_state(final.state))


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize(("game", "mode", "low", "high"), MODES, ids=IDS)
def test_the_public_transcript_has_no_private_message(game: str, mode: str, low: int, high: int, seed: int) -> None:
    """Without ``--reveal`` the transcript is the revealed one minus every message addressed to a seat, and no
    private message's text shows anywhere in it."""
    played = play(game, mode, high, seed)
    public = transcript(played, "en")
    revealed = transcript(played, "en", reveal=True)
    private: list[str] = []
    kept: list[str] = []
    hidden = False
    for line in revealed:
        if not line.startswith(INDENT):  # a new entry: a private one starts with its seat's label
            hidden = line.startswith("[to ")
            if hidden:
                private.append(line.split("] ", 1)[1])
        if not hidden:
            kept.append(line)
    assert private, "a game where no seat got a private message proves nothing"
    assert kept == public
    text = "\n".join(public)
    assert not [secret for secret in private if secret in text]


def test_timers_and_clocks_play_as_the_bots_would() -> None:
    """Turn timers run out now and then (the bot's move, announced as it announces it), and the social mode's days
    end by its own clock: system actions at each day's boundary."""
    played = play("cereal_killer", "classic", 3, 7)
    timed_out = [move for move in played.moves if move.timed_out]
    assert timed_out
    lines = transcript(played, "en")
    assert t("turn.auto", "en", seat=played.seats[timed_out[0].seat].names[0]) in lines
    closed = play("lets_kill", "classic", 3, 3)  # a response window's clock passes for the silent players
    text = "\n".join(transcript(closed, "en"))
    assert "⏱ Time is up: the game goes on without Carmen." in text and "#0" not in text
    social = play("asesino", "social", 6, 7)
    days = [move.action for move in social.moves if move.seat == -1 and move.action["type"] == "end_day"]
    assert [day["day"] for day in days] == list(range(1, len(days) + 1))
    assert days, "a social game over within its first day proves nothing of the clock"


def test_bad_input_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    """An unknown game or mode, or a player count outside the mode's, is one line on stderr and exit code 2."""
    assert main(["simulate", "nope"]) == 2
    assert main(["simulate", "asesino", "--mode", "nope"]) == 2
    assert main(["simulate", "asesino", "--mode", "small", "--players", "9"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err == ["coroner: unknown game 'nope'; one of: " + ", ".join(g.id for g in all_games()),
                   "coroner: asesino has no mode 'nope'; one of: " + ", ".join(m.id for m in get_game("asesino").modes),
                   "coroner: asesino small takes 2-4 players, not 9"]


def test_the_seats_are_the_games_computer_players() -> None:
    """Each seat plays its game's policy from its own view only: a game with every seat given that policy by hand is
    the default game, a game of random-legal seats is another; a policy sees its own seat's view."""
    default = play("cereal_killer", "classic", 2, 4, timeout_rate=0.0)
    policy = policy_for("cereal_killer", "classic")
    explicit = play("cereal_killer", "classic", 2, 4, policies={0: policy, 1: policy}, timeout_rate=0.0)
    randomly = play("cereal_killer", "classic", 2, 4, policies={0: RANDOM, 1: RANDOM}, timeout_rate=0.0)
    assert [m.action for m in explicit.moves] == [m.action for m in default.moves]
    assert [m.action for m in randomly.moves] != [m.action for m in default.moves]
    seen: list[tuple[bool, bool]] = []

    class Spy:
        def choose(self, view: dict[str, Any], legal: Sequence[Any], rng: random.Random) -> Any:
            seen.append(("killer_space" in view, "lola_answers" in view))
            return policy.choose(view, legal, rng)

    play("cereal_killer", "classic", 3, 4, policies={0: Spy(), 2: Spy()}, timeout_rate=0.0)
    assert (True, False) in seen and (False, True) in seen
    assert set(seen) == {(True, False), (False, True)}


@pytest.mark.parametrize(("lang", "key", "value"), [("en", "cheese_variant", "yes"), ("es", "variante_queso", "sí")])
def test_options_are_played_by_the_name_newgame_shows_in_each_language(
        capsys: pytest.CaptureFixture[str], lang: str, key: str, value: str) -> None:
    """Issue 21: ``--option KEY=VALUE`` (repeatable) sets the game's options, by the option's name or its name in
    the chosen language, as ``/newgame`` reads them; the record shows them."""
    out = simulate(capsys, "verdugo", "--seed", "4", "--lang", lang, "--json", "--option", f"{key}={value}",
                   "--option", "match=open", "--option", "first_executioner=1")
    assert json.loads(out)["options"] == {"match": "open", "cheese_variant": True, "first_executioner": 1}


@pytest.mark.parametrize(("lang", "argv", "expected"), [
    ("en", ["--option", "first_executioner=9"], "The option first_executioner is at most 7, not 9."),
    ("es", ["--option", "primer_verdugo=9"], "La opción primer_verdugo es como mucho 7, no 9."),
    ("en", ["--option", "rounds=2"], "has no option rounds"),
    ("es", ["--option", "nope"], "CLAVE=VALOR"),
    ("en", ["--players", "4", "--option", "first_executioner=7"], "first_executioner=7: there is no such seat"),
])
def test_bad_options_are_refused_with_newgames_messages(capsys: pytest.CaptureFixture[str], lang: str,
                                                       argv: list[str], expected: str) -> None:
    """A value past the option's limit, an option the mode lacks (a simulation is one game: no ``rounds``), a
    malformed one, and one the table does not fit are refused with exit code 2 and /newgame's own words."""
    assert main(["simulate", "verdugo", "--lang", lang, *argv]) == 2
    err = capsys.readouterr().err
    assert expected in err and "Traceback" not in err


def test_the_help_says_the_games_own_computer_policies_play(capsys: pytest.CaptureFixture[str]) -> None:
    """``--help`` no longer says "random players": each seat plays the game's own policy."""
    with pytest.raises(SystemExit):
        main(["simulate", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "random players" not in text and "the game's own computer policy" in text and "--option KEY=VALUE" in text

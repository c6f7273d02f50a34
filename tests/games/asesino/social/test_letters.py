"""Farewell Letter limits, the host's review of a refused letter, the Doctor's saved player and clues from beyond
(rulebook "Events"; rulings "Farewell Letters" and "A clue from beyond" in ``editions/asesino-rulings.md``).

Layout (helpers.NINE): 0 Killer, 1-3 Victims, 4 Detective, 5 Maniac, 6 Doctor, 7 Journalist, 8 Prosecutor.
"""

from __future__ import annotations

import pytest

from games.asesino.social import (
    ENGINE,
    SYSTEM_SEAT,
    Crime,
    Protect,
    Recruit,
    RequestReview,
    ReviewLetter,
    SendClue,
    WriteLetter,
)
from games.asesino.social.letters import letter_clues, pet_forms
from games.asesino.social.writing import check_text
from games.core import HOST_SEAT, Audience, SeatInfo
from games.core.seats import SeatReplaced

from .helpers import Game, find, keys

NAMED = [SeatInfo(names=("pablo_88", "Pablo Pérez", "Pablete")), SeatInfo(names=("fran", "Francisca", "Fran")),
         SeatInfo(names=("koke", "Jorge", "Koke")), SeatInfo(names=("roberto", "Roberto")),
         SeatInfo(names=("mer", "Mercedes")), SeatInfo(names=("jose", "José")),
         SeatInfo(names=("will", "William")), SeatInfo(names=("user7",)), SeatInfo(names=("user8",))]


def murdered(victim: int = 2) -> Game:
    game = Game(names=NAMED)
    game.act(0, Recruit, target=1)
    game.act(0, Crime, victim=victim)
    return game


@pytest.mark.parametrize(("text", "words"), [
    ("They killed me, Pablo Perez and Fran, behind the stairs.", "Pablo, Perez, Fran"),
    ("Adiós, FRANCISCA...", "FRANCISCA"),
    ("¡Pablo  PÉREZ!", "Pablo, PÉREZ"),
    ("Thanks, PABLETE", "PABLETE"),
    ("Robertito and Merche did it near the fountain", "Robertito, Merche"),
    ("Pepe knows what he did", "Pepe"),
    ("Ask Bill about it", "Bill"),
    ("Robrto was there", "Robrto"),
])
def test_letter_naming_a_player_or_a_short_or_pet_form_is_refused_naming_the_words(text: str, words: str) -> None:
    """Ruling: the bot refuses "a letter that names a player: a user name, display name or server nickname, or a
    shortened or pet form of one (any word that shares its first four letters with a word of a player's name, or
    is within one letter of a name of five letters or more)"; the rulebook's "Pablete and Fran" example too."""
    error = murdered().refused(2, WriteLetter, text=text)
    assert error.code == "asesino_social.letter_names_player" and error.params == {"words": words}


@pytest.mark.parametrize(("text", "words"), [
    ("It was <@123456789012345678>, I saw them", "<@123456789012345678>"),
    ("Ask <@!123456789012345678>", "<@!123456789012345678>"),
    ("Look up 123456789012345678", "123456789012345678"),
])
def test_a_mention_or_a_raw_user_id_is_refused_like_a_name(text: str, words: str) -> None:
    """Issue: "A letter with a mention of a player (user mention, or a player's raw user id) is refused like a
    name": Discord would show the mention as the player's name in the medium."""
    error = murdered().refused(2, WriteLetter, text=text)
    assert error.code == "asesino_social.letter_names_player" and error.params == {"words": words}


@pytest.mark.parametrize(("text", "words"), [
    ("The <@&1> people did it", "<@&1>"),
    ("<@&223456789012345678> and <@&2>, ask Fran", "<@&223456789012345678>, <@&2>"),
])
def test_a_role_mention_is_refused_as_naming_a_role_not_a_player(text: str, words: str) -> None:
    """A role mention is refused (a role may stand for one player) saying it names a role: it used to say "Your
    text names a player", naming no player. ``@everyone`` and ``@here`` are not refused (posted without a ping)."""
    error = murdered().refused(2, WriteLetter, text=text)
    assert error.code == "asesino_social.letter_names_role" and error.params == {"words": words}
    assert check_text(murdered().state, "Tell @everyone and @here: look closer.") is None


@pytest.mark.parametrize(("text", "time", "place"), [
    ("They killed me at 6 in the afternoon in the corridor.", "at 6", "corridor"),
    ("at seven in the evening, in the kitchen", "at seven", "kitchen"),
    ("Me mataron a las siete de la tarde en la cocina.", "tarde", "cocina"),
])
def test_letter_referring_to_both_a_time_and_a_place_is_refused(text: str, time: str, place: str) -> None:
    """Rulebook: "The letter may include a reference to the place or a reference to the time, but never both"
    (its own example: "They killed me at 6 in the afternoon in the corridor.")."""
    error = murdered().refused(2, WriteLetter, text=text)
    assert error.code == "asesino_social.letter_time_and_place"
    assert error.params["place"] == place and error.params["time"] in (time, "afternoon", "evening", "a las siete")


def test_the_refusal_quotes_time_and_place_as_the_writer_spelled_them() -> None:
    """Matching ignores case and accents, but the refusal shows the writer's own words."""
    error = murdered().refused(2, WriteLetter, text="Me mataron por la MAÑANA, en el Baño.")
    assert error.params == {"time": "MAÑANA", "place": "Baño"}


def test_a_letter_breaking_both_rules_names_every_word() -> None:
    """Every refusal says exactly which words broke which rule."""
    error = murdered().refused(2, WriteLetter, text="Merche, at 9 pm, in the garden")
    assert error.code == "asesino_social.letter_names_and_time_place"
    assert error.params == {"words": "Merche", "time": "at 9", "place": "garden"}


@pytest.mark.parametrize("text", [
    "After a grey day, just before dusk, around 18:00 hours, they viciously murdered me while I was having my snack.",
    "They are agile and know how to hide well. They took my life in the alley that connects the dining room with "
    "the classrooms.",
    "Red was their colour, and they prefer vanilla to chocolate.",
])
def test_the_rulebooks_permitted_letters_are_accepted(text: str) -> None:
    """The rulebook's two permitted examples (time only, place only) and a plain clue pass."""
    game = murdered()
    game.act(2, WriteLetter, text=text)
    assert game.state.today.letters == {2: text}


def test_refused_letter_sent_to_the_host_and_approved_is_published_at_the_day_end() -> None:
    """Ruling: "The writer may send a refused letter to the host for review instead; the host approves (it is
    posted) or rejects it privately"."""
    game = murdered()
    text = "Koke says: Pablete did it"
    game.refused(2, WriteLetter, text=text)
    sent = find(game.act(2, RequestReview, text=text), "asesino_social.review.sent")
    assert sent.audience == Audience.to(2) and sent.params == {"review": 1}
    assert ENGINE.view(game.state, None)["published"] == []
    assert "reviews" not in ENGINE.view(game.state, None)
    assert ENGINE.view(game.state, 2)["me"]["reviews"] == [{"id": 1, "day": 1, "status": "pending"}]
    assert ENGINE.view(game.state, 3)["me"]["reviews"] == []
    assert game.refused(2, RequestReview, text="another").code == "asesino_social.review_pending"
    assert game.refused(2, ReviewLetter, review=1, approve=True).code == "asesino_social.host_only"
    approved = game.act(SYSTEM_SEAT, ReviewLetter, review=1, approve=True)
    assert [(e.key, e.audience) for e in approved] == [("asesino_social.review.approved", Audience.to(2))]
    letter = find(game.end_day(), "asesino_social.letter")
    assert letter.audience == Audience.medium() and letter.params["text"] == text


def test_rejected_review_publishes_nothing() -> None:
    """A rejected letter is not posted; the writer hears so privately and may write another."""
    game = murdered()
    game.act(2, RequestReview, text="Koke again")
    rejected = game.act(SYSTEM_SEAT, ReviewLetter, review=1, approve=False)
    assert keys(rejected) == ["asesino_social.review.rejected"]
    assert game.refused(SYSTEM_SEAT, ReviewLetter, review=1, approve=True).code == "asesino_social.no_such_review"
    assert "asesino_social.letter" not in keys(game.end_day())


def test_a_player_the_doctor_saved_may_write_a_letter_that_day() -> None:
    """Rulebook, Doctor: "at the time of writing the Farewell Letter, the player may say that 'the Doctor saved me
    just in time before I could die'"; ruling: "A player the Doctor saved that day may write one too"."""
    game = Game(names=NAMED)
    game.act(6, Protect, target=2)
    game.act(0, Recruit, target=1)
    game.act(0, Crime, victim=2)
    assert game.state.seats[2].alive
    game.act(2, WriteLetter, text="The Doctor saved me just in time.")
    assert find(game.end_day(), "asesino_social.letter").params["seat"] == 2
    assert game.refused(2, WriteLetter, text="again").code == "asesino_social.no_letter_today"


def test_clue_from_beyond_after_the_day_of_death_is_published_unsigned() -> None:
    """Ruling: "after the day of their death, a murdered player may send one short clue per day, with the same
    limits as a letter; it is posted to the official medium at the day's end as a voice from beyond, unsigned"."""
    game = murdered()
    assert game.refused(2, SendClue, text="too soon").code == "asesino_social.no_clue"
    game.end_day()
    assert game.refused(2, SendClue, text="It was Fran").code == "asesino_social.letter_names_player"
    assert game.refused(3, SendClue, text="alive").code == "asesino_social.no_clue"
    game.act(2, SendClue, text="first")
    game.act(2, SendClue, text="Chocolate, always chocolate.")
    clues = [e for e in game.end_day() if e.key == "asesino_social.clue"]
    assert [(e.audience, e.params) for e in clues] == [(Audience.medium(), {"day": 2,
                                                                            "text": "Chocolate, always chocolate."})]
    assert ENGINE.view(game.state, None)["published"][-1] == {"day": 2, "kind": "clue", "seat": None,
                                                               "text": "Chocolate, always chocolate."}


def test_pet_form_and_clue_word_lists_are_small_per_language_data() -> None:
    """Both lists are game data per language (English and Spanish), lower case without accents."""
    assert set(pet_forms().languages) == set(letter_clues().languages) == {"en", "es"}
    assert "pepe" in pet_forms().languages["es"]["jose"] and "bill" in pet_forms().languages["en"]["william"]
    for lang in letter_clues().languages.values():
        assert all(word == word.lower() for word in lang.time + lang.place)


def test_a_refusal_fits_one_message_whatever_the_letter() -> None:
    """A letter of the longest length made only of names: the refusal names at most ten words, each cut short."""
    text = " ".join(["Robertito" * 20] + ["Merche", "Pepe", "Bill"] * 150)[:1800]
    error = murdered().refused(2, WriteLetter, text=text)
    words = error.params["words"].split(", ")
    assert words[:4] == [("Robertito" * 20)[:40], "Merche", "Pepe", "Bill"] and len(words) <= 5
    text = " ".join(f"Roberto{chr(97 + i % 26)}{chr(97 + i // 26)}" for i in range(150))
    error = murdered().refused(2, WriteLetter, text=text)
    assert error.params["words"].endswith(", …") and len(error.params["words"]) < 200


def test_why_a_player_has_nothing_to_do_follows_letters_and_clues() -> None:
    """``idle_reason``: the murdered player may write a letter on the day of death, send a clue after it; a living
    player whose action is spent has nothing more today."""
    from games.asesino.social.rules import idle_reason

    game = murdered()
    assert idle_reason(game.state, 2) == "asesino_social.dead_may_write_letter"
    assert idle_reason(game.state, 0) == "asesino_social.nothing_today"
    game.end_day()
    assert idle_reason(game.state, 2) == "asesino_social.dead_may_send_clue"
    game.act(2, SendClue, text="first")
    assert idle_reason(game.state, 2) == "asesino_social.dead_may_send_clue"  # one clue a day, the last one counts


def test_a_seat_handed_to_a_newcomer_is_named_by_the_newcomer_in_letters_not_by_its_former_holder() -> None:
    """A seat the host hands to another person (``seat_replaced``, :mod:`games.core.seats`) goes by the newcomer's
    names in the letter check: a letter naming the newcomer is refused, one naming only the former holder (no
    player any more) is taken; the state before the change is left as it was."""
    game = murdered()
    before = game.state
    change = SeatReplaced(seat=3, to="person", names=("ramona", "Ramona Ruiz"), was=("roberto", "Roberto"))
    game.state = ENGINE.apply(game.state, HOST_SEAT, change).state
    assert before.seats[3].names == ["roberto", "Roberto"]
    error = game.refused(2, WriteLetter, text="Ramona knows the corridor well.")
    assert error.code == "asesino_social.letter_names_player" and error.params == {"words": "Ramona"}
    game.act(2, WriteLetter, text="Roberto knows the corridor well.")
    assert game.state.today.letters[2] == "Roberto knows the corridor well."


def test_a_seat_handed_to_the_computer_keeps_its_names() -> None:
    """Handed to the computer, a seat goes by the names it had (the table shows it so): letters are checked
    against them still."""
    game = murdered()
    game.state = ENGINE.apply(game.state, HOST_SEAT, SeatReplaced(seat=3, to="computer")).state
    assert game.refused(2, WriteLetter, text="Roberto knows.").code == "asesino_social.letter_names_player"

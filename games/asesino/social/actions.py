"""Social-mode actions: a discriminated union on ``type``. Every action carries ``at`` (aware datetime, the
moment the adapter received it); players' actions are private requests to the bot (DM or slash command).

The clock's actions (``end_day``, ``expire_judgements``) come from the game's own clock with seat ``-1``
(:data:`~games.asesino.social.state.SYSTEM_SEAT`); the host's (``review_letter``) with ``HOST_SEAT``."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AwareDatetime, BaseModel, Field

TEXT_LIMIT = 1800  # fits one Discord message with its heading
CLUE_LIMIT = 280  # "one short clue": our ruling


class _Timed(BaseModel):
    at: AwareDatetime


class Recruit(_Timed):
    """The Killer makes ``target`` the Accomplice (once per game, irrefutable)."""

    type: Literal["recruit"] = "recruit"
    target: int


class Crime(_Timed):
    """The Killer or the Accomplice kills ``victim`` (one crime a day for the pair)."""

    type: Literal["crime"] = "crime"
    victim: int


class Protect(_Timed):
    """The Doctor protects ``target`` for the rest of the day (once a day; not the same player two days running)."""

    type: Literal["protect"] = "protect"
    target: int


class Inspect(_Timed):
    """The Detective sees ``target``'s role card (once a day)."""

    type: Literal["inspect"] = "inspect"
    target: int


class Interview(_Timed):
    """The Journalist interviews ``target`` (once a day); the adapter relays the conversation."""

    type: Literal["interview"] = "interview"
    target: int


class PublishNote(_Timed):
    """The Journalist's note on today's interview, published at the day's end (a later note replaces it)."""

    type: Literal["publish_note"] = "publish_note"
    text: str = Field(min_length=1, max_length=TEXT_LIMIT)


class InterviewSay(_Timed):
    """One message of today's open interview, from either side (the Journalist or the interviewee) to the other:
    the bot passes it on, and the game keeps it as an action, so the history and a replay show the talk."""

    type: Literal["interview_say"] = "interview_say"
    text: str = Field(min_length=1, max_length=TEXT_LIMIT)


class ManiacKill(_Timed):
    """The Maniac kills ``target`` (once a day)."""

    type: Literal["maniac_kill"] = "maniac_kill"
    target: int


class OpenJudgement(_Timed):
    """A respected player accuses ``accused``; the opener is its first backer."""

    type: Literal["open_judgement"] = "open_judgement"
    accused: int


class BackJudgement(_Timed):
    """A respected player backs the open judgement ``judgement`` (its id)."""

    type: Literal["back_judgement"] = "back_judgement"
    judgement: int


class WriteLetter(_Timed):
    """A Farewell Letter (on the day of death or of a standing judgement; a later letter replaces it)."""

    type: Literal["write_letter"] = "write_letter"
    text: str = Field(min_length=1, max_length=TEXT_LIMIT)


class RequestReview(_Timed):
    """The writer sends a Farewell Letter the checks refused to the host, who approves or rejects it (ruling
    "Farewell Letters": "The writer may send a refused letter to the host for review instead")."""

    type: Literal["request_review"] = "request_review"
    text: str = Field(min_length=1, max_length=TEXT_LIMIT)


class ReviewLetter(_Timed):
    """System (the adapter checks that the host decided): approve (the letter is posted at the day's end) or
    reject the pending review ``review`` (its id)."""

    type: Literal["review_letter"] = "review_letter"
    review: int
    approve: bool


class SendClue(_Timed):
    """A clue from beyond: a murdered player, after their day of death, one a day (a later one replaces it), with
    a letter's limits; posted unsigned at the day's end."""

    type: Literal["send_clue"] = "send_clue"
    text: str = Field(min_length=1, max_length=CLUE_LIMIT)


class AnonymousPost(_Timed):
    """A post to the official medium under the author's character name."""

    type: Literal["anonymous_post"] = "anonymous_post"
    text: str = Field(min_length=1, max_length=TEXT_LIMIT)


class EndDay(_Timed):
    """System: roll day ``day`` over (a stale timer for another day is refused). ``next_ends_at`` lets the
    adapter fix the next boundary itself; otherwise :func:`~games.asesino.social.clock.day_end` computes it."""

    type: Literal["end_day"] = "end_day"
    day: int
    next_ends_at: AwareDatetime | None = None


class ExpireJudgements(_Timed):
    """System: close every open judgement whose window ended before ``at``."""

    type: Literal["expire_judgements"] = "expire_judgements"


SocialAction = Annotated[
    Recruit
    | Crime
    | Protect
    | Inspect
    | Interview
    | PublishNote
    | InterviewSay
    | ManiacKill
    | OpenJudgement
    | BackJudgement
    | WriteLetter
    | RequestReview
    | SendClue
    | AnonymousPost
    | EndDay
    | ExpireJudgements
    | ReviewLetter,
    Field(discriminator="type"),
]

#: what only the game's own clock sends (as ``SYSTEM_SEAT``, see :meth:`~games.asesino.social.engine.SocialEngine.due`)
CLOCK_ACTIONS = (EndDay, ExpireJudgements)
#: what only the game's host sends (as ``HOST_SEAT``): the review of a refused Farewell Letter (ruling "Farewell
#: Letters")
HOST_ACTIONS = (ReviewLetter,)
#: every action no player sends
SYSTEM_ACTIONS = (*CLOCK_ACTIONS, *HOST_ACTIONS)

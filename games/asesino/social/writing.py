"""What players write for the official medium: Farewell Letters (and the host's review of a refused one), clues from
beyond and anonymous posts.

Rules: rulebook "Events" (Farewell Letter, "a clue if it came from beyond") and "Judgement"; rulings in
``editions/asesino-rulings.md`` ("Farewell Letters", "A clue from beyond", "Anonymous posts"). ``check_*`` reads the
state and raises; ``do_*`` mutates the copy in a :class:`Ctx`.
"""

from __future__ import annotations

from functools import lru_cache

from games.asesino.social.actions import AnonymousPost, RequestReview, ReviewLetter, SendClue, WriteLetter
from games.asesino.social.letters import named_words, role_mentions, time_and_place
from games.asesino.social.rules import Ctx, may_send_clue, may_write_letter, require_respected
from games.asesino.social.state import Post, Review, SocialState
from games.core import IllegalAction

#: a refusal names at most this many words, each cut to ``WORD_SHOWN`` characters (it must fit one message)
WORDS_SHOWN = 10
WORD_SHOWN = 40


def check_text(state: SocialState, text: str) -> None:
    """The limits of a letter or a clue: no role mentioned, no player named (names, their short and pet forms, user
    mentions, raw user ids), and not both a place and a time. Raises ``asesino_social.letter_names_role``
    (``words``) first, then ``asesino_social.letter_names_player`` (``words``), ``asesino_social.letter_time_and_place``
    (``time``, ``place``) or ``asesino_social.letter_names_and_time_place`` (all three), each naming the words that
    broke the rule."""
    refusal = _text_refusal(text, tuple(name for player in state.seats for name in player.names))
    if refusal is not None:
        code, params = refusal
        raise IllegalAction(code, **dict(params))


@lru_cache(maxsize=1024)
def _text_refusal(text: str, names: tuple[str, ...]) -> tuple[str, tuple[tuple[str, str], ...]] | None:
    """:func:`check_text`'s verdict on ``text`` among the players' ``names``: the refusal's code and parameters, or
    ``None``. Made once per text and table (the legal moves ask it of the placeholder after every move)."""
    if roles := role_mentions(text):
        return "asesino_social.letter_names_role", (("words", _shown(roles)),)
    names_found = _shown(named_words(text, list(names)))
    both = time_and_place(text)
    if names_found and both:
        return "asesino_social.letter_names_and_time_place", (("words", names_found), ("time", both[0]),
                                                              ("place", both[1]))
    if names_found:
        return "asesino_social.letter_names_player", (("words", names_found),)
    if both:
        return "asesino_social.letter_time_and_place", (("time", both[0]), ("place", both[1]))
    return None


def _shown(found: list[str]) -> str:
    """The offending words as a refusal lists them: at most ``WORDS_SHOWN``, each cut to ``WORD_SHOWN``."""
    return ", ".join([word[:WORD_SHOWN] for word in found[:WORDS_SHOWN]] + (["…"] if len(found) > WORDS_SHOWN else []))


def _require_letter_day(state: SocialState, seat: int) -> None:
    if not may_write_letter(state, seat):
        if not state.seats[seat].alive:
            raise IllegalAction("asesino_social.dead")
        raise IllegalAction("asesino_social.no_letter_today")


def check_letter(state: SocialState, seat: int, action: WriteLetter) -> None:
    """On the day of death, of a standing judgement or of a Doctor's save; within :func:`check_text`'s limits."""
    _require_letter_day(state, seat)
    check_text(state, action.text)


def do_letter(ctx: Ctx, action: WriteLetter) -> None:
    ctx.state.today.letters[ctx.seat] = action.text
    ctx.tell([ctx.seat], "asesino_social.letter.saved")


def check_request_review(state: SocialState, seat: int, action: RequestReview) -> None:
    """A writer who may write a letter today, with no other review pending."""
    _require_letter_day(state, seat)
    if any(r.seat == seat and r.status == "pending" for r in state.reviews):
        raise IllegalAction("asesino_social.review_pending")


def do_request_review(ctx: Ctx, action: RequestReview) -> None:
    """Recorded for the host (the adapter shows it to them privately); the writer is told."""
    state = ctx.state
    review = Review(id=len(state.reviews) + 1, seat=ctx.seat, day=state.day, text=action.text)
    state.reviews.append(review)
    ctx.ref = review.id
    ctx.tell([ctx.seat], "asesino_social.review.sent", review=review.id)


def check_review(state: SocialState, seat: int, action: ReviewLetter) -> None:
    if not 1 <= action.review <= len(state.reviews) or state.reviews[action.review - 1].status != "pending":
        raise IllegalAction("asesino_social.no_such_review", review=action.review)


def do_review(ctx: Ctx, action: ReviewLetter) -> None:
    """Approved: the letter replaces the writer's draft and is posted at this day's end. Rejected: nothing is
    posted. The writer is told either way, privately."""
    review = ctx.state.reviews[action.review - 1]
    review.status = "approved" if action.approve else "rejected"
    ctx.target, ctx.ref = review.seat, review.id
    if action.approve:
        ctx.state.today.letters[review.seat] = review.text
    ctx.tell([review.seat], f"asesino_social.review.{review.status}", review=review.id)


def check_clue(state: SocialState, seat: int, action: SendClue) -> None:
    """A murdered player after the day of death; within :func:`check_text`'s limits."""
    if not may_send_clue(state, seat):
        raise IllegalAction("asesino_social.no_clue")
    check_text(state, action.text)


def do_clue(ctx: Ctx, action: SendClue) -> None:
    ctx.state.today.clues[ctx.seat] = action.text
    ctx.tell([ctx.seat], "asesino_social.clue.saved")


def check_post(state: SocialState, seat: int, action: AnonymousPost) -> None:
    """Respected players only: the dead withdraw from the argument and the judged are deprived of it
    (rulebook "Events", Judgement)."""
    require_respected(state, seat)


def do_post(ctx: Ctx, action: AnonymousPost) -> None:
    state = ctx.state
    post = Post(id=len(state.posts) + 1, seat=ctx.seat, character=state.seats[ctx.seat].character, day=state.day,
                text=action.text)
    state.posts.append(post)
    ctx.ref = post.id
    ctx.announce("asesino_social.anonymous_post", medium=True, post=post.id, character=post.character,
                 text=post.text)

"""The social mode's My actions paging and the up-front refusal of text modals."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from bot.clock import FakeClock
from bot.cogs.asesino_social.ui import MAX_SELECTS, TARGET_KINDS, action_pages, check_now
from games.asesino.social import ENGINE, Crime, Recruit, SocialRole
from games.core import IllegalAction
from tests.bot.asesino_social.test_render import START, make_table, new_state, seat_of


@pytest.mark.parametrize(("kinds", "per_page", "expected"), [
    ([], None, [[]]),
    (["recruit", "open_judgement"], None, [["recruit", "open_judgement"]]),
    (["recruit", "open_judgement"], 1, [["recruit"], ["open_judgement"]]),
    (list(TARGET_KINDS), None, [list(TARGET_KINDS[:MAX_SELECTS]), list(TARGET_KINDS[MAX_SELECTS:])]),
])
def test_action_kinds_are_paged_without_losing_any(kinds: list[str], per_page: int | None,
                                                   expected: list[list[str]]) -> None:
    """Pages hold at most the per-page count, keep the order and cover every kind (one empty page for none)."""
    assert action_pages(kinds, per_page) == expected


def test_a_dead_players_post_is_refused_before_the_modal_and_the_state_is_untouched() -> None:
    """check_now raises the engine's reason for a murdered player's post and leaves the table's state as it was."""
    state = new_state()
    killer, victims = seat_of(state, SocialRole.KILLER), [i for i, s in enumerate(state.seats)
                                                         if s.card == SocialRole.VICTIM]
    state = ENGINE.apply(state, killer, Recruit(at=START, target=victims[0])).state
    state = ENGINE.apply(state, killer, Crime(at=START, victim=victims[1])).state
    table = make_table(state)
    before = ENGINE.dump_state(state)
    bot = SimpleNamespace(clock=FakeClock(START))
    with pytest.raises(IllegalAction) as refused:
        check_now(bot, table, victims[1], {"type": "anonymous_post", "text": "..."})  # type: ignore[arg-type]
    assert refused.value.code == "asesino_social.dead_may_write_letter"
    check_now(bot, table, victims[1], {"type": "write_letter", "text": "..."})  # type: ignore[arg-type]
    assert ENGINE.dump_state(table.state) == before


def test_a_modal_opens_after_the_boundary_and_refusals_still_come_first() -> None:
    """A day already over is no reason to refuse the modal (its submission ends the overdue days first and is judged
    then); within the day a refusal still comes before the modal."""
    from datetime import timedelta

    from bot.cogs.asesino_social.ui import open_modal_checked
    from bot.modals import GameModal

    state = new_state()
    table = make_table(state)
    late = SimpleNamespace(clock=FakeClock(state.day_ends_at + timedelta(hours=3)))
    modal = open_modal_checked(late, table, 0, "anonymous_post")  # type: ignore[arg-type]
    assert isinstance(modal, GameModal) and modal.custom_id.endswith(":text:anonymous_post")
    assert isinstance(open_modal_checked(late, table, 0, "write_letter"), GameModal)  # type: ignore[arg-type]
    in_time = SimpleNamespace(clock=FakeClock(START))
    with pytest.raises(IllegalAction) as refused:
        open_modal_checked(in_time, table, 0, "write_letter")  # type: ignore[arg-type]
    assert refused.value.code == "asesino_social.no_letter_today"

"""A step's per-send records when its transaction recorded its whole plan's intent (issue 20 "delivery is a plan",
issue 22): no statement per message; a resumed delivery looks every unrecorded message up and never takes one it
already matched for another; what a failed delivery made is recorded with the plan's intent kept."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.tables.step import PLANNED, SKEW, StepInfo, plan_intent

AT = datetime(2026, 12, 3, 7, 0, tzinfo=UTC)


def test_the_plan_s_intent_is_a_snowflake_from_just_before_the_commit() -> None:
    (key, value), = plan_intent(AT).items()
    assert key == PLANNED and value < 0
    assert datetime.fromtimestamp(((-value >> 22) + 1_420_070_400_000) / 1000, UTC) == AT - SKEW


async def test_a_planned_step_writes_nothing_per_message_and_its_resumed_delivery_looks_each_one_up() -> None:
    records: list[dict[str, int]] = []

    async def record(sent: dict[str, int]) -> None:
        records.append(sent)

    first = StepInfo(1, 2, planned=-99, record=record, fresh=True)
    for n, nonce in enumerate(("o1.t.0", "o1.d1.0", "o1.d2.0")):
        assert first.created(nonce) is None  # the step's first delivery: nothing exists yet
        await first.creating(nonce, 1000 + n)
        first.made(nonce, 500 + n)
    assert records == []  # the step's transaction recorded the plan: no statement per message
    assert first.taken() == {500, 501, 502}
    assert first.unrecorded == {PLANNED: -99, "o1.t.0": 500, "o1.d1.0": 501, "o1.d2.0": 502}

    resumed = StepInfo(1, 2, planned=-99, sent={"o1.t.0": 500}, record=record)
    assert resumed.created("o1.t.0") == 500  # recorded as created
    assert resumed.created("o1.d1.0") == -99  # may have been: looked for after the plan's anchor
    resumed.made("o1.d1.0", 501)
    assert resumed.taken() == {500, 501}  # a look-back for the next one skips these


async def test_a_step_without_the_plan_records_each_message_before_creating_it() -> None:
    records: list[dict[str, int]] = []

    async def record(sent: dict[str, int]) -> None:
        records.append(sent)

    step = StepInfo(1, 2, record=record)
    assert step.created("o1.t.0") is None
    await step.creating("o1.t.0", 1000)
    step.made("o1.t.0", 500)
    await step.creating("o1.d1.0", 1001)
    assert records == [{"o1.t.0": -1000}, {"o1.t.0": 500, "o1.d1.0": -1001}]

"""Time-zone names as data: a validated IANA name (``zoneinfo`` is pure stdlib, no wall clock)."""

from __future__ import annotations

from typing import Annotated
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import AfterValidator


def check_time_zone(value: str) -> str:
    """``value`` when it names an IANA time zone (e.g. ``Europe/Madrid``). Raises ``ValueError`` otherwise."""
    try:
        ZoneInfo(value)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise ValueError(f"unknown time zone {value!r} (use an IANA name such as Europe/Madrid)") from exc
    return value


#: an IANA time zone name, checked on validation (a game's options and the server's ``/config days``)
TimeZoneName = Annotated[str, AfterValidator(check_time_zone)]

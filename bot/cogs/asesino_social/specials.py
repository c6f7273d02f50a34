"""``/newgame asesino mode:social special_roles:``'s autocomplete: the role table's specials (README ruling 31),
named in the server's language, offered as the list the host is typing grows (``doctor, pro`` -> ``Doctor,
Prosecutor``), with "All special roles" (``all``, which clears a choice) first while nothing is chosen. What is
finally sent is checked by the option's own validator (:class:`games.asesino.social.clock.SocialOptions`), which
refuses an unknown word by name."""

from __future__ import annotations

import re

from bot.i18n import t
from games.asesino.social.roles import SocialRole, UnknownRole, folded, parse_specials, role_table, special_names

#: the lobby option these suggestions are for
OPTION = "special_roles"
#: the value that puts every special in play (one of the role table's ``everyone`` words)
ALL = "all"


def _name(role: SocialRole, language: str) -> str:
    return t(f"asesino_social.role.{role.value}", language)


def special_suggestions(typed: str, language: str) -> list[tuple[str, str]]:
    """``(shown, value)`` choices for ``typed`` (see the module): the roles written before the last word are
    kept, the last word completes to each special not chosen yet whose id, alias or name in ``language`` starts
    with it; the list as written so far comes first when it ends with a separator. None when an earlier word
    names no special (sending it shows the refusal)."""
    *done, last = re.split(r"[\s,;/]+", typed) or [""]
    try:
        chosen = parse_specials(" ".join(done)) if any(done) else ()
    except UnknownRole:
        return []
    start = folded(last)
    found: list[tuple[str, str]] = []
    if chosen and not last:
        found.append(_choice(chosen, language))
    every = t("asesino_social.option.all_specials", language)
    if not chosen and (folded(every).startswith(start) or ALL.startswith(start)):
        found.append((every, ALL))
    for role in role_table().specials:
        words = [*special_names(role), folded(_name(role, language))]
        if role not in chosen and any(word.startswith(start) for word in words):
            found.append(_choice(tuple(r for r in role_table().specials if r in chosen or r is role), language))
    return found


def _choice(roles: tuple[SocialRole, ...], language: str) -> tuple[str, str]:
    return ", ".join(_name(r, language) for r in roles), ", ".join(r.value for r in roles)

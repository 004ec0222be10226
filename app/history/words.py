"""Words for cards, trumps and lists of people, in the page's language."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from app.history.i18n import Text


def N_(message: str) -> str:  # noqa: N802 - the gettext convention for "mark, translate later"
    return message


# Marked with N_ for extraction, translated at run time through ``Text``.
_COLOUR_NAMES = {
    "red": N_("red"),
    "yellow": N_("yellow"),
    "green": N_("green"),
    "blue": N_("blue"),
    "purple": N_("purple"),
}
_TRUMP_COLOUR_NAMES = {
    "red": N_("Red"),
    "yellow": N_("Yellow"),
    "green": N_("Green"),
    "blue": N_("Blue"),
    "purple": N_("Purple"),
}


# The engine's role keys (``roles`` in views and score sheets): classic chief/vice, revised
# Crown/Shield (held in the same ``chief``/``vice`` fields).
_ROLE_NAMES = {
    "chief": N_("chief"),
    "vice": N_("vice"),
    "crown": N_("Crown"),
    "shield": N_("Shield"),
}
_ROLE_TRUMPS = {
    "chief": N_("chief trump"),
    "vice": N_("vice trump"),
    "crown": N_("Crown trump"),
    "shield": N_("Shield trump"),
}


def roles(t: Text, engine_roles: dict[str, str] | None) -> dict[str, str]:
    """What to call the ``chief`` and ``vice`` fields and their trumps at this table."""
    named = engine_roles or {"chief": "chief", "vice": "vice"}
    chief, vice = named.get("chief", "chief"), named.get("vice", "vice")
    return {
        "chief": t(_ROLE_NAMES.get(chief, chief)),
        "vice": t(_ROLE_NAMES.get(vice, vice)),
        "chief_trump": t(_ROLE_TRUMPS.get(chief, chief)),
        "vice_trump": t(_ROLE_TRUMPS.get(vice, vice)),
    }


def colour(t: Text, name: str) -> str:
    return t(_COLOUR_NAMES.get(name, name))


def trump(t: Text, kind: str | None) -> str:
    """A chief or vice trump as on the paper sheet: "7s", "Red", "No trump" ("–" if none)."""
    if kind is None:
        return "–"
    if kind == "none":
        return t("No trump")
    if kind.isdigit():
        return t("%(n)ss", n=kind)
    return t(_TRUMP_COLOUR_NAMES.get(kind, kind))


def card(t: Text, card_dict: dict[str, Any]) -> str:
    """ "red 7" (the page also draws the card; this is its text)."""
    return t("%(colour)s %(n)d", colour=colour(t, card_dict["color"]), n=card_dict["number"])


def people(t: Text, names: Sequence[str]) -> str:
    """ "Anna", "Anna and Ben", "Anna, Ben and Cleo"."""
    if not names:
        return ""
    if len(names) == 1:
        return names[0]
    return t("%(first)s and %(last)s", first=", ".join(names[:-1]), last=names[-1])


def number(value: int | None) -> str:
    """A sheet number with a real minus sign ("−40"); blank for None."""
    if value is None:
        return ""
    return f"\u2212{-value}" if value < 0 else str(value)


def signed(value: int) -> str:
    """A score with a real minus sign: "+15", "−30", "0"."""
    if value > 0:
        return f"+{value}"
    if value < 0:
        return f"\u2212{-value}"
    return "0"

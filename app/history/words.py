"""Words for cards, trumps and lists of people, in the page's language."""

from __future__ import annotations

from collections.abc import Sequence

import engine
from app.history.i18n import Text


def N_(message: str) -> str:  # noqa: N802 - the gettext convention for "mark, translate later"
    return message


# The engine's words, marked with N_ for extraction and translated at run time through ``Text``.
_COLOUR_NAMES = {
    engine.Colour.RED: N_("red"),
    engine.Colour.YELLOW: N_("yellow"),
    engine.Colour.GREEN: N_("green"),
    engine.Colour.BLUE: N_("blue"),
    engine.Colour.PURPLE: N_("purple"),
}
_TRUMP_COLOUR_NAMES = {
    engine.Colour.RED: N_("Red"),
    engine.Colour.YELLOW: N_("Yellow"),
    engine.Colour.GREEN: N_("Green"),
    engine.Colour.BLUE: N_("Blue"),
    engine.Colour.PURPLE: N_("Purple"),
}
# The roles held in the ``chief`` and ``vice`` fields: classic chief/vice, revised Crown/Shield.
_ROLE_NAMES = {
    engine.Role.CHIEF: N_("chief"),
    engine.Role.VICE: N_("vice"),
    engine.Role.CROWN: N_("Crown"),
    engine.Role.SHIELD: N_("Shield"),
}
_ROLE_TRUMPS = {
    engine.Role.CHIEF: N_("chief trump"),
    engine.Role.VICE: N_("vice trump"),
    engine.Role.CROWN: N_("Crown trump"),
    engine.Role.SHIELD: N_("Shield trump"),
}


def roles(t: Text, named: engine.Roles) -> dict[str, str]:
    """What to call the ``chief`` and ``vice`` fields and their trumps at this table."""
    return {
        "chief": t(_ROLE_NAMES[named.chief]),
        "vice": t(_ROLE_NAMES[named.vice]),
        "chief_trump": t(_ROLE_TRUMPS[named.chief]),
        "vice_trump": t(_ROLE_TRUMPS[named.vice]),
    }


def colour(t: Text, name: engine.Colour) -> str:
    return t(_COLOUR_NAMES[name])


def trump(t: Text, kind: engine.TrumpKind | None) -> str:
    """A chief or vice trump as on the paper sheet: "7s", "Red", "No trump" ("–" if none)."""
    if kind is None:
        return "–"
    if kind.colour is not None:
        return t(_TRUMP_COLOUR_NAMES[kind.colour])
    if kind.number is not None:
        return t("%(n)ss", n=kind.number)
    return t("No trump")


def card(t: Text, card: engine.Card) -> str:
    """ "red 7" (the page also draws the card; this is its text)."""
    return t("%(colour)s %(n)d", colour=colour(t, card.color), n=card.number)


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


def decimal(t: Text, value: float) -> str:
    """An expected score with one decimal, a real minus sign and the language's decimal
    mark: "23.9", "−11.5" (German "23,9")."""
    text = f"{abs(value):.1f}"
    if t.lang == "de":
        text = text.replace(".", ",")
    return f"\u2212{text}" if round(value, 1) < 0 else text


def signed(value: int) -> str:
    """A score with a real minus sign: "+15", "−30", "0"."""
    if value > 0:
        return f"+{value}"
    if value < 0:
        return f"\u2212{-value}"
    return "0"

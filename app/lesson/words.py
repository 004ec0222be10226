"""The lessons' own sentences (domain ``lessons``): what each refusal code means, and the
progress line.  The steps' texts come from the lesson files (``extract.py``).

Catalogs: ``app/lesson/translations/{de,en}/LC_MESSAGES/lessons.po``, commands in
``app/lesson/babel.cfg``; read and compiled in memory when first used, like ``app/web/i18n``.
"""

from __future__ import annotations

import io
from functools import cache
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

import engine

DOMAIN = "lessons"
_CATALOGS = Path(__file__).parent / "translations"


def N_(message: str) -> str:
    """Marks a text for extraction; it is translated where it is used."""
    return message


# Not the lesson's move, but legal: the lesson asks for another one.
OTHER_MOVE = "other_move"

# What each refusal code means to a newcomer; ``{max_cards}`` etc. are filled from the engine.
REFUSALS: dict[str, str] = {
    "too_many_cards": N_(
        "Small steps: you may end at most one card above the largest display, so now you "
        "may place at most {max_cards}."
    ),
    "no_cards": N_("Select at least one card to place, or pass."),
    "must_follow_suit": N_(
        "You must follow the led suit if you can. All trumps count as one suit, and a number "
        "trump no longer belongs to its colour."
    ),
    "trump_not_allowed": N_(
        "You may name only a colour or a number among the cards you placed, and not the "
        "trump already named."
    ),
    "partner_not_allowed": N_("Your partner can be anyone except yourself and the Vice."),
    "discard_not_allowed": N_("Put away exactly {discard} different cards from your hand."),
    "card_not_yours": N_("That card is not yours to play."),
    "not_your_turn": N_("Wait: it is not your turn."),
    "wrong_phase": N_("That move belongs to another part of the hand."),
    "bad_action": N_("That is not a move."),
    OTHER_MOVE: N_(
        "That move is allowed, but this lesson goes on with another one: follow the "
        "highlight, or press Show me."
    ),
}
REVISED_REFUSALS: dict[str, str] = {  # where the revised edition says it differently
    "partner_not_allowed": N_("Your partner can be anyone except yourself and the Shield."),
}
PROGRESS = N_("Step {n} of {count}")
# The learner's name at the lesson's table (the seat adds "(you)").
YOU = N_("Learner")


@cache
def translations(lang: str) -> Translations:
    """The compiled ``lessons`` catalog of a supported language."""
    with (_CATALOGS / lang / "LC_MESSAGES" / f"{DOMAIN}.po").open("rb") as po:
        catalog = read_po(po, locale=lang, domain=DOMAIN)
    compiled = io.BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    return Translations(fp=compiled, domain=DOMAIN)


def say(lang: str, text: str, facts: dict[str, int]) -> str:
    """``text`` in ``lang`` with the engine's numbers filled in."""
    return translations(lang).gettext(text).format(**facts)


def refusal(lang: str, code: str, variant: str, facts: dict[str, int]) -> str:
    """The sentence that explains the refusal ``code``."""
    revised = variant == engine.Variant.REVISED
    text = (REVISED_REFUSALS if revised else {}).get(code) or REFUSALS.get(code)
    return say(lang, text or REFUSALS["bad_action"], facts)

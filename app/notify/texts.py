"""The push notifications' words, in the subscriber's language (the ``messages`` catalogs).

A payload names the table and what happened, never a card: it passes through the browser
vendor's push service and may show on a locked screen.
"""

from __future__ import annotations

from typing import Any, Literal

from app.web import i18n

Kind = Literal["turn", "game_over", "play_again", "reminder"]


def _(message: str) -> str:
    """Marks a message for extraction; translated when the payload is built."""
    return message


_TITLES: dict[str, str] = {
    "turn": _("Your turn"),
    "game_over": _("Game over"),
    "play_again": _("Play again?"),
    "reminder": _("Your move is due soon"),
}
_BODIES: dict[str, str] = {
    "turn": _("Table %(code)s: the others are waiting for you."),
    "game_over": _("Table %(code)s: the game has ended. See the final score."),
    "play_again": _("%(name)s asks you to play again at table %(code)s."),
    "reminder": _("Table %(code)s: your time for this move runs out soon."),
}


def payload(kind: Kind, *, code: str, lang: str, name: str = "") -> dict[str, Any]:
    """The JSON a push carries: table, kind, link, and the title and body in ``lang``."""
    language = i18n.supported(lang) or i18n.DEFAULT_LANGUAGE
    gettext = i18n.translations(language).gettext
    return {
        "table": code,
        "kind": kind,
        "url": f"/t/{code}",
        "title": gettext(_TITLES[kind]),
        "body": gettext(_BODIES[kind]) % {"code": code, "name": name},
    }

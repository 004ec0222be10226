"""The JSON form of the engine's types: one function out, one parser in.

The engine never writes text.  :func:`to_json` turns any of its values into plain
dicts/lists/str/int/None: a dataclass becomes a dict of its fields in declaration order, a
:class:`~enum.StrEnum` its value, a tuple a list.  That is what ``orjson.dumps`` does natively
with dataclasses and enums, so a server may hand the values to orjson directly (a test checks
that both agree).

:func:`action_from_json` is the only parser of untrusted action JSON.  It refuses anything
malformed with :class:`~engine.errors.BadAction` (a trump that names no trump kind with
:class:`~engine.errors.TrumpNotAllowed`, as the rules would) and ignores keys the action does
not have, so ``to_json(action_from_json(data))`` is the canonical form of ``data``:

>>> action_from_json({"card": 7, "type": "play", "note": "gl hf"})
Play(card=7)
>>> to_json(action_from_json({"type": "trump", "trump": "red", "x": float("nan")}))
{'type': 'trump', 'trump': 'red'}
>>> action_from_json({"type": "bid", "cards": [3, 3]})
Traceback (most recent call last):
    ...
engine.errors.BadAction: a card can be shown only once
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from enum import Enum, Flag
from typing import Any, TypeAlias, cast

from engine.actions import Action, Bid, Discard, Partner, Pass, Play, Trump, is_card_list, is_int
from engine.cards import CARDS, Card
from engine.enums import TrumpKind
from engine.errors import BadAction, TrumpNotAllowed

JSON: TypeAlias = "None | bool | int | float | str | list[JSON] | dict[str, JSON]"

_PLAIN = frozenset({str, int, float, bool, type(None)})


def to_json(value: object) -> JSON:
    """The JSON form of an engine value (actions, prompts, views, results, sheets, the
    rules catalog, and anything built of dataclasses, enums, tuples, lists, dicts)."""
    kind = type(value)
    if kind in _PLAIN:  # exact types: a StrEnum is a str, but it becomes its value below
        return cast(JSON, value)
    encode = _encoders.get(kind) or _encoder_for(kind)
    return encode(value)


def _encoder_for(kind: type) -> Callable[[Any], JSON]:
    """Build (once per type) the encoder of a dataclass, enum or mapping type."""
    encode: Callable[[Any], JSON]
    if issubclass(kind, Enum):
        values = {member: member.value for member in kind}
        # A flag's combinations are members that no listing names: those take the long way.
        if not issubclass(kind, Flag) and all(type(v) in _PLAIN for v in values.values()):
            encode = values.__getitem__  # one lookup, not the enum's ``value`` property
        else:
            encode = _enum_value
    elif dataclasses.is_dataclass(kind):
        encode = _record_encoder(kind)
        if kind is Card:
            encode = _card_encoder(encode)
    elif issubclass(kind, Mapping):
        encode = _mapping
    elif issubclass(kind, list | tuple):
        encode = _sequence
    elif issubclass(kind, str | int | float):
        encode = _scalar
    else:
        raise TypeError(f"no JSON form for {kind.__name__}")
    _encoders[kind] = encode
    return encode


def _record_encoder(kind: type) -> Callable[[Any], JSON]:
    """The encoder of a dataclass: one function that reads each field once and builds the dict
    in one expression (written out, as dataclasses writes ``__init__``), taking plain values as
    they are; about twice as quick as a loop over the field names."""
    names = [f.name for f in dataclasses.fields(kind)]
    reads = "".join(f"    v{i} = value.{name}\n" for i, name in enumerate(names))
    items = ", ".join(
        f"{name!r}: v{i} if type(v{i}) in _PLAIN else to_json(v{i})" for i, name in enumerate(names)
    )
    source = f"def encode(value):\n{reads}    return {{{items}}}\n"
    namespace: dict[str, Any] = {"_PLAIN": _PLAIN, "to_json": to_json}
    exec(source, namespace)
    encode: Callable[[Any], JSON] = namespace["encode"]
    encode.__qualname__ = f"to_json[{kind.__qualname__}]"
    return encode


def _card_encoder(encode: Callable[[Any], JSON]) -> Callable[[Any], JSON]:
    """Views repeat the deck's own 60 :data:`~engine.cards.CARDS` objects: each one's JSON is
    made once and copied (a fresh dict every time, as for any value). Found by identity: those
    objects live as long as the engine, so no other object can have their ids."""
    made: dict[int, dict[str, JSON]] = {}
    for deck_card in CARDS:
        encoded = encode(deck_card)
        assert isinstance(encoded, dict)
        made[id(deck_card)] = encoded

    def encode_card(value: Card) -> JSON:
        known = made.get(id(value))
        return encode(value) if known is None else dict(known)

    return encode_card


def _enum_value(value: Enum) -> JSON:
    plain = value.value
    return cast(JSON, plain) if type(plain) in _PLAIN else to_json(plain)


def _mapping(value: Mapping[Any, Any]) -> JSON:
    return {str(key): to_json(item) for key, item in value.items()}


def _sequence(value: list[Any] | tuple[Any, ...]) -> JSON:
    # Plain items (card ids, most of a view) are taken as they are, without a call each.
    return [item if type(item) in _PLAIN else to_json(item) for item in value]


_encoders: dict[type, Callable[[Any], JSON]] = {tuple: _sequence, list: _sequence}


def _scalar(value: str | int | float) -> JSON:
    # A subclass of a plain type (never bool: that is plain) becomes the plain value.
    for plain in (str, int, float):
        if isinstance(value, plain):
            return plain(value)
    raise TypeError(f"no JSON form for {value!r}")


def to_json_object(value: object) -> dict[str, JSON]:
    """:func:`to_json` of a record (a view, a result, a sheet row, ...), typed as the JSON
    object it always is.  ``TypeError`` for a value whose JSON form is not an object."""
    out = to_json(value)
    if not isinstance(out, dict):
        raise TypeError(f"{type(value).__name__} has no JSON object form")
    return out


def action_to_json(action: Action) -> dict[str, JSON]:
    """The JSON form of an action (its type and its fields); the inverse of
    :func:`action_from_json`.

    >>> action_to_json(Bid((12, 40)))
    {'type': 'bid', 'cards': [12, 40]}
    """
    return to_json_object(action)


def action_from_json(data: object) -> Action:
    """The action that ``data`` (a parsed JSON value from anywhere) describes.

    Raises:
        BadAction: not an object, an unknown ``type``, a missing or mistyped field (bools
            are not ints), or a card shown twice in one bid.
        TrumpNotAllowed: a ``trump`` action whose ``trump`` is not one of the 16 kinds.
    """
    if not isinstance(data, dict):
        raise BadAction(_NOT_AN_ACTION)
    kind = data.get("type")
    parse = _PARSERS.get(kind) if isinstance(kind, str) else None
    if parse is None:
        raise BadAction(_NOT_AN_ACTION)
    return parse(data)


_PASS = Pass()  # frozen: one instance serves every pass


def _pass(data: dict[Any, Any]) -> Action:
    return _PASS


def _bid(data: dict[Any, Any]) -> Action:
    cards = _cards(data, "a bid")
    if len(set(cards)) != len(cards):
        raise BadAction("a card can be shown only once")
    return Bid(cards)


def _discard(data: dict[Any, Any]) -> Action:
    # Repeated cards are well-formed JSON; the rules refuse them (discard_not_allowed).
    return Discard(_cards(data, "a discard"))


def _trump(data: dict[Any, Any]) -> Action:
    name = data.get("trump")
    kind = _TRUMP_KINDS.get(name) if isinstance(name, str) else None
    if kind is None:
        raise TrumpNotAllowed(f"{name!r} is not a trump (a colour, a digit or 'none')")
    return Trump(kind)


def _partner(data: dict[Any, Any]) -> Action:
    return Partner(_int(data, "seat", "a partner action"))


def _play(data: dict[Any, Any]) -> Action:
    return Play(_int(data, "card", "a play"))


def _int(data: dict[Any, Any], key: str, what: str) -> int:
    value = data.get(key)
    if type(value) is int:  # what JSON parsers give; the check below is the general one
        return value
    if not is_int(value):
        raise BadAction(f"{what} needs an integer {key!r}")
    return int(value)


def _cards(data: dict[Any, Any], what: str) -> tuple[int, ...]:
    cards = data.get("cards")
    if not is_card_list(cards):
        raise BadAction(f"{what} needs 'cards': a list of card ids")
    return tuple(int(c) for c in cards)


_TRUMP_KINDS: dict[str, TrumpKind] = {kind.value: kind for kind in TrumpKind}
_NOT_AN_ACTION = "an action is an object whose type is pass, bid, trump, partner, play or discard"
_PARSERS: dict[str, Callable[[dict[Any, Any]], Action]] = {
    "pass": _pass,
    "bid": _bid,
    "trump": _trump,
    "partner": _partner,
    "play": _play,
    "discard": _discard,
}

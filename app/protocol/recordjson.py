"""The engine's records as JSON, the records every view repeats encoded once.

A view repeats the same records over and over: each card of every finished trick, the whole
auction, every display, and the same records again in the next view and for every seat. orjson
writes a slotted dataclass field by field through attribute lookups (~0.35 us a card), so a
late view of a 5-player hand took ~60 us to encode, five times per action. Here:

- a card of the deck (``engine.CARDS``) is its JSON, made once at import;
- the records the engine shares between views (``PlayedCard`` from its table of every seat and
  card, ``TrickRecord`` and ``AuctionEntry`` from its caches) are encoded the first time they are
  met and looked up by identity afterwards (the record is kept with its JSON, so its id cannot
  be reused while the entry lives; records are frozen, so the JSON stays theirs);
- every other record becomes a dict of its fields.

The bytes are exactly orjson's own for the same value (the tests compare them on random
play): this only decides what is encoded when, never what a recipient sees.
"""

from __future__ import annotations

import dataclasses
import operator
from collections.abc import Callable
from typing import Any

import orjson

import engine

# The deck's own card objects (alive as long as the engine is), by identity: their JSON.
_CARDS = {id(card): orjson.Fragment(orjson.dumps(card)) for card in engine.CARDS}
_SHARED = frozenset({engine.PlayedCard, engine.TrickRecord, engine.AuctionEntry})
# id(record) -> (record, its JSON); cleared when full (a miss only costs an encoding).
_ENCODED: dict[int, tuple[object, orjson.Fragment]] = {}
ENCODED_MAX = 16_384
_FIELDS: dict[type, tuple[tuple[str, ...], Callable[[Any], Any]]] = {}


def dumps(value: object) -> bytes:
    """``orjson.dumps(value)``: the same bytes, quicker for the engine's records."""
    return orjson.dumps(value, default=_record, option=orjson.OPT_PASSTHROUGH_DATACLASS)


def _record(value: Any) -> object:
    card = _CARDS.get(id(value))
    if card is not None:
        return card
    kind = type(value)
    if kind in _SHARED:
        known = _ENCODED.get(id(value))
        if known is not None and known[0] is value:
            return known[1]
        if len(_ENCODED) >= ENCODED_MAX:
            _ENCODED.clear()
        encoded = orjson.Fragment(dumps(_fields(value)))
        _ENCODED[id(value)] = (value, encoded)
        return encoded
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _fields(value)
    raise TypeError(f"Type is not JSON serializable: {kind.__name__}")


def _fields(record: Any) -> dict[str, Any]:
    """The record's fields as orjson writes them: in declaration order."""
    kind = type(record)
    known = _FIELDS.get(kind)
    if known is None:
        names = tuple(field.name for field in dataclasses.fields(record))
        if len(names) > 1:
            get: Callable[[Any], Any] = operator.attrgetter(*names)
        else:  # attrgetter of one name gives the value itself, not a tuple
            get = lambda r: tuple(getattr(r, name) for name in names)  # noqa: E731
        known = _FIELDS[kind] = (names, get)
    names, get = known
    return dict(zip(names, get(record), strict=True))

"""``@record``: the engine's value types are frozen, slotted dataclasses, built quickly.

``@record`` is ``@dataclass(frozen=True, slots=True)`` (and ``@record(kw_only=True)`` the
same with keyword-only fields) with one difference: the ``__init__`` that dataclasses
generates for a frozen class writes every field with ``object.__setattr__``, while this one
writes it through the field's slot descriptor, which builds the same object in about 60 %
of the time.  Prompts and actions are built on every move and a view builds dozens of
records, so this is the cost of a typed API over plain dicts (measured in
bench/engine_bench.py; a 30-field ``HandResult`` goes from 3.9 to about 2 µs).

Everything else is the dataclass: fields, ``__eq__``, ``__hash__``, ``__repr__``,
``__match_args__``, frozen assignment errors, ``dataclasses.fields`` and orjson's native
support.  Only what the engine uses is supported: plain defaults (no ``default_factory``),
``init=False`` fields with a default, keyword-only fields, no ``__post_init__``.

>>> @record
... class Point:
...     x: int
...     y: int = 0
>>> Point(1), Point(1) == Point(1, 0), Point(2, y=3).y
(Point(x=1, y=0), True, 3)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, TypeVar, cast, dataclass_transform, overload

T = TypeVar("T")


@overload
def record(cls: type[T], /) -> type[T]: ...


@overload
def record(*, kw_only: bool = False) -> Callable[[type[T]], type[T]]: ...


@dataclass_transform(frozen_default=True, field_specifiers=(dataclasses.field,))
def record(cls: type[T] | None = None, /, *, kw_only: bool = False) -> Any:
    """A frozen, slotted dataclass with a quicker ``__init__`` (see the module docstring)."""

    def wrap(klass: type[T]) -> type[T]:
        made = dataclasses.dataclass(frozen=True, slots=True, kw_only=kw_only)(klass)
        cast(Any, made).__init__ = _slot_init(made)
        return made

    return wrap if cls is None else wrap(cls)


def _slot_init(cls: type) -> Callable[..., None]:
    """An ``__init__`` with the dataclass's signature that sets the slots directly."""
    if hasattr(cls, "__post_init__"):
        raise TypeError(f"@record does not run __post_init__ ({cls.__name__})")
    namespace: dict[str, Any] = {}
    positional: list[str] = []
    keyword: list[str] = []
    body: list[str] = []
    for f in dataclasses.fields(cls):
        if f.default_factory is not dataclasses.MISSING:
            raise TypeError(f"@record does not support default_factory ({cls.__name__})")
        namespace[f"_set_{f.name}"] = getattr(cls, f.name).__set__  # the slot, maybe a base's
        has_default = f.default is not dataclasses.MISSING
        if has_default:
            namespace[f"_default_{f.name}"] = f.default
        if not f.init:
            if has_default:
                body.append(f"    _set_{f.name}(self, _default_{f.name})")
            continue
        param = f"{f.name}=_default_{f.name}" if has_default else f.name
        (keyword if f.kw_only else positional).append(param)
        body.append(f"    _set_{f.name}(self, {f.name})")
    params = ", ".join(["self", *positional, *(["*", *keyword] if keyword else [])])
    source = f"def __init__({params}) -> None:\n" + "\n".join(body or ["    pass"]) + "\n"
    exec(source, namespace)  # how dataclasses itself writes __init__
    init: Callable[..., None] = namespace["__init__"]
    init.__qualname__, init.__module__ = f"{cls.__qualname__}.__init__", cls.__module__
    return init

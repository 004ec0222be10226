"""@record (engine/records.py): every value type of the engine is exactly the frozen, slotted
dataclass it declares; only its __init__ is quicker, with the dataclass's signature."""

from __future__ import annotations

import dataclasses
import inspect
import pkgutil
from importlib import import_module
from typing import Any

import pytest

import engine
from engine.records import record


def frozen_slotted_dataclasses() -> list[type]:
    """Every frozen, slotted dataclass defined in the engine."""
    found = set()
    for info in pkgutil.walk_packages(engine.__path__, "engine."):
        for value in vars(import_module(info.name)).values():
            if isinstance(value, type) and dataclasses.is_dataclass(value):
                params = value.__dataclass_params__  # type: ignore[attr-defined]
                if params.frozen and "__slots__" in value.__dict__:
                    found.add(value)
    return sorted(found, key=lambda cls: cls.__qualname__)


def is_record(cls: type) -> bool:
    """The __init__ @record writes only sets slots through their descriptors."""
    names = cls.__init__.__code__.co_names  # type: ignore[misc]
    return all(name.startswith(("_set_", "_default_")) for name in names)


# GameOptions has its own validating __init__; every other value type is a @record.
RECORDS = [cls for cls in frozen_slotted_dataclasses() if cls is not engine.GameOptions]


def reference(cls: type) -> Any:
    """The same fields made into a plain frozen, slotted dataclass by dataclasses itself."""
    specs = []
    for f in dataclasses.fields(cls):
        kwargs: dict[str, Any] = {"init": f.init, "kw_only": f.kw_only}
        if f.default is not dataclasses.MISSING:
            kwargs["default"] = f.default
        specs.append((f.name, f.type, dataclasses.field(**kwargs)))
    return dataclasses.make_dataclass(cls.__name__, specs, frozen=True, slots=True)


def test_the_engine_value_types_are_records() -> None:
    names = {cls.__name__ for cls in RECORDS}
    for expected in (
        "Play",
        "Bid",
        "Pass",
        "PlayPrompt",
        "HandView",
        "HandResult",
        "SheetRow",
        "ScoreSheet",
        "Game",
        "GameView",
        "RulesCatalog",
        "Card",
        "ClassicRules",
    ):
        assert expected in names  # fmt: skip
    assert all(is_record(cls) for cls in RECORDS), [c for c in RECORDS if not is_record(c)]


@pytest.mark.parametrize("cls", RECORDS, ids=lambda cls: cls.__qualname__)
def test_records_keep_the_dataclass_signature(cls: type) -> None:
    mine = inspect.signature(cls).parameters
    theirs = inspect.signature(reference(cls)).parameters
    assert [(p.name, p.kind, p.default) for p in mine.values()] == [
        (p.name, p.kind, p.default) for p in theirs.values()
    ]


def test_records_hold_what_they_are_given_and_stay_frozen() -> None:
    result = engine.HandResult(kind=engine.Outcome.PLAYED, total=(1, 2), chief=0)
    assert (result.kind, result.total, result.chief, result.variant, result.team) == (
        "played", (1, 2), 0, "classic", ()
    )  # fmt: skip
    assert engine.Play(3).type == "play" and engine.Play(card=3) == engine.Play(3)
    assert hash(engine.Bid((1, 2))) == hash(engine.Bid((1, 2)))
    assert repr(engine.Trump(engine.TrumpKind.NONE)) == "Trump(trump=<TrumpKind.NONE: 'none'>)"
    with pytest.raises(dataclasses.FrozenInstanceError):
        engine.Play(3).card = 4  # type: ignore[misc]
    with pytest.raises(TypeError):
        engine.HandResult(engine.Outcome.PLAYED, (1, 2))  # type: ignore[misc]  # keywords only
    with pytest.raises(TypeError):
        engine.Play()  # type: ignore[call-arg]


def test_record_refuses_what_it_does_not_support() -> None:
    with pytest.raises(TypeError):

        @record
        class WithFactory:
            xs: list[int] = dataclasses.field(default_factory=list)

    with pytest.raises(TypeError):

        @record
        class WithPostInit:
            x: int

            def __post_init__(self) -> None: ...

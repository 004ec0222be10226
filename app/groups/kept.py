"""Values kept between requests in this process: by key, each with the signature of what it was
computed from, bounded (the least recently used goes first). The group pages' boards, ratings,
head-to-head figures, games and charts are kept this way."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable
from typing import Generic, TypeVar

T = TypeVar("T")


class Kept(Generic[T]):
    """Values by key, each with the signature of what it was computed from; bounded (the
    least recently used goes first)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._kept: OrderedDict[Hashable, tuple[Hashable, T]] = OrderedDict()

    def get(self, key: Hashable, signature: Hashable) -> T | None:
        kept = self._kept.get(key)
        if kept is None or kept[0] != signature:
            return None
        self._kept.move_to_end(key)
        return kept[1]

    def put(self, key: Hashable, signature: Hashable, value: T) -> T:
        self._kept[key] = (signature, value)
        self._kept.move_to_end(key)
        while len(self._kept) > self.size:
            self._kept.popitem(last=False)
        return value

    def clear(self) -> None:
        self._kept.clear()

"""How a group's tables wait for a friend who dropped out (issue 40): the group remembers the
last choice. Nothing new is stored for it: the group's newest table's ``on_dropout`` option is
that choice (one indexed read by ``tables.group_id``), and the group page's form preselects it.
"""

from __future__ import annotations

from typing import Any, get_args

from sqlalchemy import select

from app.db import SessionFactory
from app.tables import options
from app.tables.models import Table


async def group_choice(*, session_factory: SessionFactory, group_id: int) -> options.OnDropout:
    """The ``on_dropout`` of the group's newest table (the default for a group without one)."""
    query = (
        select(Table.options).where(Table.group_id == group_id).order_by(Table.id.desc()).limit(1)
    )
    async with session_factory() as session:
        stored = await session.scalar(query)
    chosen = (stored or {}).get("on_dropout")
    for known in get_args(options.OnDropout):
        if chosen == known:
            return known  # type: ignore[no-any-return]
    default: options.OnDropout = options.form_options()["on_dropout"]
    return default


async def form_options(*, session_factory: SessionFactory, group_id: int) -> dict[str, Any]:
    """``options.form_options()`` for a group's form: its last choice of how to wait."""
    chosen = await group_choice(session_factory=session_factory, group_id=group_id)
    return {**options.form_options(), "on_dropout": chosen}

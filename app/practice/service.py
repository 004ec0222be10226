"""Opening a practice table on a finished hand at one moment.

The hand is replayed alone from its own rows (``replay.load_hand``: the cost does not grow with
the table's history), the branch point is the engine's (``engine.branch``), and the new table
keeps the hand's seed, dealer and the moves before the moment server-side (``live.Branch``, the
table row's ``branch`` column). Its seats are free: whoever opens it is its host (bots for the
other seats, or the link for friends); when every seat is taken the room deals the same cards
and plays those moves in the same commit (``room._deal_if_due``). The original table is only
read: its rows, version and history stay as they were.
"""

from __future__ import annotations

from sqlalchemy import select

import engine
from app.room.hub import Hub
from app.tables import replay, repository, tokens
from app.tables.live import Branch, LiveTable, new_table
from app.tables.models import Hand, Table
from app.tables.options import PracticeFrom, TableOptions
from engine.branch import NoSuchStep, branch


class PracticeRefused(Exception):
    """Why no practice table was opened: an HTTP status, a machine code and a message."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


async def open_practice(
    *, hub: Hub, invite_code: str, number: int, step: int, host_token: str
) -> LiveTable:
    """A new practice table on hand ``number`` of the table ``invite_code`` after ``step`` of
    its moves (0: the deal itself). Only a finished hand can be branched.

    Raises:
        PracticeRefused: 404 ``unknown_table`` or ``unknown_hand``; 409 ``hand_not_finished``
            (the hand is still being played); 422 ``no_such_step`` (not a moment of the hand at
            which someone is to move).
    """
    db = hub.store.db
    async with db.connect() as conn:
        found = (
            await conn.execute(
                select(Table.id, Table.options).where(Table.invite_code == invite_code)
            )
        ).first()
    if found is None:
        raise PracticeRefused(404, "unknown_table", "no table has this invite code")
    rows = await repository.load_hand(db=db, table_id=found.id, number=number)
    async with db.connect() as conn:
        hand_id = await conn.scalar(
            select(Hand.id).where(Hand.table_id == found.id, Hand.number == number)
        )
    if rows is None or hand_id is None:
        raise PracticeRefused(404, "unknown_hand", f"the table has no hand {number}")
    stored, hand_row, actions = rows
    source = TableOptions.from_json(stored)
    hand = replay.replay_hand(source, hand_row, actions)
    if not hand.over:
        raise PracticeRefused(409, "hand_not_finished", "a hand is branched only once it is over")
    try:
        point = branch(hand.dealt, [(m.seat, m.action) for m in hand.moves], step)
    except NoSuchStep as exc:
        raise PracticeRefused(422, exc.code, exc.message) from exc
    options = _practice_options(source, PracticeFrom(code=invite_code, hand=number, step=step))
    kept = Branch(
        deals=((hand_row.seed, hand_row.dealer),),
        moves=tuple((seat, engine.action_to_json(action)) for seat, action in point.moves),
    )
    code = tokens.new_invite_code()
    async with hub.store.sessions() as session, session.begin():
        table = await repository.create_table(
            session=session,
            invite_code=code,
            options=options.to_json(),
            host_token_hash=tokens.hash_token(host_token),
            branch=kept.to_json(),
            branched_from=hand_id,
        )
    live = new_table(table_id=table.id, invite_code=code, options=options, branch=kept)
    hub.add(live)
    return live


def _practice_options(source: TableOptions, origin: PracticeFrom) -> TableOptions:
    """The hand's rules (players, variant, the colours left out) for one hand at a live pace,
    marked as practice; no seats kept, no group."""
    return source.model_copy(
        update={
            "hands": 1,
            "target_score": None,
            "pace": "live",
            "reserved": (),
            "reserved_until": None,
            "practice": origin,
        }
    )

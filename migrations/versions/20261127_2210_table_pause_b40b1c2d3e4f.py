"""table pause, away-until and the wait policy (issue 40, points 3 and 4): no new columns

A pause (who asked, who agreed, since when), a correspondence holiday ("away until") and the
votes on a friend who dropped out are marker rows of the table's log (``actions``, like the
host's markers: ``{"type": "pause", ...}``, see ``app/tables/pausing.py``), written with the
table's version bump by its one writer: they survive a restart, reach the other processes with
the log, and the replay rebuilds them. The wait policy is the table option ``on_dropout`` (the
``options`` JSON; tables stored before it read its default, "bot"), and a group remembers it
as its newest table's option (``app/tables/waiting.py``). So the schema does not change; this
revision marks the release that writes such rows (an older release's replay refuses them).

Revision ID: b40b1c2d3e4f
Revises: a40a1b2c3d4e
Create Date: 2026-11-27 22:00:00
"""

from collections.abc import Sequence

revision: str = "b40b1c2d3e4f"
down_revision: str | None = "a40a1b2c3d4e"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Nothing to change: the pause markers are rows of ``actions``."""


def downgrade() -> None:
    """Nothing to undo (a table with pause markers needs this release to replay)."""

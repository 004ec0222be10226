"""Every model of the app, for whoever needs the whole schema on ``app.db.Base.metadata``
(Alembic's ``migrations/env.py``, the migration tests): each package keeps its own models."""

from __future__ import annotations

from app.groups import models as groups
from app.history import models as history
from app.jobs import models as jobs
from app.notify import models as notify
from app.tables import models as tables

__all__ = ["groups", "history", "jobs", "notify", "tables"]

"""Run Alembic's ``upgrade head`` from Python (the run command migrates before it serves)."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config

# PostgreSQL advisory lock key ("mumi") that serialises migrations (migrations/env.py): several
# processes started together take turns, and the later ones find the schema at head.
MIGRATION_LOCK = 0x6D756D69

# The repository root: alembic.ini and migrations/ sit beside the app package.
ROOT = Path(__file__).resolve().parent.parent


def alembic_config(database_url: str) -> Config:
    config = Config(str(ROOT / "alembic.ini"))
    config.set_main_option("script_location", str(ROOT / "migrations"))
    # ConfigParser interpolation would read a '%' in a password as a placeholder.
    config.set_main_option("sqlalchemy.url", database_url.replace("%", "%%"))
    # Keep the caller's logging setup (uvicorn's, pytest's) instead of alembic.ini's.
    config.attributes["configure_logger"] = False
    return config


def upgrade_head(database_url: str) -> None:
    """Bring the database named by ``database_url`` to the newest schema."""
    command.upgrade(alembic_config(database_url), "head")

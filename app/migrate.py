"""Run Alembic's ``upgrade head`` from Python (the run command migrates before it serves)."""

from __future__ import annotations

from alembic import command
from alembic.config import Config

from app import resources

# PostgreSQL advisory lock key ("mumi") that serialises migrations (migrations/env.py): several
# processes started together take turns, and the later ones find the schema at head.
MIGRATION_LOCK = 0x6D756D69


def alembic_config(database_url: str) -> Config:
    config = Config(str(resources.path("alembic.ini")))
    config.set_main_option("script_location", str(resources.path("migrations")))
    # ConfigParser interpolation would read a '%' in a password as a placeholder.
    config.set_main_option("sqlalchemy.url", database_url.replace("%", "%%"))
    # Keep the caller's logging setup (uvicorn's, pytest's) instead of alembic.ini's.
    config.attributes["configure_logger"] = False
    return config


def upgrade_head(database_url: str) -> None:
    """Bring the database named by ``database_url`` to the newest schema."""
    command.upgrade(alembic_config(database_url), "head")

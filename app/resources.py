"""Where the files that are not Python live: pages, static files, migrations, lessons.

In a source checkout they sit beside the ``app`` package (``templates/``, ``static/``,
``migrations/``, ``alembic.ini``); an installed wheel carries them inside it (``app/templates``
…, see ``[tool.hatch.build.targets.wheel.force-include]`` in pyproject.toml), so the app runs
from any working directory. The translations (``.po``) live in their packages either way.
"""

from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parent


def path(name: str) -> Path:
    """The shipped file or folder ``name``: inside the installed package, else in the checkout."""
    installed = PACKAGE / name
    return installed if installed.exists() else PACKAGE.parent / name

"""The pages' scripts and styles: one bundle per page when one is built, else the sources.

``make bundle`` (``tools/bundle.py``, esbuild) writes each page's script with everything it
imports into one minified ES module, and each stylesheet minified, into ``bundle/`` (beside
``static/``, git-ignored; in the wheel ``app/bundle``) with a content hash in the name, served
at ``/static/bundle/`` for a year (``app.main``), plus ``manifest.json``: which source became
which file, and a digest of the sources it was built from. A template names its source
(``{{ asset("js/table.js") }}``) and gets the bundle's URL while the bundle is current; when a
source changed since (or there is no bundle, or ``MU_BUNDLE=0``) it gets the source itself, and
the page loads the modules one by one as in development. So a stale bundle is never served.

Standard library only: ``tools/bundle.py`` imports it where the app's dependencies may be absent.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
from functools import cache
from pathlib import Path

from app import resources

STATIC = resources.path("static")
# What the bundles are made of: every script and stylesheet a page may load as a module.
SOURCES = ("js", "css")
FOLDER = resources.path("bundle")
MANIFEST = FOLDER / "manifest.json"
URL = "/static/bundle/"

_log = logging.getLogger(__name__)


def sources_digest(static: Path = STATIC) -> str:
    """A digest of every source file's path and content (a new, removed or changed file
    changes it)."""
    digest = hashlib.sha256()
    for folder in SOURCES:
        for path in sorted((static / folder).rglob("*")):
            if path.is_file():
                digest.update(path.relative_to(static).as_posix().encode() + b"\0")
                digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


@cache
def built() -> dict[str, str]:
    """Source path (``js/table.js``, relative to ``static/``) → the bundle's file
    (``table-HASH.js``); empty when the bundle is off (``MU_BUNDLE=0``), missing or stale."""
    if os.environ.get("MU_BUNDLE", "1") == "0" or not MANIFEST.is_file():
        return {}
    manifest = json.loads(MANIFEST.read_text(encoding="utf-8"))
    if manifest.get("sources") != sources_digest():
        _log.warning("bundle/ was built from other sources: serving static/ (make bundle)")
        return {}
    files: dict[str, str] = manifest["files"]
    return files


def asset(source: str) -> str:
    """The URL a page loads for ``source`` (``js/table.js``, ``css/mu.css``)."""
    name = built().get(source)
    return URL + name if name else "/static/" + source


def bundled() -> bool:
    """Whether the pages load bundles (then they preload no modules one by one)."""
    return bool(built())

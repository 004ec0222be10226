"""Refuse a compiled engine that is older than its sources (always interpreted).

``make compile`` (setup_mypyc.py) builds extensions beside the sources, and Python imports an
extension before the ``.py`` of the same name: an edited module would silently run its old
build.  So before the package imports anything, every extension under ``engine/`` is checked
against ``engine/_compiled.txt``, the SHA-256 of each compiled module's source at build time
(hashes, not modification times: a checkout resets those).  An extension without a source, a
source changed since the build, or extensions without the record are an ImportError that names
the fix.  Without extensions (the usual, interpreted engine) this costs one directory listing.

:data:`COMPILED` is whether this engine runs compiled; the benchmarks print it.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import os

_HERE = os.path.dirname(os.path.abspath(__file__))
_SUFFIXES = tuple(importlib.machinery.EXTENSION_SUFFIXES)
_FIX = "run `make compile` to rebuild it, or `make clean-compiled` to run the sources"


def _extensions() -> dict[str, str]:
    """Module path relative to the tree (``engine/state.py``) -> its extension's file."""
    found: dict[str, str] = {}
    for folder, subfolders, files in os.walk(_HERE):
        subfolders[:] = [d for d in subfolders if d != "__pycache__"]
        for name in files:
            for suffix in _SUFFIXES:
                if name.endswith(suffix):
                    module = os.path.join(folder, name[: -len(suffix)] + ".py")
                    rel = os.path.relpath(module, os.path.dirname(_HERE))
                    found[rel.replace(os.sep, "/")] = os.path.join(folder, name)
                    break
    return found


def _recorded() -> dict[str, str] | None:
    try:
        with open(os.path.join(_HERE, "_compiled.txt"), encoding="utf-8") as f:
            lines = [line.split() for line in f if line.strip() and not line.startswith("#")]
    except FileNotFoundError:
        return None
    return {path: sha for sha, path in lines}


def check() -> bool:
    """Raise ImportError for a stale or unrecorded build; return whether one is in use."""
    extensions = _extensions()
    if not extensions:
        return False
    recorded = _recorded()
    if recorded is None:
        raise ImportError(f"engine/ holds compiled modules but no engine/_compiled.txt; {_FIX}")
    root = os.path.dirname(_HERE)
    for module in sorted(extensions):
        source = os.path.join(root, module)
        if not os.path.exists(source):
            raise ImportError(f"{module} was deleted but its compiled module remains; {_FIX}")
        with open(source, "rb") as f:
            sha = hashlib.sha256(f.read()).hexdigest()
        if recorded.get(module) != sha:
            raise ImportError(f"{module} is newer than its compiled module; {_FIX}")
    return True


COMPILED = check()


def describe() -> str:
    """Which engine this is, for the benchmarks' first line: ``engine: compiled (mypyc) ...``."""
    kind = "compiled (mypyc)" if COMPILED else "interpreted"
    return f"engine: {kind}, {os.path.dirname(_HERE)}"

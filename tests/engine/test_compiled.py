"""The compiled engine (``make compile``) plays exactly like its sources (issue 26.3).

When this checkout's engine is compiled (CI's compiled run: ``make compile`` then the engine
tier), the same seeded transcript (tests/engine/equivalence.py: a few thousand hands, views,
refusals, bot choices, a review) is computed twice in subprocesses, by the compiled engine and
by a copy of its sources alone, and the digests must match.  With the sources alone there is
nothing to compare and the test is skipped; the guard's own behaviour is tested either way.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import engine

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = Path(__file__).with_name("equivalence.py")


def digest(tree: Path) -> dict[str, object]:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "3000"],
        env=env,
        cwd=tree,
        check=True,
        capture_output=True,
        text=True,
    )
    result: dict[str, object] = json.loads(done.stdout.splitlines()[-1])
    return result


def sources_only(dest: Path) -> Path:
    ignore = shutil.ignore_patterns("__pycache__", "*.so", "*.pyd", "_compiled.txt")
    shutil.copytree(ROOT / "engine", dest / "engine", ignore=ignore)
    return dest


@pytest.mark.skipif(not engine.COMPILED, reason="the engine is interpreted (make compile)")
def test_the_compiled_engine_decides_exactly_like_its_sources(tmp_path: Path) -> None:
    compiled = digest(ROOT)
    interpreted = digest(sources_only(tmp_path))
    assert compiled["compiled"] is True and interpreted["compiled"] is False
    assert compiled["digest"] == interpreted["digest"]


def fake_build(tree: Path, record: str | None) -> Path:
    """A copy of the sources with a (fake, empty) extension for cards.py and a build record."""
    sources_only(tree)
    suffix = ".cpython-311-x86_64-linux-gnu.so"
    (tree / "engine" / f"cards{suffix}").write_bytes(b"")
    if record is not None:
        (tree / "engine" / "_compiled.txt").write_text(record)
    return tree


def import_error(tree: Path) -> str:
    done = subprocess.run(
        [sys.executable, "-c", "import engine"],
        env={**os.environ, "PYTHONPATH": str(tree)},
        cwd=tree,
        capture_output=True,
        text=True,
    )
    assert done.returncode != 0
    return done.stderr.strip().splitlines()[-1]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux extension suffix")
def test_a_compiled_module_older_than_its_source_refuses_to_import(tmp_path: Path) -> None:
    stale = fake_build(tmp_path / "stale", "0" * 64 + "  engine/cards.py\n")
    assert import_error(stale) == (
        "ImportError: engine/cards.py is newer than its compiled module; "
        "run `make compile` to rebuild it, or `make clean-compiled` to run the sources"
    )
    unrecorded = fake_build(tmp_path / "unrecorded", None)
    assert "no engine/_compiled.txt" in import_error(unrecorded)

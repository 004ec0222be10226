"""Compile the engine with mypyc (the compiler inside the pinned mypy), in place or in a copy.

    python setup_mypyc.py            # compile engine/ in place (what `make compile` runs)
    python setup_mypyc.py --clean    # remove every compiled file (`make clean-compiled`)
    python setup_mypyc.py --tree DIR # the same in another checkout (a test's temporary copy)

The result sits beside the sources: one extension per compiled module
(``engine/state.cpython-311-*.so``), the code they share (``mu_engine__mypyc.*.so`` at the top
of the tree) and ``engine/_compiled.txt``, the SHA-256 of every compiled module's source at build
time.  Python imports an extension before the ``.py`` of the same name, so an edited ``.py``
would be shadowed by its old build: ``engine/_guard.py`` compares the hashes on every import of
the engine and refuses a stale build with the command that fixes it.  All of these files are
ignored by git, and the wheel holds them only when built with ``MU_COMPILED=1``
(``hatch_build.py``).

Which modules stay interpreted, and why, is :data:`INTERPRETED`.  Everything else under
``engine/`` is compiled: the rules, the fast interface, the views, results, the review and the
bots, i.e. every hot path.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent
GROUP = "mu_engine"  # the shared library: mu_engine__mypyc.<ext suffix>
MANIFEST = "engine/_compiled.txt"
BUILD_DIR = "build/mypyc"  # C sources and objects (ignored by git, like all of build/)

# Modules that are never compiled (paths relative to the tree), with the reason.
INTERPRETED: dict[str, str] = {
    "engine/__init__.py": "the package: runs the stale-build guard before any compiled import",
    "engine/_guard.py": "the stale-build guard itself",
    "engine/records.py": "@record is a dataclass_transform decorator that writes __init__ with "
    "exec: a compiled module fails at import",
    "engine/catalog.py": "a generic frozen dataclass (ByTrumpClass[T]) fails at import when "
    "compiled; built once per request, not hot",
    "engine/errors.py": "codes given as class keywords through __init_subclass__: compiled, "
    "every error's code reads 'illegal_action'",
    "engine/notation.py": "parses untrusted text; its BadValue has the same class-keyword code",
    "engine/codec.py": "the JSON edge: compiled functions check their annotations at run time "
    "and would raise TypeError instead of BadAction on malformed input",
    "engine/legality.py": "judges untrusted typed actions (a Bid(None), a Trump('x')): compiled, "
    "reading such a field raises TypeError before the rules can say bad_action",
    "engine/game.py": "the game edge: takes untrusted options and actions (same reason as codec)",
}


def sources(tree: Path) -> list[Path]:
    """The engine's modules to compile, sorted (relative to ``tree``)."""
    found = sorted(p.relative_to(tree) for p in (tree / "engine").rglob("*.py"))
    return [p for p in found if p.as_posix() not in INTERPRETED]


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def built_files(tree: Path) -> list[Path]:
    """Every file a build leaves in the tree (not the C sources in build/mypyc)."""
    files = [*(tree / "engine").rglob("*.so"), *(tree / "engine").rglob("*.pyd")]
    files += [*tree.glob(f"{GROUP}__mypyc*.so"), *tree.glob(f"{GROUP}__mypyc*.pyd")]
    manifest = tree / MANIFEST
    return sorted(files) + ([manifest] if manifest.exists() else [])


def clean(tree: Path = ROOT) -> None:
    for path in built_files(tree):
        path.unlink()
    shutil.rmtree(tree / BUILD_DIR, ignore_errors=True)


def build(tree: Path = ROOT, jobs: int | None = None) -> list[Path]:
    """Compile ``tree``'s engine in place; returns the files written (see :func:`built_files`)."""
    from mypyc.build import mypycify  # the pinned mypy's compiler (requirements/dev.txt)
    from setuptools import Distribution

    tree = tree.resolve()
    clean(tree)
    modules = sources(tree)
    jobs = jobs or os.cpu_count() or 1
    start = time.perf_counter()
    cwd = os.getcwd()
    os.chdir(tree)  # mypy reads [tool.mypy] from the tree's pyproject.toml
    try:
        extensions = mypycify(
            # (the config also names app/, which a build of the engine never reads)
            ["--no-warn-unused-configs", *(m.as_posix() for m in modules)],
            opt_level="3",
            debug_level="0",
            group_name=GROUP,
            target_dir=BUILD_DIR,
            multi_file=jobs > 1,  # one C file per module, so gcc can run in parallel
            strict_dunder_typing=False,
        )
        # setuptools' Distribution without setup(): setup() would read pyproject.toml, which
        # describes the app's wheel (built by hatchling), not these extensions.
        dist = Distribution({"name": "mu-engine-compiled", "ext_modules": extensions})
        dist.script_name = "setup_mypyc.py"
        dist.script_args = [
            "--quiet",
            "build_ext",
            "--inplace",
            f"--build-temp={BUILD_DIR}/temp",
            f"--parallel={jobs}",
        ]
        dist.parse_command_line()
        dist.run_commands()
    finally:
        os.chdir(cwd)
    lines = [f"{digest(tree / m)}  {m.as_posix()}" for m in modules]
    (tree / MANIFEST).write_text(
        "# SHA-256 of each compiled module's source at build time (setup_mypyc.py)\n"
        + "\n".join(lines)
        + "\n"
    )
    seconds = time.perf_counter() - start
    print(f"compiled {len(modules)} engine modules with mypyc in {seconds:.0f} s", flush=True)
    return built_files(tree)


def main(argv: list[str]) -> None:
    tree = ROOT
    if "--tree" in argv:
        tree = Path(argv[argv.index("--tree") + 1])
    if "--clean" in argv:
        clean(tree)
    else:
        build(tree)


if __name__ == "__main__":
    main(sys.argv[1:])

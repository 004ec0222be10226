"""The interpreted and the compiled engine side by side, in one run (issue 26).

Makes two throw-away copies of this checkout's engine and benches in a temporary folder: one
with the sources only, one compiled with mypyc (``setup_mypyc.py --tree``; the compile time is
printed).  Then runs each bench on both, alternating builds round by round, pinned to one core,
so both see the same machine load.  Each bench prints which engine it ran (``engine: ...``).

    python bench/both_builds.py [--core 0] [--repeat 2] [--only engine search review]

Benches: ``engine`` (bench/engine_bench.py: fast and typed-API hands/s, CPU time), ``search``
(bench/search_bench.py: search decision CPU p50/p95 and per world), ``expert`` (the same for
the expert bot's weighted worlds) and ``review``
(bench/review_bench.py: CPU seconds to review a whole 5-player hand).  Nothing is asserted.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCHES = {
    "engine": ["bench/engine_bench.py"],
    "search": ["bench/search_bench.py", "6", "24"],
    "expert": ["bench/search_bench.py", "6", "24", "expert"],
    "review": ["bench/review_bench.py", "--hands", "3", "--players", "5", "--variant", "classic"],
}


def copy_tree(dest: Path) -> Path:
    """The engine's sources, the benches and the build script, without any build output."""
    ignore = shutil.ignore_patterns("__pycache__", "*.so", "*.pyd", "_compiled.txt")
    shutil.copytree(ROOT / "engine", dest / "engine", ignore=ignore)
    shutil.copytree(ROOT / "bench", dest / "bench", ignore=ignore)
    for name in ("setup_mypyc.py", "pyproject.toml"):
        shutil.copy2(ROOT / name, dest / name)
    return dest


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--core", default="0", help="taskset's CPU list (default 0)")
    parser.add_argument("--repeat", type=int, default=2, help="runs of each bench per build")
    parser.add_argument("--only", nargs="*", default=list(BENCHES), choices=list(BENCHES))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="mu-builds-") as tmp:
        interpreted = copy_tree(Path(tmp) / "interpreted")
        compiled = copy_tree(Path(tmp) / "compiled")
        start, cpu = time.perf_counter(), os.times()
        subprocess.run([sys.executable, "setup_mypyc.py"], cwd=compiled, check=True)
        done = os.times()
        cpu_s = done.children_user + done.children_system - cpu.children_user - cpu.children_system
        print(f"compile: {time.perf_counter() - start:.0f} s wall, {cpu_s:.0f} s CPU", flush=True)
        pin = ["taskset", "-c", args.core] if shutil.which("taskset") else []
        for bench in args.only:
            for run in range(args.repeat):
                for tree in (interpreted, compiled):
                    print(f"\n## {bench}, run {run + 1}, {tree.name}", flush=True)
                    env = {**os.environ, "PYTHONPATH": str(tree)}
                    command = [*pin, sys.executable, *BENCHES[bench]]
                    subprocess.run(command, cwd=tree, env=env, check=True)


if __name__ == "__main__":
    main()

"""Sampling the servers under a bench with py-spy, during the measured seconds only.

``pip install py-spy`` (not a dependency of the app). Each server's on-CPU stacks go to
``<folder>/<label>-<i>.txt`` as collapsed stacks (one line per stack and its count), read with
``python bench/sampling.py FILE...``, which prints the share of samples under each of the
app's functions. Unlike cProfile it neither slows the server nor counts a coroutine's waits;
on a busy machine a thread that is ready to run but not running is counted too.
"""

from __future__ import annotations

import collections
import re
import subprocess
import sys
from pathlib import Path

_PREFIX = re.compile(
    r" \((?:[^()]*/site-packages/|[^()]*/lib/python3\.\d+/|/[^()]*?/(?=app/|engine/))"
)


def record(
    folder: Path, label: str, pids: list[int], seconds: float
) -> list[subprocess.Popen[bytes]]:
    """Start one py-spy per server for ``seconds``; wait for the returned processes."""
    folder.mkdir(parents=True, exist_ok=True)
    return [
        subprocess.Popen(
            [
                "py-spy",
                "record",
                "--pid",
                str(pid),
                "--duration",
                str(max(1, int(seconds))),
                "--rate",
                "200",
                "--format",
                "raw",
                "--nonblocking",
                "--gil",  # only the thread running Python: a C call that waits does not count
                "--output",
                str(folder / f"{label}-{index}.txt"),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for index, pid in enumerate(pids)
    ]


def summary(files: list[Path], top: int = 40) -> str:
    """The share of samples under each app or engine function, largest first."""
    under: collections.Counter[str] = collections.Counter()
    total = 0
    for path in files:
        for line in path.read_text().splitlines():
            stack, _, count = line.rpartition(" ")
            total += int(count)
            frames = {_PREFIX.sub(" (", frame) for frame in stack.split(";")}
            for frame in frames:
                if "(app/" in frame or "(engine/" in frame:
                    under[frame] += int(count)
    lines = [f"{total} samples"]
    lines += [f"{100 * n / max(1, total):5.1f} %  {frame}" for frame, n in under.most_common(top)]
    return "\n".join(lines)


if __name__ == "__main__":
    print(summary([Path(name) for name in sys.argv[1:]]))

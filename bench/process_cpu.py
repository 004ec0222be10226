"""Where a command's CPU goes on the whole machine, by kind of process: Chromium's renderers,
its browser and GPU processes, the test servers, the test workers, Playwright's driver, ...

    .venv/bin/python bench/process_cpu.py -- .venv/bin/python -m pytest -n 2 tests/browser

Runs the command and, twice a second, reads every process's CPU time (user + system) from
``/proc``; at the end prints each kind's CPU-seconds and process count, the machine's CPU from
``/proc/stat`` over the same time (everything, the machine's own background included) and the
wall time. A process that ends between two readings loses at most its last half second, so
the kinds add up to a little less than the machine's total.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import time
from collections import Counter, defaultdict

TICK = os.sysconf("SC_CLK_TCK")
INTERVAL = 0.5


def kind(command: str) -> str:
    if "chromium" in command:
        for part in ("renderer", "gpu-process", "utility", "zygote"):
            if f"--type={part}" in command:
                return f"chromium {part.removesuffix('-process')}"
        return "chromium browser"
    if "playwright" in command and ("driver" in command or "/node " in command):
        return "playwright driver (node)"
    if " -m app" in command:
        return "test servers (python -m app)"
    if "execnet" in command or "exec(eval(sys.stdin" in command or "pytest" in command:
        return "test processes (pytest)"
    if "postgres" in command or "pgbouncer" in command:
        return "postgresql (the machine's, and the tests' own clusters)"
    if "python" in command:
        return "other python (the tests' helpers: worker pools, scripts)"
    return "other: the machine's services" if command else "kernel threads"


def machine_cpu() -> float:
    fields = [int(value) for value in open("/proc/stat").readline().split()[1:]]
    return (sum(fields[:8]) - fields[3] - fields[4]) / TICK  # all but idle and iowait


Process = tuple[int, int]  # pid and start time: pids wrap, and a reused pid is another process


def read(commands: dict[Process, str], cpu: dict[Process, float]) -> None:
    """Every running process's command (the first time it is seen) and CPU time so far."""
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            process = (int(name), int(fields[19]))
            if process not in commands:
                with open(f"/proc/{name}/cmdline", "rb") as cmdline:
                    text = cmdline.read().replace(b"\0", b" ").decode(errors="replace")
                commands[process] = text
            cpu[process] = (int(fields[11]) + int(fields[12])) / TICK
        except (OSError, IndexError, ValueError):
            continue  # ended while being read


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", nargs=argparse.REMAINDER, help="-- the command to run")
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    commands: dict[Process, str] = {}
    cpu: dict[Process, float] = {}
    read(commands, cpu)
    before = dict(cpu)
    start_cpu, start = machine_cpu(), time.monotonic()
    child = subprocess.Popen(command)
    while child.poll() is None:
        time.sleep(INTERVAL)
        read(commands, cpu)
    read(commands, cpu)
    wall, total = time.monotonic() - start, machine_cpu() - start_cpu
    by_kind: defaultdict[str, float] = defaultdict(float)
    count: Counter[str] = Counter()
    for process, seconds in cpu.items():
        used = seconds - before.get(process, 0.0)
        if used > 0 or process not in before:
            by_kind[kind(commands[process])] += used
            count[kind(commands[process])] += 1
    print(f"\n{'CPU-s':>9} {'processes':>9}  kind")
    for name, seconds in sorted(by_kind.items(), key=lambda item: -item[1]):
        print(f"{seconds:9.1f} {count[name]:9d}  {name}")
    print(f"{sum(by_kind.values()):9.1f} {'':9}  all processes read")
    print(f"{total:9.1f} {'':9}  the machine (/proc/stat), in {wall:.1f} s wall")
    raise SystemExit(child.returncode)


if __name__ == "__main__":
    main()

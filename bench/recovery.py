"""How soon play resumes after PostgreSQL crashes, restarts or cuts every connection.

A private cluster (initdb as the ``postgres`` user, its own port; needs root or that user and
``/usr/lib/postgresql/15/bin``) under one and two server processes; four seats of a table
alternate between them. Prints, per disruption and process count, the seconds from the
database accepting connections again to the first action accepted through each process.

    .venv/bin/python bench/recovery.py
    .venv/bin/python bench/recovery.py --repeat 3 --processes 2
"""

from __future__ import annotations

import argparse
import asyncio
import secrets
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tests.app import pgcluster, recovery  # noqa: E402
from tests.app.processes import Server  # noqa: E402


def once(kind: recovery.Disruption, processes: int) -> recovery.Recovery:
    with pgcluster.private_cluster() as cluster:
        url = cluster.create_database(f"mu_{secrets.token_hex(4)}")
        servers = [Server(url, multi_process=processes > 1) for _ in range(processes)]
        try:
            for server in servers:
                server.start()
            return asyncio.run(recovery.run(cluster, servers, kind))
        finally:
            for server in servers:
                server.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--processes", type=int, nargs="*", default=[1, 2])
    parser.add_argument("--kinds", nargs="*", default=["crash", "restart", "cut"])
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    for processes in args.processes:
        for kind in args.kinds:
            runs = [once(kind, processes) for _ in range(args.repeat)]
            slowest = [max(run.accepted_after) for run in runs]
            lost = sum(run.acknowledged != len(run.log_seqs) for run in runs)
            print(
                f"{kind:8} processes={processes}: play resumed through every process after"
                f" {statistics.median(slowest):.2f} s (median of {len(runs)};"
                f" each run {', '.join(f'{x:.2f}' for x in slowest)} s); runs with a lost or"
                f" doubled action: {lost}",
                flush=True,
            )


if __name__ == "__main__":
    main()

"""A private PostgreSQL cluster for the tests that crash, restart or cut the database.

The machine's server at 127.0.0.1:5432 is shared by every test; a test that stops a server
gets its own: ``initdb`` into a temporary folder as the ``postgres`` user (the server refuses
to run as root), on a free port, started and stopped with ``pg_ctl``. Only on Linux with
PostgreSQL's server binaries (``PG_BIN``, default Debian's ``/usr/lib/postgresql/15/bin``).
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import psycopg

from app.migrate import upgrade_head
from tests.app.processes import free_port
from tests.waiting import wait_until

PG_BIN = Path(os.environ.get("PG_BIN", "/usr/lib/postgresql/15/bin"))
OWNER = "postgres"


def available() -> str | None:
    """Why a private cluster cannot be made here, or None when it can."""
    if not (PG_BIN / "initdb").exists():
        return f"no PostgreSQL server binaries in {PG_BIN}"
    try:
        pwd.getpwnam(OWNER)
    except KeyError:
        return f"no {OWNER!r} user to run a cluster as"
    if os.geteuid() != 0 and pwd.getpwuid(os.geteuid()).pw_name != OWNER:
        return "a private cluster needs root or the postgres user"
    return None


class Cluster:
    """One private cluster: ``url`` is its ``postgres`` database, ``dsn(name)`` another one."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.data = folder / "data"
        self.port = free_port()
        self.log = folder / "server.log"

    def _run(self, *command: str) -> None:
        prefix = (
            [] if pwd.getpwuid(os.geteuid()).pw_name == OWNER else ["runuser", "-u", OWNER, "--"]
        )
        subprocess.run(
            [*prefix, *command], check=True, capture_output=True, cwd=self.folder, timeout=120
        )

    def init(self) -> None:
        self._run(str(PG_BIN / "initdb"), "-D", str(self.data), "-A", "trust", "-U", "postgres")
        with (self.data / "postgresql.conf").open("a") as conf:
            conf.write(
                f"port = {self.port}\nlisten_addresses = '127.0.0.1'\n"
                f"unix_socket_directories = '{self.folder}'\nfsync = off\n"
                "max_connections = 60\nshared_buffers = 32MB\n"
            )

    def start(self) -> None:
        self._run(str(PG_BIN / "pg_ctl"), "-D", str(self.data), "-l", str(self.log), "-w", "start")
        self.wait_ready()

    def stop(self, mode: str = "fast") -> None:
        """``fast``: a clean shutdown; ``immediate``: a crash (no checkpoint, recovery on start)."""
        self._run(str(PG_BIN / "pg_ctl"), "-D", str(self.data), "-m", mode, "-w", "stop")

    def terminate_connections(self) -> int:
        """Cut every client connection (as a failover or an admin would); how many were cut."""
        with psycopg.connect(self.dsn(), autocommit=True) as conn:
            row = conn.execute(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                " WHERE pid <> pg_backend_pid() AND backend_type = 'client backend'"
            ).fetchone()
        return int(row[0]) if row else 0

    def wait_ready(self, timeout: float = 30) -> float:
        """Wait until the cluster accepts connections; returns the monotonic time it did."""

        def accepts() -> float | None:
            with contextlib.suppress(psycopg.Error):
                with psycopg.connect(self.dsn(), connect_timeout=1):
                    return time.monotonic()
            return None

        try:
            return wait_until(accepts, timeout, "the private cluster did not start") or 0.0
        except AssertionError as failed:
            raise TimeoutError(f"{failed}:\n{self.log.read_text()}") from None

    def dsn(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def create_database(self, name: str) -> str:
        """A new database, migrated to the newest schema; its URL."""
        with psycopg.connect(self.dsn(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        upgrade_head(self.dsn(name))
        return self.dsn(name)


@contextmanager
def private_cluster() -> Iterator[Cluster]:
    """A running private cluster, removed (stopped, its folder deleted) afterwards."""
    folder = Path(tempfile.mkdtemp(prefix="mu_pg_"))
    shutil.chown(folder, OWNER)
    cluster = Cluster(folder)
    try:
        cluster.init()
        cluster.start()
        yield cluster
    finally:
        with contextlib.suppress(Exception):
            cluster.stop("immediate")
        shutil.rmtree(folder, ignore_errors=True)

"""Two server processes behind PgBouncer in transaction mode (Debian's ``pgbouncer``).

The pooled connections (SQLAlchemy's, the commit pool, notify, the log reader) go through
PgBouncer with ``PREPARED_STATEMENTS=false``; LISTEN (and the migrations) use the direct
``LISTEN_DATABASE_URL``. A hand's actions alternate between the processes, so every one of
them crosses the fan-out, and each statement shape runs far more often than psycopg's prepare
threshold: a prepared statement left on a pooled server connection would fail here.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from sqlalchemy.engine import make_url

from tests.app import databases
from tests.app.processes import Server, free_port, open_table
from tests.app.test_multiprocess import close_all, connect, log_of, settle, step
from tests.waiting import wait_until

pytestmark = [pytest.mark.processes, pytest.mark.postgres]
PGBOUNCER = shutil.which("pgbouncer") or "/usr/sbin/pgbouncer"
OWNER = "postgres"  # PgBouncer refuses to run as root


@contextlib.contextmanager
def pgbouncer(server_url: str) -> Iterator[str]:
    """PgBouncer in transaction mode in front of ``server_url``'s server; yields its address
    as ``host:port``."""
    if not Path(PGBOUNCER).exists():
        if os.environ.get("MU_REQUIRE_POSTGRES"):
            pytest.fail("pgbouncer is not installed (apt-get install pgbouncer)")
        pytest.skip("pgbouncer is not installed")
    target = make_url(server_url)
    folder = Path(tempfile.mkdtemp(prefix="mu_pgbouncer_"))
    port = free_port()
    (folder / "users.txt").write_text(f'"{target.username or "postgres"}" ""\n')
    (folder / "pgbouncer.ini").write_text(
        "[databases]\n"
        f"* = host={target.host or '127.0.0.1'} port={target.port or 5432}\n"
        "[pgbouncer]\n"
        f"listen_addr = 127.0.0.1\nlisten_port = {port}\nunix_socket_dir =\n"
        f"auth_type = trust\nauth_file = {folder / 'users.txt'}\n"
        "pool_mode = transaction\ndefault_pool_size = 20\nmax_client_conn = 500\n"
        f"logfile = {folder / 'pgbouncer.log'}\npidfile = {folder / 'pgbouncer.pid'}\n"
    )
    as_root = os.geteuid() == 0
    if as_root:
        shutil.chown(folder, OWNER)
        for item in folder.iterdir():
            shutil.chown(item, OWNER)
    command = [PGBOUNCER, *(["-u", OWNER] if as_root else []), str(folder / "pgbouncer.ini")]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:

        def answers() -> bool:
            with contextlib.suppress(psycopg.Error):
                dsn = target.set(host="127.0.0.1", port=port, database="postgres")
                with psycopg.connect(dsn.render_as_string(False), connect_timeout=1):
                    return True
            log = folder / "pgbouncer.log"
            assert process.poll() is None, log.read_text() if log.exists() else "no log"
            return False

        wait_until(answers, 30, "pgbouncer did not start")
        yield f"127.0.0.1:{port}"
    finally:
        process.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=10)
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def direct_url() -> Iterator[str]:
    with databases.postgres_database(databases.postgres_server()) as url:
        yield url


async def test_a_hand_through_pgbouncer_in_transaction_mode(direct_url: str) -> None:
    assert pwd.getpwnam(OWNER)
    with pgbouncer(direct_url) as address:
        host, port = address.split(":")
        pooled = make_url(direct_url).set(host=host, port=int(port)).render_as_string(False)
        env = {"LISTEN_DATABASE_URL": direct_url, "PREPARED_STATEMENTS": "false"}
        servers = [Server(pooled, env=env), Server(pooled, env=env)]
        try:
            await asyncio.gather(*(asyncio.to_thread(server.start) for server in servers))
            bases = [server.http for server in servers]
            code, tokens = await asyncio.to_thread(open_table, bases, 4)
            seats = await connect(servers, code, list(tokens))
            version = 4
            await settle(seats, version)
            for _ in range(40):
                await step(seats, [], version)
                version += 1
            await close_all(seats)
        finally:
            for server in servers:
                server.close()
    stored, log = log_of(direct_url, code)
    assert stored == version
    assert [seq for seq, _seat, _action in log] == list(range(1, version - 4 + 1))

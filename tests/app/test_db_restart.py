"""PostgreSQL crashes, restarts or cuts every connection mid-hand (a private cluster).

Nothing acknowledged is lost, nothing is applied twice, and play resumes through every process
once the database is back (how soon is printed by ``bench/recovery.py``; never asserted here).
"""

from __future__ import annotations

import asyncio
import os
import secrets
from collections.abc import Iterator

import pytest

from tests.app import pgcluster, recovery
from tests.app.processes import Server

pytestmark = [pytest.mark.processes, pytest.mark.postgres]


# One private cluster for the module: every test makes its own database on it, and each leaves
# it running (crashed, restarted or cut, it is back before the test ends).
@pytest.fixture(scope="module")
def cluster() -> Iterator[pgcluster.Cluster]:
    reason = pgcluster.available()
    if reason is not None:
        # Like every PostgreSQL test: a failure where CI requires them (MU_REQUIRE_POSTGRES).
        if os.environ.get("MU_REQUIRE_POSTGRES"):
            pytest.fail(f"no private PostgreSQL cluster here: {reason}")
        pytest.skip(reason)
    with pgcluster.private_cluster() as cluster:
        yield cluster


@pytest.mark.parametrize("processes", [1, 2])
@pytest.mark.parametrize("kind", ["crash", "restart", "cut"])
async def test_play_resumes_after_the_database_comes_back(
    cluster: pgcluster.Cluster, kind: recovery.Disruption, processes: int
) -> None:
    url = cluster.create_database(f"mu_{secrets.token_hex(4)}")
    servers = [Server(url, multi_process=processes > 1) for _ in range(processes)]
    try:
        for server in servers:  # one after the other: the first one migrates
            await asyncio.to_thread(server.start)
        result = await recovery.run(cluster, servers, kind)
    finally:
        for server in servers:
            server.close()
    assert len(result.accepted_after) == processes  # every process took an action again
    # Every acknowledged action is stored, once: the log is contiguous and holds exactly them.
    assert result.log_seqs == list(range(1, len(result.log_seqs) + 1))
    assert len(result.log_seqs) == result.acknowledged
    assert result.stored_version == recovery.PLAYERS + result.acknowledged

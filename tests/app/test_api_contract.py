"""Issue 25.7: the OpenAPI document is the API's exact contract.

Schemathesis generates requests from ``/openapi.json`` (valid ones, and invalid ones) and runs
all its checks on the answers: every status and body the server sends is documented (errors
as ``ErrorBody``), schema-valid requests are accepted, schema-violating ones refused, and a
405's ``Allow`` names every method of the path. Seeded and bounded (about a minute), on SQLite.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pytest
import schemathesis
from hypothesis import HealthCheck, settings

from app.config import Settings
from app.main import create_app
from tests.app.conftest import counting_seeds
from tests.app.databases import upgrade_head

# Schemathesis runs the app (and its lifespan) on an event loop thread of its own, closed at
# exit: streams it leaves behind between calls are not this app's.
pytestmark = pytest.mark.filterwarnings(
    "ignore::ResourceWarning", "ignore::pytest.PytestUnraisableExceptionWarning"
)

# Built at import: schemathesis' pytest fixtures (``from_fixture``) do not run on pytest 9.
# The lifespan starts with the first request (the schema's), so the database is migrated first.
_FOLDER = Path(tempfile.mkdtemp(prefix="mu-contract-"))
_URL = f"sqlite:///{_FOLDER / 'mu.db'}"
upgrade_head(_URL)
_APP = create_app(
    Settings(database_url=_URL, review_workers=0, rate_limits=False), seeds=counting_seeds()
)
schema = schemathesis.openapi.from_asgi("/openapi.json", _APP)


def teardown_module() -> None:
    shutil.rmtree(_FOLDER, ignore_errors=True)


@schema.parametrize()
@settings(
    max_examples=25,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
def test_the_api_keeps_its_openapi_contract(case: schemathesis.Case) -> None:
    case.call_and_validate()

"""Fixtures for the leaseq module's tests.

The backend is LEASEQ_PY_BACKEND (sqlite, postgres or mysql; default
sqlite): SQLite uses a temporary file, PostgreSQL LEASEQ_TEST_PG_DSN,
MariaDB LEASEQ_TEST_MYSQL_DSN.  Without its DSN the run is skipped (exit
77), or fails when LEASEQ_REQUIRE_ALL_BACKENDS is set.  Tests on a server
share its tables, so each names its leases and queues uniquely (uniq).
"""
import os
import uuid

import pytest

import leaseq

BACKEND = os.environ.get("LEASEQ_PY_BACKEND", "sqlite")
_ENV = {"postgres": "LEASEQ_TEST_PG_DSN", "mysql": "LEASEQ_TEST_MYSQL_DSN"}


def pytest_configure(config):
    if BACKEND not in ("sqlite", "postgres", "mysql"):
        raise pytest.UsageError("LEASEQ_PY_BACKEND must be sqlite, postgres or mysql")
    if BACKEND in _ENV and not os.environ.get(_ENV[BACKEND]):
        if os.environ.get("LEASEQ_REQUIRE_ALL_BACKENDS"):
            raise pytest.UsageError("%s is not set and LEASEQ_REQUIRE_ALL_BACKENDS is" % _ENV[BACKEND])
        pytest.exit("%s is not set: %s skipped" % (_ENV[BACKEND], BACKEND), returncode=77)


@pytest.fixture(scope="session")
def dsn(tmp_path_factory):
    if BACKEND == "sqlite":
        return "sqlite:%s" % (tmp_path_factory.mktemp("leaseq") / "test.db")
    return os.environ[_ENV[BACKEND]]


@pytest.fixture(scope="session", autouse=True)
def migrated(dsn):
    with leaseq.connect(dsn) as db:
        db.migrate()


@pytest.fixture
def db(dsn):
    with leaseq.connect(dsn) as d:
        yield d


@pytest.fixture
def uniq():
    """A prefix no other test (or earlier run on the same server) uses."""
    return "py-%s" % uuid.uuid4().hex[:12]

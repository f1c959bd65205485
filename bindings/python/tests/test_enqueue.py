"""leaseq.enqueue inside the application's own transaction, per driver:
rolled back -> no task; committed -> the task runs once."""
import sqlite3
import urllib.parse

import pytest

import leaseq
from conftest import BACKEND

pg_only = pytest.mark.skipif(BACKEND != "postgres", reason="a PostgreSQL driver")
mysql_only = pytest.mark.skipif(BACKEND != "mysql", reason="a MySQL driver")
sqlite_only = pytest.mark.skipif(BACKEND != "sqlite", reason="an SQLite driver")


def runs_once(db, queue, tid):
    """The committed task is there, and a worker runs it exactly once."""
    seen = []
    worker = leaseq.Worker(db, queues=[queue])
    worker.handle("*", lambda task: seen.append((task.id, task.payload)))
    worker.run(drain=True)
    worker.run(drain=True)
    assert [s[0] for s in seen] == [tid]
    return seen[0][1]


def mysql_params(dsn):
    u = urllib.parse.urlsplit(dsn)
    return dict(host=u.hostname, port=u.port or 3306, user=urllib.parse.unquote(u.username or ""),
                passwd=urllib.parse.unquote(u.password or ""), db=u.path.lstrip("/"))


def check_driver(db, uniq, conn, commit, rollback, execute=None):
    """Rolled back: nothing; committed: runs once (options and payload kept)."""
    if execute:
        execute("SELECT 1")
    leaseq.enqueue(conn, "gone", b"x", queue=uniq)
    rollback()
    assert db.list(uniq) == []
    tid = leaseq.enqueue(conn, "kept", "payload", queue=uniq, priority=3, max_attempts=5, delay=0)
    ids = leaseq.enqueue_many(conn, [{"name": "later", "queue": uniq + "-later", "delay": "1h"},
                                     ("u", None, {"queue": uniq + "-u", "unique": uniq})])
    again = leaseq.enqueue(conn, "u", queue=uniq + "-u", unique=uniq)
    assert again == ids[1]
    assert db.list(uniq) == []  # not committed yet: not visible to another connection
    commit()
    t = db.get(tid)
    assert (t.name, t.priority, t.max_attempts) == ("kept", 3, 5)
    assert db.list(uniq + "-later", due=True) == [] and len(db.list(uniq + "-later")) == 1
    assert runs_once(db, uniq, tid) == b"payload"


@pg_only
def test_psycopg2(db, dsn, uniq):
    psycopg2 = pytest.importorskip("psycopg2")
    conn = psycopg2.connect(dsn)
    try:
        check_driver(db, uniq, conn, conn.commit, conn.rollback)
        # Its own statements and the task commit together.
        with conn.cursor() as cur:
            cur.execute("CREATE TEMP TABLE orders (id int)")
            cur.execute("INSERT INTO orders VALUES (1)")
            tid = leaseq.enqueue(conn, "order", queue=uniq + "-o")
            conn.rollback()
        assert db.get(tid) is None
    finally:
        conn.close()


@pg_only
def test_psycopg3(db, dsn, uniq):
    psycopg = pytest.importorskip("psycopg")
    with psycopg.connect(dsn) as conn:
        check_driver(db, uniq, conn, conn.commit, conn.rollback)
    with psycopg.connect(dsn, autocommit=True) as conn:
        with pytest.raises(ZeroDivisionError):
            with conn.transaction():
                leaseq.enqueue(conn, "gone", queue=uniq + "-tx")
                raise ZeroDivisionError
        assert db.list(uniq + "-tx") == []
        with conn.transaction():
            tid = leaseq.enqueue(conn, "kept", queue=uniq + "-tx")
        runs_once(db, uniq + "-tx", tid)


@sqlite_only
def test_sqlite3(db, dsn, uniq):
    conn = sqlite3.connect(dsn[len("sqlite:"):], timeout=30)
    try:
        check_driver(db, uniq, conn, conn.commit, conn.rollback)
    finally:
        conn.close()


@mysql_only
def test_mysqldb(db, dsn, uniq):
    MySQLdb = pytest.importorskip("MySQLdb")
    conn = MySQLdb.connect(**mysql_params(dsn))
    try:
        check_driver(db, uniq, conn, conn.commit, conn.rollback)
    finally:
        conn.close()


@mysql_only
def test_pymysql(db, dsn, uniq):
    pymysql = pytest.importorskip("pymysql")
    p = mysql_params(dsn)
    p["password"] = p.pop("passwd")
    p["database"] = p.pop("db")
    conn = pymysql.connect(**p)
    try:
        check_driver(db, uniq, conn, conn.commit, conn.rollback)
    finally:
        conn.close()


def test_enqueue_refuses_what_it_cannot_do(db, uniq):
    with pytest.raises(TypeError):
        leaseq.enqueue(object(), "x")
    conn = sqlite3.connect(":memory:")
    with pytest.raises(ValueError):
        leaseq.enqueue(conn, "x", every="1h")
    with pytest.raises(ValueError):
        leaseq.enqueue(conn, "")
    conn.close()
    assert db.get(leaseq.enqueue(db, "via-db", queue=uniq)).queue == uniq


def test_django_atomic(db, dsn, uniq):
    django = pytest.importorskip("django")
    from django.conf import settings

    if BACKEND == "sqlite":
        database = {"ENGINE": "django.db.backends.sqlite3", "NAME": dsn[len("sqlite:"):],
                    "OPTIONS": {"timeout": 30}}
    else:
        u = urllib.parse.urlsplit(dsn)
        database = {"ENGINE": "django.db.backends.postgresql" if BACKEND == "postgres"
                    else "django.db.backends.mysql",
                    "NAME": u.path.lstrip("/"), "USER": urllib.parse.unquote(u.username or ""),
                    "PASSWORD": urllib.parse.unquote(u.password or ""), "HOST": u.hostname,
                    "PORT": str(u.port or "")}
    if not settings.configured:
        settings.configure(DATABASES={"default": database}, INSTALLED_APPS=[], USE_TZ=True)
        django.setup()
    from django.db import connection, transaction

    class Refused(Exception):
        pass

    with pytest.raises(Refused):
        with transaction.atomic():
            leaseq.enqueue(connection, "gone", queue=uniq)
            raise Refused
    assert db.list(uniq) == []
    with transaction.atomic():
        tid = leaseq.enqueue(connection, "kept", "django", queue=uniq)
    connection.close()
    assert runs_once(db, uniq, tid) == b"django"

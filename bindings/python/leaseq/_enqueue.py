"""Enqueue inside the application's own transaction (an outbox).

psycopg 2 and psycopg 3 connections are borrowed: libleaseq runs its INSERT
on the application's PGconn (lq_open_borrowed), so the task is one of the
application's own statements.  That needs psycopg and libleaseq to use the
same libpq (Debian's python3-psycopg2 / python3-psycopg do; a binary wheel
that bundles its own libpq is refused with RuntimeError).

sqlite3, MySQLdb and PyMySQL connections, and Django's connection (any
backend but PostgreSQL, which is borrowed as above), run the schema's
documented INSERT (docs/tasks.md, "Enqueue from any language") through their
own cursor.  Recurring tasks (every, cron) need the library's schedule code:
add those with Db.add().
"""

from . import _leaseq

# The database clock, epoch milliseconds, as the schema's defaults write it.
_NOW = {
    "sqlite": "CAST(ROUND((julianday('now') - 2440587.5) * 86400000.0) AS INTEGER)",
    "mysql": "TIMESTAMPDIFF(MICROSECOND, '1970-01-01', UTC_TIMESTAMP(3)) DIV 1000",
    "postgres": "(extract(epoch FROM clock_timestamp()) * 1000)::bigint",
}


def enqueue(conn, name, payload=None, **options):
    """Add one task through the application's connection conn, inside its
    open transaction: the task exists if and only if that transaction
    commits.  conn: a psycopg2 / psycopg 3 / sqlite3 / MySQLdb / PyMySQL
    connection, Django's ``django.db.connection``, or a leaseq.Db.
    options: as Db.add() (queue, delay, run_at, unique, priority, timeout,
    max_attempts).  Returns the task id."""
    item = dict(options)
    item["name"] = name
    item["payload"] = payload
    return enqueue_many(conn, [item])[0]


def enqueue_many(conn, tasks):
    """Add tasks (as Db.add_many() takes them) through conn inside its open
    transaction: all of them or none.  Returns the ids in order."""
    tasks = list(tasks)
    if isinstance(conn, _leaseq.Db):
        return conn.add_many(tasks)
    kind, raw = _driver(conn)
    if kind == "pgconn":
        return _enqueue_pg(raw, tasks)
    specs = _leaseq._check_tasks(tasks)
    for s in specs:
        if s["every_ms"] or s["cron"]:
            raise ValueError("enqueue(): recurring tasks (every, cron) are added with Db.add(): their "
                             "schedule is computed by the library")
        if s["flow"]:
            raise ValueError("enqueue(): concurrency_key and partition are set with Db.add(): the "
                             "documented INSERT does not write them")
    dialect, style, cursor_of = kind
    ids = []
    cur = cursor_of()
    try:
        for s in specs:
            ids.append(_insert(cur, dialect, style, s))
    finally:
        cur.close()
    return ids


def _module(obj):
    return type(obj).__module__ or ""


def _driver(conn):
    """(kind, raw connection) for conn; kind is "pgconn" or (dialect, paramstyle, cursor factory)."""
    mod = _module(conn)
    if hasattr(conn, "vendor") and hasattr(conn, "ensure_connection"):  # Django's connection
        conn.ensure_connection()
        if conn.vendor == "postgresql":
            return _driver(conn.connection)
        dialect = {"sqlite": "sqlite", "mysql": "mysql"}.get(conn.vendor)
        if not dialect:
            raise TypeError("enqueue(): Django's %s backend is not supported" % conn.vendor)
        return (dialect, "format", conn.cursor), conn
    if mod.startswith("psycopg2"):
        return "pgconn", conn
    if mod.startswith("psycopg") and hasattr(conn, "pgconn"):
        return "pgconn", conn
    if mod.startswith("sqlite3"):
        return ("sqlite", "qmark", conn.cursor), conn
    if mod.startswith("MySQLdb") or mod.startswith("pymysql"):
        return ("mysql", "format", conn.cursor), conn
    raise TypeError("enqueue(): conn must be a psycopg2, psycopg, sqlite3, MySQLdb or PyMySQL connection, "
                    "Django's connection or a leaseq.Db, not %s.%s" % (mod, type(conn).__name__))


def _enqueue_pg(conn, tasks):
    if _module(conn).startswith("psycopg2"):
        import psycopg2.extensions as ext

        if conn.closed:
            raise ValueError("enqueue(): the psycopg2 connection is closed")
        # psycopg2 sends BEGIN lazily, before its first statement: send it
        # now (with a no-op), so that the INSERT joins the transaction the
        # application's next statements and commit() belong to.
        if not conn.autocommit and conn.info.transaction_status == ext.TRANSACTION_STATUS_IDLE:
            with conn.cursor() as cur:
                cur.execute("SELECT 1")
        ptr = conn.pgconn_ptr
    else:
        from psycopg import pq

        if conn.closed:
            raise ValueError("enqueue(): the psycopg connection is closed")
        if not conn.autocommit and conn.info.transaction_status == pq.TransactionStatus.IDLE:
            conn.execute("SELECT 1")  # psycopg starts its transaction lazily too
        ptr = conn.pgconn.pgconn_ptr
    if not ptr:
        raise ValueError("enqueue(): the psycopg connection is closed")
    return _leaseq._enqueue_pgconn(ptr, tasks)


def _insert(cur, dialect, style, s):
    ph = "?" if style == "qmark" else "%s"
    cols = ["queue", "name", "payload", "max_attempts", "priority"]
    vals = [ph] * 5
    params = [s["queue"], s["name"], s["payload"], s["max_attempts"], s["priority"]]
    if s["run_at_ms"]:
        cols.append("run_at")
        vals.append(ph)
        params.append(s["run_at_ms"])
    elif s["delay_ms"]:
        cols.append("run_at")
        vals.append("%s + %s" % (_NOW[dialect], ph))
        params.append(s["delay_ms"])
    if s["timeout_ms"]:
        cols.append("timeout_ms")
        vals.append(ph)
        params.append(s["timeout_ms"])
    if s["unique_key"] is not None:
        cols.append("unique_key")
        vals.append(ph)
        params.append(s["unique_key"])
    sql = "INSERT INTO lq_task (%s) VALUES (%s)" % (", ".join(cols), ", ".join(vals))
    if s["unique_key"] is None:
        cur.execute(sql, params)
        return cur.lastrowid
    if dialect == "sqlite":
        cur.execute(sql + " ON CONFLICT DO NOTHING", params)
        if cur.rowcount == 1:
            return cur.lastrowid
    else:
        try:
            cur.execute(sql, params)
            return cur.lastrowid
        except Exception as e:  # MySQL: a duplicate key fails the statement only
            if not (getattr(e, "args", None) and e.args[0] == 1062):
                raise
    cur.execute("SELECT id FROM lq_task WHERE unique_key = %s" % ph, [s["unique_key"]])
    return cur.fetchone()[0]

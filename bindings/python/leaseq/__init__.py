"""leaseq: leases and a task queue kept inside SQLite, PostgreSQL or MariaDB.

A thin binding of the C library libleaseq (lib/leaseq.h): the same semantics,
statuses and database schema as ``leasectl``.

Connect::

    import leaseq
    with leaseq.connect("sqlite:app.db") as db:   # default: $LEASEQ_DSN, else sqlite:leaseq.db
        db.migrate()

Leases (named, time-bounded mutexes with a fencing token; database clock)::

    with db.lease("report", ttl="30s", wait="10s") as lease:   # Busy when the wait ends
        write_report(fence=lease.token)
        lease.renew()                                            # LeaseLost when it was lost
    lease = db.try_lease("report", ttl=30)                       # None when held elsewhere

Tasks::

    task_id = db.add("email", '{"to": "a@example.com"}', delay="5m")
    for task in db.claim("default", limit=10):
        ...; db.ack(task)           # or db.fail(task, "why"), db.release(task)

Workers (handlers receive the Task; an exception is a failed attempt)::

    worker = leaseq.Worker(db, queues=["default"])

    @worker.task("email")
    def send(task):
        deliver(task.text)

    worker.run(drain=True, concurrency=4)

Inside a handler, ``leaseq.progress(40, "exporting")``, ``leaseq.snooze("5m")``
and ``leaseq.set_result(data)``; ``db.progress(id)`` and ``db.result(id)``
read them back.

Enqueue inside the application's own transaction (psycopg 2/3, sqlite3,
MySQLdb, PyMySQL, Django)::

    with psycopg_conn.transaction():
        psycopg_conn.execute("INSERT INTO orders ...")
        leaseq.enqueue(psycopg_conn, "email", payload)

Durations are seconds (int/float), a string such as ``"250ms"``/``"30s"``/``"5m"``,
or a ``datetime.timedelta``.  Times read back are ``datetime`` in UTC.

Errors: every failure raises a subclass of :class:`leaseq.Error`, one per
library status (``status`` attribute), e.g. :class:`Busy`, :class:`LeaseLost`,
:class:`ConnectionError` (also the builtin ``ConnectionError``),
:class:`Timeout` (also ``TimeoutError``).  Bad arguments raise ``TypeError`` or
``ValueError`` before anything is sent.  No message or repr ever shows a
password.

Threads: a :class:`Db` is one connection, used by one thread at a time (one
Db per thread; a second thread's call raises ``RuntimeError``).  Every call
that may touch the database releases the GIL.

See docs/python.md for the whole manual.
"""

import builtins as _builtins

from . import _leaseq
from ._leaseq import Db, Lease, Limit, QueueInfo, Report, Run, Schedule, Task, parse_duration, redact_dsn

__version__ = _leaseq.library_version

_STATUS = _leaseq._status_names()  # {code: (NAME, text)}


class Error(Exception):
    """The root of leaseq's exceptions.

    ``status`` is the library's ``lq_status`` code, ``status_name`` its name
    (``"BUSY"``, ``"ECONN"``, ...); ``str(e)`` is the library's sentence
    (``lq_errmsg``), which names the object involved and never holds a password.
    """

    status = 10  # LQ_ERROR: the database refused a statement

    @property
    def status_name(self):
        """The lq_status name without its prefix, e.g. ``"BUSY"``."""
        return _STATUS.get(self.status, ("UNKNOWN", ""))[0]


class Busy(Error):
    """Held elsewhere (LQ_BUSY): a lease wait ended.  ``holder`` describes the holder (a dict)."""

    status = 1
    holder = None


class LeaseLost(Error):
    """A lease or a claim is no longer ours (LQ_LOST): stop acting on it."""

    status = 2


Lost = LeaseLost


class NotFound(Error):
    """No such thing (LQ_NOTFOUND)."""

    status = 4


class InvalidArgument(Error, ValueError):
    """The library refused an argument (LQ_EINVAL); also a ``ValueError``."""

    status = 5


class Schema(Error):
    """No schema yet (run ``Db.migrate()``), or one newer than this library (LQ_ESCHEMA)."""

    status = 6


class ConnectionError(Error, _builtins.ConnectionError):  # noqa: A001 - the name the bindings share
    """The database could not be reached or the connection was lost (LQ_ECONN); the next call reconnects."""

    status = 7


class UnknownOutcome(Error):
    """The connection was lost during a commit: it may or may not have been applied (LQ_EUNKNOWN)."""

    status = 8


class NoMemory(Error, MemoryError):
    """Out of memory (LQ_ENOMEM)."""

    status = 9


class Timeout(Error, TimeoutError):
    """Timed out (LQ_ETIMEDOUT); also what a worker raises in a handler past its time limit."""

    status = 11


class TransactionOpen(Error):
    """Not allowed inside the application's open transaction on a borrowed connection (LQ_ETXOPEN)."""

    status = 12


class NoDatabase(Error, FileNotFoundError):
    """The SQLite database file does not exist (LQ_ENODB)."""

    status = 13


class CannotCreate(Error, OSError):
    """The SQLite database file cannot be created (LQ_ECREATE)."""

    status = 14


class PermissionDenied(Error, PermissionError):
    """Permission denied on the SQLite file, or a write on a read-only handle (LQ_EPERM)."""

    status = 15


class NotADatabase(Error):
    """The path is a directory or not an SQLite database (LQ_ENOTDB)."""

    status = 16


class Canceled(Error):
    """``Db.cancel()`` ended the wait (LQ_ECANCELED)."""

    status = 17


class Revoked(Error):
    """The claimed task was cancelled (``Db.cancel_task()``, ``leasectl task cancel``, LQ_REVOKED): stop
    working on it.  A Worker raises it inside the handler when its heartbeat hears of the cancel."""

    status = 18


_leaseq._init(
    Error,
    {c.status: c for c in (Busy, LeaseLost, NotFound, InvalidArgument, Schema, ConnectionError,
                           UnknownOutcome, NoMemory, Timeout, TransactionOpen, NoDatabase,
                           CannotCreate, PermissionDenied, NotADatabase, Canceled, Revoked)},
)


def connect(dsn=None):
    """Open a :class:`Db`.  dsn: ``"sqlite:PATH"``, ``"postgresql://..."``,
    ``"mysql://user:pass@host:port/db"``; None: ``$LEASEQ_DSN``, else
    ``"sqlite:leaseq.db"``.  Raises :class:`ConnectionError` when the server
    cannot be reached.  Use it as a context manager to close it."""
    return Db(dsn)


from ._worker import Worker, tick, progress, snooze, set_result  # noqa: E402
from ._enqueue import enqueue, enqueue_many  # noqa: E402

__all__ = [
    "connect", "Db", "Lease", "Task", "Run", "QueueInfo", "Report", "Limit", "Schedule", "Worker", "tick",
    "progress", "snooze", "set_result", "enqueue",
    "enqueue_many", "parse_duration", "redact_dsn", "Error", "Busy", "LeaseLost", "Lost", "NotFound",
    "InvalidArgument", "Schema", "ConnectionError", "UnknownOutcome", "NoMemory", "Timeout",
    "TransactionOpen", "NoDatabase", "CannotCreate", "PermissionDenied", "NotADatabase", "Canceled",
    "Revoked",
]

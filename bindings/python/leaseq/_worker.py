"""Workers and pseudo-cron ticks over the C runner (lq_runner_work / lq_runner_tick)."""

import signal
import threading
import time

from . import _leaseq


def _seconds(value):
    return None if value is None else _leaseq.parse_duration(value)


# The job of the handler running in this thread, for progress(), snooze()
# and set_result().
_current = threading.local()


def _job():
    job = getattr(_current, "job", None)
    if job is None:
        raise RuntimeError("not inside a leaseq handler (progress, snooze and set_result are for a running task)")
    return job


def progress(percent, message=None):
    """Report how far the running task is: percent 0-100 and a short message
    (at most 200 bytes of UTF-8), shown by ``Db.progress(id)``, ``leasectl
    task show`` and the dashboard.  Needs an at-least-once worker.  Returns
    False when the claim was lost: stop working."""
    return _job().progress(percent, message)


def snooze(delay):
    """Put the running task off: when the handler returns, it runs again
    after delay (seconds, "5m", timedelta), this attempt not counted."""
    _job().snooze(delay)


def set_result(data):
    """Store data (bytes or str, at most 64 KiB) as the running task's
    result, with its ack when the handler returns; ``Db.result(id)`` reads
    it back, also after the task is gone."""
    _job().set_result(data)


def _run(fn, task, job):
    _current.job = job
    try:
        fn(task)
    finally:
        _current.job = None


class _Watchdog:
    """Runs fn(task) for a runner's jobs, with heartbeats and a time limit.

    One thread per runner, started by the first job that needs it, extends
    the running job's claim every claim_ttl/3 (the runner's own job
    heartbeat, under the Db's mutex, so it never overlaps the handler's use
    of the Db) and, past the limit, raises leaseq.Timeout in the handler's
    thread (PyThreadState_SetAsyncExc: it lands when the handler next runs
    Python code; a handler blocked in C, e.g. in time.sleep(), is stopped
    when that call returns).  The run is then recorded as timed out.  The
    thread serves the runner's next jobs (a thread started per task cost
    more than the task's own claim and ack) and ends after a second with
    none.  Both act under the lock the handler's end takes, so neither
    touches a job once its handler has returned.
    """

    IDLE = 1.0  # seconds without a job before the thread ends

    def __init__(self, default_timeout):
        self.default_timeout = default_timeout
        self.cv = threading.Condition()
        self.cur = None  # [job, thread id, limit, deadline, beat, next beat] while a handler runs
        self.thread = None
        self.closing = False

    def close(self):
        """End the thread now and wait for it: it must hold no job (and so
        no runner, nor the Db that runner borrows) once run() returns."""
        with self.cv:
            self.closing = True
            thread = self.thread
            self.cv.notify()
        if thread is not None and thread is not threading.current_thread():
            thread.join()

    def __call__(self, fn, job):
        task = job.task
        limit = task.timeout or self.default_timeout
        beat = (job.claim_ttl or 0) / 3 or None
        if not (limit or beat):
            _run(fn, task, job)
            return
        now = time.monotonic()
        with self.cv:
            self.cur = [job, threading.get_ident(), limit, now + limit if limit else None, beat,
                        now + beat if beat else None]
            if self.thread is None:
                self.thread = threading.Thread(target=self.watch, name="leaseq-watchdog", daemon=True)
                self.thread.start()
            else:
                self.cv.notify()
        try:
            _run(fn, task, job)
        finally:
            with self.cv:
                self.cur = None

    def watch(self):
        from . import Revoked, Timeout

        with self.cv:
            while True:
                cur = self.cur
                if cur is None:
                    if not self.closing and (self.cv.wait(self.IDLE) or self.cur is not None):
                        continue  # woken: a job came, or close() asked
                    if self.cur is None:  # closed, or idle for IDLE seconds
                        self.thread = None
                        return
                    continue
                job, tid, limit, deadline, beat, next_beat = cur
                now = time.monotonic()
                if deadline is not None and now >= deadline:
                    job.mark_timed_out("timed out after %gs" % limit)
                    _leaseq._async_raise(tid, Timeout)
                    cur[3] = cur[5] = None  # done with this job: wait for the next
                elif next_beat is not None and now >= next_beat:
                    cur[5] = now + beat
                    try:
                        job.heartbeat()
                    except Revoked:
                        # Db.cancel_task(): stop the handler as a time limit
                        # does; the runner neither acks nor fails the task.
                        _leaseq._async_raise(tid, Revoked)
                        cur[3] = cur[5] = None
                    except Exception:  # the ack will say whether the claim was kept
                        pass
                waits = [t - now for t in (cur[3], cur[5]) if t is not None]
                job = cur = None  # keep no job while waiting: it holds its runner
                self.cv.wait(max(0.0, min(waits)) if waits else self.IDLE)


class Worker:
    """Runs handlers for the tasks of some queues (``leasectl worker`` in Python).

    ``worker = Worker(db, queues=["default"])``; register handlers with
    ``@worker.task("email")`` (or ``worker.handle("email", fn)``; ``"*"`` runs
    any task without a handler of its own), then ``worker.run()``.

    A handler receives the :class:`leaseq.Task` (``task.payload`` bytes,
    ``task.text`` str, ``task.id``, ``task.attempts``, ...).  Returning is
    success; an exception is a failed attempt whose error is the last line of
    its traceback (``traceback.format_exception_only``), retried after a
    back-off until ``max_attempts``.

    Options: ``at_least_once`` (default True: a crash runs the task again;
    False: at most once, the claim removes it), ``claim_ttl`` (the claim,
    extended every claim_ttl/3 while a handler runs), ``timeout`` (a
    handler's time limit unless the task has its own: past it leaseq.Timeout
    is raised inside the handler and the run is recorded as timed out),
    ``batch`` (tasks claimed per transaction).
    """

    def __init__(self, db, queues=("default",), *, at_least_once=True, claim_ttl=30, timeout=None, batch=1):
        if not isinstance(db, _leaseq.Db):
            raise TypeError("Worker(db): a leaseq.Db, not %s" % type(db).__name__)
        if isinstance(queues, str):
            queues = [queues]
        self.db = db
        self.queues = list(queues)
        self.at_least_once = bool(at_least_once)
        self.claim_ttl = _seconds(claim_ttl)
        self.timeout = _seconds(timeout)
        self.batch = batch
        self.handlers = {}
        self._runners = []
        self._watchdogs = []
        self._stopping = False
        if not self.queues:
            raise ValueError("Worker: at least one queue")

    def task(self, name):
        """Decorator: ``@worker.task("email")`` registers the function for tasks named name."""

        def register(fn):
            self.handle(name, fn)
            return fn

        return register

    def handle(self, name, fn):
        """Register fn(task) for tasks named name ("*": any task without its own handler)."""
        if not isinstance(name, str):
            raise TypeError("handle(): the task name is a str")
        if not callable(fn):
            raise TypeError("handle(): the handler must be callable")
        self.handlers[name] = fn
        return self

    def _runner(self, db):
        r = _leaseq.Runner(db, self.queues, at_least_once=self.at_least_once,
                           claim_ttl=self.claim_ttl, batch=self.batch)
        watchdog = _Watchdog(self.timeout)
        self._watchdogs.append(watchdog)
        for name, fn in self.handlers.items():
            r.handle(name, lambda job, fn=fn: watchdog(fn, job))
        return r

    def stop(self):
        """Ask every runner to stop after its current task (any thread; what SIGTERM/SIGINT call)."""
        self._stopping = True
        for r in list(self._runners):
            r.stop()

    def run(self, drain=False, concurrency=1):
        """Claim and run tasks until stopped; with drain=True, until nothing is due.

        concurrency=N runs N threads, each with its own Db opened on the
        same DSN (the first uses this worker's Db); the runner releases the
        GIL while it waits for the database, so N threads make progress
        together while handlers take turns on the GIL (for CPU-bound
        handlers run several processes instead).

        Called from the main thread, it stops gracefully on SIGTERM and
        SIGINT: each thread finishes (or hands back) its current task, and
        run() returns.  Returns a :class:`leaseq.Report` (ran, failed,
        claimed, stopped); raises the first database error of a thread.
        """
        if not isinstance(concurrency, int) or isinstance(concurrency, bool) or concurrency < 1:
            raise ValueError("run(): concurrency is a positive int")
        if not self.handlers:
            raise ValueError("run(): no handler registered")
        dbs = [self.db]
        self._watchdogs = []
        try:
            for _ in range(concurrency - 1):
                dbs.append(self.db._reopen())
            self._runners = [self._runner(db) for db in dbs]
        except BaseException:
            for db in dbs[1:]:
                db.close()
            raise
        self._stopping = False
        results = [None] * concurrency

        def work(i):
            try:
                results[i] = self._runners[i].work(drain=drain)
            except BaseException as e:  # handed to the caller below
                results[i] = e

        old = {}
        if threading.current_thread() is threading.main_thread():
            for sig in (signal.SIGTERM, signal.SIGINT):
                old[sig] = signal.signal(sig, lambda s, f: self.stop())
        threads = [threading.Thread(target=work, args=(i,), name="leaseq-worker-%d" % i) for i in range(concurrency)]
        try:
            for t in threads:
                t.start()
            for t in threads:
                while t.is_alive():
                    t.join(0.2)  # wakes for signals: their handlers run in this thread
        finally:
            if any(t.is_alive() for t in threads):  # an exception in this thread: stop the others
                self.stop()
                for t in threads:
                    t.join()
            for sig, h in old.items():
                signal.signal(sig, h)
            for watchdog in self._watchdogs:  # their threads may hold a runner's last job
                watchdog.close()
            self._watchdogs = []
            self._runners = []  # the runners go first: they borrow their Db
            for db in dbs[1:]:
                db.close()
        for r in results:
            if isinstance(r, BaseException):
                raise r
        stopped = "signal" if self._stopping else results[0].stopped
        return _leaseq.Report((sum(r.ran for r in results), sum(r.failed for r in results),
                               sum(r.claimed for r in results), stopped))


def tick(db, handlers, budget=None, *, queue="default", at_least_once=False, lease_ttl=None, timeout=None):
    """One pseudo-cron tick (``leasectl tick``; lq_runner_tick) on queue.

    Takes the queue's runner lease (held elsewhere: returns at once with
    ``stopped == "held"``), runs due tasks in order with handlers (a dict
    name -> fn(task); "*" for any) renewing the lease after each, and stops
    when nothing is due, a claim or the lease is lost, or budget (seconds or
    "2s"; None: 25 s) minus a safety margin is spent.  Returns a Report.
    """
    if not isinstance(db, _leaseq.Db):
        raise TypeError("tick(db, ...): a leaseq.Db, not %s" % type(db).__name__)
    if not isinstance(handlers, dict) or not handlers:
        raise TypeError("tick(): handlers is a dict {task name: function}")
    limit = _seconds(timeout)
    r = _leaseq.Runner(db, [queue], at_least_once=at_least_once, lease_ttl=lease_ttl)
    watchdog = _Watchdog(limit)
    for name, fn in handlers.items():
        if not callable(fn):
            raise TypeError("tick(): the handler of %r is not callable" % (name,))
        r.handle(name, lambda job, fn=fn: watchdog(fn, job))
    return r.tick(budget)

"""Workers and pseudo-cron ticks over the C runner (lq_runner_work / lq_runner_tick)."""

import signal
import threading
import time

from . import _leaseq


def _seconds(value):
    return None if value is None else _leaseq.parse_duration(value)


def _run_job(fn, job, default_timeout):
    """Run fn(task) for the runner's job, with heartbeats and a time limit.

    A watchdog thread extends the claim every claim_ttl/3 (the runner's own
    job heartbeat, under the Db's mutex, so it never overlaps the handler's
    use of the Db) and, past the limit, raises leaseq.Timeout in the
    handler's thread (PyThreadState_SetAsyncExc: it lands when the handler
    next runs Python code; a handler blocked in C, e.g. in time.sleep(),
    is stopped when that call returns).  The run is then recorded as
    timed out.
    """
    from . import Timeout

    task = job.task
    limit = task.timeout or default_timeout
    beat = (job.claim_ttl or 0) / 3 or None
    tid = threading.get_ident()
    done = threading.Event()
    lock = threading.Lock()
    ended = [False]

    def watch():
        now = time.monotonic()
        deadline = now + limit if limit else None
        next_beat = now + beat if beat else None
        while True:
            waits = [t - time.monotonic() for t in (deadline, next_beat) if t is not None]
            if done.wait(max(0.0, min(waits)) if waits else None):
                return
            now = time.monotonic()
            if deadline is not None and now >= deadline:
                with lock:
                    if not ended[0]:
                        job.mark_timed_out("timed out after %gs" % limit)
                        _leaseq._async_raise(tid, Timeout)
                return
            if next_beat is not None and now >= next_beat:
                next_beat = now + beat
                try:
                    job.heartbeat()
                except Exception:  # the ack will say whether the claim was kept
                    pass

    watchdog = None
    if limit or beat:
        watchdog = threading.Thread(target=watch, name="leaseq-watchdog", daemon=True)
        watchdog.start()
    try:
        fn(task)
    finally:
        with lock:
            ended[0] = True
        done.set()
        if watchdog is not None:
            watchdog.join()


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
        for name, fn in self.handlers.items():
            r.handle(name, lambda job, fn=fn: _run_job(fn, job, self.timeout))
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
    for name, fn in handlers.items():
        if not callable(fn):
            raise TypeError("tick(): the handler of %r is not callable" % (name,))
        r.handle(name, lambda job, fn=fn: _run_job(fn, job, limit))
    return r.tick(budget)

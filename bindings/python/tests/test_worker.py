"""leaseq.Worker and leaseq.tick over the C runner."""
import signal
import subprocess
import sys
import textwrap
import threading
import time

import pytest

import leaseq


def test_worker_runs_each_task_and_records_failures(db, uniq):
    ok = db.add("email", "to-a", queue=uniq)
    bad = db.add("email", "boom", queue=uniq, max_attempts=1)
    seen = []
    worker = leaseq.Worker(db, queues=[uniq])

    @worker.task("email")
    def send(task):
        seen.append((task.id, task.text))
        if task.text == "boom":
            raise ValueError("cannot deliver %s" % task.text)

    report = worker.run(drain=True)
    assert sorted(seen) == sorted([(ok, "to-a"), (bad, "boom")])
    assert (report.ran, report.failed, report.claimed, report.stopped) == (1, 1, 2, "idle")
    assert db.get(ok) is None
    dead = db.get(bad)
    assert dead.dead and dead.last_error == "ValueError: cannot deliver boom"
    outcomes = {r.task_id: (r.outcome, r.error) for r in db.history(queue=uniq)}
    assert outcomes == {ok: ("done", None), bad: ("dead", "ValueError: cannot deliver boom")}


def test_wildcard_handler_and_the_worker_db_inside_a_handler(db, uniq):
    first = db.add("anything", queue=uniq)
    worker = leaseq.Worker(db, queues=uniq)
    follow = []

    def any_task(task):
        if task.id == first:  # a handler may use the worker's Db from its own thread
            follow.append(db.add("follow-up", queue=uniq))

    worker.handle("*", any_task)
    report = worker.run(drain=True)
    assert report.ran == 2 and db.list(uniq) == []


def test_timeout_stops_the_handler_and_is_recorded(db, uniq):
    tid = db.add("slow", queue=uniq, max_attempts=1, timeout="300ms")
    worker = leaseq.Worker(db, queues=[uniq])
    stopped = []

    @worker.task("slow")
    def slow(task):
        try:
            while True:  # Python code: the Timeout lands between bytecodes
                time.sleep(0.01)
        except leaseq.Timeout:
            stopped.append(task.id)
            raise

    report = worker.run(drain=True)
    assert stopped == [tid] and report.failed == 1
    [run] = db.history(task_id=tid)
    assert run.outcome == "dead" and "timed out" in run.error
    assert db.stats()["runs"] and [r["dead"] for r in db.stats()["runs"] if r["queue"] == uniq] == [1]


def test_a_swallowed_timeout_is_still_timed_out(db, uniq):
    tid = db.add("slow", queue=uniq, max_attempts=2, timeout=0.2)
    worker = leaseq.Worker(db, queues=[uniq])

    @worker.task("slow")
    def slow(task):
        try:
            while True:
                time.sleep(0.01)
        except leaseq.Timeout:
            return "ignored"

    assert worker.run(drain=True).failed == 1
    assert [r.outcome for r in db.history(task_id=tid)] == ["timed_out"]


def test_timeout_then_retry_is_timed_out(db, uniq):
    tid = db.add("slow", queue=uniq, max_attempts=2)
    worker = leaseq.Worker(db, queues=[uniq], timeout=0.2)
    worker.handle("slow", lambda task: [time.sleep(0.01) for _ in range(1000)])
    worker.run(drain=True)
    assert [r.outcome for r in db.history(task_id=tid)] == ["timed_out"]


def test_heartbeat_keeps_the_claim(dsn, db, uniq):
    tid = db.add("long", queue=uniq)
    # Beats every 2/3 s: one may come late by over a second (a commit's
    # fsync behind a busy disk) and the claim still holds.
    worker = leaseq.Worker(db, queues=[uniq], claim_ttl=2)
    stolen = []

    @worker.task("long")
    def long(task):
        with leaseq.connect(dsn) as other:
            for _ in range(45):  # 4.5 s: over twice the claim TTL
                time.sleep(0.1)
                stolen.extend(other.claim(uniq))

    report = worker.run(drain=True)
    assert stolen == [] and report.ran == 1 and db.get(tid) is None
    assert [r.outcome for r in db.history(task_id=tid)] == ["done"]


def test_one_watchdog_thread_serves_every_task(db, uniq):
    # A thread started (and joined) per task cost the worker more than the
    # task's claim and ack; one watchdog per runner keeps the claims alive.
    db.add_many([{"name": "n", "queue": uniq} for _ in range(30)])
    before = threading.enumerate()  # an earlier runner's may still be winding down
    watchdogs = []  # the Thread objects themselves: their ids stay unique
    worker = leaseq.Worker(db, queues=[uniq])

    @worker.task("n")
    def n(task):
        watchdogs.extend(t for t in threading.enumerate() if t.name == "leaseq-watchdog"
                         and all(t is not w for w in watchdogs + before))

    assert worker.run(drain=True).ran == 30
    assert len(watchdogs) == 1


def test_concurrency_runs_each_task_once(db, uniq):
    ids = db.add_many([{"name": "n", "payload": str(i), "queue": uniq} for i in range(40)])
    seen = []
    worker = leaseq.Worker(db, queues=[uniq], batch=3)
    worker.handle("n", lambda task: seen.append(task.id))
    report = worker.run(drain=True, concurrency=3)
    assert sorted(seen) == ids and report.ran == 40


def test_run_leaves_no_watchdog_behind(db, uniq):
    # A watchdog thread still alive after run() keeps its last job, so its
    # runner, so the Db that runner borrows: run() could not close the
    # connections it opened for its threads ("the Db is in use").
    db.add_many([{"name": "n", "payload": str(i), "queue": uniq} for i in range(12)])
    worker = leaseq.Worker(db, queues=[uniq], timeout=30)
    worker.handle("n", lambda task: None)
    report = worker.run(drain=True, concurrency=3)
    assert report.ran == 12
    assert [t.name for t in threading.enumerate() if t.name == "leaseq-watchdog"] == []


def test_sigterm_stops_gracefully(dsn, uniq):
    code = textwrap.dedent("""
        import sys, leaseq
        db = leaseq.connect(sys.argv[1])
        w = leaseq.Worker(db, queues=[sys.argv[2]])
        w.handle("x", lambda t: None)
        print("ready", flush=True)
        r = w.run()
        print(r.stopped, flush=True)
    """)
    p = subprocess.Popen([sys.executable, "-c", code, dsn, uniq], stdout=subprocess.PIPE, text=True)
    assert p.stdout.readline().strip() == "ready"
    time.sleep(0.5)
    p.send_signal(signal.SIGTERM)
    out, _ = p.communicate(timeout=30)
    assert p.returncode == 0 and out.strip() == "signal"


def test_run_needs_handlers_and_a_db(db, uniq):
    with pytest.raises(ValueError):
        leaseq.Worker(db, queues=[uniq]).run(drain=True)
    with pytest.raises(TypeError):
        leaseq.Worker("sqlite:x")
    with pytest.raises(ValueError):
        leaseq.Worker(db, queues=[uniq]).handle("x", print).run(concurrency=0)


def test_tick_runs_due_tasks_and_yields_to_a_holder(dsn, db, uniq):
    db.add("t", "1", queue=uniq)
    db.add("t", "2", queue=uniq)
    ran = []
    report = leaseq.tick(db, {"t": lambda task: ran.append(task.text)}, budget="5s", queue=uniq)
    assert ran == ["1", "2"] and report.ran == 2 and report.stopped == "idle"
    db.add("t", "3", queue=uniq)
    with leaseq.connect(dsn) as other:
        held = []

        def hold(task):  # a tick runs in here; a second tick meets its runner lease
            held.append(leaseq.tick(other, {"t": lambda t: None}, queue=uniq).stopped)

        leaseq.tick(db, {"t": hold}, queue=uniq)
    assert held == ["held"]
    with pytest.raises(TypeError):
        leaseq.tick(db, {})



def test_a_db_outlives_its_runners(dsn):
    db = leaseq.connect(dsn)
    runner = leaseq._leaseq.Runner(db, ["default"])
    with pytest.raises(RuntimeError):
        db.close()  # the runner borrows the handle
    del runner
    db.close()
    assert db.closed

"""Flow control: cancelling tasks, limits, partitions and steering schedules."""
import datetime
import sqlite3
import threading
import time

import pytest

import leaseq


def test_cancel_task_waiting_running_and_missing(dsn, db, uniq):
    waiting = db.add("w", queue=uniq)
    assert db.cancel_task(waiting, "not needed") is False
    assert db.get(waiting) is None
    runs = db.history(task_id=waiting)
    assert [(r.outcome, r.error, r.attempt) for r in runs] == [("cancelled", "not needed", 0)]
    assert db.cancel_task(waiting) is None  # gone: as remove() answers False

    running = db.add("r", queue=uniq)
    (task,) = db.claim(uniq)
    with leaseq.connect(dsn) as other:
        assert other.cancel_task(running) is True
    with pytest.raises(leaseq.Revoked):
        db.heartbeat(task)
    with pytest.raises(leaseq.Revoked):
        db.ack(task)
    assert db.get(running) is None
    assert [r.outcome for r in db.history(task_id=running)] == ["cancelled"]

    # At most once: the claim deleted the task, nothing is left to cancel.
    once = db.add("o", queue=uniq)
    assert [t.id for t in db.claim(uniq, at_least_once=False)] == [once]
    assert db.cancel_task(once) is None


def test_cancel_task_bad_arguments(db):
    with pytest.raises(ValueError):
        db.cancel_task(0)
    with pytest.raises(TypeError):
        db.cancel_task("1")
    with pytest.raises(TypeError):
        db.cancel_task(1, reason=5)
    with pytest.raises(ValueError):
        db.cancel_task(1, reason="two\nlines")
    with pytest.raises(ValueError):
        db.cancel_task(1, reason="x" * 300)


def cancel_running(dsn, db, uniq, **worker_options):
    """Cancel a task while a Worker's handler runs it: the handler sees
    Revoked, nothing is acked, and the one run is the cancel's."""
    tid = db.add("slow", queue=uniq)
    started = threading.Event()
    seen = []
    reports = []

    def work():
        with leaseq.connect(dsn) as wdb:
            worker = leaseq.Worker(wdb, queues=[uniq], claim_ttl=1, **worker_options)

            @worker.task("slow")
            def slow(task):
                started.set()
                try:
                    for _ in range(300):  # 30 s at most; the cancel ends it sooner
                        time.sleep(0.1)
                except leaseq.Revoked:
                    seen.append(task.id)
                    raise

            reports.append(worker.run(drain=True))

    t = threading.Thread(target=work)
    t.start()
    assert started.wait(30)
    assert db.cancel_task(tid, "stop it") is True
    t.join(60)
    assert not t.is_alive()
    assert seen == [tid] and reports[0].ran == 0
    assert db.get(tid) is None
    # One run, the cancel's: the handler's end was neither acked nor failed.
    assert [(r.outcome, r.error) for r in db.history(task_id=tid)] == [("cancelled", "stop it")]


def test_cancel_reaches_the_running_handler_as_revoked(dsn, db, uniq):
    cancel_running(dsn, db, uniq)


def test_cancel_reaches_an_at_most_once_handler(dsn, db, uniq):
    cancel_running(dsn, db, uniq, at_least_once=False)


def test_limits(db, uniq):
    key = uniq + "-k"
    assert db.limit(key) is None
    db.set_limit(key, concurrency=1)
    assert db.limit(key) == (key, 1, None, None, 0, None)
    a = db.add("a", queue=uniq, concurrency_key=key)
    b = db.add_many([{"name": "b", "queue": uniq, "concurrency_key": key}])[0]
    assert db.get(a).concurrency_key == key and db.get(b).concurrency_key == key
    (first,) = db.claim(uniq, limit=2)
    assert first.id == a
    assert db.claim(uniq) == []  # the key is at its cap
    assert db.limit(key).running == 1
    db.ack(first)
    assert [t.id for t in db.claim(uniq)] == [b]

    db.set_limit(key, rate="10/1s")
    lim = db.limit(key)
    assert (lim.concurrency, lim.rate_n, lim.rate_period) == (None, 10, 1.0)
    db.set_limit("queue:" + uniq, concurrency=3, rate=(100, "1m"))
    lim = db.limit("queue:" + uniq)
    assert (lim.concurrency, lim.rate_n, lim.rate_period, lim.tokens) == (3, 100, 60.0, 100)
    keys = [limit.key for limit in db.limits()]
    assert key in keys and "queue:" + uniq in keys
    assert db.remove_limit(key) is True
    assert db.remove_limit(key) is False
    assert db.remove_limit("queue:" + uniq) is True


def test_limit_bad_arguments(db, uniq):
    for kw in ({}, {"concurrency": 0}, {"concurrency": 1000001}, {"rate": "10"}, {"rate": "0/1s"},
               {"rate": "x/1s"}, {"rate": "10/"}, {"rate": "10/0s"}, {"rate": "10/soon"}, {"rate": (0, 1)},
               {"rate": (1,)}):
        with pytest.raises(ValueError):
            db.set_limit(uniq, **kw)
    for kw in ({"concurrency": "2"}, {"rate": 10}, {"concurrency": True}):
        with pytest.raises(TypeError):
            db.set_limit(uniq, **kw)
    with pytest.raises(ValueError):
        db.set_limit("", concurrency=1)
    with pytest.raises(TypeError):
        db.limit(5)
    assert db.limit(uniq) is None


def test_partitions_take_turns(db, uniq):
    db.add_many([("a", None, {"queue": uniq, "partition": "p1"}), ("a", None, {"queue": uniq, "partition": "p1"})])
    b = db.add("b", queue=uniq, partition="p2")
    none = db.add("c", queue=uniq, delay="1h")
    assert (db.partition(b), db.partition(none)) == ("p2", "")
    assert (db.get(b).partition, db.get(none).partition) == ("p2", None)
    db.remove(none)
    assert db.partition(none) is None
    with pytest.raises(ValueError):
        db.partition(0)
    names = [db.claim(uniq, at_least_once=False)[0].name for _ in range(2)]
    assert sorted(names) == ["a", "b"]


def test_add_flow_options_bad_arguments(db, uniq):
    bad = [({"overlap": "sometimes", "every": 60}, ValueError), ({"overlap": 1, "every": 60}, TypeError),
           ({"catch_up": 0, "every": 60}, ValueError), ({"catch_up": 101, "every": 60}, ValueError),
           ({"alert_after": -1, "every": 60}, ValueError), ({"alert_after": 0, "every": 60}, ValueError),
           ({"overlap": "skip"}, ValueError), ({"catch_up": 2}, ValueError), ({"alert_after": "1h"}, ValueError),
           ({"concurrency_key": ""}, ValueError), ({"concurrency_key": "queue:x"}, ValueError),
           ({"concurrency_key": 5}, TypeError), ({"partition": ""}, ValueError)]
    for kw, exc in bad:
        with pytest.raises(exc):
            db.add("x", queue=uniq, **kw)
        with pytest.raises(exc):
            db.add_many([dict(kw, name="x", queue=uniq)])
    assert db.list(uniq) == []
    # The documented INSERT of the cursor enqueue does not write them.
    with pytest.raises(ValueError):
        leaseq.enqueue(sqlite3.connect(":memory:"), "x", concurrency_key="k")


def test_schedule_steering(db, uniq):
    sid = db.add("tick", queue=uniq, every=3600, overlap="queue", catch_up=2, alert_after="2h")
    s = db.schedule(sid)
    assert (s.id, s.queue, s.name, s.every, s.cron, s.paused) == (sid, uniq, "tick", 3600.0, None, False)
    assert (s.overlap, s.catch_up, s.alert_after, s.overdue, s.last_success_at) == ("queue", 2, 7200.0, False, None)
    assert sid in [x.id for x in db.schedules()]
    assert sid in [x.id for x in db.schedules(alerted=True)]

    nxt = db.edit_schedule(sid, cron="0 3 * * *", tz="Europe/Paris")
    assert isinstance(nxt, datetime.datetime) and nxt > db.now()
    s = db.schedule(sid)
    assert (s.every, s.cron, s.tz) == (None, "0 3 * * *", "Europe/Paris")
    assert db.edit_schedule(sid, every="90m") > db.now()
    assert db.schedule(sid).every == 5400.0

    assert db.run_now(sid) is True
    assert db.schedule(sid).next_at is not None  # the regular occurrence set aside
    with pytest.raises(leaseq.Busy):
        db.run_now(sid)  # a run-now is pending
    (occ,) = db.claim(uniq)
    assert occ.id == sid
    db.ack(occ)
    assert db.schedule(sid).last_success_at is not None

    assert db.pause_task(sid) is True
    assert db.schedule(sid).paused is True
    with pytest.raises(leaseq.Busy):
        db.run_now(sid)
    assert db.pause_task(sid, paused=False) is True
    assert db.schedule(sid).paused is False

    one = db.add("once", queue=uniq, delay="1h")
    assert db.schedule(one) is None
    with pytest.raises(ValueError):
        db.edit_schedule(one, every=60)  # not recurring: the library refuses it
    assert db.run_now(one) is True
    assert [t.id for t in db.claim(uniq, at_least_once=False)] == [one]
    assert db.cancel_task(sid) is False
    assert db.schedule(sid) is None
    assert db.run_now(sid) is False and db.pause_task(sid) is False
    assert db.edit_schedule(sid, every=60) is None


def test_schedule_bad_arguments(db, uniq):
    sid = db.add("tick", queue=uniq, every=3600)
    for kw, exc in (({}, ValueError), ({"every": 60, "cron": "* * * * *"}, ValueError), ({"every": 0}, ValueError),
                    ({"cron": "not cron"}, ValueError), ({"cron": "* * * * *", "tz": "Nowhere/Else"}, ValueError),
                    ({"every": 60, "tz": "UTC"}, ValueError), ({"cron": 5}, TypeError), ({"every": []}, TypeError)):
        with pytest.raises(exc):
            db.edit_schedule(sid, **kw)
    assert db.schedule(sid).every == 3600.0
    with pytest.raises(ValueError):
        db.schedule(-1)
    with pytest.raises(TypeError):
        db.pause_task("x")
    with pytest.raises(TypeError):
        db.schedules(alerted=[], extra=1)
    db.cancel_task(sid)

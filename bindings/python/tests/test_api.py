"""The Db, Lease and Task API, and how statuses map to exceptions."""
import builtins
import datetime
import subprocess
import sys
import threading
import time

import pytest

import leaseq
from conftest import BACKEND

UTC = datetime.timezone.utc


# ------------------------------------------------------------------ connect


def test_connect_context_manager_closes(dsn):
    with leaseq.connect(dsn) as db:
        assert not db.closed
        assert db.backend == BACKEND
        assert isinstance(db.now(), datetime.datetime) and db.now().tzinfo is not None
    assert db.closed
    with pytest.raises(ValueError):
        db.now()
    db.close()  # idempotent


def test_connect_default_is_leaseq_dsn(dsn, monkeypatch):
    monkeypatch.setenv("LEASEQ_DSN", dsn)
    with leaseq.connect() as db:
        assert db.backend == BACKEND


def test_migrate_again_changes_nothing(db):
    cur, latest = db.schema()
    assert cur == latest > 0
    assert db.migrate() == (latest, latest)


def test_no_password_in_repr_or_errors():
    dsn = "postgresql://someone:s3cretpw@127.0.0.1:1/nodb?connect_timeout=2"
    assert "s3cretpw" not in leaseq.redact_dsn(dsn)
    with pytest.raises(leaseq.Error) as e:
        leaseq.connect(dsn)
    assert "s3cretpw" not in str(e.value) and "s3cretpw" not in repr(e.value)
    if BACKEND == "postgres":
        assert isinstance(e.value, leaseq.ConnectionError)
        assert isinstance(e.value, builtins.ConnectionError)
        assert e.value.status == 7 and e.value.status_name == "ECONN"


def test_repr_redacts_password(db, dsn):
    assert ":" in repr(db)
    if "@" in dsn:
        password = dsn.split("://", 1)[1].split("@", 1)[0].split(":", 1)[1]
        assert password not in repr(db) and password not in db.dsn


# ---------------------------------------------------------------- exceptions


def test_exception_hierarchy():
    assert issubclass(leaseq.ConnectionError, builtins.ConnectionError)
    assert issubclass(leaseq.Timeout, TimeoutError)
    assert issubclass(leaseq.InvalidArgument, ValueError)
    assert issubclass(leaseq.NoDatabase, FileNotFoundError)
    assert issubclass(leaseq.PermissionDenied, PermissionError)
    assert leaseq.Lost is leaseq.LeaseLost
    seen = {}
    for name in leaseq.__all__:
        c = getattr(leaseq, name)
        if isinstance(c, type) and issubclass(c, leaseq.Error) and c is not leaseq.Error:
            assert issubclass(c, leaseq.Error)
            assert c.status not in seen or seen[c.status] is c, (name, c.status)
            seen[c.status] = c
    # Every error status but LQ_ERROR (the root itself) has its class.
    statuses = set(leaseq._STATUS) - {0, 3, 10}
    assert statuses == set(seen)


def test_schema_missing_is_schema_error(tmp_path):
    with leaseq.connect("sqlite:%s" % (tmp_path / "empty.db")) as db:
        with pytest.raises(leaseq.Schema) as e:
            db.add("x")
        assert e.value.status == 6


@pytest.mark.skipif(BACKEND != "sqlite", reason="statuses of SQLite's file")
def test_local_file_statuses(tmp_path):
    with pytest.raises(leaseq.CannotCreate) as e:
        leaseq.connect("sqlite:%s" % (tmp_path / "no-such-dir" / "x.db"))
    assert e.value.status == 14 and isinstance(e.value, OSError) and "x.db" in str(e.value)
    (tmp_path / "junk.db").write_bytes(b"not a database at all" * 100)
    with pytest.raises(leaseq.NotADatabase) as e:
        leaseq.connect("sqlite:%s" % (tmp_path / "junk.db")).migrate()
    assert e.value.status == 16


def test_cancel_from_another_thread_ends_a_wait(dsn, db, uniq):
    with leaseq.connect(dsn) as other:
        held = other.lease(uniq, ttl=30)
        threading.Timer(0.3, db.cancel).start()
        with pytest.raises(leaseq.Canceled):
            db.lease(uniq, ttl=5, wait=20)
        db.cancel_clear()
        held.release()


def test_bad_arguments_raise_before_the_database(db):
    with pytest.raises(TypeError):
        db.add(123)
    with pytest.raises(ValueError):
        db.add("")
    with pytest.raises(ValueError):
        db.add("x" * 300)
    with pytest.raises(ValueError):
        db.add("a\0b")
    with pytest.raises(TypeError):
        db.add("x", 12)
    with pytest.raises(TypeError):
        db.add("x", colour="red")
    with pytest.raises(ValueError):
        db.add("x", delay=-1)
    with pytest.raises(ValueError):
        db.add("x", delay="soon")
    with pytest.raises(ValueError):
        db.add("x", cron="not cron")
    with pytest.raises(ValueError):
        db.add("x", max_attempts=0)
    with pytest.raises(TypeError):
        db.lease("x", ttl=True)
    with pytest.raises(ValueError):
        db.lease("x", ttl=0)
    with pytest.raises(ValueError):
        db.lease("x", ttl=5, slots=2, read=True)
    with pytest.raises(ValueError):
        db.claim(limit=0)
    with pytest.raises(TypeError):
        db.ack("not a task")
    with pytest.raises(ValueError):
        db.lease_from("not a handle")
    with pytest.raises(TypeError):
        leaseq.connect(5)


# -------------------------------------------------------------------- leases


def test_lease_context_manager_releases(db, uniq):
    with db.lease(uniq, ttl="30s") as lease:
        assert lease.name == uniq and lease.kind == "exclusive" and lease.held
        assert lease.token > 0 and lease.is_held()
        assert lease.expires_at > db.now()
        assert db.try_lease(uniq, ttl=5) is None
        lease.renew()
        lease.renew(ttl=datetime.timedelta(seconds=60))
    assert not lease.held
    assert db.lease_info(uniq)["owner"] == ""
    again = db.try_lease(uniq, ttl=5)
    assert again is not None and again.token > lease.token
    assert again.release() is True
    assert again.release() is False


def test_busy_after_wait_says_who_holds_it(dsn, db, uniq):
    with leaseq.connect(dsn) as other:
        with other.lease(uniq, ttl=30, owner="other-owner"):
            with pytest.raises(leaseq.Busy) as e:
                db.lease(uniq, ttl=5, wait=0.3)
            assert e.value.status == 1
            assert e.value.holder["owner"].startswith("other-owner")


def test_lost_lease_renew_raises_and_exit_does_not(db, uniq):
    with db.lease(uniq, ttl=30) as lease:
        assert db.break_lease(uniq) is True
        with pytest.raises(leaseq.LeaseLost):
            lease.renew()
        assert lease.is_held() is False
        taken = db.lease(uniq, ttl=30)
    # Leaving the block did not free the new holder's lease.
    info = db.lease_info(uniq)
    assert info["owner"] == taken.owner and info["token"] == taken.token
    taken.release()
    assert db.break_lease(uniq + "-never") is False


def test_released_when_the_object_dies(db, uniq):
    lease = db.lease(uniq, ttl=30)
    del lease
    assert db.lease_info(uniq)["owner"] == ""


def test_slots_and_read_leases(db, uniq):
    a = db.lease(uniq + "s", ttl=30, slots=2)
    b = db.lease(uniq + "s", ttl=30, slots=2)
    assert {a.slot, b.slot} == {0, 1} and a.kind == "slot" and a.slots == 2
    assert db.try_lease(uniq + "s", ttl=30, slots=2) is None
    with pytest.raises(leaseq.InvalidArgument):
        db.try_lease(uniq + "s", ttl=30)
    a.release()
    b.release()
    r1 = db.lease(uniq, ttl=30, read=True)
    r2 = db.lease(uniq, ttl=30, read=True)
    assert r1.kind == "read"
    with pytest.raises(leaseq.Busy):
        r1.promote()
    r2.release()
    token = r1.token
    r1.promote()
    assert r1.kind == "exclusive" and r1.token > token
    assert db.try_lease(uniq, ttl=30, read=True) is None
    r1.demote()
    assert r1.kind == "read"
    r3 = db.lease(uniq, ttl=30, read=True)
    r3.release()
    r1.release()


def test_encode_and_take_over_in_another_process(db, dsn, uniq):
    lease = db.lease(uniq, ttl=30)
    handle = lease.encode()
    code = (
        "import leaseq, sys\n"
        "db = leaseq.connect(sys.argv[1])\n"
        "l = db.lease_from(sys.argv[2], ttl=30)\n"
        "l.renew()\n"
        "print(l.token, l.release())\n"
    )
    out = subprocess.run([sys.executable, "-c", code, dsn, handle], check=True, capture_output=True, text=True)
    assert out.stdout.split() == [str(lease.token), "True"]
    assert db.lease_info(uniq)["owner"] == ""  # the other process released it
    newer = db.lease(uniq, ttl=30)
    assert lease.release() is False  # a late release never frees another holder's lease
    assert db.lease_info(uniq)["token"] == newer.token and newer.release()


def test_one_db_one_thread(dsn, db, uniq):
    with leaseq.connect(dsn) as other:
        held = other.lease(uniq, ttl=30)
        errors = []

        def wait():
            while True:  # until this thread is the one inside the Db
                try:
                    db.lease(uniq, ttl=5, wait=30)
                    return
                except RuntimeError:
                    continue
                except leaseq.Canceled:
                    return

        t = threading.Thread(target=wait)
        t.start()
        while t.is_alive() and not errors:
            try:
                db.now()
            except RuntimeError as e:
                errors.append(str(e))
            time.sleep(0.01)  # outside the Db, so that the other thread gets in
        db.cancel()
        t.join()
        db.cancel_clear()
        held.release()
        assert errors and "another thread" in errors[0]


# --------------------------------------------------------------------- tasks


def test_add_get_claim_ack(db, uniq):
    tid = db.add("email", '{"to": "a"}', queue=uniq, priority=5, max_attempts=4, timeout="2s", unique=uniq)
    t = db.get(tid)
    assert (t.id, t.name, t.queue, t.payload, t.text) == (tid, "email", uniq, b'{"to": "a"}', '{"to": "a"}')
    assert (t.priority, t.max_attempts, t.timeout, t.unique_key, t.attempts) == (5, 4, 2.0, uniq, 0)
    assert t.run_at.tzinfo is not None and repr(t).startswith("<leaseq.Task id=%d" % tid)
    assert db.add("email", queue=uniq, unique=uniq) == tid  # a live unique task: its id
    assert db.get(10**12) is None
    [c] = db.claim(uniq, limit=10)
    assert c.id == tid and c.at_least_once and c.attempts == 1
    assert db.claim(uniq) == []
    db.heartbeat(c, claim_ttl=60)
    db.ack(c)
    assert db.get(tid) is None
    with pytest.raises(leaseq.LeaseLost):
        db.ack(c)


def test_payload_types(db, uniq):
    ids = [db.add("p", b"\x00\xff", queue=uniq), db.add("p", bytearray(b"ab"), queue=uniq),
           db.add("p", "é", queue=uniq), db.add("p", queue=uniq)]
    assert [db.get(i).payload for i in ids] == [b"\x00\xff", b"ab", "é".encode(), None]


def test_fail_retries_then_dead(db, uniq):
    tid = db.add("job", queue=uniq, max_attempts=1)
    [t] = db.claim(uniq)
    db.fail(t, "it broke")
    dead = db.get(tid)
    assert dead.dead and dead.last_error == "it broke"
    assert [x.id for x in db.list(uniq, dead=True)] == [tid]
    assert db.retry(tid) is True
    assert [x.id for x in db.list(uniq, due=True)] == [tid]
    assert db.remove(tid) is True and db.remove(tid) is False


def test_release_hands_back_unrun(db, uniq):
    tid = db.add("job", queue=uniq)
    [t] = db.claim(uniq)
    db.release(t)
    [again] = db.claim(uniq)
    assert again.id == tid and again.attempts == 1
    db.ack(again)


def test_at_most_once_claim_removes(db, uniq):
    tid = db.add("job", queue=uniq)
    [t] = db.claim(uniq, at_least_once=False)
    assert t.id == tid and not t.at_least_once
    assert db.get(tid) is None


def test_delay_and_run_at(db, uniq):
    later = db.add("d", queue=uniq, delay="1h")
    at = db.now() + datetime.timedelta(hours=2)
    fixed = db.add("d", queue=uniq, run_at=at)
    naive = db.add("d", queue=uniq, run_at=at.replace(tzinfo=None))
    epoch = db.add("d", queue=uniq, run_at=at.timestamp())
    assert db.claim(uniq) == []
    assert abs((db.get(fixed).run_at - at).total_seconds()) < 0.01
    assert db.get(naive).run_at == db.get(fixed).run_at == db.get(epoch).run_at
    assert db.get(later).run_at < db.get(fixed).run_at
    assert [t.id for t in db.list(uniq)] == [later, fixed, naive, epoch]
    assert db.list(uniq, due=True) == []


def test_recurring(db, uniq):
    every = db.add("tick", queue=uniq, every="1h")
    cron = db.add("tock", queue=uniq, cron="0 3 * * *", tz="Europe/Paris")
    assert db.get(every).recurring and db.get(every).every == 3600.0
    assert db.get(cron).cron == "0 3 * * *" and db.get(cron).tz == "Europe/Paris"


def test_add_many_all_or_nothing(db, uniq):
    ids = db.add_many([{"name": "a", "payload": "1", "queue": uniq}, ("b", b"2", {"queue": uniq}),
                       {"name": "c", "queue": uniq, "priority": 9}])
    assert len(ids) == 3 and ids == sorted(ids)
    assert [t.name for t in db.claim(uniq, limit=10)][0] == "c"
    before = len(db.list(uniq))
    with pytest.raises(ValueError):
        db.add_many([{"name": "ok", "queue": uniq}, {"name": "", "queue": uniq}])
    with pytest.raises(TypeError):
        db.add_many([{"name": "ok", "queue": uniq}, 42])
    assert len(db.list(uniq)) == before
    assert db.add_many([]) == []


def test_history_and_stats(db, uniq):
    ok = db.add("h", queue=uniq)
    bad = db.add("h", queue=uniq, max_attempts=1)
    for t in db.claim(uniq, limit=2):
        db.ack(t) if t.id == ok else db.fail(t, "nope")
    runs = db.history(queue=uniq)
    assert {(r.task_id, r.outcome, r.error) for r in runs} == {(ok, "done", None), (bad, "dead", "nope")}
    assert db.history(task_id=ok)[0].attempt == 1
    assert db.history(queue=uniq, since="1h", limit=1)[0].ended_at is not None
    stats = db.stats()
    [row] = [r for r in stats["runs"] if r["queue"] == uniq]
    assert (row["done"], row["dead"]) == (1, 1)
    [q] = [q for q in stats["queues"] if q.name == uniq]
    assert q.dead == 1 and q.tasks == 0
    assert stats["leases"]["taken"] >= 0
    db.pause_queue(uniq)
    assert [q.paused for q in db.queues() if q.name == uniq] == [True]
    db.pause_queue(uniq, paused=False)

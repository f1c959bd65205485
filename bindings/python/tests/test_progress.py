"""Progress, snooze and results from a Python handler, read back on a Db."""
import pytest

import leaseq


def test_progress_visible_while_running_then_result_after(db, dsn, uniq):
    tid = db.add("export", queue=uniq)
    seen = []
    worker = leaseq.Worker(db, queues=[uniq])

    @worker.task("export")
    def export(task):
        assert leaseq.progress(40, "exporting rows") is True
        with leaseq.connect(dsn) as other:  # a web page polling
            seen.append(other.progress(task.id))
        with pytest.raises(ValueError):
            leaseq.progress(101)
        leaseq.set_result(b"id,total\n7,42\n")

    assert worker.run(drain=True).ran == 1
    percent, message, at = seen[0]
    assert (percent, message) == (40, "exporting rows") and at.tzinfo is not None
    assert db.get(tid) is None
    assert db.progress(tid) is None
    assert db.result(tid) == b"id,total\n7,42\n"
    assert db.result(tid + 1000000) is None


def test_result_bound_fails_the_run(db, uniq):
    tid = db.add("big", queue=uniq, max_attempts=1)
    worker = leaseq.Worker(db, queues=[uniq])

    @worker.task("big")
    def big(task):
        leaseq.set_result(b"x" * (64 * 1024 + 1))

    assert worker.run(drain=True).failed == 1
    assert "ValueError" in db.get(tid).last_error
    assert db.result(tid) is None


def test_snooze_puts_the_task_off_without_an_attempt(db, uniq):
    tid = db.add("later", queue=uniq, max_attempts=1)
    worker = leaseq.Worker(db, queues=[uniq])

    @worker.task("later")
    def later(task):
        leaseq.snooze("1h")

    assert worker.run(drain=True).ran == 1
    t = db.get(tid)
    assert t is not None and t.attempts == 0 and not t.dead
    assert t.run_at > db.now()
    assert list(db.history(task_id=tid)) == []


def test_outside_a_handler():
    with pytest.raises(RuntimeError):
        leaseq.progress(1)
    with pytest.raises(RuntimeError):
        leaseq.snooze(1)

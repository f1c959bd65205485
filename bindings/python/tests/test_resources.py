"""Leaks (open/close, acquire/release loops keep memory flat) and threads
(the GIL is released: a thread waiting in the library lets others run)."""
import gc
import os
import threading
import tracemalloc

import leaseq


def rss_kb():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def cycle(dsn, name, queue):
    with leaseq.connect(dsn) as db:
        with db.lease(name, ttl=30) as lease:
            lease.renew()
        assert db.try_lease(name, ttl=30).release()
        db.add("leak", b"x" * 16000, queue=queue)
        for t in db.claim(queue):
            db.ack(t)
        db.list(queue)
        db.history(queue=queue, limit=5)
        try:
            db.add("")
        except ValueError:
            pass
        with leaseq.connect(dsn) as other:  # the Busy path: an exception with its holder
            held = db.lease(name + "-b", ttl=30)
            try:
                other.lease(name + "-b", ttl=30)
                raise AssertionError("the lease was not busy")
            except leaseq.Busy as e:
                assert e.holder["token"] == held.token
            held.release()
        db.add("leak", queue=queue, max_attempts=1)
        for t in db.claim(queue):
            db.fail(t, "x" * 200)  # dead, with its error
        for t in db.list(queue, dead=True):
            db.remove(t.id)


def test_no_leak_in_open_close_acquire_release(dsn, uniq):
    for _ in range(30):  # warm up: allocator pools, caches
        cycle(dsn, uniq, uniq)
    gc.collect()
    tracemalloc.start()
    before_py = tracemalloc.get_traced_memory()[0]
    before_rss = rss_kb()
    for _ in range(300):
        cycle(dsn, uniq, uniq)
    gc.collect()
    grown_py = tracemalloc.get_traced_memory()[0] - before_py
    tracemalloc.stop()
    grown_rss = rss_kb() - before_rss
    # A leak of one handle, lease or task (its 16 kB payload) per cycle
    # would be far beyond these: 300 cycles x 16 kB is 4.8 MB.
    print("grown: python %d B, rss %d kB" % (grown_py, grown_rss))
    assert grown_py < 64 * 1024, grown_py
    if not os.environ.get("LEASEQ_PY_SANITIZED"):  # ASan's quarantine holds freed memory
        assert grown_rss < 3 * 1024, grown_rss


def test_threads_with_their_own_db_run_together(dsn, uniq):
    """While one thread waits inside the library for a held lease, another
    thread with its own Db finishes its work: the wait released the GIL."""
    with leaseq.connect(dsn) as holder, leaseq.connect(dsn) as waiting_db:
        held = holder.lease(uniq, ttl=60)
        waiter_done = threading.Event()
        worker_done_first = []

        def waiter():
            try:
                waiting_db.lease(uniq, ttl=5, wait=60)
            except leaseq.Canceled:
                pass
            waiter_done.set()

        def worker():
            with leaseq.connect(dsn) as db:
                for _ in range(20):
                    db.add("t", queue=uniq)
                    db.now()
            worker_done_first.append(not waiter_done.is_set())
            waiting_db.cancel()  # the one call another thread may make

        a = threading.Thread(target=waiter)
        b = threading.Thread(target=worker)
        a.start()
        b.start()
        a.join()
        b.join()
        held.release()
    assert worker_done_first == [True]

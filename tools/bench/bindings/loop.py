"""loop.py - the Python side of tools/bench-bindings: loop.c's loops
through the leaseq module, one process and one connection; the same
commands on standard input and the same answers (see loop.c).

Usage: python3 loop.py DSN   (the module on PYTHONPATH)
"""

import sys
import time

import leaseq

PAYLOAD = "leaseq bench 16b"


def lease(db, name, secs):
    n = 0
    clock = time.perf_counter
    c0 = time.process_time()
    t0 = clock()
    while True:
        held = db.try_lease(name, ttl=30)
        if held is None:
            raise RuntimeError("lease %s is held elsewhere" % name)
        held.release()
        n += 1
        t = clock()
        if t - t0 >= secs:
            return "ok %d %.6f %.6f" % (n, t - t0, time.process_time() - c0)


def enqueue(db, queue, secs):
    n = 0
    clock = time.perf_counter
    c0 = time.process_time()
    t0 = clock()
    while True:
        db.add("bench", PAYLOAD, queue=queue)
        n += 1
        t = clock()
        if t - t0 >= secs:
            return "ok %d %.6f %.6f" % (n, t - t0, time.process_time() - c0)


def claim(db, queue, secs):
    n = 0
    clock = time.perf_counter
    c0 = time.process_time()
    t0 = clock()
    while True:
        tasks = db.claim(queue, 1)
        if not tasks:
            return "ok %d %.6f %.6f empty" % (n, clock() - t0, time.process_time() - c0)
        db.ack(tasks[0])
        n += 1
        t = clock()
        if t - t0 >= secs:
            return "ok %d %.6f %.6f" % (n, t - t0, time.process_time() - c0)


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: python3 loop.py DSN  (commands on standard input)")
    db = leaseq.connect(sys.argv[1])
    db.now()  # connect now, not in the first timed call
    calls = {"lease": lease, "enqueue": enqueue, "claim": claim}
    for line in sys.stdin:
        w = line.split()
        if not w or w[0] == "quit":
            break
        try:
            out = calls[w[0]](db, w[1], float(w[2])) if w[0] in calls else "err unknown command: " + line.strip()
        except Exception as e:  # report it and go on: the driver decides
            out = "err %s: %s" % (type(e).__name__, str(e).replace("\n", " "))
        print(out, flush=True)
    db.close()


if __name__ == "__main__":
    main()

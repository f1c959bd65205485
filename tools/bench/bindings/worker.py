"""worker.py - a Python worker of tools/bench-bindings: leaseq.Worker with
an empty handler on one queue, one process, one connection.

Usage: python3 worker.py DSN QUEUE drain|serve
Prints "ready" once connected and starts on a line "go" on standard input.
drain: runs until nothing is due, then prints "done EPOCH_SECONDS RAN"
(the wall clock when run() returned).  serve: runs until SIGTERM, printing
"ID EPOCH_SECONDS" as each handler starts (the wall clock then), then
"done ...".
"""

import sys
import time

import leaseq


def main():
    dsn, queue, mode = sys.argv[1:4]
    db = leaseq.connect(dsn)
    db.now()
    clock = time.time
    out = sys.stdout

    def handler(task):
        if mode == "serve":
            out.write("%d %.6f\n" % (task.id, clock()))
            out.flush()

    worker = leaseq.Worker(db, queues=[queue])
    worker.handle("*", handler)
    print("ready", flush=True)
    sys.stdin.readline()
    report = worker.run(drain=mode == "drain")
    print("done %.6f %d" % (clock(), report.ran), flush=True)


if __name__ == "__main__":
    main()

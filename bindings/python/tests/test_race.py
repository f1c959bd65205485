"""Several processes on one database: claims and leases keep their promises."""
import subprocess
import sys
import textwrap

import leaseq

PROCS = 4

CLAIMER = textwrap.dedent("""
    import sys, leaseq
    db = leaseq.connect(sys.argv[1])
    alo = sys.argv[3] == "1"
    empty = 0
    while empty < 3:
        tasks = db.claim(sys.argv[2], limit=3, at_least_once=alo)
        empty = 0 if tasks else empty + 1
        for t in tasks:
            if alo:
                db.ack(t)
            print(t.id, flush=True)
""")

HOLDER = textwrap.dedent("""
    import os, sys, leaseq
    db = leaseq.connect(sys.argv[1])
    name, marker, log = sys.argv[2], sys.argv[3], sys.argv[4]
    for _ in range(int(sys.argv[5])):
        with db.lease(name, ttl=30, wait=120) as lease:
            fd = os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)  # fails if two hold it
            with open(log, "a") as f:
                f.write("%d\\n" % lease.token)
            os.close(fd)
            os.unlink(marker)
""")


def run_all(args_list):
    procs = [subprocess.Popen([sys.executable, "-c", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True) for args in args_list]
    outs = []
    for p in procs:
        out, err = p.communicate(timeout=600)
        assert p.returncode == 0, err
        outs.append(out)
    return outs


def claim_race(db, dsn, queue, at_least_once):
    ids = db.add_many([{"name": "r", "queue": queue} for _ in range(150)])
    outs = run_all([(CLAIMER, dsn, queue, "1" if at_least_once else "0")] * PROCS)
    claimed = [int(x) for out in outs for x in out.split()]
    assert sorted(claimed) == ids  # every task once, none twice
    assert db.list(queue) == []


def test_claim_race_at_least_once(db, dsn, uniq):
    claim_race(db, dsn, uniq, True)


def test_claim_race_at_most_once(db, dsn, uniq):
    claim_race(db, dsn, uniq, False)


def test_lease_race_one_holder_tokens_increase(db, dsn, uniq, tmp_path):
    marker, log = tmp_path / "held", tmp_path / "tokens"
    run_all([(HOLDER, dsn, uniq, str(marker), str(log), "10")] * PROCS)
    tokens = [int(x) for x in log.read_text().split()]
    assert len(tokens) == 10 * PROCS
    assert all(a < b for a, b in zip(tokens, tokens[1:])), tokens
    assert db.lease_info(uniq)["owner"] == ""

/*
 * galera_hop.c - how often a lease acquired through one Galera node is not
 * yet there for the next statement through another.
 *
 *   galera_hop DSN_A DSN_B [N [MAX_LOST]]
 *
 * N times (default 500): acquire a new lease through DSN_A, renew it at once
 * through DSN_B, release it through DSN_A.  Prints how many renewals answered
 * LQ_LOST for a lease that was held (node B had not applied the acquisition
 * yet: Galera applies a commit on the other nodes after it returns on its
 * own, and without wsrep_sync_wait a statement does not wait for that).
 * Exit 0 when it ran, 1 when a DSN could not be opened, an acquisition
 * failed or more than MAX_LOST renewals (when given) answered LQ_LOST.
 * docs/scaling.md "Galera" quotes its figures; ctest hop_galera runs it with
 * ?wsrep_sync_wait=3 on DSN_B and MAX_LOST 0.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "leaseq.h"

int main(int argc, char **argv)
{
	lq_db *a = NULL, *b = NULL;
	int n = argc > 3 ? atoi(argv[3]) : 500, max_lost = argc > 4 ? atoi(argv[4]) : -1;
	int ok = 0, lost = 0, other = 0;

	if (argc < 3 || n <= 0) {
		fprintf(stderr, "usage: galera_hop DSN_A DSN_B [N [MAX_LOST]]\n");
		return 64;
	}
	if (lq_open(argv[1], &a) != LQ_OK || lq_open(argv[2], &b) != LQ_OK) {
		fprintf(stderr, "galera_hop: cannot open: %s\n", lq_errmsg(b ? b : a));
		return 1;
	}
	for (int i = 0; i < n; i++) {
		char name[64];
		lq_lease l;
		lq_status st;

		snprintf(name, sizeof(name), "galera-hop-%ld-%d", (long)getpid(), i);
		if ((st = lq_lease_acquire(a, name, 30000, NULL, 0, &l)) != LQ_OK) {
			fprintf(stderr, "galera_hop: acquire %s: %s\n", name, lq_errmsg(a));
			return 1;
		}
		st = lq_lease_renew(b, &l, 30000);
		if (st == LQ_OK)
			ok++;
		else if (st == LQ_LOST)
			lost++;
		else
			other++;
		(void)lq_lease_release(a, &l);
	}
	printf("acquire through A, renew at once through B: %d of %d renewed, %d LQ_LOST while held, %d other errors\n",
	       ok, n, lost, other);
	lq_close(a);
	lq_close(b);
	return max_lost >= 0 && (lost > max_lost || other > 0) ? 1 : 0;
}

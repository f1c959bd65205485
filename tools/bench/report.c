/*
 * report.c - what leasectl bench prints: a table, the CSV of ARCHITECTURE.md
 * ("Additions under way") and a gnuplot chart.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench/bench.h"
#include "leasectl.h"

static void fmt_rate(char *buf, size_t size, double v)
{
	snprintf(buf, size, "%.0f", v);
}

static void fmt_us(char *buf, size_t size, double us)
{
	if (us >= 10000)
		snprintf(buf, size, "%.1fms", us / 1000);
	else
		snprintf(buf, size, "%.0fus", us);
}

void bench_print_table(FILE *f, const char *backend, const struct bench_results *res)
{
	static const char *const heads[] = {"BACKEND",	"WORKLOAD", "CLIENTS", "PENDING", "LEASEQ ROWS/S", "RAW ROWS/S",
					    "RATIO",	"P50",	    "P99",     "STMT/OP", "RAW STMT/OP"};
	struct lc_table t;
	int dry = 0, e2e = 0;
	lc_table_init(&t, 11, heads);
	for (size_t i = 0; i < res->n; i++) {
		const struct bench_result *r = &res->r[i];
		char cl[16], pend[24], lq[32], raw[32], ratio[16], p50[24], p99[24], st[16], rst[16];
		snprintf(cl, sizeof(cl), "%d", r->clients);
		snprintf(pend, sizeof(pend), "%lld", (long long)r->pending);
		fmt_rate(lq, sizeof(lq), r->lq.rows_s);
		fmt_rate(raw, sizeof(raw), r->raw.rows_s);
		snprintf(ratio, sizeof(ratio), "%.2f%s", r->ratio, r->dry ? "*" : "");
		fmt_us(p50, sizeof(p50), r->lq.p50_us);
		fmt_us(p99, sizeof(p99), r->lq.p99_us);
		snprintf(st, sizeof(st), "%.2f", r->lq.stmts_per_op);
		snprintf(rst, sizeof(rst), "%.2f", r->raw.stmts_per_op);
		dry |= r->dry;
		e2e |= BENCH_IS_E2E(r->w);
		lc_table_row(&t, (const char *const[]){backend, bench_workloads[r->w].name, cl, pend, lq, raw, ratio, p50,
						       p99, st, rst});
	}
	lc_table_print(&t, f);
	lc_table_free(&t);
	fprintf(f, "\nRATIO = leaseq rows/s / raw rows/s of the same job (1.00 = the database's own speed; higher is\n"
		   "better).  P50/P99: leaseq's latency per call.  STMT/OP: statements sent per call (tick-idle: per tick).\n");
	if (e2e)
		fprintf(f, "e2e-*: ROWS/S = tasks run per second by the workers; RAW = claim-ack's raw SQL, as many clients;\n"
			   "P50/P99 = pickup latency, enqueue commit to handler start; STMT/OP not counted.\n");
	if (dry)
		fprintf(f, "*: the claim queue ran dry in a run even after top-ups: that rate is a lower bound.\n");
}

int bench_write_csv(FILE *f, const char *path, const char *backend, const struct bench_results *res, char *err,
		    size_t errsize)
{
	fprintf(f, "backend,workload,clients,pending,ops_per_s,rows_per_s,raw_rows_per_s,ratio,p50_us,p99_us,rss_kb\n");
	for (size_t i = 0; i < res->n; i++) {
		const struct bench_result *r = &res->r[i];
		fprintf(f, "%s,%s,%d,%lld,%.1f,%.1f,%.1f,%.3f,%.0f,%.0f,%lld\n", backend, bench_workloads[r->w].name,
			r->clients, (long long)r->pending, r->lq.ops_s, r->lq.rows_s, r->raw.rows_s, r->ratio,
			r->lq.p50_us, r->lq.p99_us, (long long)r->lq.rss_kb);
	}
	if (fclose(f) != 0) {
		snprintf(err, errsize, "cannot write %s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

int bench_have_gnuplot(void)
{
	const char *path = getenv("PATH");
	if (!path || !*path)
		path = "/usr/bin:/bin";
	while (*path) {
		size_t n = strcspn(path, ":");
		char file[4096];
		snprintf(file, sizeof(file), "%.*s/gnuplot", (int)(n ? n : 1), n ? path : ".");
		if (access(file, X_OK) == 0)
			return 1;
		path += n + (path[n] == ':');
	}
	return 0;
}

/* Quote s for a gnuplot string: single quotes, doubled inside. */
static void gp_str(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputc('\'', f);
		fputc(*s, f);
	}
	fputc('\'', f);
}

int bench_plot(const char *path, const char *backend, const struct bench_results *res, char *err, size_t errsize)
{
	int seen[BW__COUNT] = {0}, panels = 0;
	for (size_t i = 0; i < res->n; i++)
		if (!seen[res->r[i].w]++)
			panels++;
	if (panels == 0) {
		snprintf(err, errsize, "--plot: nothing was measured");
		return -1;
	}
	int cols = panels < 4 ? panels : 4, rows = (panels + cols - 1) / cols;
	int cmin = res->r[0].clients, cmax = cmin;
	for (size_t i = 1; i < res->n; i++) {
		cmin = res->r[i].clients < cmin ? res->r[i].clients : cmin;
		cmax = res->r[i].clients > cmax ? res->r[i].clients : cmax;
	}

	int pfd[2];
	if (pipe(pfd) != 0) {
		snprintf(err, errsize, "pipe: %s", strerror(errno));
		return -1;
	}
	fflush(stdout);
	fflush(stderr);
	pid_t pid = fork();
	if (pid < 0) {
		close(pfd[0]);
		close(pfd[1]);
		snprintf(err, errsize, "fork: %s", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		dup2(pfd[0], 0);
		close(pfd[0]);
		close(pfd[1]);
		execlp("gnuplot", "gnuplot", (char *)NULL);
		_exit(127);
	}
	close(pfd[0]);
	FILE *f = fdopen(pfd[1], "w");
	if (!f) {
		close(pfd[1]);
		waitpid(pid, NULL, 0);
		snprintf(err, errsize, "fdopen: %s", strerror(errno));
		return -1;
	}
	/* Data inline ("$name << EOD" data blocks): no temporary files. */
	for (int w = 0; w < BW__COUNT; w++) {
		if (!seen[w])
			continue;
		fprintf(f, "$w%d << EOD\n", w);
		for (size_t i = 0; i < res->n; i++)
			if (res->r[i].w == (enum bench_workload)w)
				fprintf(f, "%d %.1f %.1f\n", res->r[i].clients, res->r[i].lq.rows_s, res->r[i].raw.rows_s);
		fprintf(f, "EOD\n");
	}
	fprintf(f, "set terminal pngcairo size %d,%d noenhanced font ',9'\n", 360 * cols, 300 * rows + 40);
	fprintf(f, "set output ");
	gp_str(f, path);
	fprintf(f, "\nset multiplot layout %d,%d title ", rows, cols);
	char title[160];
	snprintf(title, sizeof(title), "leasectl bench on %s: rows/s by clients (leaseq vs raw SQL)", backend);
	gp_str(f, title);
	/* A margin around the client counts (one count alone is no range). */
	fprintf(f, "\nset xrange [%g:%g]", cmin / 1.25, cmax * 1.25);
	fprintf(f, "\nset logscale x 2\nset xlabel 'clients'\nset ylabel 'rows/s'\nset yrange [0:*]\n"
		   "set key bottom right\nset grid\nset style data linespoints\n");
	for (int w = 0; w < BW__COUNT; w++) {
		if (!seen[w])
			continue;
		fprintf(f, "set title '%s'\n", bench_workloads[w].name);
		fprintf(f, "plot $w%d using 1:2 title 'leaseq' lw 2 pt 7, $w%d using 1:3 title 'raw SQL' lw 2 pt 5 dt 2\n",
			w, w);
	}
	fprintf(f, "unset multiplot\n");
	int wrc = fclose(f);
	int status = 0;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (wrc != 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
			snprintf(err, errsize, "--plot: gnuplot is not installed (Debian: apt-get install gnuplot-nox)");
		else
			snprintf(err, errsize, "--plot: gnuplot failed to draw %s", path);
		return -1;
	}
	return 0;
}

#!/usr/bin/env bash
# tests/check_sqltext.sh - no SQL text is built from input.
# Run by ctest from the source tree.  Fails when
#   1. a file of lib/ other than backend/*.c calls a client library's
#      statement function or includes its header;
#   2. any file of lib/ formats SQL (a format string or strcat/strcpy piece that
#      starts with an SQL keyword) outside the allow-list below;
#   3. a backend hands the client library a statement text that is neither a
#      string literal, the compiled-in catalogue (lq__sql_<dialect>[id]) nor a
#      variable named in the allow-list;
#   4. leasectl bench's raw baselines (tools/bench/raw_*.c) format SQL, other
#      than "PRAGMA synchronous=%s" with a value picked from two literals.
# Allow-list (each a constant, or input that is validated or quoted first):
#   backend/sqlite.c    "PRAGMA synchronous=%s"   value checked to be full|normal
#   backend/postgres.c  "LISTEN %s"               PQescapeIdentifier-quoted channel
#   backend/mysql.c     "SET SESSION x = %lld"    per-session time limits: integers only
# and the variables `sql` / `text` of the backends' one-statement helpers,
# which are fed only the literals and the catalogue (checked by rule 2 at their
# callers: nothing else can build SQL).
set -euo pipefail
# shellcheck source=SCRIPTDIR/lib/check.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/check.sh"
cd "$(dirname "${BASH_SOURCE[0]}")/.."

api='sqlite3_prepare[a-z0-9_]*|sqlite3_exec|PQexec[A-Za-z]*|PQprepare|PQsendQuery[A-Za-z]*|PQsendPrepare|mysql_real_query|mysql_query|mysql_stmt_prepare|mysql_send_query'

# 1. client calls and headers only in the backends
hits=$(grep -n -E "\\b($api)\\(|#include *<(sqlite3|libpq-fe|mysql)\\.h>|#include *<mysql/" lib/*.c lib/*.h lib/backend/*.c lib/backend/*.h |
    grep -v -E '^lib/backend/(sqlite|postgres|mysql)\.c:' || true)
[[ -z "$hits" ]] && echo "ok - client library calls and headers are in lib/backend/*.c only" ||
    not_ok "client library calls outside the backends:" "$hits"

# 2. SQL formatted from pieces
kw='(SELECT|INSERT|UPDATE|DELETE|CREATE|DROP|ALTER|LISTEN|UNLISTEN|NOTIFY|PRAGMA|SAVEPOINT|RELEASE|ROLLBACK|BEGIN|COMMIT|SET|TRUNCATE|GRANT|WITH|REPLACE|LOCK|CALL|EXEC)'
hits=$(grep -n -E "\\b(v?s?n?printf|v?asprintf|strn?cat|strn?cpy|memcpy)\\(.*\"[[:space:]]*$kw\\b" lib/*.c lib/*.h lib/backend/*.c lib/backend/*.h |
    grep -v -F -e 'lib/backend/sqlite.c:' -e 'lib/backend/postgres.c:' -e 'lib/backend/mysql.c:' || true)
allowed=$(grep -n -E "\\b(v?s?n?printf|v?asprintf|strn?cat|strn?cpy|memcpy)\\(.*\"[[:space:]]*$kw\\b" lib/backend/sqlite.c lib/backend/postgres.c |
    grep -v -E '"PRAGMA synchronous=%s"|"LISTEN %s"' || true)
# MariaDB's per-session time limits: numbers only (every conversion a %lld).
allowed+=$(grep -n -E "\\b(v?s?n?printf)\\(.*\"[[:space:]]*$kw\\b" lib/backend/mysql.c |
    grep -v -E '"SET SESSION [a-z_]+ = %(03)?lld(\.%03lld)?"' || true)
hits+=$allowed
[[ -z "$hits" ]] && echo "ok - no SQL is formatted from pieces in lib/ (allow-list: PRAGMA synchronous, LISTEN <quoted>)" ||
    not_ok "SQL formatted from pieces:" "$hits"
# the allow-listed lines still have their guards
grep -q -E '!strcmp\(sync, "(full|normal)"\)|strcmp\(sync, "(full|normal)"\)' lib/backend/sqlite.c ||
    not_ok "backend/sqlite.c: the synchronous value is no longer checked before PRAGMA"
grep -q 'PQescapeIdentifier(c->pg, channel' lib/backend/postgres.c ||
    not_ok "backend/postgres.c: the LISTEN channel is no longer quoted with PQescapeIdentifier"

# 3. what reaches the client library: literals, the catalogue, or the helpers' own parameter
hits=$(grep -n -E "\\b($api)\\(" lib/backend/*.c |
    grep -v -E "\\b($api)\\([^,]*, *(\"|lq__sql_(sqlite|postgres|mysql)\\[id\\]|sql\\b|text\\b|name, *lq__sql_postgres\\[id\\])" |
    grep -v -E 'PQsendQueryPrepared\(' |
    grep -v -E 'mysql_stmt_prepare(_start)?\((&ret, )?st, q, n\)|mysql_real_query(_start)?\((&ret, )?c->my, q, n\)' || true)
# ... and on MariaDB the non-blocking wrappers' parameter q: x_stmt_prepare
# gets the catalogue's statement with its ?N placeholders rewritten to ?, and
# x_real_query the one-statement helper's sql (checked below).
grep -n -E '\bx_stmt_prepare\(c,' lib/backend/mysql.c | grep -v -E 'x_stmt_prepare\(c, &k, s->st, text,' >/dev/null &&
    not_ok "backend/mysql.c: x_stmt_prepare is called with a text other than the rewritten catalogue's"
grep -q -E 'const char \*sql = lq__sql_mysql\[id\];' lib/backend/mysql.c &&
    grep -q -E 'rewrite_params\(sql, len, text,' lib/backend/mysql.c ||
    not_ok "backend/mysql.c: the prepared text no longer comes from lq__sql_mysql[id]"
grep -n -E '\bx_real_query\(c,' lib/backend/mysql.c | grep -v -E 'x_real_query\(c, &k, sql, \(unsigned long\)len\)' >/dev/null &&
    not_ok "backend/mysql.c: x_real_query is called with a text other than run_query's"
[[ -z "$hits" ]] && echo "ok - the backends pass only literals and the compiled-in statements to the client library" ||
    not_ok "statement text of unknown origin:" "$hits"
# the backends' one-statement helpers: every call with a non-literal is one of
# these, each fed constants or the compiled-in migration scripts:
#   run_query(c, buf + s0, ...)   mysql: one statement of a migration script
#   run_query(c, q, sizeof q - 1  mysql: static const literals
#   run_query(c, off|on, ...       mysql: the static const SET autocommit = 0 and = 1
#   run_query(c, setup[i], ...    mysql: static const session setup
#   pg_command(c, sql, 0, err)    postgres: a migration script; LISTEN <quoted>
#   exec_busy(c->db, pragma)      sqlite: PRAGMA synchronous=full|normal
#   simple(c, write ? ...)        sqlite: BEGIN IMMEDIATE / BEGIN literals
hits=$(grep -n -E '\b(pg_command|exec_busy|simple|sqlite_exec_script|run_query)\([a-z>-]+, *[^" ]' lib/backend/*.c |
    grep -v -E 'run_query\(c, (buf \+ s0, blen - s0|q, sizeof q - 1|off, sizeof off - 1|on, sizeof on - 1|setup\[i\], strlen\(setup\[i\]\)),|pg_command\(c, sql, 0, (NULL, )?err\)|exec_busy\(c->db, pragma\)|simple\(c, write \? "BEGIN IMMEDIATE" : "BEGIN", err\)' || true)
[[ -z "$hits" ]] && echo "ok - the backends' one-statement helpers get literals or the allow-listed texts only" ||
    not_ok "one-statement helper called with a text not on the allow-list:" "$hits"

# 4. the bench's raw baselines: their statements come from tools/bench/sql/
hits=$(grep -n -E "\\b(v?s?n?printf|v?asprintf|strn?cat|strn?cpy|memcpy)\\(.*\"[[:space:]]*$kw\\b" tools/bench/*.c |
    grep -v -E '"PRAGMA synchronous=%s"' || true)
grep -q -E 'const char \*sync = strstr\(query, "synchronous=normal"\) \? "normal" : "full";' tools/bench/raw_sqlite.c ||
    hits+=" tools/bench/raw_sqlite.c: the synchronous value is no longer one of two literals"
[[ -z "$hits" ]] && echo "ok - leasectl bench's raw baselines format no SQL (allow-list: PRAGMA synchronous)" ||
    not_ok "SQL formatted from pieces in tools/bench:" "$hits"

echo "1..6"
exit $fail

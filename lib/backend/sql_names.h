/*
 * sql_names.h - the catalogue of named statements.  Every dialect defines
 * each of these in sql/<dialect>/NAME.sql under "-- name: NAME" with the same
 * parameters (in this order, written ?1.. in SQLite and MySQL files, $1.. in
 * PostgreSQL files) and the same result columns, or declares it missing
 * there with "-- absent: NAME reason" (a capability the dialect lacks):
 * sqlembed fails the build on a statement neither defined nor declared
 * absent, or unknown here.  NOW below means the database clock in epoch
 * milliseconds, evaluated inside the statement.
 *
 * X(NAME, COLS): COLS is how many columns the statement returns (0: no
 * rows), once for every dialect.  sqlembed counts them in each dialect's
 * text (the top-level commas of the main SELECT list or of the RETURNING
 * list) and fails the build on a difference, unless the dialect says why
 * it differs with "-- columns: NAME N reason" (N a count, or "unchecked"
 * for text it cannot count); docs/testing.md lists those.  The row
 * readers check ncols against LQ_COLS_NAME, the same number.
 *
 * Column groups:
 *   LEASE_COLS  name, owner, token, acquired_at, expires_at, NOW
 *                                             (LQ_LEASE_COLS columns)
 *   TASK_COLS   id, queue, name, payload, run_at, attempts, max_attempts,
 *               unique_key, claim_owner, claim_until, every_ms, cron, tz,
 *               missed, paused, last_error, created_at, dead (0|1),
 *               died_at (NULL for live tasks), NOW, priority, timeout_ms,
 *               concurrency_key, partition ('' if none), limited (0|1: a
 *               claim must pass lq_limit;
 *               only the claim statements compute it, the others give 0)
 *                                             (LQ_TASK_COLS columns)
 *   RUN_COLS    id, task_id, run_at, queue, name, worker, attempt, started_at,
 *               ended_at, outcome, error, NOW  (LQ_RUN_COLS columns)
 */
#ifndef LEASEQ_SQL_NAMES_H
#define LEASEQ_SQL_NAMES_H

/* How many columns TASK_COLS has: what lq__task_from_row reads, and where
 * the claim_batch statements put "claimed". */
#define LQ_TASK_COLS 25
/* A candidate's steering after its TASK_COLS: overlap, catch_up, next_at
 * (task_steer_get's columns). */
#define LQ_STEER_COLS 3
#define LQ_LEASE_COLS 6
#define LQ_RUN_COLS 12

#define LQ_SQL_LIST(X)                                                                        \
	/* schema */                                                                                          \
	X(db_now, 1)                                /* () -> (NOW) */                                         \
	X(schema_exists, 1)                         /* () -> (1 if table lq_schema exists else 0) */          \
	X(schema_create, 0)                         /* () create lq_schema(version PK, name, applied_at) if absent */ \
	X(schema_version, 1)                        /* () -> (highest applied version, 0 if none) */          \
	X(schema_record, 0)                         /* (?1 version, ?2 name) insert into lq_schema */         \
	X(migrate_lock, 1)                          /* () serialise concurrent migrators (tx or named lock) */ \
	X(migrate_unlock, 1)                        /* () release what migrate_lock took, if not tx-scoped */ \
	/* leases */                                                                                          \
	X(lease_take, 0)                            /* (?1 name, ?2 owner, ?3 ttl) take if expires_at <= NOW, token+1 */ \
	X(lease_acquire, LQ_LEASE_COLS + 1)         /* (?1 name, ?2 owner, ?3 ttl) insert if absent (token 1) or take \
							if expires_at <= NOW (token+1), one statement -> LEASE_COLS, \
							got 1 if taken, or got 0 with the row as seen, or no row */ \
	X(lease_acquire_free, LQ_LEASE_COLS + 1)    /* (as lease_acquire) -> LEASE_COLS, got 1 if taken; no row \
							if held; only where lease_acquire returns a held row */ \
	X(lease_get, LQ_LEASE_COLS)                 /* (?1 name) -> LEASE_COLS */                             \
	X(lease_renew, 2)                           /* (?1 name, ?2 owner, ?3 token, ?4 ttl) if expires_at > NOW \
							-> (expires_at, NOW) where the dialect has RETURNING */ \
	X(lease_release, 0)                         /* (?1 name, ?2 owner, ?3 token) owner NULL, expires_at NOW */ \
	X(lease_wait_mark, 0)                       /* (?1 name, ?2 wait_ms) a waiter marks the lease until \
							NOW + ?2: its release then wakes the waiters */       \
	X(lease_release_notify, 1)                  /* (as lease_release) -> a row if released, and wakes lease \
							waiters: one statement; only where LQ_CAP_NOTIFY */   \
	X(lease_break, 0)                           /* (?1 name) token+1, owner NULL, expires_at NOW */       \
	X(lease_list, LQ_LEASE_COLS + 4)            /* (?1 name|NULL) -> LEASE_COLS, slot|NULL, and the row's \
							owner, token, expires_at: shared slots in its place */ \
	X(lease_create, 0)                          /* (?1 name, ?2 owner|NULL, ?3 expires_at|NULL) token 0 if absent */ \
	X(lease_lock, LQ_LEASE_COLS)                /* (?1 name) -> LEASE_COLS, row locked for the transaction */ \
	X(lease_slot_get, LQ_LEASE_COLS)            /* (?1 name, ?2 slot) -> LEASE_COLS of the slot row */    \
	X(lease_slot_scan, 3)                       /* (?1 name, ?2 n) -> (slot, expires_at, NOW), 0 <= slot < n */ \
	X(lease_slot_insert, 0)                     /* (?1 name, ?2 slot, ?3 owner, ?4 ttl) if absent, token 1 */ \
	X(lease_slot_take, 0)                       /* (?1 name, ?2 slot, ?3 owner, ?4 ttl) if expired, token+1 */ \
	X(lease_slot_renew, 0)                      /* (?1 name, ?2 slot, ?3 owner, ?4 token, ?5 ttl) if live */ \
	X(lease_slot_release, 0)                    /* (?1 name, ?2 slot, ?3 owner, ?4 token) owner NULL */   \
	X(lease_slot_break, 0)                      /* (?1 name) every slot: owner NULL, token+1 */           \
	X(lease_rw_state, 3)                        /* (?1 name) -> (max slot, live readers, live intent owner) */ \
	X(lease_read_purge, 0)                      /* (?1 name) delete readers gone */                       \
	X(lease_read_insert, 0)                     /* (?1 name, ?2 slot, ?3 owner, ?4 token, ?5 expires|NULL, ?6 ttl) */ \
	X(lease_read_extend, 0)                     /* (?1 name, ?2 marker, ?3 token, ?4 ttl) group lasts to NOW+ttl */ \
	X(lease_read_shrink, 0)                     /* (?1 name, ?2 marker, ?3 token) group to latest reader or ends */ \
	X(lease_promote, 0)                         /* (?1 name, ?2 marker, ?3 token, ?4 owner, ?5 slot) token+1 */ \
	X(lease_demote, 0)                          /* (?1 name, ?2 owner, ?3 token, ?4 marker) token+1 */    \
	X(lease_intent_set, 0)                      /* (?1 name, ?2 owner, ?3 ms) waiting writer's intent */  \
	X(lease_intent_clear, 0)                    /* (?1 name, ?2 owner) drop it */                         \
	/* tasks */                                                                                           \
	X(task_insert, 1)                           /* (?1 queue, ?2 name, ?3 payload, ?4 run_at|NULL, ?5 delay, \
							?6 max_attempts, ?7 unique_key, ?8 every_ms, ?9 cron, \
							?10 tz, ?11 missed, ?12 priority, ?13 timeout_ms|NULL, \
							?14 concurrency_key|NULL, ?15 partition|NULL) \
							-> (id) if inserted, no row when the unique key \
							is taken */                                     \
	X(task_insert_notify, 1)                    /* (as task_insert) -> (id) if inserted, and wakes workers: \
							one statement; only where LQ_CAP_ONE_STATEMENT_ADD */ \
	X(task_insert_many, 2)                      /* (15 parameters per task, as task_insert; \
							LQ_ADD_MANY_CHUNK tasks, NULL-padded)                 \
							-> (id, unique_key) per row inserted, in the given order; \
							a taken unique key is skipped (or, on MySQL, a racing one \
							fails the statement: no row at all) */                \
	X(task_insert_many_notify, 2)               /* task_insert_many and the wake-up (LQ_CHANNEL_TASK) \
							in one statement, for a batch alone; only where \
							LQ_CAP_NOTIFY */                                \
	X(task_insert_many_same, 2)                 /* task_insert_many of tasks that differ only in name and \
							payload: ?1..?13 their options (task_insert's but \
							name and payload), then                         \
							(name, payload) a task, NULL-padded */          \
	X(task_insert_many_same_notify, 2)          /* the same with the wake-up, as \
							task_insert_many_notify */                      \
	X(task_insert_many_keyless, 0)              /* task_insert_many_same of tasks without a unique \
							key, no row back: the rows take consecutive ids \
							in the given order, the last one the backend's \
							last_insert_id; only where that hook is */      \
	X(task_find_unique, 1)                      /* (?1 unique_key) -> (id) */                             \
	X(task_candidates, LQ_TASK_COLS + LQ_STEER_COLS) /* (?1 queue, ?2 limit) -> TASK_COLS, steering: due,      \
							unclaimed or claim expired, task and queue not paused; \
							by priority, run_at, id;                              \
							FOR UPDATE SKIP LOCKED where LQ_CAP_SKIP_LOCKED;      \
							where absent, task_candidates_at */                   \
	X(task_candidates_at, LQ_TASK_COLS + LQ_STEER_COLS) /* (?1 queue, ?2 limit, ?3 priority) task_candidates \
							of priority ?3 alone, whose due range ends the read; \
							where present, with task_priority_step */             \
	X(task_candidates_top, LQ_TASK_COLS + LQ_STEER_COLS) /* (?1 queue, ?2 limit, ?3 priority) task_candidates_at \
							while lq_limit has no row and no higher priority \
							has a task, else no row; where present */             \
	X(task_candidates_top_filtered, LQ_TASK_COLS + LQ_STEER_COLS) /* (as task_candidates_top) while \
							lq_limit has rows: with the limits' filter, none \
							while a higher priority has a task; where present */ \
	X(task_candidates_due, LQ_TASK_COLS + LQ_STEER_COLS) /* (?1 queue, ?2 limit) task_candidates of a queue of  \
							one priority, in due order; no row when it has more; \
							where present, a batch tries it first */              \
	X(task_priority_step, 3)                   /* (?1 queue, ?2 priority or NULL) -> (priority, due 0|1, \
							lower 0|1) the highest below ?2 (of all when NULL), \
							whether its first task by run_at is due and whether \
							a lower one has a task; no row when none */           \
	X(task_claim_batch_delete, LQ_TASK_COLS + 1) /* (?1 queue, ?2 limit) -> TASK_COLS, claimed 0|1: one   \
						     statement claiming due one-off tasks at-most-once;       \
						     only where LQ_CAP_CLAIM_RETURNING */                     \
	X(task_claim_batch_update, LQ_TASK_COLS + 1) /* (?1 queue, ?2 limit, ?3 owner, ?4 claim_ttl) the same, \
						     at-least-once; only where LQ_CAP_CLAIM_RETURNING */      \
	X(task_claim_one_delete, LQ_TASK_COLS + 1)  /* (?1 queue) task_claim_batch_delete of one task, with   \
						       constant LIMITs (a plan PostgreSQL keeps generic) */   \
	X(task_claim_one_delete_occ, LQ_TASK_COLS + 2) /* (?1 queue) the same, and a head that is an interval \
						       occurrence without steering moved on: claimed 2, \
						       next_run_at after "claimed"; where present */   \
	X(task_claim_one_delete_top, LQ_TASK_COLS + 1) /* (?1 queue, ?2 priority) task_claim_one_delete of \
						       priority ?2 alone, no row while a higher one has a \
						       task; where present */                            \
	X(task_claim_one_delete_occ_top, LQ_TASK_COLS + 2) /* (?1 queue, ?2 priority)              \
						       task_claim_one_delete_occ of priority ?2 alone, as \
						       task_claim_one_delete_top; where present */        \
	X(task_claim_one_update, LQ_TASK_COLS + 1)  /* (?1 queue, ?2 owner, ?3 claim_ttl) the same,           \
						       at-least-once */                                       \
	X(task_claim_one_delete_keyed, LQ_TASK_COLS + 1) /* (?1 queue, ?2 owner, ?3 claim_ttl)          \
						       task_claim_one_delete that also claims a head whose \
						       key has one limit, taking its start (claimed 3: a  \
						       capped head, claimed for ?2); where present */      \
	X(task_claim_one_update_keyed, LQ_TASK_COLS + 1) /* (?1 queue, ?2 owner, ?3 claim_ttl) the same, \
						       at-least-once; where present */                    \
	X(task_claim_delete, 0)                     /* (?1 id) delete if one-off, still due and unclaimed */  \
	X(task_claim_update, 0)                     /* (?1 id, ?2 owner, ?3 claim_ttl) claim + attempts+1 if due and unclaimed */ \
	X(task_claim_delete_set, 0)                 /* (?1..?100 ids, NULL-padded) task_claim_delete of each  \
						       -> affected; only where LQ_CAP_CLAIM_SET */            \
	X(task_claim_update_set, 0)                 /* (?1 owner, ?2 claim_ttl, ?3..?102 ids, NULL-padded)    \
						       task_claim_update of each -> affected; LQ_CAP_CLAIM_SET */ \
	X(task_claim_occurrence, 0)                 /* (?1 id, ?2 seen run_at, ?3 next run_at) if run_at = ?2 \
						       and not under a live claim; clears an expired one */   \
	X(task_ack, 0)                              /* (?1 id, ?2 owner) delete if claimed by owner */        \
	X(task_heartbeat, 0)                        /* (?1 id, ?2 owner, ?3 claim_ttl) if owner's claim not expired */ \
	X(task_retry_later, 0)                      /* (?1 id, ?2 owner, ?3 backoff, ?4 error) unclaim, run_at NOW+backoff */ \
	X(task_release_claim, 0)                    /* (?1 id, ?2 owner) unclaim, attempts-1: handed back unrun */ \
	X(task_ack_occurrence, 0)                   /* (?1 id, ?2 owner, ?3 next run_at, ?4 error|NULL) recurring \
							at-least-once: unclaim, attempts 0, run_at = ?3 */    \
	X(task_retry_occurrence, 0)                 /* (?1 id, ?2 owner, ?3 backoff, ?4 error) recurring      \
						       at-least-once: unclaim, held back until NOW+backoff */ \
	X(task_reinsert, 0)                         /* (?1 id, ?2 queue, ?3 name, ?4 payload, ?5 attempts,    \
							?6 max_attempts, ?7 unique_key, ?8 backoff, ?9 error, \
							?10 created_at, ?11 priority, ?12 timeout_ms, ?13 concurrency_key, \
							?14 partition) at-most-once retry; conflict: nothing */ \
	X(task_bury, 0)                             /* (?1 id, ?2 owner|NULL, ?3 error) copy to lq_task_dead if \
							claimed by owner, or (NULL) if unclaimed/claim expired */ \
	X(task_delete, 0)                           /* (?1 id) delete the live task */                        \
	X(task_dead_insert, 0)                      /* (?1 id, ?2 queue, ?3 name, ?4 payload, ?5 attempts,    \
							?6 max_attempts, ?7 unique_key, ?8 error, ?9 created_at, \
							?10 priority, ?11 timeout_ms, ?12 concurrency_key, \
							?13 partition) */ \
	X(task_record_error, 0)                     /* (?1 id, ?2 error) recurring task: last_error */        \
	X(task_get, LQ_TASK_COLS)                   /* (?1 id) -> TASK_COLS, live or dead */                  \
	X(task_list, LQ_TASK_COLS)                  /* (?1 queue|NULL, ?2 due_only) -> TASK_COLS (payload NULL) by id */ \
	X(task_list_dead, LQ_TASK_COLS)             /* (?1 queue|NULL) -> TASK_COLS (payload NULL) by id */   \
	X(task_dead_delete, 0)                      /* (?1 id) */                                             \
	/* health (doctor) */                                                                                 \
	X(health_counts, 7)                         /* (?1 grace ms) -> (expired claims, ms since the oldest expired, \
							leases expired with an owner, overdue tasks, ms the most \
							overdue is late, dead tasks, NOW); read-only */       \
	X(health_indexes, 1)                        /* () -> (index name) for every index of the lq_ tables */ \
	X(health_journal, 1)                        /* () -> (SQLite journal mode; '' elsewhere) */           \
	X(task_dead_prune, 0)                       /* (?1 age ms, ?2 queue|NULL, ?3 limit) delete dead tasks with \
							died_at < NOW - age, oldest first -> affected */      \
	X(task_dead_prune_count, 1)                 /* (?1 age ms, ?2 queue|NULL) -> (how many would go) */   \
	X(task_revive, 0)                           /* (?1 id) dead -> live, attempts 0, due NOW; conflict: nothing */ \
	X(task_run_now, 0)                          /* (?1 id) live task due NOW (a back-off without a claim ends) */ \
	X(task_set_paused, 0)                       /* (?1 id, ?2 paused) */                                  \
	/* steering recurring tasks (schedule.sql) */                                                          \
	X(task_steer_set, 0)                        /* (?1 id, ?2 overlap, ?3 catch_up|NULL, ?4 alert_after_ms|NULL) */ \
	X(task_steer_get, 3)                        /* (?1 id) -> (overlap, catch_up, next_at) */             \
	X(task_edit_schedule, 0)                    /* (?1 id, ?2 seen run_at, ?3 every_ms|NULL, ?4 cron|NULL, \
							?5 tz|NULL, ?6 next) if run_at = ?2: new schedule, due \
							?6 (next_at ?6 under a live claim) */                 \
	X(task_run_extra, 0)                        /* (?1 id) recurring, unpaused, run_at > NOW: next_at =   \
							run_at, run_at = NOW */                               \
	X(task_resume_at, 0)                        /* (?1 id, ?2 seen run_at, ?3 run_at) unpause, due ?3 */  \
	X(task_set_preempt, 0)                      /* (?1 id, ?2 owner, ?3 preempt_at) */                    \
	X(task_preempt, 0)                          /* (?1 id, ?2 owner, ?3 error) if preempt_at <= NOW:      \
							revoke the claim, run_at = next_at or preempt_at */   \
	X(task_preempt_mark, 0)                     /* (?1 id, ?2 owner, ?3 ttl_ms, ?4 reason) remember the   \
							revoked claim in lq_task_cancel until NOW + ?3 */     \
	X(task_mark_success, 0)                     /* (?1 id) last_success_at = NOW */                       \
	X(schedule_list, 16)                        /* (?1 id|NULL) -> (id, queue, name, every_ms, cron, tz,  \
							paused, overlap, catch_up, missed, alert_after_ms,    \
							last_success_at, created_at, run_at, next_at, NOW) of \
							recurring tasks by id */                              \
	X(schedule_alerts, 16)                      /* () -> schedule_list's columns of the tasks with        \
							alert_after_ms, by an index */                        \
	/* run history and counters */                                                                        \
	X(run_insert, 0)                            /* (?1 task_id, ?2 run_at, ?3 queue, ?4 name, ?5 worker,  \
							?6 attempt, ?7 started_at, ?8 outcome, ?9 error|NULL) \
							ended_at NOW; counted in lq_counter in the same       \
							statement (a trigger on SQLite), or by run_count where \
							LQ_CAP_RUN_COUNT_APART */                             \
	X(run_insert_many, 0)                       /* (?1 worker, then per run ?2.. task_id, run_at, queue,  \
							name, attempt, started_at, ago ms, outcome: 64 runs,  \
							unused NULL) runs their claims settled (at-most-once), \
							written together; ended_at NOW - ago; counted as      \
							run_insert's (by run_count_many where                 \
							LQ_CAP_RUN_COUNT_APART) */                            \
	X(run_count, 0)                             /* (as run_insert) count in lq_counter the run that       \
							run_insert wrote last on this connection; only where  \
							LQ_CAP_RUN_COUNT_APART, in run_insert's transaction */ \
	X(run_count_many, 0)                        /* (as run_insert_many) count the runs it wrote last: the \
							same, for run_insert_many */                          \
	X(task_ack_run, 1)                          /* (?1 id, ?2 owner, ?3 worker, ?4 started_at) task_ack and \
							its 'done' run_insert in one round trip and one       \
							transaction -> (acked 0|1); only where                \
							LQ_CAP_ONE_STATEMENT_ACK */                           \
	X(task_ack_claim_one_update, LQ_TASK_COLS + 2) /* (?1 queue, ?2 id, ?3 owner, ?4 worker, ?5 started_at,  \
							?6 new owner, ?7 claim_ttl) task_ack_run of ?2 and    \
							task_claim_one_update of ?1 in one statement ->       \
							TASK_COLS, claimed (1|0|-1: no candidate), acked;     \
							only where LQ_CAP_ONE_STATEMENT_ACK_CLAIM */          \
	X(task_ack_claim_one_update_top, LQ_TASK_COLS + 2) /* the same, ?8 priority: its claim reads that  \
							priority alone, none while a higher one has a task \
							(claimed -1); where present */                      \
	X(task_ack_run_many, 1)                     /* (?1 worker, then ?2.. id, owner, started_at of up to  \
							LQ_ACK_SET_MAX tasks, NULL-padded) task_ack_run of    \
							each -> the ids acked; only where                     \
							LQ_CAP_ONE_STATEMENT_ACK */                           \
	X(run_list, LQ_RUN_COLS)                    /* (?1 queue|NULL, ?2 name|NULL, ?3 age ms, ?4 limit) ->  \
							RUN_COLS ended within age, newest first */            \
	X(run_list_task, LQ_RUN_COLS)               /* (?1 task_id, ?2 age ms, ?3 limit) -> RUN_COLS, newest first */ \
	X(run_settled, 1)                           /* (?1 task_id, ?2 attempt, ?3 started_at, ?4 worker) -> (1) \
							if the history has that run: did a settle commit */   \
	X(run_count_since, 2)                       /* (?1 age ms, ?2 queue|NULL) -> (outcome, count) */      \
	X(counter_list, 4)                          /* () -> (metric, queue, name, n) by queue, name, metric; \
							metric lease_taken from the fencing tokens */         \
	X(run_prune, 0)                             /* (?1 age ms, ?2 queue|NULL, ?3 limit) delete runs with  \
							ended_at < NOW - age, oldest first -> affected */     \
	X(run_prune_count, 1)                       /* (?1 age ms, ?2 queue|NULL) -> (how many would go) */   \
	/* cancel */                                                                                          \
	X(task_cancel_get, LQ_TASK_COLS)            /* (?1 id) -> TASK_COLS of the live task, locked for the  \
						       cancel's transaction (FOR UPDATE where there is one) */ \
	X(task_cancel_mark, 0)                      /* (?1 id, ?2 owner, ?3 claim_until, ?4 reason|NULL)      \
						       remember a revoked claim (lq_task_cancel) */           \
	X(task_cancel_sweep, 0)                     /* () forget revoked claims that have expired anyway */   \
	X(task_cancel_check, 1)                     /* (?1 id, ?2 owner) -> (reason|NULL) if that claim was   \
						       revoked by a cancel */                                  \
	X(task_running_insert, 0)                   /* (?1 id, ?2 owner, ?3 ttl, ?4 queue, ?5 name, ?6 run_at, \
						       ?7 attempts, ?8 started_at) upsert the cancellable     \
						       at-most-once run of task ?1, until NOW + ?3 */          \
	X(task_running_beat, 0)                     /* (?1 id, ?2 owner, ?3 ttl) renew that run -> affected */ \
	X(task_running_end, 0)                      /* (?1 id, ?2 owner) delete that run -> affected */       \
	X(task_running_get, 8)                      /* (?1 id) -> (owner, claim_until, queue, name, run_at,   \
						       attempts, started_at, NOW) of its run, locked */        \
	X(task_running_sweep, 0)                    /* () forget runs past their claim_until (crashed) */     \
	X(task_running_list, 9)                     /* (?1 queue|NULL, ?2 id|0) -> (id, owner, claim_until,   \
						       queue, name, run_at, attempts, started_at, NOW) of the \
						       live runs, by started_at, id */                        \
	X(task_claim_one_delete_run, LQ_TASK_COLS + 1) /* (?1 queue, ?2 owner, ?3 ttl) task_claim_one_delete  \
						       that also writes task_running_insert's row of the task \
						       it deleted; PostgreSQL only (else the transaction)  */  \
	/* queues */                                                                                          \
	X(queue_set_paused, 0)                      /* (?1 queue, ?2 paused) upsert lq_queue */               \
	X(queue_list, 6)                            /* () -> (name, paused, tasks, due, dead, next_run_at|NULL) */ \
	X(queue_names, 1)                           /* () -> (name) every queue, by name, by skip scans */    \
	X(queue_gauges, 5)                          /* (?1 queue, ?2 cap) -> (paused, tasks, due, dead, each  \
							counting at most cap rows, next_run_at|NULL) */       \
	X(queue_next_due, 2)                        /* (?1 queue) -> (earliest run_at of a claimable task     \
							(unpaused, unclaimed or claim expired) or NULL, NOW) */ \
	/* flow control (lq_limit) */                                                                         \
	X(limit_set, 0)                             /* (?1 name, ?2 concurrency|NULL, ?3 rate_n|NULL,         \
							?4 rate_period_ms|NULL) upsert; the bucket is full */ \
	X(limit_get, 7)                             /* (?1 name) -> LIMIT_COLS: name, concurrency, rate_n,    \
							rate_period_ms, tat, running (live claims), NOW */    \
	X(limit_list, 7)                            /* () -> LIMIT_COLS of every limit, by name */            \
	X(limit_delete, 0)                          /* (?1 name) -> affected */                               \
	X(limit_lock, 2)                            /* (?1 key|NULL, ?2 queue) -> (name, capped 0|1) of the   \
							limits of key ?1 and "queue:" ?2, locked, by name */  \
	X(limit_take_key, 0)                        /* (?1 key) one start of key ?1 if its limit is open:     \
							live claims under its cap, a start left in its rate */ \
	X(limit_take_queue, 0)                      /* (?1 queue) limit_take_key for "queue:" ?1, counting    \
							the live claims of queue ?1 */                        \
	X(limit_refund, 0)                          /* (?1 name) give back the start just taken */            \
	/* runner */                                                                                          \
	X(tick_probe, 2)                            /* (?1 runner lease name, ?2 queue) -> (held 0|1, due 0|1): \
							the one read every web hit pays */                    \
	/* snooze, progress, results (sql/<dialect>/progress.sql) */                                          \
	X(task_progress_set, 0)                     /* (?1 id, ?2 owner, ?3 percent, ?4 message|NULL) if      \
							owner's claim not expired */                          \
	X(task_progress_get, 4)                     /* (?1 id) -> (percent, message, at: NULL unless reported \
							under the claim holding it now; NOW) */               \
	X(task_snooze_claim, 0)                     /* (?1 id, ?2 owner, ?3 delay) unclaim, attempts-1,       \
							run_at NOW+delay */                                   \
	X(task_snooze_occurrence, 0)                /* (?1 id, ?2 run_at the claim set, ?3 delay) run_at =    \
							least(run_at, NOW+delay) if run_at = ?2 */            \
	X(run_set_result, 0)                        /* (?1 task_id, ?2 attempt, ?3 started_at, ?4 worker,     \
							?5 result) the run run_settled would find */          \
	X(run_result, 1)                            /* (?1 task_id) -> (result) the newest stored one */ \
	/* fair share across partitions (partition.sql) */                                                   \
	X(partition_touch, 0)                       /* (?1 queue, ?2 partition) its row and '' if absent */  \
	X(partition_touch_many, 0)                  /* (?1 queue, ?2..?17 partitions, NULL-padded) as      \
							partition_touch, in name order */                     \
	X(partition_any, 1)                         /* (?1 queue) -> (1 if the queue has partitions, else 0) */ \
	X(partition_serve, 0)                       /* (?1 queue, then (partition, stamp) x LQ_PART_SERVE_MAX, \
							NULL-padded) served = stamp if higher; the row again \
							if it went */                                         \
	X(partition_lock_all, 1)                    /* (?1 queue) -> (name) every partition row, locked, in   \
							name order; where present, a fair claim of several   \
							tasks starts with it */                              \
	X(partition_forget, 0)                      /* (?1 queue) drop the partitions without tasks */        \
	X(task_part_get, 1)                         /* (?1 id) -> (partition, '' for none) of a live task */  \
	X(task_claim_fair_delete, LQ_TASK_COLS + 1) /* (?1 queue, ?2 limit) -> TASK_COLS, claimed 0|1 in fair \
						     order: task_candidates_fair's choice (up to ?2 per      \
						     partition, in turns) claimed at-most-once and stamped,   \
						     one statement; only where LQ_CAP_CLAIM_RETURNING */      \
	X(task_claim_fair_update, LQ_TASK_COLS + 1) /* (?1 queue, ?2 limit, ?3 owner, ?4 claim_ttl) the same, \
						     at-least-once */                                         \
	X(task_claim_fair_one_delete, LQ_TASK_COLS + 1) /* (?1 queue) task_claim_fair_delete of one task, \
							   with constant LIMITs (a plan PostgreSQL keeps \
							   generic) */                                    \
	X(task_claim_fair_one_update, LQ_TASK_COLS + 1) /* (?1 queue, ?2 owner, ?3 claim_ttl) the same,   \
							   at-least-once */                               \
	X(task_claim_fair_turn_delete, LQ_TASK_COLS + 1) /* (?1 queue, ?2 partition) one task at-most-once \
							    from the first partition after ?2 in name order   \
							    with a head (then from the first up to ?2), no    \
							    stamp; where present, a handle's next fair claim  \
							    of one task */                                    \
	X(task_claim_fair_turn_delete_top, LQ_TASK_COLS + 1) /* (?1 queue, ?2 turn, ?3 priority) the same of \
							priority ?3 alone, no row while a higher one has a \
							task; where present */                             \
	X(task_claim_fair_turn_update, LQ_TASK_COLS + 1) /* (?1 queue, ?2 partition, ?3 owner,             \
							    ?4 claim_ttl) the same, at-least-once */          \
	X(task_claim_fair_turn_batch_delete, LQ_TASK_COLS + 1) /* (?1 queue, ?2 limit, ?3 partition)   \
								  task_claim_fair_delete with rounds in name  \
								  order from the first partition after ?3, no \
								  stamp */                                    \
	X(task_claim_fair_turn_batch_update, LQ_TASK_COLS + 1) /* (?1 queue, ?2 limit, ?3 partition,    \
								  ?4 owner, ?5 claim_ttl) the same,           \
								  at-least-once */                            \
	X(task_candidates_fair, LQ_TASK_COLS + 2)   /* (?1 queue, ?2 limit) -> TASK_COLS, partition, stamp:  \
							the head (run_at, id) of each partition's due tasks of \
							the top due priority, least recently served partition \
							first, and the queue's highest served stamp (0 if     \
							none); FOR UPDATE SKIP LOCKED where the dialect can */ \
	X(task_candidates_fair_below, LQ_TASK_COLS + 2) /* (?1 queue, ?2 limit, ?3 priority) \
							   task_candidates_fair from priority ?3 down; \
							   where present, with task_priority_step */   \
	X(task_candidates_fair_one, LQ_TASK_COLS + 2) /* (?1 queue, ?2 priority) -> task_candidates_fair's \
							 first row (up to one) from priority ?2 down, read \
							 partition by partition in served order until one \
							 has a head; where absent, task_candidates_fair \
							 with ?2 = 1 */                                  \
	X(task_candidates_fair_after, LQ_TASK_COLS + 2) /* (?1 queue, ?2 priority, ?3 partition) ->      \
							   task_candidates_fair_one's row from the first   \
							   partition after ?3 in name order with a head,   \
							   locked; stamp 0 */                              \
	X(task_candidates_fair_upto, LQ_TASK_COLS + 2) /* the same from the first partition up to ?3 */    \
	X(task_candidates_fair_after_at, LQ_TASK_COLS + 2) /* (?1 queue, ?2 priority, ?3 partition)       \
							      task_candidates_fair_after's heads of priority \
							      ?2 alone, none while a higher one has a task; \
							      where present */                              \
	X(task_candidates_fair_upto_at, LQ_TASK_COLS + 2) /* the same from the first partition up to ?3 */ \
	X(task_candidates_fair_next_at, LQ_TASK_COLS + 2) /* (?1 queue, ?2 priority, ?3 partition)        \
							     task_candidates_fair_next of priority ?2 alone, \
							     as task_candidates_fair_after_at */             \
	X(task_candidates_fair_next, LQ_TASK_COLS + 2) /* (?1 queue, ?2 priority, ?3 partition) -> the  \
							  second due task of the first partition after ?3 \
							  (then round) that no claimer holds, locked (not \
							  the partition's row), as task_candidates_fair_one's \
							  row; where _one, _after and _upto found every   \
							  head held */                                    \
	X(task_candidates_fair_turn, LQ_TASK_COLS + 2) /* (?1 queue, ?2 limit, ?3 priority, ?4 partition) \
							  task_candidates_fair (below ?3 where the dialect \
							  bounds it) with each round in name order from    \
							  the first partition after ?4; stamp 0 */          \
	X(task_fair_due_any, 1)                     /* (?1 queue) -> (1 if a task task_candidates_fair could  \
							choose waits, locked or not, else 0); only where   \
							LQ_CAP_SKIP_LOCKED */

typedef enum lq_sql_id {
#define LQ__SQL_ENUM(name, cols) LQ_SQL_##name,
	LQ_SQL_LIST(LQ__SQL_ENUM)
#undef LQ__SQL_ENUM
	LQ_SQL__COUNT
} lq_sql_id;

/* LQ_COLS_NAME: the result columns of statement NAME. */
enum lq_sql_cols {
#define LQ__SQL_COLS(name, cols) LQ_COLS_##name = (cols),
	LQ_SQL_LIST(LQ__SQL_COLS)
#undef LQ__SQL_COLS
};

/* Name of a statement, for messages. */
const char *lq__sql_name(lq_sql_id id);

#endif

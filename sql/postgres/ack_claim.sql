-- Ack one task and claim the next in one statement (PostgreSQL): what an
-- at-least-once worker sends per task.  See lib/ack_claim.c.

-- name: task_ack_claim_one_update
-- task_ack_run of task $2 (claim owner $3, worker $4, started_at $5) and
-- task_claim_one_update of queue $1 for owner $6 with a claim lease of $7 ms,
-- in one statement: one round trip and one transaction.  The ack, its
-- history row and its count are written only if the claim of $2 was still
-- $3's; the claim happens either way.  Every part sees the statement's one
-- snapshot, so the acked row would still look claimable to cand once its
-- claim expired: cand leaves $2 out (the same row must not be written twice
-- in one statement).  The candidate filter and the top due priority are
-- task_claim_one_update's fragments, which read the queue from $1.  A task
-- under a limit is left to the transactional path, which passes the
-- limits' gate.  Another transaction may hold the row of $2: a claim whose
-- snapshot still saw it unclaimed locks it, finds it changed, skips it, and
-- keeps the lock to its end.  The ack does not wait for it here (that held
-- the new claim's row meanwhile, and at 16 clients the waits chained: 123
-- of 160 samples of pg_stat_activity): acked is then 2, and the library
-- sends the ack alone after this statement.
-- -> TASK_COLS, claimed (1 claimed, 0 a candidate left to the transactional
-- path, -1 no candidate: the other columns are NULL), acked (0|1|2) on
-- every row.
WITH RECURSIVE {{CLK}},
{{CLAIM_TOP}},
{{ACK_CLAIM_ACK}},
cand AS (
  {{CLAIM_CAND_DUE}}
     AND id <> $2::bigint
     AND priority <= (SELECT p FROM top)
   ORDER BY priority DESC, run_at, id
   LIMIT 1
     FOR UPDATE SKIP LOCKED),
{{ACK_CLAIM_TOOK}};

-- name: task_ack_claim_one_update_top
-- task_ack_claim_one_update whose claim reads priority $8 alone, the
-- priority of the task the handle's last claim of queue $1 took, while the
-- queue has no task of a higher one: task_claim_one_delete_top's walk
-- instead of CLAIM_TOP's reads.  claimed -1 when it found no candidate
-- (the ack is done either way): the library then claims the full way.
WITH RECURSIVE {{CLK}},
{{ACK_CLAIM_ACK}},
cand AS (
  {{CLAIM_CAND_DUE}}
     AND id <> $2::bigint
     AND priority = $8::integer
     AND (SELECT x.priority FROM lq_task x WHERE x.queue = {{QUEUE_ARG}} AND x.priority > $8::integer
           ORDER BY x.priority LIMIT 1) IS NULL
   ORDER BY priority DESC, run_at, id
   LIMIT 1
     FOR UPDATE SKIP LOCKED),
{{ACK_CLAIM_TOOK}};

-- name: task_ack_run_many
-- task_ack_run of up to 100 tasks in one statement: $1 the worker, then
-- (id, claim owner, started_at) per task ($2..$4 the first, $5..$7 the
-- second, ...; unused places NULL).  Each task is acked, and its history
-- row and count written, only if its claim was still that owner's.  ->
-- the ids acked.
WITH {{CLK}},
v AS (
  SELECT * FROM (VALUES
       (1, $2::bigint, $3::text, $4::bigint),
       (2, $5::bigint, $6::text, $7::bigint),
       (3, $8::bigint, $9::text, $10::bigint),
       (4, $11::bigint, $12::text, $13::bigint),
       (5, $14::bigint, $15::text, $16::bigint),
       (6, $17::bigint, $18::text, $19::bigint),
       (7, $20::bigint, $21::text, $22::bigint),
       (8, $23::bigint, $24::text, $25::bigint),
       (9, $26::bigint, $27::text, $28::bigint),
       (10, $29::bigint, $30::text, $31::bigint),
       (11, $32::bigint, $33::text, $34::bigint),
       (12, $35::bigint, $36::text, $37::bigint),
       (13, $38::bigint, $39::text, $40::bigint),
       (14, $41::bigint, $42::text, $43::bigint),
       (15, $44::bigint, $45::text, $46::bigint),
       (16, $47::bigint, $48::text, $49::bigint),
       (17, $50::bigint, $51::text, $52::bigint),
       (18, $53::bigint, $54::text, $55::bigint),
       (19, $56::bigint, $57::text, $58::bigint),
       (20, $59::bigint, $60::text, $61::bigint),
       (21, $62::bigint, $63::text, $64::bigint),
       (22, $65::bigint, $66::text, $67::bigint),
       (23, $68::bigint, $69::text, $70::bigint),
       (24, $71::bigint, $72::text, $73::bigint),
       (25, $74::bigint, $75::text, $76::bigint),
       (26, $77::bigint, $78::text, $79::bigint),
       (27, $80::bigint, $81::text, $82::bigint),
       (28, $83::bigint, $84::text, $85::bigint),
       (29, $86::bigint, $87::text, $88::bigint),
       (30, $89::bigint, $90::text, $91::bigint),
       (31, $92::bigint, $93::text, $94::bigint),
       (32, $95::bigint, $96::text, $97::bigint),
       (33, $98::bigint, $99::text, $100::bigint),
       (34, $101::bigint, $102::text, $103::bigint),
       (35, $104::bigint, $105::text, $106::bigint),
       (36, $107::bigint, $108::text, $109::bigint),
       (37, $110::bigint, $111::text, $112::bigint),
       (38, $113::bigint, $114::text, $115::bigint),
       (39, $116::bigint, $117::text, $118::bigint),
       (40, $119::bigint, $120::text, $121::bigint),
       (41, $122::bigint, $123::text, $124::bigint),
       (42, $125::bigint, $126::text, $127::bigint),
       (43, $128::bigint, $129::text, $130::bigint),
       (44, $131::bigint, $132::text, $133::bigint),
       (45, $134::bigint, $135::text, $136::bigint),
       (46, $137::bigint, $138::text, $139::bigint),
       (47, $140::bigint, $141::text, $142::bigint),
       (48, $143::bigint, $144::text, $145::bigint),
       (49, $146::bigint, $147::text, $148::bigint),
       (50, $149::bigint, $150::text, $151::bigint),
       (51, $152::bigint, $153::text, $154::bigint),
       (52, $155::bigint, $156::text, $157::bigint),
       (53, $158::bigint, $159::text, $160::bigint),
       (54, $161::bigint, $162::text, $163::bigint),
       (55, $164::bigint, $165::text, $166::bigint),
       (56, $167::bigint, $168::text, $169::bigint),
       (57, $170::bigint, $171::text, $172::bigint),
       (58, $173::bigint, $174::text, $175::bigint),
       (59, $176::bigint, $177::text, $178::bigint),
       (60, $179::bigint, $180::text, $181::bigint),
       (61, $182::bigint, $183::text, $184::bigint),
       (62, $185::bigint, $186::text, $187::bigint),
       (63, $188::bigint, $189::text, $190::bigint),
       (64, $191::bigint, $192::text, $193::bigint),
       (65, $194::bigint, $195::text, $196::bigint),
       (66, $197::bigint, $198::text, $199::bigint),
       (67, $200::bigint, $201::text, $202::bigint),
       (68, $203::bigint, $204::text, $205::bigint),
       (69, $206::bigint, $207::text, $208::bigint),
       (70, $209::bigint, $210::text, $211::bigint),
       (71, $212::bigint, $213::text, $214::bigint),
       (72, $215::bigint, $216::text, $217::bigint),
       (73, $218::bigint, $219::text, $220::bigint),
       (74, $221::bigint, $222::text, $223::bigint),
       (75, $224::bigint, $225::text, $226::bigint),
       (76, $227::bigint, $228::text, $229::bigint),
       (77, $230::bigint, $231::text, $232::bigint),
       (78, $233::bigint, $234::text, $235::bigint),
       (79, $236::bigint, $237::text, $238::bigint),
       (80, $239::bigint, $240::text, $241::bigint),
       (81, $242::bigint, $243::text, $244::bigint),
       (82, $245::bigint, $246::text, $247::bigint),
       (83, $248::bigint, $249::text, $250::bigint),
       (84, $251::bigint, $252::text, $253::bigint),
       (85, $254::bigint, $255::text, $256::bigint),
       (86, $257::bigint, $258::text, $259::bigint),
       (87, $260::bigint, $261::text, $262::bigint),
       (88, $263::bigint, $264::text, $265::bigint),
       (89, $266::bigint, $267::text, $268::bigint),
       (90, $269::bigint, $270::text, $271::bigint),
       (91, $272::bigint, $273::text, $274::bigint),
       (92, $275::bigint, $276::text, $277::bigint),
       (93, $278::bigint, $279::text, $280::bigint),
       (94, $281::bigint, $282::text, $283::bigint),
       (95, $284::bigint, $285::text, $286::bigint),
       (96, $287::bigint, $288::text, $289::bigint),
       (97, $290::bigint, $291::text, $292::bigint),
       (98, $293::bigint, $294::text, $295::bigint),
       (99, $296::bigint, $297::text, $298::bigint),
       (100, $299::bigint, $300::text, $301::bigint)
    ) AS v(k, id, owner, sa)
   WHERE v.id IS NOT NULL),
acked AS (DELETE FROM lq_task t USING v WHERE t.id = v.id AND t.claim_owner = v.owner
          RETURNING t.id, t.run_at, t.queue, t.name, t.attempts, v.sa, v.k),
run AS (INSERT INTO lq_run (task_id, run_at, queue, name, worker, attempt, started_at, ended_at, outcome)
        SELECT id, run_at, queue, name, $1::text, attempts, sa, (SELECT n FROM clk), 'done' FROM acked ORDER BY k
        RETURNING id, task_id, queue, name),
counted AS (INSERT INTO lq_counter (metric, queue, name, shard, n)
            SELECT 'run_done', queue, name, id % 8, count(*) FROM run GROUP BY queue, name, id % 8
            ON CONFLICT (metric, queue, name, shard) DO UPDATE SET n = lq_counter.n + EXCLUDED.n)
SELECT task_id FROM run;

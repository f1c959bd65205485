-- Run history and counters (PostgreSQL).  NOW is (SELECT n FROM clk), see
-- schema.sql.  RUN_COLS: id, task_id, run_at, queue, name, worker, attempt,
-- started_at, ended_at, outcome, error, NOW.
-- Not in this dialect (see lib/backend/sql_names.h):
-- absent: run_count run_insert counts in the same statement (no LQ_CAP_RUN_COUNT_APART)
-- absent: run_count_many run_insert_many does, the same way

-- name: run_insert
-- One finished run; ended_at is the database clock.  Counted in lq_counter
-- by the same statement (one shard of eight, by the run's id, so that
-- concurrent writers seldom wait on one counter row).
WITH i AS (
  INSERT INTO lq_run (task_id, run_at, queue, name, worker, attempt, started_at, ended_at, outcome, error)
  VALUES ($1::bigint, $2::bigint, $3::text, $4::text, $5::text, $6::bigint, $7::bigint,
          {{NOW}}, $8::text, $9::text)
  RETURNING id, queue, name, outcome)
INSERT INTO lq_counter (metric, queue, name, shard, n)
SELECT 'run_' || outcome, queue, name, id % 8, 1 FROM i
ON CONFLICT (metric, queue, name, shard) DO UPDATE SET n = lq_counter.n + 1;

-- name: run_insert_many
-- Up to 64 runs that their claims settled already (at-most-once), written
-- together: $1 the worker, then 8 parameters per run (task_id, run_at,
-- queue, name, attempt, started_at, ago, outcome; $2..$9 the first run,
-- $10..$17 the second, ...); unused places are NULL and skipped.  ended_at
-- is the database clock less ago, the milliseconds since the run ended
-- (measured by the worker), and never before started_at.  Rows go in in
-- the order given.  Counted in lq_counter by the same statement.
WITH {{CLK}},
i AS (
  INSERT INTO lq_run (task_id, run_at, queue, name, worker, attempt, started_at, ended_at, outcome)
  SELECT v.tid, v.ra, v.q, v.nm, $1::text, v.att, v.sa, GREATEST(v.sa, clk.n - v.ago), v.oc
    FROM clk, (VALUES
       (1, $2::bigint, $3::bigint, $4::text, $5::text, $6::bigint, $7::bigint, $8::bigint, $9::text),
       (2, $10::bigint, $11::bigint, $12::text, $13::text, $14::bigint, $15::bigint, $16::bigint, $17::text),
       (3, $18::bigint, $19::bigint, $20::text, $21::text, $22::bigint, $23::bigint, $24::bigint, $25::text),
       (4, $26::bigint, $27::bigint, $28::text, $29::text, $30::bigint, $31::bigint, $32::bigint, $33::text),
       (5, $34::bigint, $35::bigint, $36::text, $37::text, $38::bigint, $39::bigint, $40::bigint, $41::text),
       (6, $42::bigint, $43::bigint, $44::text, $45::text, $46::bigint, $47::bigint, $48::bigint, $49::text),
       (7, $50::bigint, $51::bigint, $52::text, $53::text, $54::bigint, $55::bigint, $56::bigint, $57::text),
       (8, $58::bigint, $59::bigint, $60::text, $61::text, $62::bigint, $63::bigint, $64::bigint, $65::text),
       (9, $66::bigint, $67::bigint, $68::text, $69::text, $70::bigint, $71::bigint, $72::bigint, $73::text),
       (10, $74::bigint, $75::bigint, $76::text, $77::text, $78::bigint, $79::bigint, $80::bigint, $81::text),
       (11, $82::bigint, $83::bigint, $84::text, $85::text, $86::bigint, $87::bigint, $88::bigint, $89::text),
       (12, $90::bigint, $91::bigint, $92::text, $93::text, $94::bigint, $95::bigint, $96::bigint, $97::text),
       (13, $98::bigint, $99::bigint, $100::text, $101::text, $102::bigint, $103::bigint, $104::bigint, $105::text),
       (14, $106::bigint, $107::bigint, $108::text, $109::text, $110::bigint, $111::bigint, $112::bigint, $113::text),
       (15, $114::bigint, $115::bigint, $116::text, $117::text, $118::bigint, $119::bigint, $120::bigint, $121::text),
       (16, $122::bigint, $123::bigint, $124::text, $125::text, $126::bigint, $127::bigint, $128::bigint, $129::text),
       (17, $130::bigint, $131::bigint, $132::text, $133::text, $134::bigint, $135::bigint, $136::bigint, $137::text),
       (18, $138::bigint, $139::bigint, $140::text, $141::text, $142::bigint, $143::bigint, $144::bigint, $145::text),
       (19, $146::bigint, $147::bigint, $148::text, $149::text, $150::bigint, $151::bigint, $152::bigint, $153::text),
       (20, $154::bigint, $155::bigint, $156::text, $157::text, $158::bigint, $159::bigint, $160::bigint, $161::text),
       (21, $162::bigint, $163::bigint, $164::text, $165::text, $166::bigint, $167::bigint, $168::bigint, $169::text),
       (22, $170::bigint, $171::bigint, $172::text, $173::text, $174::bigint, $175::bigint, $176::bigint, $177::text),
       (23, $178::bigint, $179::bigint, $180::text, $181::text, $182::bigint, $183::bigint, $184::bigint, $185::text),
       (24, $186::bigint, $187::bigint, $188::text, $189::text, $190::bigint, $191::bigint, $192::bigint, $193::text),
       (25, $194::bigint, $195::bigint, $196::text, $197::text, $198::bigint, $199::bigint, $200::bigint, $201::text),
       (26, $202::bigint, $203::bigint, $204::text, $205::text, $206::bigint, $207::bigint, $208::bigint, $209::text),
       (27, $210::bigint, $211::bigint, $212::text, $213::text, $214::bigint, $215::bigint, $216::bigint, $217::text),
       (28, $218::bigint, $219::bigint, $220::text, $221::text, $222::bigint, $223::bigint, $224::bigint, $225::text),
       (29, $226::bigint, $227::bigint, $228::text, $229::text, $230::bigint, $231::bigint, $232::bigint, $233::text),
       (30, $234::bigint, $235::bigint, $236::text, $237::text, $238::bigint, $239::bigint, $240::bigint, $241::text),
       (31, $242::bigint, $243::bigint, $244::text, $245::text, $246::bigint, $247::bigint, $248::bigint, $249::text),
       (32, $250::bigint, $251::bigint, $252::text, $253::text, $254::bigint, $255::bigint, $256::bigint, $257::text),
       (33, $258::bigint, $259::bigint, $260::text, $261::text, $262::bigint, $263::bigint, $264::bigint, $265::text),
       (34, $266::bigint, $267::bigint, $268::text, $269::text, $270::bigint, $271::bigint, $272::bigint, $273::text),
       (35, $274::bigint, $275::bigint, $276::text, $277::text, $278::bigint, $279::bigint, $280::bigint, $281::text),
       (36, $282::bigint, $283::bigint, $284::text, $285::text, $286::bigint, $287::bigint, $288::bigint, $289::text),
       (37, $290::bigint, $291::bigint, $292::text, $293::text, $294::bigint, $295::bigint, $296::bigint, $297::text),
       (38, $298::bigint, $299::bigint, $300::text, $301::text, $302::bigint, $303::bigint, $304::bigint, $305::text),
       (39, $306::bigint, $307::bigint, $308::text, $309::text, $310::bigint, $311::bigint, $312::bigint, $313::text),
       (40, $314::bigint, $315::bigint, $316::text, $317::text, $318::bigint, $319::bigint, $320::bigint, $321::text),
       (41, $322::bigint, $323::bigint, $324::text, $325::text, $326::bigint, $327::bigint, $328::bigint, $329::text),
       (42, $330::bigint, $331::bigint, $332::text, $333::text, $334::bigint, $335::bigint, $336::bigint, $337::text),
       (43, $338::bigint, $339::bigint, $340::text, $341::text, $342::bigint, $343::bigint, $344::bigint, $345::text),
       (44, $346::bigint, $347::bigint, $348::text, $349::text, $350::bigint, $351::bigint, $352::bigint, $353::text),
       (45, $354::bigint, $355::bigint, $356::text, $357::text, $358::bigint, $359::bigint, $360::bigint, $361::text),
       (46, $362::bigint, $363::bigint, $364::text, $365::text, $366::bigint, $367::bigint, $368::bigint, $369::text),
       (47, $370::bigint, $371::bigint, $372::text, $373::text, $374::bigint, $375::bigint, $376::bigint, $377::text),
       (48, $378::bigint, $379::bigint, $380::text, $381::text, $382::bigint, $383::bigint, $384::bigint, $385::text),
       (49, $386::bigint, $387::bigint, $388::text, $389::text, $390::bigint, $391::bigint, $392::bigint, $393::text),
       (50, $394::bigint, $395::bigint, $396::text, $397::text, $398::bigint, $399::bigint, $400::bigint, $401::text),
       (51, $402::bigint, $403::bigint, $404::text, $405::text, $406::bigint, $407::bigint, $408::bigint, $409::text),
       (52, $410::bigint, $411::bigint, $412::text, $413::text, $414::bigint, $415::bigint, $416::bigint, $417::text),
       (53, $418::bigint, $419::bigint, $420::text, $421::text, $422::bigint, $423::bigint, $424::bigint, $425::text),
       (54, $426::bigint, $427::bigint, $428::text, $429::text, $430::bigint, $431::bigint, $432::bigint, $433::text),
       (55, $434::bigint, $435::bigint, $436::text, $437::text, $438::bigint, $439::bigint, $440::bigint, $441::text),
       (56, $442::bigint, $443::bigint, $444::text, $445::text, $446::bigint, $447::bigint, $448::bigint, $449::text),
       (57, $450::bigint, $451::bigint, $452::text, $453::text, $454::bigint, $455::bigint, $456::bigint, $457::text),
       (58, $458::bigint, $459::bigint, $460::text, $461::text, $462::bigint, $463::bigint, $464::bigint, $465::text),
       (59, $466::bigint, $467::bigint, $468::text, $469::text, $470::bigint, $471::bigint, $472::bigint, $473::text),
       (60, $474::bigint, $475::bigint, $476::text, $477::text, $478::bigint, $479::bigint, $480::bigint, $481::text),
       (61, $482::bigint, $483::bigint, $484::text, $485::text, $486::bigint, $487::bigint, $488::bigint, $489::text),
       (62, $490::bigint, $491::bigint, $492::text, $493::text, $494::bigint, $495::bigint, $496::bigint, $497::text),
       (63, $498::bigint, $499::bigint, $500::text, $501::text, $502::bigint, $503::bigint, $504::bigint, $505::text),
       (64, $506::bigint, $507::bigint, $508::text, $509::text, $510::bigint, $511::bigint, $512::bigint, $513::text)
    ) AS v(k, tid, ra, q, nm, att, sa, ago, oc)
   WHERE v.tid IS NOT NULL
   ORDER BY v.k
  RETURNING id, queue, name, outcome)
INSERT INTO lq_counter (metric, queue, name, shard, n)
SELECT 'run_' || outcome, queue, name, id % 8, count(*) FROM i GROUP BY outcome, queue, name, id % 8
ON CONFLICT (metric, queue, name, shard) DO UPDATE SET n = lq_counter.n + EXCLUDED.n;

-- name: task_ack_run
-- The at-least-once ack, its history row and its count in one statement
-- (one round trip, one transaction): the row is written only if the claim
-- was still ours and the task is gone.  -> (acked 0|1)
WITH d AS (DELETE FROM lq_task WHERE id = $1::bigint AND claim_owner = $2::text
           RETURNING id, run_at, queue, name, attempts),
     i AS (INSERT INTO lq_run (task_id, run_at, queue, name, worker, attempt, started_at, ended_at, outcome)
           SELECT id, run_at, queue, name, $3::text, attempts, $4::bigint,
                  {{NOW}}, 'done' FROM d
           RETURNING id, queue, name),
     c AS (INSERT INTO lq_counter (metric, queue, name, shard, n)
           SELECT 'run_done', queue, name, id % 8, 1 FROM i
           ON CONFLICT (metric, queue, name, shard) DO UPDATE SET n = lq_counter.n + 1)
SELECT count(*)::bigint FROM i;

-- name: run_list
-- Newest ended_at first, ties by id: the order a reader expects even where
-- rows were written out of that order (the kept-back at-most-once rows go
-- in later, their ended_at back-dated to when the run ended).  A backward
-- walk of lq_run_ended that stops at the window's start or after LIMIT
-- rows: a narrow window or a small limit never reads the whole history.
WITH {{CLK}}
SELECT id, task_id, run_at, queue, name, worker, attempt, started_at, ended_at, outcome, error,
       (SELECT n FROM clk)
  FROM lq_run
 WHERE ended_at >= (SELECT n FROM clk) - $3::bigint
   AND ($1::text IS NULL OR queue = $1::text)
   AND ($2::text IS NULL OR name = $2::text)
 ORDER BY ended_at DESC, id DESC
 LIMIT $4::bigint;

-- name: run_list_task
-- In run_list's order (newest ended_at first, ties by id), walking
-- lq_run_task (task_id, ended_at, id) backwards.
WITH {{CLK}}
SELECT id, task_id, run_at, queue, name, worker, attempt, started_at, ended_at, outcome, error,
       (SELECT n FROM clk)
  FROM lq_run
 WHERE task_id = $1::bigint AND ended_at >= (SELECT n FROM clk) - $2::bigint
 ORDER BY ended_at DESC, id DESC
 LIMIT $3::bigint;

-- name: run_settled
-- Whether a claim's settle committed (its history row is written in the
-- same transaction): a walk of lq_run_task's few rows of the task.
SELECT 1 FROM lq_run
 WHERE task_id = $1::bigint AND attempt = $2::bigint AND started_at = $3::bigint AND worker = $4::text
 LIMIT 1;

-- name: run_count_since
-- A range of lq_run_ended: reads the window's rows, not the whole history.
WITH {{CLK}}
SELECT outcome, count(*)::bigint FROM lq_run
 WHERE ended_at >= (SELECT n FROM clk) - $1::bigint AND ($2::text IS NULL OR queue = $2::text)
 GROUP BY outcome;

-- name: counter_list
-- Every run counter, summed over its shards, and the lease counters from
-- the lease rows: each take bumps a lease's fencing token (tokens are never
-- reset), and so does a break; lost and broken are counted in the row.
SELECT metric, queue, name, SUM(n)::bigint FROM lq_counter GROUP BY metric, queue, name
UNION ALL
SELECT 'lease_taken', '', '', (COALESCE(SUM(token - broken), 0))::bigint FROM lq_lease
UNION ALL
SELECT 'lease_lost', '', '', (COALESCE(SUM(lost), 0))::bigint FROM lq_lease
UNION ALL
SELECT 'lease_broken', '', '', (COALESCE(SUM(broken), 0))::bigint FROM lq_lease
 ORDER BY 2, 3, 1;

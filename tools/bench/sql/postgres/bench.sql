-- Raw baselines of "leasectl bench" (PostgreSQL): each job written the
-- fastest honest way through libpq, on leaseq's own tables, one prepared
-- statement per round trip in autocommit.  The clock is clock_timestamp() in
-- epoch milliseconds, taken once per statement in a CTE (a volatile call in
-- the WHERE clause could not bound the index scan).

-- name: claim
-- ($1 queue) -> the claimed task
WITH {{CLK}}
DELETE FROM lq_task
 WHERE id = (SELECT id FROM lq_task
              WHERE queue = $1::text AND run_at <= (SELECT n FROM clk)
              ORDER BY run_at, id LIMIT 1
                FOR UPDATE SKIP LOCKED)
RETURNING id, name, payload, run_at;

-- name: claim_batch
-- ($1 queue, $2 how many) -> the claimed tasks
WITH {{CLK}}
DELETE FROM lq_task
 WHERE id = ANY (ARRAY (SELECT id FROM lq_task
                         WHERE queue = $1::text AND run_at <= (SELECT n FROM clk)
                         ORDER BY run_at, id LIMIT $2::bigint
                           FOR UPDATE SKIP LOCKED))
RETURNING id, name, payload, run_at;

-- name: claim_ack_claim
-- ($1 queue, $2 owner, $3 claim ttl ms) -> the claimed task
WITH {{CLK}}
UPDATE lq_task
   SET claim_owner = $2::text, claim_until = (SELECT n FROM clk) + $3::bigint, attempts = attempts + 1
 WHERE id = (SELECT id FROM lq_task
              WHERE queue = $1::text AND run_at <= (SELECT n FROM clk)
                AND ({{CLAIM_FREE}})
              ORDER BY run_at, id LIMIT 1
                FOR UPDATE SKIP LOCKED)
RETURNING id, name, payload, run_at;

-- name: claim_ack_ack
-- ($1 id, $2 owner)
DELETE FROM lq_task WHERE id = $1::bigint AND claim_owner = $2::text;

-- name: enqueue
-- ($1 queue, $2 payload) -> id; run_at and created_at default to now
INSERT INTO lq_task (queue, name, payload) VALUES ($1::text, 'bench', $2::bytea) RETURNING id;

-- name: enqueue_batch
-- ($1, $2, $3 queue, name, payload of the first task, $4.. the next, 100
-- tasks) -> their ids, as the single enqueue returns its id.  One
-- statement in autocommit: all or none.  A VALUES list, not INSERT ...
-- SELECT FROM unnest($1::text[], $2::text[], $3::bytea[]): measured side by
-- side at 1 client, unnest ran at 58-65 k rows/s against 74-87 k for this
-- (the server parses three array literals and hex-decodes each payload,
-- where here the payloads arrive as binary parameters).
INSERT INTO lq_task (queue, name, payload)
VALUES ($1::text, $2::text, $3::bytea), ($4::text, $5::text, $6::bytea), ($7::text, $8::text, $9::bytea),
       ($10::text, $11::text, $12::bytea), ($13::text, $14::text, $15::bytea), ($16::text, $17::text, $18::bytea),
       ($19::text, $20::text, $21::bytea), ($22::text, $23::text, $24::bytea), ($25::text, $26::text, $27::bytea),
       ($28::text, $29::text, $30::bytea), ($31::text, $32::text, $33::bytea), ($34::text, $35::text, $36::bytea),
       ($37::text, $38::text, $39::bytea), ($40::text, $41::text, $42::bytea), ($43::text, $44::text, $45::bytea),
       ($46::text, $47::text, $48::bytea), ($49::text, $50::text, $51::bytea), ($52::text, $53::text, $54::bytea),
       ($55::text, $56::text, $57::bytea), ($58::text, $59::text, $60::bytea), ($61::text, $62::text, $63::bytea),
       ($64::text, $65::text, $66::bytea), ($67::text, $68::text, $69::bytea), ($70::text, $71::text, $72::bytea),
       ($73::text, $74::text, $75::bytea), ($76::text, $77::text, $78::bytea), ($79::text, $80::text, $81::bytea),
       ($82::text, $83::text, $84::bytea), ($85::text, $86::text, $87::bytea), ($88::text, $89::text, $90::bytea),
       ($91::text, $92::text, $93::bytea), ($94::text, $95::text, $96::bytea), ($97::text, $98::text, $99::bytea),
       ($100::text, $101::text, $102::bytea), ($103::text, $104::text, $105::bytea), ($106::text, $107::text, $108::bytea),
       ($109::text, $110::text, $111::bytea), ($112::text, $113::text, $114::bytea), ($115::text, $116::text, $117::bytea),
       ($118::text, $119::text, $120::bytea), ($121::text, $122::text, $123::bytea), ($124::text, $125::text, $126::bytea),
       ($127::text, $128::text, $129::bytea), ($130::text, $131::text, $132::bytea), ($133::text, $134::text, $135::bytea),
       ($136::text, $137::text, $138::bytea), ($139::text, $140::text, $141::bytea), ($142::text, $143::text, $144::bytea),
       ($145::text, $146::text, $147::bytea), ($148::text, $149::text, $150::bytea), ($151::text, $152::text, $153::bytea),
       ($154::text, $155::text, $156::bytea), ($157::text, $158::text, $159::bytea), ($160::text, $161::text, $162::bytea),
       ($163::text, $164::text, $165::bytea), ($166::text, $167::text, $168::bytea), ($169::text, $170::text, $171::bytea),
       ($172::text, $173::text, $174::bytea), ($175::text, $176::text, $177::bytea), ($178::text, $179::text, $180::bytea),
       ($181::text, $182::text, $183::bytea), ($184::text, $185::text, $186::bytea), ($187::text, $188::text, $189::bytea),
       ($190::text, $191::text, $192::bytea), ($193::text, $194::text, $195::bytea), ($196::text, $197::text, $198::bytea),
       ($199::text, $200::text, $201::bytea), ($202::text, $203::text, $204::bytea), ($205::text, $206::text, $207::bytea),
       ($208::text, $209::text, $210::bytea), ($211::text, $212::text, $213::bytea), ($214::text, $215::text, $216::bytea),
       ($217::text, $218::text, $219::bytea), ($220::text, $221::text, $222::bytea), ($223::text, $224::text, $225::bytea),
       ($226::text, $227::text, $228::bytea), ($229::text, $230::text, $231::bytea), ($232::text, $233::text, $234::bytea),
       ($235::text, $236::text, $237::bytea), ($238::text, $239::text, $240::bytea), ($241::text, $242::text, $243::bytea),
       ($244::text, $245::text, $246::bytea), ($247::text, $248::text, $249::bytea), ($250::text, $251::text, $252::bytea),
       ($253::text, $254::text, $255::bytea), ($256::text, $257::text, $258::bytea), ($259::text, $260::text, $261::bytea),
       ($262::text, $263::text, $264::bytea), ($265::text, $266::text, $267::bytea), ($268::text, $269::text, $270::bytea),
       ($271::text, $272::text, $273::bytea), ($274::text, $275::text, $276::bytea), ($277::text, $278::text, $279::bytea),
       ($280::text, $281::text, $282::bytea), ($283::text, $284::text, $285::bytea), ($286::text, $287::text, $288::bytea),
       ($289::text, $290::text, $291::bytea), ($292::text, $293::text, $294::bytea), ($295::text, $296::text, $297::bytea),
       ($298::text, $299::text, $300::bytea)
RETURNING id;

-- name: lease_take
-- ($1 name, $2 owner, $3 ttl ms) -> token when taken, no row when held
WITH {{CLK}}
INSERT INTO lq_lease AS l (name, owner, token, acquired_at, expires_at)
SELECT $1::text, $2::text, 1, n, n + $3::bigint FROM clk
ON CONFLICT (name) DO UPDATE
   SET owner = EXCLUDED.owner, token = l.token + 1,
       acquired_at = EXCLUDED.acquired_at, expires_at = EXCLUDED.expires_at
 WHERE l.expires_at <= EXCLUDED.acquired_at
RETURNING token;

-- name: lease_release
-- ($1 name, $2 owner, $3 token)
UPDATE lq_lease
   SET owner = NULL, expires_at = {{NOW}}
 WHERE name = $1::text AND owner = $2::text AND token = $3::bigint;

-- name: tick_due
-- ($1 queue) -> a row when a task is due.  ORDER BY keeps it on the
-- (queue, run_at, id) index: with a bare LIMIT 1 a generic plan may scan the table.
WITH {{CLK}}
SELECT run_at FROM lq_task
 WHERE queue = $1::text AND run_at <= (SELECT n FROM clk)
 ORDER BY run_at LIMIT 1;

-- name: recurring
-- ($1 queue) -> the occurrence claimed; run_at moves one interval past now
WITH {{CLK}}
UPDATE lq_task
   SET run_at = (SELECT n FROM clk) + every_ms
 WHERE id = (SELECT id FROM lq_task
              WHERE queue = $1::text AND run_at <= (SELECT n FROM clk)
              ORDER BY run_at, id LIMIT 1
                FOR UPDATE SKIP LOCKED)
RETURNING id, name, payload, run_at;

-- name: fill
-- ($1 queue, $2 payload, $3 rows, $4 kind: 0 due, 1 every second row due in
-- a year, 2 all in a year, $5 every_ms or NULL), in id order
WITH {{CLK}}
INSERT INTO lq_task (queue, name, payload, run_at, every_ms, created_at)
SELECT $1::text, 'bench', $2::bytea,
       n + CASE WHEN $4::int = 2 OR ($4::int = 1 AND g % 2 = 1) THEN 31536000000 ELSE 0 END,
       $5::bigint, n
  FROM clk, generate_series(1, $3::int) AS g
 ORDER BY g;

-- name: clear_tasks
-- ($1 LIKE pattern)
DELETE FROM lq_task WHERE queue LIKE $1::text;

-- name: clear_dead
DELETE FROM lq_task_dead WHERE queue LIKE $1::text;

-- name: clear_leases
DELETE FROM lq_lease WHERE name LIKE $1::text;

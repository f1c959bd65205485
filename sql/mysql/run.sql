-- Run history and counters (MySQL/MariaDB).  NOW is the database clock, {{NOW}} in fragments.sql.
-- RUN_COLS: id, task_id, run_at, queue, name, worker, attempt, started_at,
-- ended_at, outcome, error, NOW.
-- Not in this dialect (see lib/backend/sql_names.h):
-- absent: task_ack_run no LQ_CAP_ONE_STATEMENT_ACK: task_ack, then run_insert

-- name: run_insert
-- One finished run; ended_at is the database clock.  run_count counts it,
-- next in the same transaction (a MySQL statement writes one table).
INSERT INTO lq_run (task_id, run_at, queue, name, worker, attempt, started_at, ended_at, outcome, error)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, {{NOW}}, ?8, ?9);

-- name: run_insert_many
-- Up to 64 runs that their claims settled already (at-most-once), written
-- together: ?1 the worker, then 8 parameters per run (task_id, run_at,
-- queue, name, attempt, started_at, ago, outcome; ?2..?9 the first run,
-- ?10..?17 the second, ...); unused places are NULL and skipped.  ended_at
-- is the database clock less ago, the milliseconds since the run ended
-- (measured by the worker), and never before started_at.  Rows go in in
-- the order given; run_count_many counts them, next in the same
-- transaction.
INSERT INTO lq_run (task_id, run_at, queue, name, worker, attempt, started_at, ended_at, outcome)
SELECT tid, ra, q, nm, ?1, att, sa, GREATEST(sa, {{NOW}} - ago), oc
  FROM (SELECT 1 AS k, ?2 AS tid, ?3 AS ra, ?4 AS q, ?5 AS nm, ?6 AS att, ?7 AS sa, ?8 AS ago, ?9 AS oc
       UNION ALL SELECT 2, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17
       UNION ALL SELECT 3, ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25
       UNION ALL SELECT 4, ?26, ?27, ?28, ?29, ?30, ?31, ?32, ?33
       UNION ALL SELECT 5, ?34, ?35, ?36, ?37, ?38, ?39, ?40, ?41
       UNION ALL SELECT 6, ?42, ?43, ?44, ?45, ?46, ?47, ?48, ?49
       UNION ALL SELECT 7, ?50, ?51, ?52, ?53, ?54, ?55, ?56, ?57
       UNION ALL SELECT 8, ?58, ?59, ?60, ?61, ?62, ?63, ?64, ?65
       UNION ALL SELECT 9, ?66, ?67, ?68, ?69, ?70, ?71, ?72, ?73
       UNION ALL SELECT 10, ?74, ?75, ?76, ?77, ?78, ?79, ?80, ?81
       UNION ALL SELECT 11, ?82, ?83, ?84, ?85, ?86, ?87, ?88, ?89
       UNION ALL SELECT 12, ?90, ?91, ?92, ?93, ?94, ?95, ?96, ?97
       UNION ALL SELECT 13, ?98, ?99, ?100, ?101, ?102, ?103, ?104, ?105
       UNION ALL SELECT 14, ?106, ?107, ?108, ?109, ?110, ?111, ?112, ?113
       UNION ALL SELECT 15, ?114, ?115, ?116, ?117, ?118, ?119, ?120, ?121
       UNION ALL SELECT 16, ?122, ?123, ?124, ?125, ?126, ?127, ?128, ?129
       UNION ALL SELECT 17, ?130, ?131, ?132, ?133, ?134, ?135, ?136, ?137
       UNION ALL SELECT 18, ?138, ?139, ?140, ?141, ?142, ?143, ?144, ?145
       UNION ALL SELECT 19, ?146, ?147, ?148, ?149, ?150, ?151, ?152, ?153
       UNION ALL SELECT 20, ?154, ?155, ?156, ?157, ?158, ?159, ?160, ?161
       UNION ALL SELECT 21, ?162, ?163, ?164, ?165, ?166, ?167, ?168, ?169
       UNION ALL SELECT 22, ?170, ?171, ?172, ?173, ?174, ?175, ?176, ?177
       UNION ALL SELECT 23, ?178, ?179, ?180, ?181, ?182, ?183, ?184, ?185
       UNION ALL SELECT 24, ?186, ?187, ?188, ?189, ?190, ?191, ?192, ?193
       UNION ALL SELECT 25, ?194, ?195, ?196, ?197, ?198, ?199, ?200, ?201
       UNION ALL SELECT 26, ?202, ?203, ?204, ?205, ?206, ?207, ?208, ?209
       UNION ALL SELECT 27, ?210, ?211, ?212, ?213, ?214, ?215, ?216, ?217
       UNION ALL SELECT 28, ?218, ?219, ?220, ?221, ?222, ?223, ?224, ?225
       UNION ALL SELECT 29, ?226, ?227, ?228, ?229, ?230, ?231, ?232, ?233
       UNION ALL SELECT 30, ?234, ?235, ?236, ?237, ?238, ?239, ?240, ?241
       UNION ALL SELECT 31, ?242, ?243, ?244, ?245, ?246, ?247, ?248, ?249
       UNION ALL SELECT 32, ?250, ?251, ?252, ?253, ?254, ?255, ?256, ?257
       UNION ALL SELECT 33, ?258, ?259, ?260, ?261, ?262, ?263, ?264, ?265
       UNION ALL SELECT 34, ?266, ?267, ?268, ?269, ?270, ?271, ?272, ?273
       UNION ALL SELECT 35, ?274, ?275, ?276, ?277, ?278, ?279, ?280, ?281
       UNION ALL SELECT 36, ?282, ?283, ?284, ?285, ?286, ?287, ?288, ?289
       UNION ALL SELECT 37, ?290, ?291, ?292, ?293, ?294, ?295, ?296, ?297
       UNION ALL SELECT 38, ?298, ?299, ?300, ?301, ?302, ?303, ?304, ?305
       UNION ALL SELECT 39, ?306, ?307, ?308, ?309, ?310, ?311, ?312, ?313
       UNION ALL SELECT 40, ?314, ?315, ?316, ?317, ?318, ?319, ?320, ?321
       UNION ALL SELECT 41, ?322, ?323, ?324, ?325, ?326, ?327, ?328, ?329
       UNION ALL SELECT 42, ?330, ?331, ?332, ?333, ?334, ?335, ?336, ?337
       UNION ALL SELECT 43, ?338, ?339, ?340, ?341, ?342, ?343, ?344, ?345
       UNION ALL SELECT 44, ?346, ?347, ?348, ?349, ?350, ?351, ?352, ?353
       UNION ALL SELECT 45, ?354, ?355, ?356, ?357, ?358, ?359, ?360, ?361
       UNION ALL SELECT 46, ?362, ?363, ?364, ?365, ?366, ?367, ?368, ?369
       UNION ALL SELECT 47, ?370, ?371, ?372, ?373, ?374, ?375, ?376, ?377
       UNION ALL SELECT 48, ?378, ?379, ?380, ?381, ?382, ?383, ?384, ?385
       UNION ALL SELECT 49, ?386, ?387, ?388, ?389, ?390, ?391, ?392, ?393
       UNION ALL SELECT 50, ?394, ?395, ?396, ?397, ?398, ?399, ?400, ?401
       UNION ALL SELECT 51, ?402, ?403, ?404, ?405, ?406, ?407, ?408, ?409
       UNION ALL SELECT 52, ?410, ?411, ?412, ?413, ?414, ?415, ?416, ?417
       UNION ALL SELECT 53, ?418, ?419, ?420, ?421, ?422, ?423, ?424, ?425
       UNION ALL SELECT 54, ?426, ?427, ?428, ?429, ?430, ?431, ?432, ?433
       UNION ALL SELECT 55, ?434, ?435, ?436, ?437, ?438, ?439, ?440, ?441
       UNION ALL SELECT 56, ?442, ?443, ?444, ?445, ?446, ?447, ?448, ?449
       UNION ALL SELECT 57, ?450, ?451, ?452, ?453, ?454, ?455, ?456, ?457
       UNION ALL SELECT 58, ?458, ?459, ?460, ?461, ?462, ?463, ?464, ?465
       UNION ALL SELECT 59, ?466, ?467, ?468, ?469, ?470, ?471, ?472, ?473
       UNION ALL SELECT 60, ?474, ?475, ?476, ?477, ?478, ?479, ?480, ?481
       UNION ALL SELECT 61, ?482, ?483, ?484, ?485, ?486, ?487, ?488, ?489
       UNION ALL SELECT 62, ?490, ?491, ?492, ?493, ?494, ?495, ?496, ?497
       UNION ALL SELECT 63, ?498, ?499, ?500, ?501, ?502, ?503, ?504, ?505
       UNION ALL SELECT 64, ?506, ?507, ?508, ?509, ?510, ?511, ?512, ?513) AS v
 WHERE tid IS NOT NULL
 ORDER BY k;

-- name: run_count
-- (run_insert's parameters) Counts the run that run_insert wrote last on
-- this connection in lq_counter: one shard of eight, by the run's id, so
-- that concurrent writers seldom wait on one counter row.
INSERT INTO lq_counter (metric, queue, name, shard, n)
VALUES (CONCAT('run_', ?8), ?3, ?4, LAST_INSERT_ID() % 8, 1)
ON DUPLICATE KEY UPDATE n = n + 1;

-- name: run_count_many
-- (run_insert_many's parameters) Counts the runs that run_insert_many wrote
-- last on this connection: one upsert per counter, in the shard of the
-- first run's id.
INSERT INTO lq_counter (metric, queue, name, shard, n)
SELECT metric, q, nm, LAST_INSERT_ID() % 8, c
  FROM (SELECT CONCAT('run_', oc) AS metric, q, nm, COUNT(*) AS c
         FROM (SELECT 1 AS k, ?2 AS tid, ?3 AS ra, ?4 AS q, ?5 AS nm, ?6 AS att, ?7 AS sa, ?8 AS ago, ?9 AS oc
              UNION ALL SELECT 2, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17
              UNION ALL SELECT 3, ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25
              UNION ALL SELECT 4, ?26, ?27, ?28, ?29, ?30, ?31, ?32, ?33
              UNION ALL SELECT 5, ?34, ?35, ?36, ?37, ?38, ?39, ?40, ?41
              UNION ALL SELECT 6, ?42, ?43, ?44, ?45, ?46, ?47, ?48, ?49
              UNION ALL SELECT 7, ?50, ?51, ?52, ?53, ?54, ?55, ?56, ?57
              UNION ALL SELECT 8, ?58, ?59, ?60, ?61, ?62, ?63, ?64, ?65
              UNION ALL SELECT 9, ?66, ?67, ?68, ?69, ?70, ?71, ?72, ?73
              UNION ALL SELECT 10, ?74, ?75, ?76, ?77, ?78, ?79, ?80, ?81
              UNION ALL SELECT 11, ?82, ?83, ?84, ?85, ?86, ?87, ?88, ?89
              UNION ALL SELECT 12, ?90, ?91, ?92, ?93, ?94, ?95, ?96, ?97
              UNION ALL SELECT 13, ?98, ?99, ?100, ?101, ?102, ?103, ?104, ?105
              UNION ALL SELECT 14, ?106, ?107, ?108, ?109, ?110, ?111, ?112, ?113
              UNION ALL SELECT 15, ?114, ?115, ?116, ?117, ?118, ?119, ?120, ?121
              UNION ALL SELECT 16, ?122, ?123, ?124, ?125, ?126, ?127, ?128, ?129
              UNION ALL SELECT 17, ?130, ?131, ?132, ?133, ?134, ?135, ?136, ?137
              UNION ALL SELECT 18, ?138, ?139, ?140, ?141, ?142, ?143, ?144, ?145
              UNION ALL SELECT 19, ?146, ?147, ?148, ?149, ?150, ?151, ?152, ?153
              UNION ALL SELECT 20, ?154, ?155, ?156, ?157, ?158, ?159, ?160, ?161
              UNION ALL SELECT 21, ?162, ?163, ?164, ?165, ?166, ?167, ?168, ?169
              UNION ALL SELECT 22, ?170, ?171, ?172, ?173, ?174, ?175, ?176, ?177
              UNION ALL SELECT 23, ?178, ?179, ?180, ?181, ?182, ?183, ?184, ?185
              UNION ALL SELECT 24, ?186, ?187, ?188, ?189, ?190, ?191, ?192, ?193
              UNION ALL SELECT 25, ?194, ?195, ?196, ?197, ?198, ?199, ?200, ?201
              UNION ALL SELECT 26, ?202, ?203, ?204, ?205, ?206, ?207, ?208, ?209
              UNION ALL SELECT 27, ?210, ?211, ?212, ?213, ?214, ?215, ?216, ?217
              UNION ALL SELECT 28, ?218, ?219, ?220, ?221, ?222, ?223, ?224, ?225
              UNION ALL SELECT 29, ?226, ?227, ?228, ?229, ?230, ?231, ?232, ?233
              UNION ALL SELECT 30, ?234, ?235, ?236, ?237, ?238, ?239, ?240, ?241
              UNION ALL SELECT 31, ?242, ?243, ?244, ?245, ?246, ?247, ?248, ?249
              UNION ALL SELECT 32, ?250, ?251, ?252, ?253, ?254, ?255, ?256, ?257
              UNION ALL SELECT 33, ?258, ?259, ?260, ?261, ?262, ?263, ?264, ?265
              UNION ALL SELECT 34, ?266, ?267, ?268, ?269, ?270, ?271, ?272, ?273
              UNION ALL SELECT 35, ?274, ?275, ?276, ?277, ?278, ?279, ?280, ?281
              UNION ALL SELECT 36, ?282, ?283, ?284, ?285, ?286, ?287, ?288, ?289
              UNION ALL SELECT 37, ?290, ?291, ?292, ?293, ?294, ?295, ?296, ?297
              UNION ALL SELECT 38, ?298, ?299, ?300, ?301, ?302, ?303, ?304, ?305
              UNION ALL SELECT 39, ?306, ?307, ?308, ?309, ?310, ?311, ?312, ?313
              UNION ALL SELECT 40, ?314, ?315, ?316, ?317, ?318, ?319, ?320, ?321
              UNION ALL SELECT 41, ?322, ?323, ?324, ?325, ?326, ?327, ?328, ?329
              UNION ALL SELECT 42, ?330, ?331, ?332, ?333, ?334, ?335, ?336, ?337
              UNION ALL SELECT 43, ?338, ?339, ?340, ?341, ?342, ?343, ?344, ?345
              UNION ALL SELECT 44, ?346, ?347, ?348, ?349, ?350, ?351, ?352, ?353
              UNION ALL SELECT 45, ?354, ?355, ?356, ?357, ?358, ?359, ?360, ?361
              UNION ALL SELECT 46, ?362, ?363, ?364, ?365, ?366, ?367, ?368, ?369
              UNION ALL SELECT 47, ?370, ?371, ?372, ?373, ?374, ?375, ?376, ?377
              UNION ALL SELECT 48, ?378, ?379, ?380, ?381, ?382, ?383, ?384, ?385
              UNION ALL SELECT 49, ?386, ?387, ?388, ?389, ?390, ?391, ?392, ?393
              UNION ALL SELECT 50, ?394, ?395, ?396, ?397, ?398, ?399, ?400, ?401
              UNION ALL SELECT 51, ?402, ?403, ?404, ?405, ?406, ?407, ?408, ?409
              UNION ALL SELECT 52, ?410, ?411, ?412, ?413, ?414, ?415, ?416, ?417
              UNION ALL SELECT 53, ?418, ?419, ?420, ?421, ?422, ?423, ?424, ?425
              UNION ALL SELECT 54, ?426, ?427, ?428, ?429, ?430, ?431, ?432, ?433
              UNION ALL SELECT 55, ?434, ?435, ?436, ?437, ?438, ?439, ?440, ?441
              UNION ALL SELECT 56, ?442, ?443, ?444, ?445, ?446, ?447, ?448, ?449
              UNION ALL SELECT 57, ?450, ?451, ?452, ?453, ?454, ?455, ?456, ?457
              UNION ALL SELECT 58, ?458, ?459, ?460, ?461, ?462, ?463, ?464, ?465
              UNION ALL SELECT 59, ?466, ?467, ?468, ?469, ?470, ?471, ?472, ?473
              UNION ALL SELECT 60, ?474, ?475, ?476, ?477, ?478, ?479, ?480, ?481
              UNION ALL SELECT 61, ?482, ?483, ?484, ?485, ?486, ?487, ?488, ?489
              UNION ALL SELECT 62, ?490, ?491, ?492, ?493, ?494, ?495, ?496, ?497
              UNION ALL SELECT 63, ?498, ?499, ?500, ?501, ?502, ?503, ?504, ?505
              UNION ALL SELECT 64, ?506, ?507, ?508, ?509, ?510, ?511, ?512, ?513) AS v
 WHERE tid IS NOT NULL
        GROUP BY oc, q, nm) AS g
ON DUPLICATE KEY UPDATE n = n + g.c;

-- name: run_list
-- Newest ended_at first, ties by id: the order a reader expects even where
-- rows were written out of that order (the kept-back at-most-once rows go
-- in later, their ended_at back-dated to when the run ended).  A backward
-- walk of lq_run_ended that stops at the window's start or after LIMIT
-- rows: a narrow window or a small limit never reads the whole history.
SELECT id, task_id, run_at, queue, name, worker, attempt, started_at, ended_at, outcome, error, {{NOW}}
  FROM lq_run
 WHERE ended_at >= {{NOW}} - ?3
   AND (?1 IS NULL OR queue = ?1)
   AND (?2 IS NULL OR name = ?2)
 ORDER BY ended_at DESC, id DESC
 LIMIT ?4;

-- name: run_list_task
-- In run_list's order (newest ended_at first, ties by id), walking
-- lq_run_task (task_id, ended_at, id) backwards.
SELECT id, task_id, run_at, queue, name, worker, attempt, started_at, ended_at, outcome, error, {{NOW}}
  FROM lq_run
 WHERE task_id = ?1 AND ended_at >= {{NOW}} - ?2
 ORDER BY ended_at DESC, id DESC
 LIMIT ?3;

-- name: run_settled
-- Whether a claim's settle committed (its history row is written in the
-- same transaction): a walk of lq_run_task's few rows of the task.
SELECT 1 FROM lq_run
 WHERE task_id = ?1 AND attempt = ?2 AND started_at = ?3 AND worker = ?4
 LIMIT 1;

-- name: run_count_since
-- A range of lq_run_ended: reads the window's rows, not the whole history.
SELECT outcome, count(*) FROM lq_run
 WHERE ended_at >= {{NOW}} - ?1 AND (?2 IS NULL OR queue = ?2)
 GROUP BY outcome;

-- name: counter_list
-- Every run counter, summed over its shards, and the lease counters from
-- the lease rows: each take bumps a lease's fencing token (tokens are never
-- reset), and so does a break; lost and broken are counted in the row.
SELECT metric, queue, name, CAST(SUM(n) AS SIGNED) FROM lq_counter GROUP BY metric, queue, name
UNION ALL
SELECT 'lease_taken', '', '', CAST(COALESCE(SUM(token - broken), 0) AS SIGNED) FROM lq_lease
UNION ALL
SELECT 'lease_lost', '', '', CAST(COALESCE(SUM(lost), 0) AS SIGNED) FROM lq_lease
UNION ALL
SELECT 'lease_broken', '', '', CAST(COALESCE(SUM(broken), 0) AS SIGNED) FROM lq_lease
 ORDER BY 2, 3, 1;

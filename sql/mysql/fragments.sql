-- Fragments (MySQL/MariaDB): text written once here, put in place of
-- {{NAME}} in every statement of this dialect at build time (see
-- cmake/sqlembed.c).

-- NOW: the database clock in epoch milliseconds.  The session runs with
-- time_zone '+00:00' and NOW(3) is fixed for the whole statement, so every
-- comparison in one statement sees the same instant and indexes stay usable.
-- fragment: NOW
CAST(UNIX_TIMESTAMP(NOW(3)) * 1000 AS SIGNED)

-- CLAIM_FREE: the task is unclaimed or its claim has expired.
-- fragment: CLAIM_FREE
claim_until IS NULL OR claim_until <= {{NOW}}

-- Flow control (lq_limit, see migration 0011).  A limit row l is "shut"
-- when its key has as many live claims as its concurrency, or when its
-- GCRA has no start left in this period: the next start would put the
-- theoretical arrival time past now + one period (all scaled by rate_n).
-- LIMIT_SHUT_KEY: l limits the tasks whose concurrency_key is l.name.
-- fragment: LIMIT_SHUT_KEY
(l.concurrency IS NOT NULL
  AND l.concurrency <= (SELECT count(*) FROM lq_task c FORCE INDEX (lq_task_ckey)
                         WHERE c.concurrency_key = l.name AND c.claim_until > {{NOW}}
                           AND c.claim_owner IS NOT NULL))
 OR ({{LIMIT_RATE_SHUT}})

-- LIMIT_SHUT_QUEUE: l ("queue:Q") limits queue ?1; a live claim is due
-- (run_at <= now), so the count walks lq_task_due's due range.
-- fragment: LIMIT_SHUT_QUEUE
(l.concurrency IS NOT NULL
  AND l.concurrency <= (SELECT count(*) FROM lq_task c FORCE INDEX (lq_task_due)
                         WHERE c.queue = ?1 AND c.run_at <= {{NOW}}
                           AND c.claim_until > {{NOW}} AND c.claim_owner IS NOT NULL))
 OR ({{LIMIT_RATE_SHUT}})

-- fragment: LIMIT_RATE_SHUT
l.rate_n IS NOT NULL
 AND GREATEST(l.tat, {{NOW}} * l.rate_n) + l.rate_period_ms > ({{NOW}} + l.rate_period_ms) * l.rate_n

-- LIMIT_TAT_NEXT: the tat after one more start.
-- fragment: LIMIT_TAT_NEXT
CASE WHEN l.rate_n IS NULL THEN l.tat ELSE GREATEST(l.tat, {{NOW}} * l.rate_n) + l.rate_period_ms END

-- LIMIT_OPEN: the claim filter of a task row (lq_task, unaliased): no
-- limit on its key is shut.  A task without a key costs one IS NULL test.
-- Saturated keys are skipped, not waited behind, so they never hold back
-- other keys' due tasks.  A queue's own limit ("queue:Q") is not tested
-- here: it holds back every task of the queue alike, so there is no line to
-- jump, and on PostgreSQL its count in the filter made the one-statement
-- claims plan anew on every call (a generic plan priced above the custom
-- ones).  The claim decides again under the limit rows' lock
-- (limit_take_key, limit_take_queue), the queue's limit included.
-- fragment: LIMIT_OPEN
(lq_task.concurrency_key IS NULL
  OR NOT EXISTS (SELECT 1 FROM lq_limit l WHERE l.name = lq_task.concurrency_key AND ({{LIMIT_SHUT_KEY}})))

-- LIMITED: 1 when a claim of the task must pass the limits (it has a key,
-- or its queue ?1 has a limit row), else 0.
-- fragment: LIMITED
CASE WHEN lq_task.concurrency_key IS NOT NULL
       OR EXISTS (SELECT 1 FROM lq_limit l WHERE l.name = CONCAT('queue:', ?1)) THEN 1 ELSE 0 END

-- LIMIT_COLS: the columns of limit_get and limit_list (sql_names.h)
-- of a limit row l; running counts its live claims.
-- fragment: LIMIT_COLS
l.name, l.concurrency, l.rate_n, l.rate_period_ms, l.tat,
       CASE WHEN LEFT(l.name, 6) = 'queue:'
            THEN (SELECT count(*) FROM lq_task c WHERE c.queue = SUBSTRING(l.name, 7) AND c.run_at <= {{NOW}}
                    AND c.claim_until > {{NOW}} AND c.claim_owner IS NOT NULL)
            ELSE (SELECT count(*) FROM lq_task c WHERE c.concurrency_key = l.name
                    AND c.claim_until > {{NOW}} AND c.claim_owner IS NOT NULL) END,
       {{NOW}}

-- PART_DUE_X: alias x (a task in a partition's head probe) is due,
-- unpaused and unclaimed or its claim expired, and no limit on its key is
-- shut (LIMIT_OPEN's test): the fair claim's filter.  A task under a shut
-- key is skipped, so its partition's other tasks take the partition's
-- turn; one under a limit with room is claimed in it, through the limits'
-- gate (PART_LIMITED_T).
-- fragment: PART_DUE_X
x.run_at <= {{NOW}} AND x.paused = 0 AND (x.claim_until IS NULL OR x.claim_until <= {{NOW}})
  AND (x.concurrency_key IS NULL
       OR NOT EXISTS (SELECT 1 FROM lq_limit l WHERE l.name = x.concurrency_key AND ({{LIMIT_SHUT_KEY}})))

-- PART_HEAD_P: the head of partition p (an lq_partition row) of queue ?1:
-- its first task in (run_at, id) order of the top priority (CTE top) that
-- PART_DUE_X lets through, one lq_task_part seek.
-- fragment: PART_HEAD_P
SELECT x.id FROM lq_task x FORCE INDEX (lq_task_part)
 WHERE x.queue = ?1 AND x.part = p.name
   AND x.priority = (SELECT priority FROM top)
   AND {{PART_DUE_X}}
 ORDER BY x.run_at, x.id LIMIT 1

-- TASK_INSERT_ONE: the INSERT of task_insert and task_insert_notify: the
-- task of ?1..?13 (as sql_names.h lists them), and its concurrency key ?14
-- and partition ?15 (NULL: none) with the row, not by an UPDATE after it.
-- fragment: TASK_INSERT_ONE
INSERT INTO lq_task (queue, name, payload, run_at, max_attempts, unique_key,
                     every_ms, cron, tz, missed, created_at, priority, timeout_ms,
                     concurrency_key, part)
VALUES (?1, ?2, ?3, COALESCE(?4, {{NOW}} + ?5), ?6, ?7, ?8, ?9, ?10, ?11, {{NOW}}, ?12, ?13,
        ?14, COALESCE(?15, ''))

-- PART_LIMITED_T: LIMITED of a task row t of queue ?1: 1 when its claim
-- must pass the limits' gate (its key, or the queue's limit), else 0.
-- The queue's limit row is looked up by ?1, once a statement, not by
-- t.queue once a row.
-- fragment: PART_LIMITED_T
CASE WHEN t.concurrency_key IS NOT NULL
       OR EXISTS (SELECT 1 FROM lq_limit l WHERE l.name = CONCAT('queue:', ?1)) THEN 1 ELSE 0 END

-- PART_DUE_D: the same test of alias d (the top due priority's probe).
-- fragment: PART_DUE_D
d.run_at <= {{NOW}} AND d.paused = 0 AND (d.claim_until IS NULL OR d.claim_until <= {{NOW}})
  AND (d.concurrency_key IS NULL
       OR NOT EXISTS (SELECT 1 FROM lq_limit l WHERE l.name = d.concurrency_key AND ({{LIMIT_SHUT_KEY}})))

-- CLAIM_FILTER: a task row (lq_task, unaliased) of queue ?1 a claim may
-- take: due, unpaused, no live claim or back-off on it, no limit on its
-- key shut, its queue not paused.
-- fragment: CLAIM_FILTER
queue = ?1
   AND run_at <= {{NOW}}
   AND paused = 0
   AND ({{CLAIM_FREE}})
   AND ({{LIMIT_OPEN}})
   AND NOT EXISTS (SELECT 1 FROM lq_queue WHERE lq_queue.name = ?1 AND lq_queue.paused = 1)

-- CANDIDATES_HEAD: TASK_COLS of a candidate (lq_task, unaliased) up to
-- its partition: the limited flag follows.
-- fragment: CANDIDATES_HEAD
SELECT id, queue, name, payload, run_at, attempts, max_attempts, unique_key,
       claim_owner, claim_until, every_ms, cron, tz, missed, paused, last_error,
       created_at, 0, NULL, {{NOW}}, priority, timeout_ms,
       concurrency_key, part

-- CLAIM_FILTER_UNLIMITED: CLAIM_FILTER where lq_limit has no row, so that
-- no limit can be shut (task_candidates_unlimited).
-- fragment: CLAIM_FILTER_UNLIMITED
queue = ?1
   AND run_at <= {{NOW}}
   AND paused = 0
   AND ({{CLAIM_FREE}})
   AND NOT EXISTS (SELECT 1 FROM lq_queue WHERE lq_queue.name = ?1 AND lq_queue.paused = 1)

-- CANDIDATES_COLS: TASK_COLS of a candidate, then its steering
-- (task_steer_get's columns): the claim of an occurrence needs it.
-- fragment: CANDIDATES_COLS
{{CANDIDATES_HEAD}}, {{LIMITED}}, overlap, catch_up, next_at

-- CANDIDATES_SELECT: the start of task_candidates and task_candidates_below:
-- TASK_COLS of the tasks of queue ?1 CLAIM_FILTER lets through, read on
-- lq_task_claim (queue, priority DESC, run_at, id).
-- fragment: CANDIDATES_SELECT
{{CANDIDATES_COLS}}
  FROM lq_task FORCE INDEX (lq_task_claim)
 WHERE {{CLAIM_FILTER}}

-- CLAIMABLE_DUE: queue ?1 has a task CLAIM_FILTER lets through.  The fair
-- claim tests it first (uncorrelated, so read once; task_candidates has a
-- locking copy) and, when it is false, reads nothing else: its walk of
-- lq_task_claim would otherwise read on through every task not due yet,
-- looking for a due one that is not there.  The probe reads lq_task_due's
-- due range only as far as the first such task, past those claimed,
-- paused or held back ahead of it.  (Its lq_task is its own.)
-- fragment: CLAIMABLE_DUE
EXISTS (SELECT 1 FROM lq_task FORCE INDEX (lq_task_due) WHERE {{CLAIM_FILTER}})

-- MANY_K, MANY_NAMES, MANY_PAYLOADS: task_insert_many_same's tasks as
-- place numbers k (1..100, a derived table of constants) and, for each,
-- ELT(k, MANY_NAMES) and ELT(k, MANY_PAYLOADS): its name and payload
-- (?12..?211, 2 a task; NULL past the last task).  A derived table of the
-- parameters themselves held the payloads as BLOBs, and MariaDB put it on
-- disk for every batch.
-- fragment: MANY_K
SELECT 1 AS k UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4 UNION ALL SELECT 5
       UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8 UNION ALL SELECT 9
       UNION ALL SELECT 10 UNION ALL SELECT 11 UNION ALL SELECT 12 UNION ALL SELECT 13
       UNION ALL SELECT 14 UNION ALL SELECT 15 UNION ALL SELECT 16 UNION ALL SELECT 17
       UNION ALL SELECT 18 UNION ALL SELECT 19 UNION ALL SELECT 20 UNION ALL SELECT 21
       UNION ALL SELECT 22 UNION ALL SELECT 23 UNION ALL SELECT 24 UNION ALL SELECT 25
       UNION ALL SELECT 26 UNION ALL SELECT 27 UNION ALL SELECT 28 UNION ALL SELECT 29
       UNION ALL SELECT 30 UNION ALL SELECT 31 UNION ALL SELECT 32 UNION ALL SELECT 33
       UNION ALL SELECT 34 UNION ALL SELECT 35 UNION ALL SELECT 36 UNION ALL SELECT 37
       UNION ALL SELECT 38 UNION ALL SELECT 39 UNION ALL SELECT 40 UNION ALL SELECT 41
       UNION ALL SELECT 42 UNION ALL SELECT 43 UNION ALL SELECT 44 UNION ALL SELECT 45
       UNION ALL SELECT 46 UNION ALL SELECT 47 UNION ALL SELECT 48 UNION ALL SELECT 49
       UNION ALL SELECT 50 UNION ALL SELECT 51 UNION ALL SELECT 52 UNION ALL SELECT 53
       UNION ALL SELECT 54 UNION ALL SELECT 55 UNION ALL SELECT 56 UNION ALL SELECT 57
       UNION ALL SELECT 58 UNION ALL SELECT 59 UNION ALL SELECT 60 UNION ALL SELECT 61
       UNION ALL SELECT 62 UNION ALL SELECT 63 UNION ALL SELECT 64 UNION ALL SELECT 65
       UNION ALL SELECT 66 UNION ALL SELECT 67 UNION ALL SELECT 68 UNION ALL SELECT 69
       UNION ALL SELECT 70 UNION ALL SELECT 71 UNION ALL SELECT 72 UNION ALL SELECT 73
       UNION ALL SELECT 74 UNION ALL SELECT 75 UNION ALL SELECT 76 UNION ALL SELECT 77
       UNION ALL SELECT 78 UNION ALL SELECT 79 UNION ALL SELECT 80 UNION ALL SELECT 81
       UNION ALL SELECT 82 UNION ALL SELECT 83 UNION ALL SELECT 84 UNION ALL SELECT 85
       UNION ALL SELECT 86 UNION ALL SELECT 87 UNION ALL SELECT 88 UNION ALL SELECT 89
       UNION ALL SELECT 90 UNION ALL SELECT 91 UNION ALL SELECT 92 UNION ALL SELECT 93
       UNION ALL SELECT 94 UNION ALL SELECT 95 UNION ALL SELECT 96 UNION ALL SELECT 97
       UNION ALL SELECT 98 UNION ALL SELECT 99 UNION ALL SELECT 100

-- fragment: MANY_NAMES
?12, ?14, ?16, ?18, ?20, ?22, ?24, ?26, ?28, ?30, ?32, ?34, ?36, ?38, ?40, ?42, ?44, ?46, ?48,
    ?50, ?52, ?54, ?56, ?58, ?60, ?62, ?64, ?66, ?68, ?70, ?72, ?74, ?76, ?78, ?80, ?82, ?84, ?86,
    ?88, ?90, ?92, ?94, ?96, ?98, ?100, ?102, ?104, ?106, ?108, ?110, ?112, ?114, ?116, ?118, ?120,
    ?122, ?124, ?126, ?128, ?130, ?132, ?134, ?136, ?138, ?140, ?142, ?144, ?146, ?148, ?150, ?152,
    ?154, ?156, ?158, ?160, ?162, ?164, ?166, ?168, ?170, ?172, ?174, ?176, ?178, ?180, ?182, ?184,
    ?186, ?188, ?190, ?192, ?194, ?196, ?198, ?200, ?202, ?204, ?206, ?208, ?210

-- fragment: MANY_PAYLOADS
?13, ?15, ?17, ?19, ?21, ?23, ?25, ?27, ?29, ?31, ?33, ?35, ?37, ?39, ?41, ?43, ?45, ?47, ?49,
    ?51, ?53, ?55, ?57, ?59, ?61, ?63, ?65, ?67, ?69, ?71, ?73, ?75, ?77, ?79, ?81, ?83, ?85, ?87,
    ?89, ?91, ?93, ?95, ?97, ?99, ?101, ?103, ?105, ?107, ?109, ?111, ?113, ?115, ?117, ?119, ?121,
    ?123, ?125, ?127, ?129, ?131, ?133, ?135, ?137, ?139, ?141, ?143, ?145, ?147, ?149, ?151, ?153,
    ?155, ?157, ?159, ?161, ?163, ?165, ?167, ?169, ?171, ?173, ?175, ?177, ?179, ?181, ?183, ?185,
    ?187, ?189, ?191, ?193, ?195, ?197, ?199, ?201, ?203, ?205, ?207, ?209, ?211

-- TASK_ROWS_BARE, TASK_PAYLOADS: task_insert_many's tasks (TASK_ROWS)
-- without their payloads, which each row reads by its place k as
-- ELT(k, TASK_PAYLOADS) (?3, ?16, ..., ?1290): in the derived table the
-- payloads were BLOBs, and MariaDB put it on disk for every batch.
-- fragment: TASK_ROWS_BARE
SELECT 1 AS k, ?1 AS q, ?2 AS nm, ?4 AS ra, ?5 AS dl, ?6 AS ma, ?7 AS uk, ?8 AS ev, ?9 AS cr, ?10 AS tz, ?11 AS mi, ?12 AS pr, ?13 AS tm
       UNION ALL SELECT 2, ?14, ?15, ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25, ?26
       UNION ALL SELECT 3, ?27, ?28, ?30, ?31, ?32, ?33, ?34, ?35, ?36, ?37, ?38, ?39
       UNION ALL SELECT 4, ?40, ?41, ?43, ?44, ?45, ?46, ?47, ?48, ?49, ?50, ?51, ?52
       UNION ALL SELECT 5, ?53, ?54, ?56, ?57, ?58, ?59, ?60, ?61, ?62, ?63, ?64, ?65
       UNION ALL SELECT 6, ?66, ?67, ?69, ?70, ?71, ?72, ?73, ?74, ?75, ?76, ?77, ?78
       UNION ALL SELECT 7, ?79, ?80, ?82, ?83, ?84, ?85, ?86, ?87, ?88, ?89, ?90, ?91
       UNION ALL SELECT 8, ?92, ?93, ?95, ?96, ?97, ?98, ?99, ?100, ?101, ?102, ?103, ?104
       UNION ALL SELECT 9, ?105, ?106, ?108, ?109, ?110, ?111, ?112, ?113, ?114, ?115, ?116, ?117
       UNION ALL SELECT 10, ?118, ?119, ?121, ?122, ?123, ?124, ?125, ?126, ?127, ?128, ?129, ?130
       UNION ALL SELECT 11, ?131, ?132, ?134, ?135, ?136, ?137, ?138, ?139, ?140, ?141, ?142, ?143
       UNION ALL SELECT 12, ?144, ?145, ?147, ?148, ?149, ?150, ?151, ?152, ?153, ?154, ?155, ?156
       UNION ALL SELECT 13, ?157, ?158, ?160, ?161, ?162, ?163, ?164, ?165, ?166, ?167, ?168, ?169
       UNION ALL SELECT 14, ?170, ?171, ?173, ?174, ?175, ?176, ?177, ?178, ?179, ?180, ?181, ?182
       UNION ALL SELECT 15, ?183, ?184, ?186, ?187, ?188, ?189, ?190, ?191, ?192, ?193, ?194, ?195
       UNION ALL SELECT 16, ?196, ?197, ?199, ?200, ?201, ?202, ?203, ?204, ?205, ?206, ?207, ?208
       UNION ALL SELECT 17, ?209, ?210, ?212, ?213, ?214, ?215, ?216, ?217, ?218, ?219, ?220, ?221
       UNION ALL SELECT 18, ?222, ?223, ?225, ?226, ?227, ?228, ?229, ?230, ?231, ?232, ?233, ?234
       UNION ALL SELECT 19, ?235, ?236, ?238, ?239, ?240, ?241, ?242, ?243, ?244, ?245, ?246, ?247
       UNION ALL SELECT 20, ?248, ?249, ?251, ?252, ?253, ?254, ?255, ?256, ?257, ?258, ?259, ?260
       UNION ALL SELECT 21, ?261, ?262, ?264, ?265, ?266, ?267, ?268, ?269, ?270, ?271, ?272, ?273
       UNION ALL SELECT 22, ?274, ?275, ?277, ?278, ?279, ?280, ?281, ?282, ?283, ?284, ?285, ?286
       UNION ALL SELECT 23, ?287, ?288, ?290, ?291, ?292, ?293, ?294, ?295, ?296, ?297, ?298, ?299
       UNION ALL SELECT 24, ?300, ?301, ?303, ?304, ?305, ?306, ?307, ?308, ?309, ?310, ?311, ?312
       UNION ALL SELECT 25, ?313, ?314, ?316, ?317, ?318, ?319, ?320, ?321, ?322, ?323, ?324, ?325
       UNION ALL SELECT 26, ?326, ?327, ?329, ?330, ?331, ?332, ?333, ?334, ?335, ?336, ?337, ?338
       UNION ALL SELECT 27, ?339, ?340, ?342, ?343, ?344, ?345, ?346, ?347, ?348, ?349, ?350, ?351
       UNION ALL SELECT 28, ?352, ?353, ?355, ?356, ?357, ?358, ?359, ?360, ?361, ?362, ?363, ?364
       UNION ALL SELECT 29, ?365, ?366, ?368, ?369, ?370, ?371, ?372, ?373, ?374, ?375, ?376, ?377
       UNION ALL SELECT 30, ?378, ?379, ?381, ?382, ?383, ?384, ?385, ?386, ?387, ?388, ?389, ?390
       UNION ALL SELECT 31, ?391, ?392, ?394, ?395, ?396, ?397, ?398, ?399, ?400, ?401, ?402, ?403
       UNION ALL SELECT 32, ?404, ?405, ?407, ?408, ?409, ?410, ?411, ?412, ?413, ?414, ?415, ?416
       UNION ALL SELECT 33, ?417, ?418, ?420, ?421, ?422, ?423, ?424, ?425, ?426, ?427, ?428, ?429
       UNION ALL SELECT 34, ?430, ?431, ?433, ?434, ?435, ?436, ?437, ?438, ?439, ?440, ?441, ?442
       UNION ALL SELECT 35, ?443, ?444, ?446, ?447, ?448, ?449, ?450, ?451, ?452, ?453, ?454, ?455
       UNION ALL SELECT 36, ?456, ?457, ?459, ?460, ?461, ?462, ?463, ?464, ?465, ?466, ?467, ?468
       UNION ALL SELECT 37, ?469, ?470, ?472, ?473, ?474, ?475, ?476, ?477, ?478, ?479, ?480, ?481
       UNION ALL SELECT 38, ?482, ?483, ?485, ?486, ?487, ?488, ?489, ?490, ?491, ?492, ?493, ?494
       UNION ALL SELECT 39, ?495, ?496, ?498, ?499, ?500, ?501, ?502, ?503, ?504, ?505, ?506, ?507
       UNION ALL SELECT 40, ?508, ?509, ?511, ?512, ?513, ?514, ?515, ?516, ?517, ?518, ?519, ?520
       UNION ALL SELECT 41, ?521, ?522, ?524, ?525, ?526, ?527, ?528, ?529, ?530, ?531, ?532, ?533
       UNION ALL SELECT 42, ?534, ?535, ?537, ?538, ?539, ?540, ?541, ?542, ?543, ?544, ?545, ?546
       UNION ALL SELECT 43, ?547, ?548, ?550, ?551, ?552, ?553, ?554, ?555, ?556, ?557, ?558, ?559
       UNION ALL SELECT 44, ?560, ?561, ?563, ?564, ?565, ?566, ?567, ?568, ?569, ?570, ?571, ?572
       UNION ALL SELECT 45, ?573, ?574, ?576, ?577, ?578, ?579, ?580, ?581, ?582, ?583, ?584, ?585
       UNION ALL SELECT 46, ?586, ?587, ?589, ?590, ?591, ?592, ?593, ?594, ?595, ?596, ?597, ?598
       UNION ALL SELECT 47, ?599, ?600, ?602, ?603, ?604, ?605, ?606, ?607, ?608, ?609, ?610, ?611
       UNION ALL SELECT 48, ?612, ?613, ?615, ?616, ?617, ?618, ?619, ?620, ?621, ?622, ?623, ?624
       UNION ALL SELECT 49, ?625, ?626, ?628, ?629, ?630, ?631, ?632, ?633, ?634, ?635, ?636, ?637
       UNION ALL SELECT 50, ?638, ?639, ?641, ?642, ?643, ?644, ?645, ?646, ?647, ?648, ?649, ?650
       UNION ALL SELECT 51, ?651, ?652, ?654, ?655, ?656, ?657, ?658, ?659, ?660, ?661, ?662, ?663
       UNION ALL SELECT 52, ?664, ?665, ?667, ?668, ?669, ?670, ?671, ?672, ?673, ?674, ?675, ?676
       UNION ALL SELECT 53, ?677, ?678, ?680, ?681, ?682, ?683, ?684, ?685, ?686, ?687, ?688, ?689
       UNION ALL SELECT 54, ?690, ?691, ?693, ?694, ?695, ?696, ?697, ?698, ?699, ?700, ?701, ?702
       UNION ALL SELECT 55, ?703, ?704, ?706, ?707, ?708, ?709, ?710, ?711, ?712, ?713, ?714, ?715
       UNION ALL SELECT 56, ?716, ?717, ?719, ?720, ?721, ?722, ?723, ?724, ?725, ?726, ?727, ?728
       UNION ALL SELECT 57, ?729, ?730, ?732, ?733, ?734, ?735, ?736, ?737, ?738, ?739, ?740, ?741
       UNION ALL SELECT 58, ?742, ?743, ?745, ?746, ?747, ?748, ?749, ?750, ?751, ?752, ?753, ?754
       UNION ALL SELECT 59, ?755, ?756, ?758, ?759, ?760, ?761, ?762, ?763, ?764, ?765, ?766, ?767
       UNION ALL SELECT 60, ?768, ?769, ?771, ?772, ?773, ?774, ?775, ?776, ?777, ?778, ?779, ?780
       UNION ALL SELECT 61, ?781, ?782, ?784, ?785, ?786, ?787, ?788, ?789, ?790, ?791, ?792, ?793
       UNION ALL SELECT 62, ?794, ?795, ?797, ?798, ?799, ?800, ?801, ?802, ?803, ?804, ?805, ?806
       UNION ALL SELECT 63, ?807, ?808, ?810, ?811, ?812, ?813, ?814, ?815, ?816, ?817, ?818, ?819
       UNION ALL SELECT 64, ?820, ?821, ?823, ?824, ?825, ?826, ?827, ?828, ?829, ?830, ?831, ?832
       UNION ALL SELECT 65, ?833, ?834, ?836, ?837, ?838, ?839, ?840, ?841, ?842, ?843, ?844, ?845
       UNION ALL SELECT 66, ?846, ?847, ?849, ?850, ?851, ?852, ?853, ?854, ?855, ?856, ?857, ?858
       UNION ALL SELECT 67, ?859, ?860, ?862, ?863, ?864, ?865, ?866, ?867, ?868, ?869, ?870, ?871
       UNION ALL SELECT 68, ?872, ?873, ?875, ?876, ?877, ?878, ?879, ?880, ?881, ?882, ?883, ?884
       UNION ALL SELECT 69, ?885, ?886, ?888, ?889, ?890, ?891, ?892, ?893, ?894, ?895, ?896, ?897
       UNION ALL SELECT 70, ?898, ?899, ?901, ?902, ?903, ?904, ?905, ?906, ?907, ?908, ?909, ?910
       UNION ALL SELECT 71, ?911, ?912, ?914, ?915, ?916, ?917, ?918, ?919, ?920, ?921, ?922, ?923
       UNION ALL SELECT 72, ?924, ?925, ?927, ?928, ?929, ?930, ?931, ?932, ?933, ?934, ?935, ?936
       UNION ALL SELECT 73, ?937, ?938, ?940, ?941, ?942, ?943, ?944, ?945, ?946, ?947, ?948, ?949
       UNION ALL SELECT 74, ?950, ?951, ?953, ?954, ?955, ?956, ?957, ?958, ?959, ?960, ?961, ?962
       UNION ALL SELECT 75, ?963, ?964, ?966, ?967, ?968, ?969, ?970, ?971, ?972, ?973, ?974, ?975
       UNION ALL SELECT 76, ?976, ?977, ?979, ?980, ?981, ?982, ?983, ?984, ?985, ?986, ?987, ?988
       UNION ALL SELECT 77, ?989, ?990, ?992, ?993, ?994, ?995, ?996, ?997, ?998, ?999, ?1000, ?1001
       UNION ALL SELECT 78, ?1002, ?1003, ?1005, ?1006, ?1007, ?1008, ?1009, ?1010, ?1011, ?1012, ?1013, ?1014
       UNION ALL SELECT 79, ?1015, ?1016, ?1018, ?1019, ?1020, ?1021, ?1022, ?1023, ?1024, ?1025, ?1026, ?1027
       UNION ALL SELECT 80, ?1028, ?1029, ?1031, ?1032, ?1033, ?1034, ?1035, ?1036, ?1037, ?1038, ?1039, ?1040
       UNION ALL SELECT 81, ?1041, ?1042, ?1044, ?1045, ?1046, ?1047, ?1048, ?1049, ?1050, ?1051, ?1052, ?1053
       UNION ALL SELECT 82, ?1054, ?1055, ?1057, ?1058, ?1059, ?1060, ?1061, ?1062, ?1063, ?1064, ?1065, ?1066
       UNION ALL SELECT 83, ?1067, ?1068, ?1070, ?1071, ?1072, ?1073, ?1074, ?1075, ?1076, ?1077, ?1078, ?1079
       UNION ALL SELECT 84, ?1080, ?1081, ?1083, ?1084, ?1085, ?1086, ?1087, ?1088, ?1089, ?1090, ?1091, ?1092
       UNION ALL SELECT 85, ?1093, ?1094, ?1096, ?1097, ?1098, ?1099, ?1100, ?1101, ?1102, ?1103, ?1104, ?1105
       UNION ALL SELECT 86, ?1106, ?1107, ?1109, ?1110, ?1111, ?1112, ?1113, ?1114, ?1115, ?1116, ?1117, ?1118
       UNION ALL SELECT 87, ?1119, ?1120, ?1122, ?1123, ?1124, ?1125, ?1126, ?1127, ?1128, ?1129, ?1130, ?1131
       UNION ALL SELECT 88, ?1132, ?1133, ?1135, ?1136, ?1137, ?1138, ?1139, ?1140, ?1141, ?1142, ?1143, ?1144
       UNION ALL SELECT 89, ?1145, ?1146, ?1148, ?1149, ?1150, ?1151, ?1152, ?1153, ?1154, ?1155, ?1156, ?1157
       UNION ALL SELECT 90, ?1158, ?1159, ?1161, ?1162, ?1163, ?1164, ?1165, ?1166, ?1167, ?1168, ?1169, ?1170
       UNION ALL SELECT 91, ?1171, ?1172, ?1174, ?1175, ?1176, ?1177, ?1178, ?1179, ?1180, ?1181, ?1182, ?1183
       UNION ALL SELECT 92, ?1184, ?1185, ?1187, ?1188, ?1189, ?1190, ?1191, ?1192, ?1193, ?1194, ?1195, ?1196
       UNION ALL SELECT 93, ?1197, ?1198, ?1200, ?1201, ?1202, ?1203, ?1204, ?1205, ?1206, ?1207, ?1208, ?1209
       UNION ALL SELECT 94, ?1210, ?1211, ?1213, ?1214, ?1215, ?1216, ?1217, ?1218, ?1219, ?1220, ?1221, ?1222
       UNION ALL SELECT 95, ?1223, ?1224, ?1226, ?1227, ?1228, ?1229, ?1230, ?1231, ?1232, ?1233, ?1234, ?1235
       UNION ALL SELECT 96, ?1236, ?1237, ?1239, ?1240, ?1241, ?1242, ?1243, ?1244, ?1245, ?1246, ?1247, ?1248
       UNION ALL SELECT 97, ?1249, ?1250, ?1252, ?1253, ?1254, ?1255, ?1256, ?1257, ?1258, ?1259, ?1260, ?1261
       UNION ALL SELECT 98, ?1262, ?1263, ?1265, ?1266, ?1267, ?1268, ?1269, ?1270, ?1271, ?1272, ?1273, ?1274
       UNION ALL SELECT 99, ?1275, ?1276, ?1278, ?1279, ?1280, ?1281, ?1282, ?1283, ?1284, ?1285, ?1286, ?1287
       UNION ALL SELECT 100, ?1288, ?1289, ?1291, ?1292, ?1293, ?1294, ?1295, ?1296, ?1297, ?1298, ?1299, ?1300

-- fragment: TASK_PAYLOADS
?3, ?16, ?29, ?42, ?55, ?68, ?81, ?94, ?107, ?120, ?133, ?146, ?159, ?172, ?185, ?198, ?211, ?224,
    ?237, ?250, ?263, ?276, ?289, ?302, ?315, ?328, ?341, ?354, ?367, ?380, ?393, ?406, ?419, ?432,
    ?445, ?458, ?471, ?484, ?497, ?510, ?523, ?536, ?549, ?562, ?575, ?588, ?601, ?614, ?627, ?640,
    ?653, ?666, ?679, ?692, ?705, ?718, ?731, ?744, ?757, ?770, ?783, ?796, ?809, ?822, ?835, ?848,
    ?861, ?874, ?887, ?900, ?913, ?926, ?939, ?952, ?965, ?978, ?991, ?1004, ?1017, ?1030, ?1043,
    ?1056, ?1069, ?1082, ?1095, ?1108, ?1121, ?1134, ?1147, ?1160, ?1173, ?1186, ?1199, ?1212,
    ?1225, ?1238, ?1251, ?1264, ?1277, ?1290

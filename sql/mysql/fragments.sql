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
-- LIMIT_SHUT_KEY: l limits the tasks whose concurrency_key is l.name.  Its
-- live claims are counted by claim_key (the key while claimed, migration
-- 0018): by concurrency_key, an outer column here, the lookup found every
-- waiting task of the key.
-- fragment: LIMIT_SHUT_KEY
(l.concurrency IS NOT NULL
  AND l.concurrency <= (SELECT count(*) FROM lq_task c FORCE INDEX (lq_task_claimkey)
                         WHERE c.claim_key = l.name AND c.claim_until > {{NOW}}))
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
            ELSE (SELECT count(*) FROM lq_task c FORCE INDEX (lq_task_claimkey)
                   WHERE c.claim_key = l.name AND c.claim_until > {{NOW}}) END,
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
-- no limit can be shut (task_candidates_top).
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

-- CLAIMABLE_DUE: queue ?1 has a task CLAIM_FILTER lets through.  The fair
-- claim tests it first (uncorrelated, so read once) and, when it is
-- false, reads nothing else: its walk of
-- lq_task_claim would otherwise read on through every task not due yet,
-- looking for a due one that is not there.  The probe reads lq_task_due's
-- due range only as far as the first such task, past those claimed,
-- paused or held back ahead of it.  (Its lq_task is its own.)
-- fragment: CLAIMABLE_DUE
EXISTS (SELECT 1 FROM lq_task FORCE INDEX (lq_task_due) WHERE {{CLAIM_FILTER}})

-- MANY_K, MANY_NAMES, MANY_PAYLOADS: task_insert_many_same's tasks as
-- place numbers k (1..100, a derived table of constants) and, for each,
-- ELT(k, MANY_NAMES) and ELT(k, MANY_PAYLOADS): its name and payload
-- (?14..?213, 2 a task; NULL past the last task).  A derived table of the
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
?14, ?16, ?18, ?20, ?22, ?24, ?26, ?28, ?30, ?32, ?34, ?36, ?38, ?40, ?42, ?44, ?46, ?48, ?50, ?52,
    ?54, ?56, ?58, ?60, ?62, ?64, ?66, ?68, ?70, ?72, ?74, ?76, ?78, ?80, ?82, ?84, ?86, ?88, ?90,
    ?92, ?94, ?96, ?98, ?100, ?102, ?104, ?106, ?108, ?110, ?112, ?114, ?116, ?118, ?120, ?122, ?124,
    ?126, ?128, ?130, ?132, ?134, ?136, ?138, ?140, ?142, ?144, ?146, ?148, ?150, ?152, ?154, ?156,
    ?158, ?160, ?162, ?164, ?166, ?168, ?170, ?172, ?174, ?176, ?178, ?180, ?182, ?184, ?186, ?188,
    ?190, ?192, ?194, ?196, ?198, ?200, ?202, ?204, ?206, ?208, ?210, ?212

-- fragment: MANY_PAYLOADS
?15, ?17, ?19, ?21, ?23, ?25, ?27, ?29, ?31, ?33, ?35, ?37, ?39, ?41, ?43, ?45, ?47, ?49, ?51, ?53,
    ?55, ?57, ?59, ?61, ?63, ?65, ?67, ?69, ?71, ?73, ?75, ?77, ?79, ?81, ?83, ?85, ?87, ?89, ?91,
    ?93, ?95, ?97, ?99, ?101, ?103, ?105, ?107, ?109, ?111, ?113, ?115, ?117, ?119, ?121, ?123, ?125,
    ?127, ?129, ?131, ?133, ?135, ?137, ?139, ?141, ?143, ?145, ?147, ?149, ?151, ?153, ?155, ?157,
    ?159, ?161, ?163, ?165, ?167, ?169, ?171, ?173, ?175, ?177, ?179, ?181, ?183, ?185, ?187, ?189,
    ?191, ?193, ?195, ?197, ?199, ?201, ?203, ?205, ?207, ?209, ?211, ?213

-- TASK_ROWS_BARE, TASK_PAYLOADS: task_insert_many's tasks (TASK_ROWS)
-- without their payloads, which each row reads by its place k as
-- ELT(k, TASK_PAYLOADS) (?3, ?18, ..., ?1488): in the derived table the
-- payloads were BLOBs, and MariaDB put it on disk for every batch.
-- fragment: TASK_ROWS_BARE
SELECT 1 AS k, ?1 AS q, ?2 AS nm, ?4 AS ra, ?5 AS dl, ?6 AS ma, ?7 AS uk, ?8 AS ev, ?9 AS cr, ?10 AS tz, ?11 AS mi, ?12 AS pr, ?13 AS tm, ?14 AS ck, ?15 AS pt
       UNION ALL SELECT 2, ?16, ?17, ?19, ?20, ?21, ?22, ?23, ?24, ?25, ?26, ?27, ?28, ?29, ?30
       UNION ALL SELECT 3, ?31, ?32, ?34, ?35, ?36, ?37, ?38, ?39, ?40, ?41, ?42, ?43, ?44, ?45
       UNION ALL SELECT 4, ?46, ?47, ?49, ?50, ?51, ?52, ?53, ?54, ?55, ?56, ?57, ?58, ?59, ?60
       UNION ALL SELECT 5, ?61, ?62, ?64, ?65, ?66, ?67, ?68, ?69, ?70, ?71, ?72, ?73, ?74, ?75
       UNION ALL SELECT 6, ?76, ?77, ?79, ?80, ?81, ?82, ?83, ?84, ?85, ?86, ?87, ?88, ?89, ?90
       UNION ALL SELECT 7, ?91, ?92, ?94, ?95, ?96, ?97, ?98, ?99, ?100, ?101, ?102, ?103, ?104, ?105
       UNION ALL SELECT 8, ?106, ?107, ?109, ?110, ?111, ?112, ?113, ?114, ?115, ?116, ?117, ?118, ?119, ?120
       UNION ALL SELECT 9, ?121, ?122, ?124, ?125, ?126, ?127, ?128, ?129, ?130, ?131, ?132, ?133, ?134, ?135
       UNION ALL SELECT 10, ?136, ?137, ?139, ?140, ?141, ?142, ?143, ?144, ?145, ?146, ?147, ?148, ?149, ?150
       UNION ALL SELECT 11, ?151, ?152, ?154, ?155, ?156, ?157, ?158, ?159, ?160, ?161, ?162, ?163, ?164, ?165
       UNION ALL SELECT 12, ?166, ?167, ?169, ?170, ?171, ?172, ?173, ?174, ?175, ?176, ?177, ?178, ?179, ?180
       UNION ALL SELECT 13, ?181, ?182, ?184, ?185, ?186, ?187, ?188, ?189, ?190, ?191, ?192, ?193, ?194, ?195
       UNION ALL SELECT 14, ?196, ?197, ?199, ?200, ?201, ?202, ?203, ?204, ?205, ?206, ?207, ?208, ?209, ?210
       UNION ALL SELECT 15, ?211, ?212, ?214, ?215, ?216, ?217, ?218, ?219, ?220, ?221, ?222, ?223, ?224, ?225
       UNION ALL SELECT 16, ?226, ?227, ?229, ?230, ?231, ?232, ?233, ?234, ?235, ?236, ?237, ?238, ?239, ?240
       UNION ALL SELECT 17, ?241, ?242, ?244, ?245, ?246, ?247, ?248, ?249, ?250, ?251, ?252, ?253, ?254, ?255
       UNION ALL SELECT 18, ?256, ?257, ?259, ?260, ?261, ?262, ?263, ?264, ?265, ?266, ?267, ?268, ?269, ?270
       UNION ALL SELECT 19, ?271, ?272, ?274, ?275, ?276, ?277, ?278, ?279, ?280, ?281, ?282, ?283, ?284, ?285
       UNION ALL SELECT 20, ?286, ?287, ?289, ?290, ?291, ?292, ?293, ?294, ?295, ?296, ?297, ?298, ?299, ?300
       UNION ALL SELECT 21, ?301, ?302, ?304, ?305, ?306, ?307, ?308, ?309, ?310, ?311, ?312, ?313, ?314, ?315
       UNION ALL SELECT 22, ?316, ?317, ?319, ?320, ?321, ?322, ?323, ?324, ?325, ?326, ?327, ?328, ?329, ?330
       UNION ALL SELECT 23, ?331, ?332, ?334, ?335, ?336, ?337, ?338, ?339, ?340, ?341, ?342, ?343, ?344, ?345
       UNION ALL SELECT 24, ?346, ?347, ?349, ?350, ?351, ?352, ?353, ?354, ?355, ?356, ?357, ?358, ?359, ?360
       UNION ALL SELECT 25, ?361, ?362, ?364, ?365, ?366, ?367, ?368, ?369, ?370, ?371, ?372, ?373, ?374, ?375
       UNION ALL SELECT 26, ?376, ?377, ?379, ?380, ?381, ?382, ?383, ?384, ?385, ?386, ?387, ?388, ?389, ?390
       UNION ALL SELECT 27, ?391, ?392, ?394, ?395, ?396, ?397, ?398, ?399, ?400, ?401, ?402, ?403, ?404, ?405
       UNION ALL SELECT 28, ?406, ?407, ?409, ?410, ?411, ?412, ?413, ?414, ?415, ?416, ?417, ?418, ?419, ?420
       UNION ALL SELECT 29, ?421, ?422, ?424, ?425, ?426, ?427, ?428, ?429, ?430, ?431, ?432, ?433, ?434, ?435
       UNION ALL SELECT 30, ?436, ?437, ?439, ?440, ?441, ?442, ?443, ?444, ?445, ?446, ?447, ?448, ?449, ?450
       UNION ALL SELECT 31, ?451, ?452, ?454, ?455, ?456, ?457, ?458, ?459, ?460, ?461, ?462, ?463, ?464, ?465
       UNION ALL SELECT 32, ?466, ?467, ?469, ?470, ?471, ?472, ?473, ?474, ?475, ?476, ?477, ?478, ?479, ?480
       UNION ALL SELECT 33, ?481, ?482, ?484, ?485, ?486, ?487, ?488, ?489, ?490, ?491, ?492, ?493, ?494, ?495
       UNION ALL SELECT 34, ?496, ?497, ?499, ?500, ?501, ?502, ?503, ?504, ?505, ?506, ?507, ?508, ?509, ?510
       UNION ALL SELECT 35, ?511, ?512, ?514, ?515, ?516, ?517, ?518, ?519, ?520, ?521, ?522, ?523, ?524, ?525
       UNION ALL SELECT 36, ?526, ?527, ?529, ?530, ?531, ?532, ?533, ?534, ?535, ?536, ?537, ?538, ?539, ?540
       UNION ALL SELECT 37, ?541, ?542, ?544, ?545, ?546, ?547, ?548, ?549, ?550, ?551, ?552, ?553, ?554, ?555
       UNION ALL SELECT 38, ?556, ?557, ?559, ?560, ?561, ?562, ?563, ?564, ?565, ?566, ?567, ?568, ?569, ?570
       UNION ALL SELECT 39, ?571, ?572, ?574, ?575, ?576, ?577, ?578, ?579, ?580, ?581, ?582, ?583, ?584, ?585
       UNION ALL SELECT 40, ?586, ?587, ?589, ?590, ?591, ?592, ?593, ?594, ?595, ?596, ?597, ?598, ?599, ?600
       UNION ALL SELECT 41, ?601, ?602, ?604, ?605, ?606, ?607, ?608, ?609, ?610, ?611, ?612, ?613, ?614, ?615
       UNION ALL SELECT 42, ?616, ?617, ?619, ?620, ?621, ?622, ?623, ?624, ?625, ?626, ?627, ?628, ?629, ?630
       UNION ALL SELECT 43, ?631, ?632, ?634, ?635, ?636, ?637, ?638, ?639, ?640, ?641, ?642, ?643, ?644, ?645
       UNION ALL SELECT 44, ?646, ?647, ?649, ?650, ?651, ?652, ?653, ?654, ?655, ?656, ?657, ?658, ?659, ?660
       UNION ALL SELECT 45, ?661, ?662, ?664, ?665, ?666, ?667, ?668, ?669, ?670, ?671, ?672, ?673, ?674, ?675
       UNION ALL SELECT 46, ?676, ?677, ?679, ?680, ?681, ?682, ?683, ?684, ?685, ?686, ?687, ?688, ?689, ?690
       UNION ALL SELECT 47, ?691, ?692, ?694, ?695, ?696, ?697, ?698, ?699, ?700, ?701, ?702, ?703, ?704, ?705
       UNION ALL SELECT 48, ?706, ?707, ?709, ?710, ?711, ?712, ?713, ?714, ?715, ?716, ?717, ?718, ?719, ?720
       UNION ALL SELECT 49, ?721, ?722, ?724, ?725, ?726, ?727, ?728, ?729, ?730, ?731, ?732, ?733, ?734, ?735
       UNION ALL SELECT 50, ?736, ?737, ?739, ?740, ?741, ?742, ?743, ?744, ?745, ?746, ?747, ?748, ?749, ?750
       UNION ALL SELECT 51, ?751, ?752, ?754, ?755, ?756, ?757, ?758, ?759, ?760, ?761, ?762, ?763, ?764, ?765
       UNION ALL SELECT 52, ?766, ?767, ?769, ?770, ?771, ?772, ?773, ?774, ?775, ?776, ?777, ?778, ?779, ?780
       UNION ALL SELECT 53, ?781, ?782, ?784, ?785, ?786, ?787, ?788, ?789, ?790, ?791, ?792, ?793, ?794, ?795
       UNION ALL SELECT 54, ?796, ?797, ?799, ?800, ?801, ?802, ?803, ?804, ?805, ?806, ?807, ?808, ?809, ?810
       UNION ALL SELECT 55, ?811, ?812, ?814, ?815, ?816, ?817, ?818, ?819, ?820, ?821, ?822, ?823, ?824, ?825
       UNION ALL SELECT 56, ?826, ?827, ?829, ?830, ?831, ?832, ?833, ?834, ?835, ?836, ?837, ?838, ?839, ?840
       UNION ALL SELECT 57, ?841, ?842, ?844, ?845, ?846, ?847, ?848, ?849, ?850, ?851, ?852, ?853, ?854, ?855
       UNION ALL SELECT 58, ?856, ?857, ?859, ?860, ?861, ?862, ?863, ?864, ?865, ?866, ?867, ?868, ?869, ?870
       UNION ALL SELECT 59, ?871, ?872, ?874, ?875, ?876, ?877, ?878, ?879, ?880, ?881, ?882, ?883, ?884, ?885
       UNION ALL SELECT 60, ?886, ?887, ?889, ?890, ?891, ?892, ?893, ?894, ?895, ?896, ?897, ?898, ?899, ?900
       UNION ALL SELECT 61, ?901, ?902, ?904, ?905, ?906, ?907, ?908, ?909, ?910, ?911, ?912, ?913, ?914, ?915
       UNION ALL SELECT 62, ?916, ?917, ?919, ?920, ?921, ?922, ?923, ?924, ?925, ?926, ?927, ?928, ?929, ?930
       UNION ALL SELECT 63, ?931, ?932, ?934, ?935, ?936, ?937, ?938, ?939, ?940, ?941, ?942, ?943, ?944, ?945
       UNION ALL SELECT 64, ?946, ?947, ?949, ?950, ?951, ?952, ?953, ?954, ?955, ?956, ?957, ?958, ?959, ?960
       UNION ALL SELECT 65, ?961, ?962, ?964, ?965, ?966, ?967, ?968, ?969, ?970, ?971, ?972, ?973, ?974, ?975
       UNION ALL SELECT 66, ?976, ?977, ?979, ?980, ?981, ?982, ?983, ?984, ?985, ?986, ?987, ?988, ?989, ?990
       UNION ALL SELECT 67, ?991, ?992, ?994, ?995, ?996, ?997, ?998, ?999, ?1000, ?1001, ?1002, ?1003, ?1004, ?1005
       UNION ALL SELECT 68, ?1006, ?1007, ?1009, ?1010, ?1011, ?1012, ?1013, ?1014, ?1015, ?1016, ?1017, ?1018, ?1019, ?1020
       UNION ALL SELECT 69, ?1021, ?1022, ?1024, ?1025, ?1026, ?1027, ?1028, ?1029, ?1030, ?1031, ?1032, ?1033, ?1034, ?1035
       UNION ALL SELECT 70, ?1036, ?1037, ?1039, ?1040, ?1041, ?1042, ?1043, ?1044, ?1045, ?1046, ?1047, ?1048, ?1049, ?1050
       UNION ALL SELECT 71, ?1051, ?1052, ?1054, ?1055, ?1056, ?1057, ?1058, ?1059, ?1060, ?1061, ?1062, ?1063, ?1064, ?1065
       UNION ALL SELECT 72, ?1066, ?1067, ?1069, ?1070, ?1071, ?1072, ?1073, ?1074, ?1075, ?1076, ?1077, ?1078, ?1079, ?1080
       UNION ALL SELECT 73, ?1081, ?1082, ?1084, ?1085, ?1086, ?1087, ?1088, ?1089, ?1090, ?1091, ?1092, ?1093, ?1094, ?1095
       UNION ALL SELECT 74, ?1096, ?1097, ?1099, ?1100, ?1101, ?1102, ?1103, ?1104, ?1105, ?1106, ?1107, ?1108, ?1109, ?1110
       UNION ALL SELECT 75, ?1111, ?1112, ?1114, ?1115, ?1116, ?1117, ?1118, ?1119, ?1120, ?1121, ?1122, ?1123, ?1124, ?1125
       UNION ALL SELECT 76, ?1126, ?1127, ?1129, ?1130, ?1131, ?1132, ?1133, ?1134, ?1135, ?1136, ?1137, ?1138, ?1139, ?1140
       UNION ALL SELECT 77, ?1141, ?1142, ?1144, ?1145, ?1146, ?1147, ?1148, ?1149, ?1150, ?1151, ?1152, ?1153, ?1154, ?1155
       UNION ALL SELECT 78, ?1156, ?1157, ?1159, ?1160, ?1161, ?1162, ?1163, ?1164, ?1165, ?1166, ?1167, ?1168, ?1169, ?1170
       UNION ALL SELECT 79, ?1171, ?1172, ?1174, ?1175, ?1176, ?1177, ?1178, ?1179, ?1180, ?1181, ?1182, ?1183, ?1184, ?1185
       UNION ALL SELECT 80, ?1186, ?1187, ?1189, ?1190, ?1191, ?1192, ?1193, ?1194, ?1195, ?1196, ?1197, ?1198, ?1199, ?1200
       UNION ALL SELECT 81, ?1201, ?1202, ?1204, ?1205, ?1206, ?1207, ?1208, ?1209, ?1210, ?1211, ?1212, ?1213, ?1214, ?1215
       UNION ALL SELECT 82, ?1216, ?1217, ?1219, ?1220, ?1221, ?1222, ?1223, ?1224, ?1225, ?1226, ?1227, ?1228, ?1229, ?1230
       UNION ALL SELECT 83, ?1231, ?1232, ?1234, ?1235, ?1236, ?1237, ?1238, ?1239, ?1240, ?1241, ?1242, ?1243, ?1244, ?1245
       UNION ALL SELECT 84, ?1246, ?1247, ?1249, ?1250, ?1251, ?1252, ?1253, ?1254, ?1255, ?1256, ?1257, ?1258, ?1259, ?1260
       UNION ALL SELECT 85, ?1261, ?1262, ?1264, ?1265, ?1266, ?1267, ?1268, ?1269, ?1270, ?1271, ?1272, ?1273, ?1274, ?1275
       UNION ALL SELECT 86, ?1276, ?1277, ?1279, ?1280, ?1281, ?1282, ?1283, ?1284, ?1285, ?1286, ?1287, ?1288, ?1289, ?1290
       UNION ALL SELECT 87, ?1291, ?1292, ?1294, ?1295, ?1296, ?1297, ?1298, ?1299, ?1300, ?1301, ?1302, ?1303, ?1304, ?1305
       UNION ALL SELECT 88, ?1306, ?1307, ?1309, ?1310, ?1311, ?1312, ?1313, ?1314, ?1315, ?1316, ?1317, ?1318, ?1319, ?1320
       UNION ALL SELECT 89, ?1321, ?1322, ?1324, ?1325, ?1326, ?1327, ?1328, ?1329, ?1330, ?1331, ?1332, ?1333, ?1334, ?1335
       UNION ALL SELECT 90, ?1336, ?1337, ?1339, ?1340, ?1341, ?1342, ?1343, ?1344, ?1345, ?1346, ?1347, ?1348, ?1349, ?1350
       UNION ALL SELECT 91, ?1351, ?1352, ?1354, ?1355, ?1356, ?1357, ?1358, ?1359, ?1360, ?1361, ?1362, ?1363, ?1364, ?1365
       UNION ALL SELECT 92, ?1366, ?1367, ?1369, ?1370, ?1371, ?1372, ?1373, ?1374, ?1375, ?1376, ?1377, ?1378, ?1379, ?1380
       UNION ALL SELECT 93, ?1381, ?1382, ?1384, ?1385, ?1386, ?1387, ?1388, ?1389, ?1390, ?1391, ?1392, ?1393, ?1394, ?1395
       UNION ALL SELECT 94, ?1396, ?1397, ?1399, ?1400, ?1401, ?1402, ?1403, ?1404, ?1405, ?1406, ?1407, ?1408, ?1409, ?1410
       UNION ALL SELECT 95, ?1411, ?1412, ?1414, ?1415, ?1416, ?1417, ?1418, ?1419, ?1420, ?1421, ?1422, ?1423, ?1424, ?1425
       UNION ALL SELECT 96, ?1426, ?1427, ?1429, ?1430, ?1431, ?1432, ?1433, ?1434, ?1435, ?1436, ?1437, ?1438, ?1439, ?1440
       UNION ALL SELECT 97, ?1441, ?1442, ?1444, ?1445, ?1446, ?1447, ?1448, ?1449, ?1450, ?1451, ?1452, ?1453, ?1454, ?1455
       UNION ALL SELECT 98, ?1456, ?1457, ?1459, ?1460, ?1461, ?1462, ?1463, ?1464, ?1465, ?1466, ?1467, ?1468, ?1469, ?1470
       UNION ALL SELECT 99, ?1471, ?1472, ?1474, ?1475, ?1476, ?1477, ?1478, ?1479, ?1480, ?1481, ?1482, ?1483, ?1484, ?1485
       UNION ALL SELECT 100, ?1486, ?1487, ?1489, ?1490, ?1491, ?1492, ?1493, ?1494, ?1495, ?1496, ?1497, ?1498, ?1499, ?1500

-- fragment: TASK_PAYLOADS
?3, ?18, ?33, ?48, ?63, ?78, ?93, ?108, ?123, ?138, ?153, ?168, ?183, ?198, ?213, ?228, ?243, ?258,
    ?273, ?288, ?303, ?318, ?333, ?348, ?363, ?378, ?393, ?408, ?423, ?438, ?453, ?468, ?483, ?498,
    ?513, ?528, ?543, ?558, ?573, ?588, ?603, ?618, ?633, ?648, ?663, ?678, ?693, ?708, ?723, ?738,
    ?753, ?768, ?783, ?798, ?813, ?828, ?843, ?858, ?873, ?888, ?903, ?918, ?933, ?948, ?963, ?978,
    ?993, ?1008, ?1023, ?1038, ?1053, ?1068, ?1083, ?1098, ?1113, ?1128, ?1143, ?1158, ?1173, ?1188,
    ?1203, ?1218, ?1233, ?1248, ?1263, ?1278, ?1293, ?1308, ?1323, ?1338, ?1353, ?1368, ?1383, ?1398,
    ?1413, ?1428, ?1443, ?1458, ?1473, ?1488
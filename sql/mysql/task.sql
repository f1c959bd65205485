-- Tasks (MySQL/MariaDB).  NOW is the database clock, {{NOW}} in fragments.sql.
-- Every claim, ack and heartbeat is conditional, by id, and checked by
-- affected rows (matched rows: CLIENT_FOUND_ROWS).  No UPDATE ... ORDER BY
-- ... LIMIT: it locks every index record it scans and deadlocks under load.
-- Inserts that may conflict are plain INSERTs: ER_DUP_ENTRY is reported by
-- the backend as 0 affected rows ("ON CONFLICT DO NOTHING").
-- Not in this dialect (see lib/backend/sql_names.h):
-- absent: task_claim_batch_delete no DELETE ... RETURNING (LQ_CAP_CLAIM_RETURNING): the *_set ones
-- absent: task_claim_batch_update no UPDATE ... RETURNING, as above
-- absent: task_claim_one_delete no DELETE ... RETURNING, as above
-- absent: task_claim_one_update no UPDATE ... RETURNING, as above

-- name: task_insert
INSERT INTO lq_task (queue, name, payload, run_at, max_attempts, unique_key,
                     every_ms, cron, tz, missed, created_at, priority, timeout_ms)
VALUES (?1, ?2, ?3, COALESCE(?4, {{NOW}} + ?5), ?6, ?7, ?8, ?9, ?10, ?11, {{NOW}}, ?12, ?13);

-- name: task_insert_notify
-- columns: task_insert_notify 0 the backend makes its one row from mysql_stmt_insert_id
-- task_insert as one autocommit statement; the backend returns the new id
-- (mysql_stmt_insert_id) as its one row, none when the unique key is taken.
-- There is no wake-up to send on MySQL.
INSERT INTO lq_task (queue, name, payload, run_at, max_attempts, unique_key,
                     every_ms, cron, tz, missed, created_at, priority, timeout_ms)
VALUES (?1, ?2, ?3, COALESCE(?4, {{NOW}} + ?5), ?6, ?7, ?8, ?9, ?10, ?11, {{NOW}}, ?12, ?13);

-- name: task_last_id
SELECT LAST_INSERT_ID();

-- name: task_find_unique
SELECT id FROM lq_task WHERE unique_key = ?1;

-- name: task_candidates
-- Walks lq_task_claim (queue, priority DESC, run_at, id) from the left (the
-- EXISTS, one probe of lq_task_due, spares an idle poll the walk past the
-- tasks not due yet) and
-- stops after ?2 rows; rows another claimer has locked are skipped, not
-- waited for.  On a server without SKIP LOCKED the backend drops the last
-- line: the conditional claim by id that follows is still the atomic step.
-- FORCE INDEX: with few due tasks the optimizer would rather range-scan
-- lq_task_due and sort, which reads (and locks) the whole due set.
SELECT id, queue, name, payload, run_at, attempts, max_attempts, unique_key,
       claim_owner, claim_until, every_ms, cron, tz, missed, paused, last_error,
       created_at, 0, NULL, {{NOW}}, priority, timeout_ms
  FROM lq_task FORCE INDEX (lq_task_claim)
 WHERE queue = ?1
   AND run_at <= {{NOW}}
   AND paused = 0
   AND ({{CLAIM_FREE}})
   AND NOT EXISTS (SELECT 1 FROM lq_queue WHERE lq_queue.name = ?1 AND lq_queue.paused = 1)
   AND EXISTS (SELECT 1 FROM lq_task d FORCE INDEX (lq_task_due) WHERE d.queue = ?1 AND d.run_at <= {{NOW}})
 ORDER BY priority DESC, run_at, id
 LIMIT ?2
 FOR UPDATE SKIP LOCKED;

-- name: task_claim_delete
DELETE FROM lq_task
 WHERE id = ?1
   AND every_ms IS NULL AND cron IS NULL
   AND run_at <= {{NOW}}
   AND paused = 0
   AND ({{CLAIM_FREE}});

-- name: task_claim_delete_set
-- task_claim_delete for up to 100 ids at once (unused places NULL, which
-- match nothing): the candidates were read FOR UPDATE (SKIP LOCKED) in the
-- same transaction, so the caller expects every one of them to go; the
-- affected rows say whether they did.
DELETE FROM lq_task
 WHERE id IN (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16,
                ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25, ?26, ?27, ?28, ?29, ?30,
                ?31, ?32, ?33, ?34, ?35, ?36, ?37, ?38, ?39, ?40, ?41, ?42, ?43, ?44,
                ?45, ?46, ?47, ?48, ?49, ?50, ?51, ?52, ?53, ?54, ?55, ?56, ?57, ?58,
                ?59, ?60, ?61, ?62, ?63, ?64, ?65, ?66, ?67, ?68, ?69, ?70, ?71, ?72,
                ?73, ?74, ?75, ?76, ?77, ?78, ?79, ?80, ?81, ?82, ?83, ?84, ?85, ?86,
                ?87, ?88, ?89, ?90, ?91, ?92, ?93, ?94, ?95, ?96, ?97, ?98, ?99, ?100)
   AND every_ms IS NULL AND cron IS NULL
   AND run_at <= {{NOW}}
   AND paused = 0
   AND ({{CLAIM_FREE}});

-- name: task_claim_update_set
-- task_claim_update for up to 100 ids at once (?3.., NULL-padded), all for
-- owner ?1 with a claim lease of ?2 ms; judged by the affected rows, as
-- task_claim_delete_set.
UPDATE lq_task
   SET claim_owner = ?1, claim_until = {{NOW}} + ?2, attempts = attempts + 1
 WHERE id IN (?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17,
                ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25, ?26, ?27, ?28, ?29, ?30, ?31,
                ?32, ?33, ?34, ?35, ?36, ?37, ?38, ?39, ?40, ?41, ?42, ?43, ?44, ?45,
                ?46, ?47, ?48, ?49, ?50, ?51, ?52, ?53, ?54, ?55, ?56, ?57, ?58, ?59,
                ?60, ?61, ?62, ?63, ?64, ?65, ?66, ?67, ?68, ?69, ?70, ?71, ?72, ?73,
                ?74, ?75, ?76, ?77, ?78, ?79, ?80, ?81, ?82, ?83, ?84, ?85, ?86, ?87,
                ?88, ?89, ?90, ?91, ?92, ?93, ?94, ?95, ?96, ?97, ?98, ?99, ?100, ?101,
                ?102)
   AND every_ms IS NULL AND cron IS NULL
   AND run_at <= {{NOW}}
   AND paused = 0
   AND ({{CLAIM_FREE}});

-- name: task_claim_update
UPDATE lq_task
   SET claim_owner = ?2, claim_until = {{NOW}} + ?3, attempts = attempts + 1
 WHERE id = ?1
   AND run_at <= {{NOW}}
   AND paused = 0
   AND ({{CLAIM_FREE}});

-- name: task_claim_occurrence
-- Exactly one runner moves run_at off the occurrence it saw (at-most-once).
-- An occurrence under an at-least-once claim is not taken from its holder; an
-- expired one's claim is cleared with the move.
UPDATE lq_task
   SET run_at = ?3, claim_owner = NULL, claim_until = NULL, attempts = 0
 WHERE id = ?1 AND run_at = ?2 AND paused = 0
   AND run_at <= {{NOW}}
   AND ({{CLAIM_FREE}});

-- name: task_ack
DELETE FROM lq_task WHERE id = ?1 AND claim_owner = ?2;

-- name: task_heartbeat
UPDATE lq_task
   SET claim_until = {{NOW}} + ?3
 WHERE id = ?1 AND claim_owner = ?2
   AND claim_until > {{NOW}};

-- name: task_retry_later
UPDATE lq_task
   SET claim_owner = NULL, claim_until = NULL,
       run_at = {{NOW}} + ?3, last_error = ?4
 WHERE id = ?1 AND claim_owner = ?2;

-- name: task_release_claim
-- Hand an at-least-once claim back without counting the attempt.
UPDATE lq_task
   SET claim_owner = NULL, claim_until = NULL,
       attempts = GREATEST(attempts - 1, 0)
 WHERE id = ?1 AND claim_owner = ?2;

-- name: task_ack_occurrence
-- An at-least-once occurrence is done (or given up, with an error): move on
-- to the next one and clear the claim.
UPDATE lq_task
   SET run_at = ?3, claim_owner = NULL, claim_until = NULL, attempts = 0,
       last_error = COALESCE(?4, last_error)
 WHERE id = ?1 AND claim_owner = ?2;

-- name: task_retry_occurrence
-- A failed at-least-once occurrence is tried again after a back-off: the
-- claim is cleared but claim_until holds it back; run_at stays the
-- occurrence's due time.
UPDATE lq_task
   SET claim_owner = NULL, claim_until = {{NOW}} + ?3, last_error = ?4
 WHERE id = ?1 AND claim_owner = ?2;

-- name: task_reinsert
INSERT INTO lq_task (id, queue, name, payload, run_at, attempts, max_attempts,
                     unique_key, last_error, created_at, priority, timeout_ms)
VALUES (?1, ?2, ?3, ?4, {{NOW}} + ?8, ?5, ?6, ?7, ?9, ?10, ?11, ?12);

-- name: task_bury
INSERT INTO lq_task_dead (id, queue, name, payload, run_at, attempts, max_attempts,
                          unique_key, every_ms, cron, tz, missed, last_error,
                          created_at, died_at, priority, timeout_ms)
SELECT id, queue, name, payload, run_at, attempts, max_attempts, unique_key,
       every_ms, cron, tz, missed, ?3, created_at, {{NOW}}, priority, timeout_ms
  FROM lq_task
 WHERE id = ?1
   AND ((?2 IS NOT NULL AND claim_owner = ?2)
     OR (?2 IS NULL AND ({{CLAIM_FREE}})));

-- name: task_delete
DELETE FROM lq_task WHERE id = ?1;

-- name: task_dead_insert
INSERT INTO lq_task_dead (id, queue, name, payload, run_at, attempts, max_attempts,
                          unique_key, last_error, created_at, died_at, priority, timeout_ms)
VALUES (?1, ?2, ?3, ?4, {{NOW}}, ?5, ?6, ?7, ?8, ?9, {{NOW}}, ?10, ?11);

-- name: task_record_error
UPDATE lq_task SET last_error = ?2 WHERE id = ?1;

-- name: task_get
SELECT id, queue, name, payload, run_at, attempts, max_attempts, unique_key,
       claim_owner, claim_until, every_ms, cron, tz, missed, paused, last_error,
       created_at, 0, NULL, {{NOW}}, priority, timeout_ms
  FROM lq_task WHERE id = ?1
UNION ALL
SELECT id, queue, name, payload, run_at, attempts, max_attempts, unique_key,
       NULL, NULL, every_ms, cron, tz, missed, 0, last_error,
       created_at, 1, died_at, {{NOW}}, priority, timeout_ms
  FROM lq_task_dead WHERE id = ?1;

-- name: task_list
SELECT id, queue, name, NULL, run_at, attempts, max_attempts, unique_key,
       claim_owner, claim_until, every_ms, cron, tz, missed, paused, last_error,
       created_at, 0, NULL, {{NOW}}, priority, timeout_ms
  FROM lq_task
 WHERE (?1 IS NULL OR queue = ?1)
   AND (?2 = 0 OR (run_at <= {{NOW}} AND paused = 0
                   AND ({{CLAIM_FREE}})))
 ORDER BY id;

-- name: task_list_dead
SELECT id, queue, name, NULL, run_at, attempts, max_attempts, unique_key,
       NULL, NULL, every_ms, cron, tz, missed, 0, last_error,
       created_at, 1, died_at, {{NOW}}, priority, timeout_ms
  FROM lq_task_dead
 WHERE (?1 IS NULL OR queue = ?1)
 ORDER BY id;

-- name: task_dead_delete
DELETE FROM lq_task_dead WHERE id = ?1;

-- name: task_revive
INSERT INTO lq_task (id, queue, name, payload, run_at, attempts, max_attempts,
                     unique_key, every_ms, cron, tz, missed, last_error, created_at, priority, timeout_ms)
SELECT id, queue, name, payload, {{NOW}}, 0, max_attempts, unique_key,
       every_ms, cron, tz, missed, last_error, created_at, priority, timeout_ms
  FROM lq_task_dead WHERE id = ?1;

-- name: task_run_now
-- Due now: a future run_at comes forward (a due one keeps its place, and a
-- recurring task its occurrence), and a back-off without a claim ends.
UPDATE lq_task
   SET run_at = CASE WHEN run_at <= {{NOW}} THEN run_at ELSE {{NOW}} END,
       claim_until = CASE WHEN claim_owner IS NULL THEN NULL ELSE claim_until END
 WHERE id = ?1;

-- name: task_set_paused
UPDATE lq_task SET paused = ?2 WHERE id = ?1;

-- name: task_insert_many
-- Up to 100 tasks in one statement (lq_task_add_many): 13 parameters per
-- task in task_insert's order plus priority and timeout_ms (?1..?13 the
-- first task, ?14..?26 the second, ...); unused places are NULL and
-- skipped (a task always has a name).  Rows go in in the order given, so
-- their ids ascend in that order; a task whose unique key is taken is
-- skipped (here by a NOT EXISTS; a key taken by a racing insert fails
-- the statement, which the backend reports as no row, and the library
-- retries the transaction).  Returns (id, unique_key) of each row inserted.
INSERT INTO lq_task (queue, name, payload, run_at, max_attempts, unique_key,
                     every_ms, cron, tz, missed, created_at, priority, timeout_ms)
SELECT q, nm, pl, COALESCE(ra, {{NOW}} + dl), ma, uk, ev, cr, tz, mi,
       {{NOW}}, pr, tm
  FROM (SELECT 1 AS k, ?1 AS q, ?2 AS nm, ?3 AS pl, ?4 AS ra, ?5 AS dl, ?6 AS ma, ?7 AS uk, ?8 AS ev, ?9 AS cr, ?10 AS tz, ?11 AS mi, ?12 AS pr, ?13 AS tm
       UNION ALL SELECT 2, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25, ?26
       UNION ALL SELECT 3, ?27, ?28, ?29, ?30, ?31, ?32, ?33, ?34, ?35, ?36, ?37, ?38, ?39
       UNION ALL SELECT 4, ?40, ?41, ?42, ?43, ?44, ?45, ?46, ?47, ?48, ?49, ?50, ?51, ?52
       UNION ALL SELECT 5, ?53, ?54, ?55, ?56, ?57, ?58, ?59, ?60, ?61, ?62, ?63, ?64, ?65
       UNION ALL SELECT 6, ?66, ?67, ?68, ?69, ?70, ?71, ?72, ?73, ?74, ?75, ?76, ?77, ?78
       UNION ALL SELECT 7, ?79, ?80, ?81, ?82, ?83, ?84, ?85, ?86, ?87, ?88, ?89, ?90, ?91
       UNION ALL SELECT 8, ?92, ?93, ?94, ?95, ?96, ?97, ?98, ?99, ?100, ?101, ?102, ?103, ?104
       UNION ALL SELECT 9, ?105, ?106, ?107, ?108, ?109, ?110, ?111, ?112, ?113, ?114, ?115, ?116, ?117
       UNION ALL SELECT 10, ?118, ?119, ?120, ?121, ?122, ?123, ?124, ?125, ?126, ?127, ?128, ?129, ?130
       UNION ALL SELECT 11, ?131, ?132, ?133, ?134, ?135, ?136, ?137, ?138, ?139, ?140, ?141, ?142, ?143
       UNION ALL SELECT 12, ?144, ?145, ?146, ?147, ?148, ?149, ?150, ?151, ?152, ?153, ?154, ?155, ?156
       UNION ALL SELECT 13, ?157, ?158, ?159, ?160, ?161, ?162, ?163, ?164, ?165, ?166, ?167, ?168, ?169
       UNION ALL SELECT 14, ?170, ?171, ?172, ?173, ?174, ?175, ?176, ?177, ?178, ?179, ?180, ?181, ?182
       UNION ALL SELECT 15, ?183, ?184, ?185, ?186, ?187, ?188, ?189, ?190, ?191, ?192, ?193, ?194, ?195
       UNION ALL SELECT 16, ?196, ?197, ?198, ?199, ?200, ?201, ?202, ?203, ?204, ?205, ?206, ?207, ?208
       UNION ALL SELECT 17, ?209, ?210, ?211, ?212, ?213, ?214, ?215, ?216, ?217, ?218, ?219, ?220, ?221
       UNION ALL SELECT 18, ?222, ?223, ?224, ?225, ?226, ?227, ?228, ?229, ?230, ?231, ?232, ?233, ?234
       UNION ALL SELECT 19, ?235, ?236, ?237, ?238, ?239, ?240, ?241, ?242, ?243, ?244, ?245, ?246, ?247
       UNION ALL SELECT 20, ?248, ?249, ?250, ?251, ?252, ?253, ?254, ?255, ?256, ?257, ?258, ?259, ?260
       UNION ALL SELECT 21, ?261, ?262, ?263, ?264, ?265, ?266, ?267, ?268, ?269, ?270, ?271, ?272, ?273
       UNION ALL SELECT 22, ?274, ?275, ?276, ?277, ?278, ?279, ?280, ?281, ?282, ?283, ?284, ?285, ?286
       UNION ALL SELECT 23, ?287, ?288, ?289, ?290, ?291, ?292, ?293, ?294, ?295, ?296, ?297, ?298, ?299
       UNION ALL SELECT 24, ?300, ?301, ?302, ?303, ?304, ?305, ?306, ?307, ?308, ?309, ?310, ?311, ?312
       UNION ALL SELECT 25, ?313, ?314, ?315, ?316, ?317, ?318, ?319, ?320, ?321, ?322, ?323, ?324, ?325
       UNION ALL SELECT 26, ?326, ?327, ?328, ?329, ?330, ?331, ?332, ?333, ?334, ?335, ?336, ?337, ?338
       UNION ALL SELECT 27, ?339, ?340, ?341, ?342, ?343, ?344, ?345, ?346, ?347, ?348, ?349, ?350, ?351
       UNION ALL SELECT 28, ?352, ?353, ?354, ?355, ?356, ?357, ?358, ?359, ?360, ?361, ?362, ?363, ?364
       UNION ALL SELECT 29, ?365, ?366, ?367, ?368, ?369, ?370, ?371, ?372, ?373, ?374, ?375, ?376, ?377
       UNION ALL SELECT 30, ?378, ?379, ?380, ?381, ?382, ?383, ?384, ?385, ?386, ?387, ?388, ?389, ?390
       UNION ALL SELECT 31, ?391, ?392, ?393, ?394, ?395, ?396, ?397, ?398, ?399, ?400, ?401, ?402, ?403
       UNION ALL SELECT 32, ?404, ?405, ?406, ?407, ?408, ?409, ?410, ?411, ?412, ?413, ?414, ?415, ?416
       UNION ALL SELECT 33, ?417, ?418, ?419, ?420, ?421, ?422, ?423, ?424, ?425, ?426, ?427, ?428, ?429
       UNION ALL SELECT 34, ?430, ?431, ?432, ?433, ?434, ?435, ?436, ?437, ?438, ?439, ?440, ?441, ?442
       UNION ALL SELECT 35, ?443, ?444, ?445, ?446, ?447, ?448, ?449, ?450, ?451, ?452, ?453, ?454, ?455
       UNION ALL SELECT 36, ?456, ?457, ?458, ?459, ?460, ?461, ?462, ?463, ?464, ?465, ?466, ?467, ?468
       UNION ALL SELECT 37, ?469, ?470, ?471, ?472, ?473, ?474, ?475, ?476, ?477, ?478, ?479, ?480, ?481
       UNION ALL SELECT 38, ?482, ?483, ?484, ?485, ?486, ?487, ?488, ?489, ?490, ?491, ?492, ?493, ?494
       UNION ALL SELECT 39, ?495, ?496, ?497, ?498, ?499, ?500, ?501, ?502, ?503, ?504, ?505, ?506, ?507
       UNION ALL SELECT 40, ?508, ?509, ?510, ?511, ?512, ?513, ?514, ?515, ?516, ?517, ?518, ?519, ?520
       UNION ALL SELECT 41, ?521, ?522, ?523, ?524, ?525, ?526, ?527, ?528, ?529, ?530, ?531, ?532, ?533
       UNION ALL SELECT 42, ?534, ?535, ?536, ?537, ?538, ?539, ?540, ?541, ?542, ?543, ?544, ?545, ?546
       UNION ALL SELECT 43, ?547, ?548, ?549, ?550, ?551, ?552, ?553, ?554, ?555, ?556, ?557, ?558, ?559
       UNION ALL SELECT 44, ?560, ?561, ?562, ?563, ?564, ?565, ?566, ?567, ?568, ?569, ?570, ?571, ?572
       UNION ALL SELECT 45, ?573, ?574, ?575, ?576, ?577, ?578, ?579, ?580, ?581, ?582, ?583, ?584, ?585
       UNION ALL SELECT 46, ?586, ?587, ?588, ?589, ?590, ?591, ?592, ?593, ?594, ?595, ?596, ?597, ?598
       UNION ALL SELECT 47, ?599, ?600, ?601, ?602, ?603, ?604, ?605, ?606, ?607, ?608, ?609, ?610, ?611
       UNION ALL SELECT 48, ?612, ?613, ?614, ?615, ?616, ?617, ?618, ?619, ?620, ?621, ?622, ?623, ?624
       UNION ALL SELECT 49, ?625, ?626, ?627, ?628, ?629, ?630, ?631, ?632, ?633, ?634, ?635, ?636, ?637
       UNION ALL SELECT 50, ?638, ?639, ?640, ?641, ?642, ?643, ?644, ?645, ?646, ?647, ?648, ?649, ?650
       UNION ALL SELECT 51, ?651, ?652, ?653, ?654, ?655, ?656, ?657, ?658, ?659, ?660, ?661, ?662, ?663
       UNION ALL SELECT 52, ?664, ?665, ?666, ?667, ?668, ?669, ?670, ?671, ?672, ?673, ?674, ?675, ?676
       UNION ALL SELECT 53, ?677, ?678, ?679, ?680, ?681, ?682, ?683, ?684, ?685, ?686, ?687, ?688, ?689
       UNION ALL SELECT 54, ?690, ?691, ?692, ?693, ?694, ?695, ?696, ?697, ?698, ?699, ?700, ?701, ?702
       UNION ALL SELECT 55, ?703, ?704, ?705, ?706, ?707, ?708, ?709, ?710, ?711, ?712, ?713, ?714, ?715
       UNION ALL SELECT 56, ?716, ?717, ?718, ?719, ?720, ?721, ?722, ?723, ?724, ?725, ?726, ?727, ?728
       UNION ALL SELECT 57, ?729, ?730, ?731, ?732, ?733, ?734, ?735, ?736, ?737, ?738, ?739, ?740, ?741
       UNION ALL SELECT 58, ?742, ?743, ?744, ?745, ?746, ?747, ?748, ?749, ?750, ?751, ?752, ?753, ?754
       UNION ALL SELECT 59, ?755, ?756, ?757, ?758, ?759, ?760, ?761, ?762, ?763, ?764, ?765, ?766, ?767
       UNION ALL SELECT 60, ?768, ?769, ?770, ?771, ?772, ?773, ?774, ?775, ?776, ?777, ?778, ?779, ?780
       UNION ALL SELECT 61, ?781, ?782, ?783, ?784, ?785, ?786, ?787, ?788, ?789, ?790, ?791, ?792, ?793
       UNION ALL SELECT 62, ?794, ?795, ?796, ?797, ?798, ?799, ?800, ?801, ?802, ?803, ?804, ?805, ?806
       UNION ALL SELECT 63, ?807, ?808, ?809, ?810, ?811, ?812, ?813, ?814, ?815, ?816, ?817, ?818, ?819
       UNION ALL SELECT 64, ?820, ?821, ?822, ?823, ?824, ?825, ?826, ?827, ?828, ?829, ?830, ?831, ?832
       UNION ALL SELECT 65, ?833, ?834, ?835, ?836, ?837, ?838, ?839, ?840, ?841, ?842, ?843, ?844, ?845
       UNION ALL SELECT 66, ?846, ?847, ?848, ?849, ?850, ?851, ?852, ?853, ?854, ?855, ?856, ?857, ?858
       UNION ALL SELECT 67, ?859, ?860, ?861, ?862, ?863, ?864, ?865, ?866, ?867, ?868, ?869, ?870, ?871
       UNION ALL SELECT 68, ?872, ?873, ?874, ?875, ?876, ?877, ?878, ?879, ?880, ?881, ?882, ?883, ?884
       UNION ALL SELECT 69, ?885, ?886, ?887, ?888, ?889, ?890, ?891, ?892, ?893, ?894, ?895, ?896, ?897
       UNION ALL SELECT 70, ?898, ?899, ?900, ?901, ?902, ?903, ?904, ?905, ?906, ?907, ?908, ?909, ?910
       UNION ALL SELECT 71, ?911, ?912, ?913, ?914, ?915, ?916, ?917, ?918, ?919, ?920, ?921, ?922, ?923
       UNION ALL SELECT 72, ?924, ?925, ?926, ?927, ?928, ?929, ?930, ?931, ?932, ?933, ?934, ?935, ?936
       UNION ALL SELECT 73, ?937, ?938, ?939, ?940, ?941, ?942, ?943, ?944, ?945, ?946, ?947, ?948, ?949
       UNION ALL SELECT 74, ?950, ?951, ?952, ?953, ?954, ?955, ?956, ?957, ?958, ?959, ?960, ?961, ?962
       UNION ALL SELECT 75, ?963, ?964, ?965, ?966, ?967, ?968, ?969, ?970, ?971, ?972, ?973, ?974, ?975
       UNION ALL SELECT 76, ?976, ?977, ?978, ?979, ?980, ?981, ?982, ?983, ?984, ?985, ?986, ?987, ?988
       UNION ALL SELECT 77, ?989, ?990, ?991, ?992, ?993, ?994, ?995, ?996, ?997, ?998, ?999, ?1000, ?1001
       UNION ALL SELECT 78, ?1002, ?1003, ?1004, ?1005, ?1006, ?1007, ?1008, ?1009, ?1010, ?1011, ?1012, ?1013, ?1014
       UNION ALL SELECT 79, ?1015, ?1016, ?1017, ?1018, ?1019, ?1020, ?1021, ?1022, ?1023, ?1024, ?1025, ?1026, ?1027
       UNION ALL SELECT 80, ?1028, ?1029, ?1030, ?1031, ?1032, ?1033, ?1034, ?1035, ?1036, ?1037, ?1038, ?1039, ?1040
       UNION ALL SELECT 81, ?1041, ?1042, ?1043, ?1044, ?1045, ?1046, ?1047, ?1048, ?1049, ?1050, ?1051, ?1052, ?1053
       UNION ALL SELECT 82, ?1054, ?1055, ?1056, ?1057, ?1058, ?1059, ?1060, ?1061, ?1062, ?1063, ?1064, ?1065, ?1066
       UNION ALL SELECT 83, ?1067, ?1068, ?1069, ?1070, ?1071, ?1072, ?1073, ?1074, ?1075, ?1076, ?1077, ?1078, ?1079
       UNION ALL SELECT 84, ?1080, ?1081, ?1082, ?1083, ?1084, ?1085, ?1086, ?1087, ?1088, ?1089, ?1090, ?1091, ?1092
       UNION ALL SELECT 85, ?1093, ?1094, ?1095, ?1096, ?1097, ?1098, ?1099, ?1100, ?1101, ?1102, ?1103, ?1104, ?1105
       UNION ALL SELECT 86, ?1106, ?1107, ?1108, ?1109, ?1110, ?1111, ?1112, ?1113, ?1114, ?1115, ?1116, ?1117, ?1118
       UNION ALL SELECT 87, ?1119, ?1120, ?1121, ?1122, ?1123, ?1124, ?1125, ?1126, ?1127, ?1128, ?1129, ?1130, ?1131
       UNION ALL SELECT 88, ?1132, ?1133, ?1134, ?1135, ?1136, ?1137, ?1138, ?1139, ?1140, ?1141, ?1142, ?1143, ?1144
       UNION ALL SELECT 89, ?1145, ?1146, ?1147, ?1148, ?1149, ?1150, ?1151, ?1152, ?1153, ?1154, ?1155, ?1156, ?1157
       UNION ALL SELECT 90, ?1158, ?1159, ?1160, ?1161, ?1162, ?1163, ?1164, ?1165, ?1166, ?1167, ?1168, ?1169, ?1170
       UNION ALL SELECT 91, ?1171, ?1172, ?1173, ?1174, ?1175, ?1176, ?1177, ?1178, ?1179, ?1180, ?1181, ?1182, ?1183
       UNION ALL SELECT 92, ?1184, ?1185, ?1186, ?1187, ?1188, ?1189, ?1190, ?1191, ?1192, ?1193, ?1194, ?1195, ?1196
       UNION ALL SELECT 93, ?1197, ?1198, ?1199, ?1200, ?1201, ?1202, ?1203, ?1204, ?1205, ?1206, ?1207, ?1208, ?1209
       UNION ALL SELECT 94, ?1210, ?1211, ?1212, ?1213, ?1214, ?1215, ?1216, ?1217, ?1218, ?1219, ?1220, ?1221, ?1222
       UNION ALL SELECT 95, ?1223, ?1224, ?1225, ?1226, ?1227, ?1228, ?1229, ?1230, ?1231, ?1232, ?1233, ?1234, ?1235
       UNION ALL SELECT 96, ?1236, ?1237, ?1238, ?1239, ?1240, ?1241, ?1242, ?1243, ?1244, ?1245, ?1246, ?1247, ?1248
       UNION ALL SELECT 97, ?1249, ?1250, ?1251, ?1252, ?1253, ?1254, ?1255, ?1256, ?1257, ?1258, ?1259, ?1260, ?1261
       UNION ALL SELECT 98, ?1262, ?1263, ?1264, ?1265, ?1266, ?1267, ?1268, ?1269, ?1270, ?1271, ?1272, ?1273, ?1274
       UNION ALL SELECT 99, ?1275, ?1276, ?1277, ?1278, ?1279, ?1280, ?1281, ?1282, ?1283, ?1284, ?1285, ?1286, ?1287
       UNION ALL SELECT 100, ?1288, ?1289, ?1290, ?1291, ?1292, ?1293, ?1294, ?1295, ?1296, ?1297, ?1298, ?1299, ?1300) AS v
 WHERE nm IS NOT NULL
   AND (uk IS NULL OR NOT EXISTS (SELECT 1 FROM lq_task t WHERE t.unique_key = v.uk))
 ORDER BY k
RETURNING id, unique_key;

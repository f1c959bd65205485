-- Fragments written once for every dialect: embedded with each dialect's
-- own statements (CMakeLists.txt, cmake/sqlembed.c).  The parameter tables
-- of the batch statements, in the numbered ?N parameters that SQLite and
-- MySQL/MariaDB take (PostgreSQL's batch statements use arrays instead).

-- RUN_ROWS: the up to 64 runs of run_insert_many's parameters (?2..?513,
-- 8 a run, see there) as a table k, tid, ra, q, nm, att, sa, ago, oc;
-- run_count_many reads the same parameters to count what it wrote.
-- fragment: RUN_ROWS
SELECT 1 AS k, ?2 AS tid, ?3 AS ra, ?4 AS q, ?5 AS nm, ?6 AS att, ?7 AS sa, ?8 AS ago, ?9 AS oc
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
       UNION ALL SELECT 64, ?506, ?507, ?508, ?509, ?510, ?511, ?512, ?513

-- TASK_ROWS: the up to 100 tasks of task_insert_many's parameters
-- (?1..?1300, 13 a task, see there) as a table k, q, nm, pl, ra, dl, ma,
-- uk, ev, cr, tz, mi, pr, tm.
-- fragment: TASK_ROWS
SELECT 1 AS k, ?1 AS q, ?2 AS nm, ?3 AS pl, ?4 AS ra, ?5 AS dl, ?6 AS ma, ?7 AS uk, ?8 AS ev, ?9 AS cr, ?10 AS tz, ?11 AS mi, ?12 AS pr, ?13 AS tm
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
       UNION ALL SELECT 100, ?1288, ?1289, ?1290, ?1291, ?1292, ?1293, ?1294, ?1295, ?1296, ?1297, ?1298, ?1299, ?1300

-- TASK_ROWS_SAME: the names and payloads of task_insert_many_same
-- (?12..?211, 2 a task) as a table k, nm, pl.
-- fragment: TASK_ROWS_SAME
SELECT 1 AS k, ?12 AS nm, ?13 AS pl
       UNION ALL SELECT 2, ?14, ?15
       UNION ALL SELECT 3, ?16, ?17
       UNION ALL SELECT 4, ?18, ?19
       UNION ALL SELECT 5, ?20, ?21
       UNION ALL SELECT 6, ?22, ?23
       UNION ALL SELECT 7, ?24, ?25
       UNION ALL SELECT 8, ?26, ?27
       UNION ALL SELECT 9, ?28, ?29
       UNION ALL SELECT 10, ?30, ?31
       UNION ALL SELECT 11, ?32, ?33
       UNION ALL SELECT 12, ?34, ?35
       UNION ALL SELECT 13, ?36, ?37
       UNION ALL SELECT 14, ?38, ?39
       UNION ALL SELECT 15, ?40, ?41
       UNION ALL SELECT 16, ?42, ?43
       UNION ALL SELECT 17, ?44, ?45
       UNION ALL SELECT 18, ?46, ?47
       UNION ALL SELECT 19, ?48, ?49
       UNION ALL SELECT 20, ?50, ?51
       UNION ALL SELECT 21, ?52, ?53
       UNION ALL SELECT 22, ?54, ?55
       UNION ALL SELECT 23, ?56, ?57
       UNION ALL SELECT 24, ?58, ?59
       UNION ALL SELECT 25, ?60, ?61
       UNION ALL SELECT 26, ?62, ?63
       UNION ALL SELECT 27, ?64, ?65
       UNION ALL SELECT 28, ?66, ?67
       UNION ALL SELECT 29, ?68, ?69
       UNION ALL SELECT 30, ?70, ?71
       UNION ALL SELECT 31, ?72, ?73
       UNION ALL SELECT 32, ?74, ?75
       UNION ALL SELECT 33, ?76, ?77
       UNION ALL SELECT 34, ?78, ?79
       UNION ALL SELECT 35, ?80, ?81
       UNION ALL SELECT 36, ?82, ?83
       UNION ALL SELECT 37, ?84, ?85
       UNION ALL SELECT 38, ?86, ?87
       UNION ALL SELECT 39, ?88, ?89
       UNION ALL SELECT 40, ?90, ?91
       UNION ALL SELECT 41, ?92, ?93
       UNION ALL SELECT 42, ?94, ?95
       UNION ALL SELECT 43, ?96, ?97
       UNION ALL SELECT 44, ?98, ?99
       UNION ALL SELECT 45, ?100, ?101
       UNION ALL SELECT 46, ?102, ?103
       UNION ALL SELECT 47, ?104, ?105
       UNION ALL SELECT 48, ?106, ?107
       UNION ALL SELECT 49, ?108, ?109
       UNION ALL SELECT 50, ?110, ?111
       UNION ALL SELECT 51, ?112, ?113
       UNION ALL SELECT 52, ?114, ?115
       UNION ALL SELECT 53, ?116, ?117
       UNION ALL SELECT 54, ?118, ?119
       UNION ALL SELECT 55, ?120, ?121
       UNION ALL SELECT 56, ?122, ?123
       UNION ALL SELECT 57, ?124, ?125
       UNION ALL SELECT 58, ?126, ?127
       UNION ALL SELECT 59, ?128, ?129
       UNION ALL SELECT 60, ?130, ?131
       UNION ALL SELECT 61, ?132, ?133
       UNION ALL SELECT 62, ?134, ?135
       UNION ALL SELECT 63, ?136, ?137
       UNION ALL SELECT 64, ?138, ?139
       UNION ALL SELECT 65, ?140, ?141
       UNION ALL SELECT 66, ?142, ?143
       UNION ALL SELECT 67, ?144, ?145
       UNION ALL SELECT 68, ?146, ?147
       UNION ALL SELECT 69, ?148, ?149
       UNION ALL SELECT 70, ?150, ?151
       UNION ALL SELECT 71, ?152, ?153
       UNION ALL SELECT 72, ?154, ?155
       UNION ALL SELECT 73, ?156, ?157
       UNION ALL SELECT 74, ?158, ?159
       UNION ALL SELECT 75, ?160, ?161
       UNION ALL SELECT 76, ?162, ?163
       UNION ALL SELECT 77, ?164, ?165
       UNION ALL SELECT 78, ?166, ?167
       UNION ALL SELECT 79, ?168, ?169
       UNION ALL SELECT 80, ?170, ?171
       UNION ALL SELECT 81, ?172, ?173
       UNION ALL SELECT 82, ?174, ?175
       UNION ALL SELECT 83, ?176, ?177
       UNION ALL SELECT 84, ?178, ?179
       UNION ALL SELECT 85, ?180, ?181
       UNION ALL SELECT 86, ?182, ?183
       UNION ALL SELECT 87, ?184, ?185
       UNION ALL SELECT 88, ?186, ?187
       UNION ALL SELECT 89, ?188, ?189
       UNION ALL SELECT 90, ?190, ?191
       UNION ALL SELECT 91, ?192, ?193
       UNION ALL SELECT 92, ?194, ?195
       UNION ALL SELECT 93, ?196, ?197
       UNION ALL SELECT 94, ?198, ?199
       UNION ALL SELECT 95, ?200, ?201
       UNION ALL SELECT 96, ?202, ?203
       UNION ALL SELECT 97, ?204, ?205
       UNION ALL SELECT 98, ?206, ?207
       UNION ALL SELECT 99, ?208, ?209
       UNION ALL SELECT 100, ?210, ?211

-- SCHEDULE_COLS: what schedule_list and schedule_alerts read of a recurring
-- task (lq_schedule, lib/steer.c).
-- fragment: SCHEDULE_COLS
id, queue, name, every_ms, cron, tz, paused, overlap, catch_up, missed,
alert_after_ms, last_success_at, created_at, run_at, next_at, {{NOW}}

-- PART_SERVE_ROWS: the up to 16 (partition, stamp) pairs of
-- partition_serve's parameters (?2..?33) as a table nm, st.
-- fragment: PART_SERVE_ROWS
SELECT ?2 AS nm, ?3 AS st
       UNION ALL SELECT ?4, ?5
       UNION ALL SELECT ?6, ?7
       UNION ALL SELECT ?8, ?9
       UNION ALL SELECT ?10, ?11
       UNION ALL SELECT ?12, ?13
       UNION ALL SELECT ?14, ?15
       UNION ALL SELECT ?16, ?17
       UNION ALL SELECT ?18, ?19
       UNION ALL SELECT ?20, ?21
       UNION ALL SELECT ?22, ?23
       UNION ALL SELECT ?24, ?25
       UNION ALL SELECT ?26, ?27
       UNION ALL SELECT ?28, ?29
       UNION ALL SELECT ?30, ?31
       UNION ALL SELECT ?32, ?33

-- CLAIM_SET_IDS: 100 ids (?1..?100, unused places NULL, which match
-- nothing), as task_claim_delete_set and task_set_part_set take them.
-- fragment: CLAIM_SET_IDS
?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16,
?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25, ?26, ?27, ?28, ?29, ?30,
?31, ?32, ?33, ?34, ?35, ?36, ?37, ?38, ?39, ?40, ?41, ?42, ?43, ?44,
?45, ?46, ?47, ?48, ?49, ?50, ?51, ?52, ?53, ?54, ?55, ?56, ?57, ?58,
?59, ?60, ?61, ?62, ?63, ?64, ?65, ?66, ?67, ?68, ?69, ?70, ?71, ?72,
?73, ?74, ?75, ?76, ?77, ?78, ?79, ?80, ?81, ?82, ?83, ?84, ?85, ?86,
?87, ?88, ?89, ?90, ?91, ?92, ?93, ?94, ?95, ?96, ?97, ?98, ?99, ?100

-- CLAIM_SET_OWNER_IDS: task_claim_update_set's 100 ids, after its owner
-- and claim lease (?3..?102).
-- fragment: CLAIM_SET_OWNER_IDS
?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17,
?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25, ?26, ?27, ?28, ?29, ?30, ?31,
?32, ?33, ?34, ?35, ?36, ?37, ?38, ?39, ?40, ?41, ?42, ?43, ?44, ?45,
?46, ?47, ?48, ?49, ?50, ?51, ?52, ?53, ?54, ?55, ?56, ?57, ?58, ?59,
?60, ?61, ?62, ?63, ?64, ?65, ?66, ?67, ?68, ?69, ?70, ?71, ?72, ?73,
?74, ?75, ?76, ?77, ?78, ?79, ?80, ?81, ?82, ?83, ?84, ?85, ?86, ?87,
?88, ?89, ?90, ?91, ?92, ?93, ?94, ?95, ?96, ?97, ?98, ?99, ?100, ?101,
?102

-- ONE_OFF_CLAIMABLE: the re-check of a claim by id (task_claim_delete and
-- the set claims of SQLite and MySQL/MariaDB): a one-off task, due,
-- unpaused, unclaimed or its claim expired ({{NOW}} and {{CLAIM_FREE}} are
-- each dialect's own).
-- fragment: ONE_OFF_CLAIMABLE
every_ms IS NULL AND cron IS NULL
   AND run_at <= {{NOW}}
   AND paused = 0
   AND ({{CLAIM_FREE}})

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
-- (?1..?1500, 15 a task, see there) as a table k, q, nm, pl, ra, dl, ma,
-- uk, ev, cr, tz, mi, pr, tm, ck, pt.
-- fragment: TASK_ROWS
SELECT 1 AS k, ?1 AS q, ?2 AS nm, ?3 AS pl, ?4 AS ra, ?5 AS dl, ?6 AS ma, ?7 AS uk, ?8 AS ev, ?9 AS cr, ?10 AS tz, ?11 AS mi, ?12 AS pr, ?13 AS tm, ?14 AS ck, ?15 AS pt
       UNION ALL SELECT 2, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25, ?26, ?27, ?28, ?29, ?30
       UNION ALL SELECT 3, ?31, ?32, ?33, ?34, ?35, ?36, ?37, ?38, ?39, ?40, ?41, ?42, ?43, ?44, ?45
       UNION ALL SELECT 4, ?46, ?47, ?48, ?49, ?50, ?51, ?52, ?53, ?54, ?55, ?56, ?57, ?58, ?59, ?60
       UNION ALL SELECT 5, ?61, ?62, ?63, ?64, ?65, ?66, ?67, ?68, ?69, ?70, ?71, ?72, ?73, ?74, ?75
       UNION ALL SELECT 6, ?76, ?77, ?78, ?79, ?80, ?81, ?82, ?83, ?84, ?85, ?86, ?87, ?88, ?89, ?90
       UNION ALL SELECT 7, ?91, ?92, ?93, ?94, ?95, ?96, ?97, ?98, ?99, ?100, ?101, ?102, ?103, ?104, ?105
       UNION ALL SELECT 8, ?106, ?107, ?108, ?109, ?110, ?111, ?112, ?113, ?114, ?115, ?116, ?117, ?118, ?119, ?120
       UNION ALL SELECT 9, ?121, ?122, ?123, ?124, ?125, ?126, ?127, ?128, ?129, ?130, ?131, ?132, ?133, ?134, ?135
       UNION ALL SELECT 10, ?136, ?137, ?138, ?139, ?140, ?141, ?142, ?143, ?144, ?145, ?146, ?147, ?148, ?149, ?150
       UNION ALL SELECT 11, ?151, ?152, ?153, ?154, ?155, ?156, ?157, ?158, ?159, ?160, ?161, ?162, ?163, ?164, ?165
       UNION ALL SELECT 12, ?166, ?167, ?168, ?169, ?170, ?171, ?172, ?173, ?174, ?175, ?176, ?177, ?178, ?179, ?180
       UNION ALL SELECT 13, ?181, ?182, ?183, ?184, ?185, ?186, ?187, ?188, ?189, ?190, ?191, ?192, ?193, ?194, ?195
       UNION ALL SELECT 14, ?196, ?197, ?198, ?199, ?200, ?201, ?202, ?203, ?204, ?205, ?206, ?207, ?208, ?209, ?210
       UNION ALL SELECT 15, ?211, ?212, ?213, ?214, ?215, ?216, ?217, ?218, ?219, ?220, ?221, ?222, ?223, ?224, ?225
       UNION ALL SELECT 16, ?226, ?227, ?228, ?229, ?230, ?231, ?232, ?233, ?234, ?235, ?236, ?237, ?238, ?239, ?240
       UNION ALL SELECT 17, ?241, ?242, ?243, ?244, ?245, ?246, ?247, ?248, ?249, ?250, ?251, ?252, ?253, ?254, ?255
       UNION ALL SELECT 18, ?256, ?257, ?258, ?259, ?260, ?261, ?262, ?263, ?264, ?265, ?266, ?267, ?268, ?269, ?270
       UNION ALL SELECT 19, ?271, ?272, ?273, ?274, ?275, ?276, ?277, ?278, ?279, ?280, ?281, ?282, ?283, ?284, ?285
       UNION ALL SELECT 20, ?286, ?287, ?288, ?289, ?290, ?291, ?292, ?293, ?294, ?295, ?296, ?297, ?298, ?299, ?300
       UNION ALL SELECT 21, ?301, ?302, ?303, ?304, ?305, ?306, ?307, ?308, ?309, ?310, ?311, ?312, ?313, ?314, ?315
       UNION ALL SELECT 22, ?316, ?317, ?318, ?319, ?320, ?321, ?322, ?323, ?324, ?325, ?326, ?327, ?328, ?329, ?330
       UNION ALL SELECT 23, ?331, ?332, ?333, ?334, ?335, ?336, ?337, ?338, ?339, ?340, ?341, ?342, ?343, ?344, ?345
       UNION ALL SELECT 24, ?346, ?347, ?348, ?349, ?350, ?351, ?352, ?353, ?354, ?355, ?356, ?357, ?358, ?359, ?360
       UNION ALL SELECT 25, ?361, ?362, ?363, ?364, ?365, ?366, ?367, ?368, ?369, ?370, ?371, ?372, ?373, ?374, ?375
       UNION ALL SELECT 26, ?376, ?377, ?378, ?379, ?380, ?381, ?382, ?383, ?384, ?385, ?386, ?387, ?388, ?389, ?390
       UNION ALL SELECT 27, ?391, ?392, ?393, ?394, ?395, ?396, ?397, ?398, ?399, ?400, ?401, ?402, ?403, ?404, ?405
       UNION ALL SELECT 28, ?406, ?407, ?408, ?409, ?410, ?411, ?412, ?413, ?414, ?415, ?416, ?417, ?418, ?419, ?420
       UNION ALL SELECT 29, ?421, ?422, ?423, ?424, ?425, ?426, ?427, ?428, ?429, ?430, ?431, ?432, ?433, ?434, ?435
       UNION ALL SELECT 30, ?436, ?437, ?438, ?439, ?440, ?441, ?442, ?443, ?444, ?445, ?446, ?447, ?448, ?449, ?450
       UNION ALL SELECT 31, ?451, ?452, ?453, ?454, ?455, ?456, ?457, ?458, ?459, ?460, ?461, ?462, ?463, ?464, ?465
       UNION ALL SELECT 32, ?466, ?467, ?468, ?469, ?470, ?471, ?472, ?473, ?474, ?475, ?476, ?477, ?478, ?479, ?480
       UNION ALL SELECT 33, ?481, ?482, ?483, ?484, ?485, ?486, ?487, ?488, ?489, ?490, ?491, ?492, ?493, ?494, ?495
       UNION ALL SELECT 34, ?496, ?497, ?498, ?499, ?500, ?501, ?502, ?503, ?504, ?505, ?506, ?507, ?508, ?509, ?510
       UNION ALL SELECT 35, ?511, ?512, ?513, ?514, ?515, ?516, ?517, ?518, ?519, ?520, ?521, ?522, ?523, ?524, ?525
       UNION ALL SELECT 36, ?526, ?527, ?528, ?529, ?530, ?531, ?532, ?533, ?534, ?535, ?536, ?537, ?538, ?539, ?540
       UNION ALL SELECT 37, ?541, ?542, ?543, ?544, ?545, ?546, ?547, ?548, ?549, ?550, ?551, ?552, ?553, ?554, ?555
       UNION ALL SELECT 38, ?556, ?557, ?558, ?559, ?560, ?561, ?562, ?563, ?564, ?565, ?566, ?567, ?568, ?569, ?570
       UNION ALL SELECT 39, ?571, ?572, ?573, ?574, ?575, ?576, ?577, ?578, ?579, ?580, ?581, ?582, ?583, ?584, ?585
       UNION ALL SELECT 40, ?586, ?587, ?588, ?589, ?590, ?591, ?592, ?593, ?594, ?595, ?596, ?597, ?598, ?599, ?600
       UNION ALL SELECT 41, ?601, ?602, ?603, ?604, ?605, ?606, ?607, ?608, ?609, ?610, ?611, ?612, ?613, ?614, ?615
       UNION ALL SELECT 42, ?616, ?617, ?618, ?619, ?620, ?621, ?622, ?623, ?624, ?625, ?626, ?627, ?628, ?629, ?630
       UNION ALL SELECT 43, ?631, ?632, ?633, ?634, ?635, ?636, ?637, ?638, ?639, ?640, ?641, ?642, ?643, ?644, ?645
       UNION ALL SELECT 44, ?646, ?647, ?648, ?649, ?650, ?651, ?652, ?653, ?654, ?655, ?656, ?657, ?658, ?659, ?660
       UNION ALL SELECT 45, ?661, ?662, ?663, ?664, ?665, ?666, ?667, ?668, ?669, ?670, ?671, ?672, ?673, ?674, ?675
       UNION ALL SELECT 46, ?676, ?677, ?678, ?679, ?680, ?681, ?682, ?683, ?684, ?685, ?686, ?687, ?688, ?689, ?690
       UNION ALL SELECT 47, ?691, ?692, ?693, ?694, ?695, ?696, ?697, ?698, ?699, ?700, ?701, ?702, ?703, ?704, ?705
       UNION ALL SELECT 48, ?706, ?707, ?708, ?709, ?710, ?711, ?712, ?713, ?714, ?715, ?716, ?717, ?718, ?719, ?720
       UNION ALL SELECT 49, ?721, ?722, ?723, ?724, ?725, ?726, ?727, ?728, ?729, ?730, ?731, ?732, ?733, ?734, ?735
       UNION ALL SELECT 50, ?736, ?737, ?738, ?739, ?740, ?741, ?742, ?743, ?744, ?745, ?746, ?747, ?748, ?749, ?750
       UNION ALL SELECT 51, ?751, ?752, ?753, ?754, ?755, ?756, ?757, ?758, ?759, ?760, ?761, ?762, ?763, ?764, ?765
       UNION ALL SELECT 52, ?766, ?767, ?768, ?769, ?770, ?771, ?772, ?773, ?774, ?775, ?776, ?777, ?778, ?779, ?780
       UNION ALL SELECT 53, ?781, ?782, ?783, ?784, ?785, ?786, ?787, ?788, ?789, ?790, ?791, ?792, ?793, ?794, ?795
       UNION ALL SELECT 54, ?796, ?797, ?798, ?799, ?800, ?801, ?802, ?803, ?804, ?805, ?806, ?807, ?808, ?809, ?810
       UNION ALL SELECT 55, ?811, ?812, ?813, ?814, ?815, ?816, ?817, ?818, ?819, ?820, ?821, ?822, ?823, ?824, ?825
       UNION ALL SELECT 56, ?826, ?827, ?828, ?829, ?830, ?831, ?832, ?833, ?834, ?835, ?836, ?837, ?838, ?839, ?840
       UNION ALL SELECT 57, ?841, ?842, ?843, ?844, ?845, ?846, ?847, ?848, ?849, ?850, ?851, ?852, ?853, ?854, ?855
       UNION ALL SELECT 58, ?856, ?857, ?858, ?859, ?860, ?861, ?862, ?863, ?864, ?865, ?866, ?867, ?868, ?869, ?870
       UNION ALL SELECT 59, ?871, ?872, ?873, ?874, ?875, ?876, ?877, ?878, ?879, ?880, ?881, ?882, ?883, ?884, ?885
       UNION ALL SELECT 60, ?886, ?887, ?888, ?889, ?890, ?891, ?892, ?893, ?894, ?895, ?896, ?897, ?898, ?899, ?900
       UNION ALL SELECT 61, ?901, ?902, ?903, ?904, ?905, ?906, ?907, ?908, ?909, ?910, ?911, ?912, ?913, ?914, ?915
       UNION ALL SELECT 62, ?916, ?917, ?918, ?919, ?920, ?921, ?922, ?923, ?924, ?925, ?926, ?927, ?928, ?929, ?930
       UNION ALL SELECT 63, ?931, ?932, ?933, ?934, ?935, ?936, ?937, ?938, ?939, ?940, ?941, ?942, ?943, ?944, ?945
       UNION ALL SELECT 64, ?946, ?947, ?948, ?949, ?950, ?951, ?952, ?953, ?954, ?955, ?956, ?957, ?958, ?959, ?960
       UNION ALL SELECT 65, ?961, ?962, ?963, ?964, ?965, ?966, ?967, ?968, ?969, ?970, ?971, ?972, ?973, ?974, ?975
       UNION ALL SELECT 66, ?976, ?977, ?978, ?979, ?980, ?981, ?982, ?983, ?984, ?985, ?986, ?987, ?988, ?989, ?990
       UNION ALL SELECT 67, ?991, ?992, ?993, ?994, ?995, ?996, ?997, ?998, ?999, ?1000, ?1001, ?1002, ?1003, ?1004, ?1005
       UNION ALL SELECT 68, ?1006, ?1007, ?1008, ?1009, ?1010, ?1011, ?1012, ?1013, ?1014, ?1015, ?1016, ?1017, ?1018, ?1019, ?1020
       UNION ALL SELECT 69, ?1021, ?1022, ?1023, ?1024, ?1025, ?1026, ?1027, ?1028, ?1029, ?1030, ?1031, ?1032, ?1033, ?1034, ?1035
       UNION ALL SELECT 70, ?1036, ?1037, ?1038, ?1039, ?1040, ?1041, ?1042, ?1043, ?1044, ?1045, ?1046, ?1047, ?1048, ?1049, ?1050
       UNION ALL SELECT 71, ?1051, ?1052, ?1053, ?1054, ?1055, ?1056, ?1057, ?1058, ?1059, ?1060, ?1061, ?1062, ?1063, ?1064, ?1065
       UNION ALL SELECT 72, ?1066, ?1067, ?1068, ?1069, ?1070, ?1071, ?1072, ?1073, ?1074, ?1075, ?1076, ?1077, ?1078, ?1079, ?1080
       UNION ALL SELECT 73, ?1081, ?1082, ?1083, ?1084, ?1085, ?1086, ?1087, ?1088, ?1089, ?1090, ?1091, ?1092, ?1093, ?1094, ?1095
       UNION ALL SELECT 74, ?1096, ?1097, ?1098, ?1099, ?1100, ?1101, ?1102, ?1103, ?1104, ?1105, ?1106, ?1107, ?1108, ?1109, ?1110
       UNION ALL SELECT 75, ?1111, ?1112, ?1113, ?1114, ?1115, ?1116, ?1117, ?1118, ?1119, ?1120, ?1121, ?1122, ?1123, ?1124, ?1125
       UNION ALL SELECT 76, ?1126, ?1127, ?1128, ?1129, ?1130, ?1131, ?1132, ?1133, ?1134, ?1135, ?1136, ?1137, ?1138, ?1139, ?1140
       UNION ALL SELECT 77, ?1141, ?1142, ?1143, ?1144, ?1145, ?1146, ?1147, ?1148, ?1149, ?1150, ?1151, ?1152, ?1153, ?1154, ?1155
       UNION ALL SELECT 78, ?1156, ?1157, ?1158, ?1159, ?1160, ?1161, ?1162, ?1163, ?1164, ?1165, ?1166, ?1167, ?1168, ?1169, ?1170
       UNION ALL SELECT 79, ?1171, ?1172, ?1173, ?1174, ?1175, ?1176, ?1177, ?1178, ?1179, ?1180, ?1181, ?1182, ?1183, ?1184, ?1185
       UNION ALL SELECT 80, ?1186, ?1187, ?1188, ?1189, ?1190, ?1191, ?1192, ?1193, ?1194, ?1195, ?1196, ?1197, ?1198, ?1199, ?1200
       UNION ALL SELECT 81, ?1201, ?1202, ?1203, ?1204, ?1205, ?1206, ?1207, ?1208, ?1209, ?1210, ?1211, ?1212, ?1213, ?1214, ?1215
       UNION ALL SELECT 82, ?1216, ?1217, ?1218, ?1219, ?1220, ?1221, ?1222, ?1223, ?1224, ?1225, ?1226, ?1227, ?1228, ?1229, ?1230
       UNION ALL SELECT 83, ?1231, ?1232, ?1233, ?1234, ?1235, ?1236, ?1237, ?1238, ?1239, ?1240, ?1241, ?1242, ?1243, ?1244, ?1245
       UNION ALL SELECT 84, ?1246, ?1247, ?1248, ?1249, ?1250, ?1251, ?1252, ?1253, ?1254, ?1255, ?1256, ?1257, ?1258, ?1259, ?1260
       UNION ALL SELECT 85, ?1261, ?1262, ?1263, ?1264, ?1265, ?1266, ?1267, ?1268, ?1269, ?1270, ?1271, ?1272, ?1273, ?1274, ?1275
       UNION ALL SELECT 86, ?1276, ?1277, ?1278, ?1279, ?1280, ?1281, ?1282, ?1283, ?1284, ?1285, ?1286, ?1287, ?1288, ?1289, ?1290
       UNION ALL SELECT 87, ?1291, ?1292, ?1293, ?1294, ?1295, ?1296, ?1297, ?1298, ?1299, ?1300, ?1301, ?1302, ?1303, ?1304, ?1305
       UNION ALL SELECT 88, ?1306, ?1307, ?1308, ?1309, ?1310, ?1311, ?1312, ?1313, ?1314, ?1315, ?1316, ?1317, ?1318, ?1319, ?1320
       UNION ALL SELECT 89, ?1321, ?1322, ?1323, ?1324, ?1325, ?1326, ?1327, ?1328, ?1329, ?1330, ?1331, ?1332, ?1333, ?1334, ?1335
       UNION ALL SELECT 90, ?1336, ?1337, ?1338, ?1339, ?1340, ?1341, ?1342, ?1343, ?1344, ?1345, ?1346, ?1347, ?1348, ?1349, ?1350
       UNION ALL SELECT 91, ?1351, ?1352, ?1353, ?1354, ?1355, ?1356, ?1357, ?1358, ?1359, ?1360, ?1361, ?1362, ?1363, ?1364, ?1365
       UNION ALL SELECT 92, ?1366, ?1367, ?1368, ?1369, ?1370, ?1371, ?1372, ?1373, ?1374, ?1375, ?1376, ?1377, ?1378, ?1379, ?1380
       UNION ALL SELECT 93, ?1381, ?1382, ?1383, ?1384, ?1385, ?1386, ?1387, ?1388, ?1389, ?1390, ?1391, ?1392, ?1393, ?1394, ?1395
       UNION ALL SELECT 94, ?1396, ?1397, ?1398, ?1399, ?1400, ?1401, ?1402, ?1403, ?1404, ?1405, ?1406, ?1407, ?1408, ?1409, ?1410
       UNION ALL SELECT 95, ?1411, ?1412, ?1413, ?1414, ?1415, ?1416, ?1417, ?1418, ?1419, ?1420, ?1421, ?1422, ?1423, ?1424, ?1425
       UNION ALL SELECT 96, ?1426, ?1427, ?1428, ?1429, ?1430, ?1431, ?1432, ?1433, ?1434, ?1435, ?1436, ?1437, ?1438, ?1439, ?1440
       UNION ALL SELECT 97, ?1441, ?1442, ?1443, ?1444, ?1445, ?1446, ?1447, ?1448, ?1449, ?1450, ?1451, ?1452, ?1453, ?1454, ?1455
       UNION ALL SELECT 98, ?1456, ?1457, ?1458, ?1459, ?1460, ?1461, ?1462, ?1463, ?1464, ?1465, ?1466, ?1467, ?1468, ?1469, ?1470
       UNION ALL SELECT 99, ?1471, ?1472, ?1473, ?1474, ?1475, ?1476, ?1477, ?1478, ?1479, ?1480, ?1481, ?1482, ?1483, ?1484, ?1485
       UNION ALL SELECT 100, ?1486, ?1487, ?1488, ?1489, ?1490, ?1491, ?1492, ?1493, ?1494, ?1495, ?1496, ?1497, ?1498, ?1499, ?1500

-- TASK_ROWS_SAME: the names and payloads of task_insert_many_same
-- (?14..?213, 2 a task) as a table k, nm, pl.
-- fragment: TASK_ROWS_SAME
SELECT 1 AS k, ?14 AS nm, ?15 AS pl
       UNION ALL SELECT 2, ?16, ?17
       UNION ALL SELECT 3, ?18, ?19
       UNION ALL SELECT 4, ?20, ?21
       UNION ALL SELECT 5, ?22, ?23
       UNION ALL SELECT 6, ?24, ?25
       UNION ALL SELECT 7, ?26, ?27
       UNION ALL SELECT 8, ?28, ?29
       UNION ALL SELECT 9, ?30, ?31
       UNION ALL SELECT 10, ?32, ?33
       UNION ALL SELECT 11, ?34, ?35
       UNION ALL SELECT 12, ?36, ?37
       UNION ALL SELECT 13, ?38, ?39
       UNION ALL SELECT 14, ?40, ?41
       UNION ALL SELECT 15, ?42, ?43
       UNION ALL SELECT 16, ?44, ?45
       UNION ALL SELECT 17, ?46, ?47
       UNION ALL SELECT 18, ?48, ?49
       UNION ALL SELECT 19, ?50, ?51
       UNION ALL SELECT 20, ?52, ?53
       UNION ALL SELECT 21, ?54, ?55
       UNION ALL SELECT 22, ?56, ?57
       UNION ALL SELECT 23, ?58, ?59
       UNION ALL SELECT 24, ?60, ?61
       UNION ALL SELECT 25, ?62, ?63
       UNION ALL SELECT 26, ?64, ?65
       UNION ALL SELECT 27, ?66, ?67
       UNION ALL SELECT 28, ?68, ?69
       UNION ALL SELECT 29, ?70, ?71
       UNION ALL SELECT 30, ?72, ?73
       UNION ALL SELECT 31, ?74, ?75
       UNION ALL SELECT 32, ?76, ?77
       UNION ALL SELECT 33, ?78, ?79
       UNION ALL SELECT 34, ?80, ?81
       UNION ALL SELECT 35, ?82, ?83
       UNION ALL SELECT 36, ?84, ?85
       UNION ALL SELECT 37, ?86, ?87
       UNION ALL SELECT 38, ?88, ?89
       UNION ALL SELECT 39, ?90, ?91
       UNION ALL SELECT 40, ?92, ?93
       UNION ALL SELECT 41, ?94, ?95
       UNION ALL SELECT 42, ?96, ?97
       UNION ALL SELECT 43, ?98, ?99
       UNION ALL SELECT 44, ?100, ?101
       UNION ALL SELECT 45, ?102, ?103
       UNION ALL SELECT 46, ?104, ?105
       UNION ALL SELECT 47, ?106, ?107
       UNION ALL SELECT 48, ?108, ?109
       UNION ALL SELECT 49, ?110, ?111
       UNION ALL SELECT 50, ?112, ?113
       UNION ALL SELECT 51, ?114, ?115
       UNION ALL SELECT 52, ?116, ?117
       UNION ALL SELECT 53, ?118, ?119
       UNION ALL SELECT 54, ?120, ?121
       UNION ALL SELECT 55, ?122, ?123
       UNION ALL SELECT 56, ?124, ?125
       UNION ALL SELECT 57, ?126, ?127
       UNION ALL SELECT 58, ?128, ?129
       UNION ALL SELECT 59, ?130, ?131
       UNION ALL SELECT 60, ?132, ?133
       UNION ALL SELECT 61, ?134, ?135
       UNION ALL SELECT 62, ?136, ?137
       UNION ALL SELECT 63, ?138, ?139
       UNION ALL SELECT 64, ?140, ?141
       UNION ALL SELECT 65, ?142, ?143
       UNION ALL SELECT 66, ?144, ?145
       UNION ALL SELECT 67, ?146, ?147
       UNION ALL SELECT 68, ?148, ?149
       UNION ALL SELECT 69, ?150, ?151
       UNION ALL SELECT 70, ?152, ?153
       UNION ALL SELECT 71, ?154, ?155
       UNION ALL SELECT 72, ?156, ?157
       UNION ALL SELECT 73, ?158, ?159
       UNION ALL SELECT 74, ?160, ?161
       UNION ALL SELECT 75, ?162, ?163
       UNION ALL SELECT 76, ?164, ?165
       UNION ALL SELECT 77, ?166, ?167
       UNION ALL SELECT 78, ?168, ?169
       UNION ALL SELECT 79, ?170, ?171
       UNION ALL SELECT 80, ?172, ?173
       UNION ALL SELECT 81, ?174, ?175
       UNION ALL SELECT 82, ?176, ?177
       UNION ALL SELECT 83, ?178, ?179
       UNION ALL SELECT 84, ?180, ?181
       UNION ALL SELECT 85, ?182, ?183
       UNION ALL SELECT 86, ?184, ?185
       UNION ALL SELECT 87, ?186, ?187
       UNION ALL SELECT 88, ?188, ?189
       UNION ALL SELECT 89, ?190, ?191
       UNION ALL SELECT 90, ?192, ?193
       UNION ALL SELECT 91, ?194, ?195
       UNION ALL SELECT 92, ?196, ?197
       UNION ALL SELECT 93, ?198, ?199
       UNION ALL SELECT 94, ?200, ?201
       UNION ALL SELECT 95, ?202, ?203
       UNION ALL SELECT 96, ?204, ?205
       UNION ALL SELECT 97, ?206, ?207
       UNION ALL SELECT 98, ?208, ?209
       UNION ALL SELECT 99, ?210, ?211
       UNION ALL SELECT 100, ?212, ?213

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

-- PART_TOUCH_ROWS: the partition of the tasks without one ('') and the
-- up to 16 partitions of partition_touch_many's parameters (?2..?17) as a
-- table nm.
-- fragment: PART_TOUCH_ROWS
SELECT '' AS nm
       UNION ALL SELECT ?2
       UNION ALL SELECT ?3
       UNION ALL SELECT ?4
       UNION ALL SELECT ?5
       UNION ALL SELECT ?6
       UNION ALL SELECT ?7
       UNION ALL SELECT ?8
       UNION ALL SELECT ?9
       UNION ALL SELECT ?10
       UNION ALL SELECT ?11
       UNION ALL SELECT ?12
       UNION ALL SELECT ?13
       UNION ALL SELECT ?14
       UNION ALL SELECT ?15
       UNION ALL SELECT ?16
       UNION ALL SELECT ?17

-- CLAIM_SET_IDS: 100 ids (?1..?100, unused places NULL, which match
-- nothing), as task_claim_delete_set takes them.
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

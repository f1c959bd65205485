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

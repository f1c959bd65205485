-- leaseq schema step 10 (MySQL/MariaDB): no trigger and no stored routine.
-- The statements of sql/mysql count the runs (run_count and
-- run_count_many, in the transaction of the run_insert they follow) and the
-- lost and broken leases (the lease statements that bump a token), and the
-- at-least-once ack is a transaction of plain statements.  Why: a server
-- with binary logging (managed MySQL, Galera) accepts a trigger or a
-- routine only from a user with SUPER or with log_bin_trust_function_creators
-- on (error 1419).
--
-- What migration 0007 made up to schema version 9 goes (a fresh 0007 no
-- longer makes it).  DROP TRIGGER asks for the same right as CREATE
-- TRIGGER, even with IF EXISTS, so the drops run only where 0007 was the
-- old one: where lq_counter lacks the comment the new 0007 gives it.  Not
-- where information_schema shows no trigger: it shows a user only the
-- triggers of tables it holds the TRIGGER right on, and a trigger left
-- behind would count every run twice.  The comment is set last, so each
-- statement is safe to run again.
SET @lq_old = NOT EXISTS (SELECT 1 FROM information_schema.tables
                           WHERE table_schema = DATABASE() AND table_name = 'lq_counter'
                             AND table_comment = 'leaseq: counted by the statements, no trigger');
SET @lq_drop = IF(@lq_old, 'DROP TRIGGER IF EXISTS lq_run_counted', 'DO 0');
PREPARE lq_drop FROM @lq_drop;
EXECUTE lq_drop;
SET @lq_drop = IF(@lq_old, 'DROP TRIGGER IF EXISTS lq_lease_counted', 'DO 0');
PREPARE lq_drop FROM @lq_drop;
EXECUTE lq_drop;
SET @lq_drop = IF(@lq_old, 'DROP PROCEDURE IF EXISTS lq_task_ack_run', 'DO 0');
PREPARE lq_drop FROM @lq_drop;
EXECUTE lq_drop;
DEALLOCATE PREPARE lq_drop;
ALTER TABLE lq_counter COMMENT = 'leaseq: counted by the statements, no trigger';

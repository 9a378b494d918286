-- The status changes of claims and of the statements that take a task's owner away are counted
-- once per statement, in its transaction; a row trigger counts every other change.
--
-- V011's statement-level trigger saw a statement's changed rows through transition tables. To fill
-- them, PostgreSQL fetches each updated row's old version and copies it and the new one into
-- tuple stores, and a trigger that is disabled still makes it do so. A claim and a completion
-- change a thousand rows a pass: on a copy of the schema their two updates took about 9 % less
-- time with their changes counted as below (docs/benchmarks.md, 2026-11-28).
--
-- The row trigger below leaves alone exactly two kinds of change, which are counted once per
-- statement instead:
-- - a claim, the only change that counts an attempt (taskClaim, taskClaimPerKey): the store
--   appends the claim's two counts (taskCountMoved), as SQLite's claims have counted themselves
--   since its V025;
-- - an owner taken away: the batch completion (taskUpdateAfterRunAsClaimed) returns each task's
--   new status and the store appends the sums (taskCountMoved); taskUpdateAfterRun, taskRelease,
--   taskReleaseUnbegun and taskCancel count in the statement itself, and a task they change that
--   had no owner is the trigger's.
-- Every other change of status, an operator's hand-written UPDATE included, is counted row by
-- row: two rows appended to task_count per task moved, which the leader folds as before. A
-- hand-written UPDATE that counts an attempt or takes an owner away must add its counts itself;
-- SqlFilesTest keeps the store's own such statements to these seven.
DROP TRIGGER task_count_update ON task;
DROP FUNCTION task_count_updated();

CREATE FUNCTION task_count_moved() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO task_count (type, status, n) VALUES (OLD.type, OLD.status, -1), (NEW.type, NEW.status, 1);
  RETURN NULL;
END
$$;

CREATE TRIGGER task_count_update AFTER UPDATE OF type, status ON task
  FOR EACH ROW
  WHEN ((OLD.status IS DISTINCT FROM NEW.status OR OLD.type IS DISTINCT FROM NEW.type)
        AND OLD.attempt = NEW.attempt
        AND NOT (OLD.owner IS NOT NULL AND NEW.owner IS NULL))
  EXECUTE FUNCTION task_count_moved();

COMMENT ON TABLE task_count IS
  'Tasks per type and status: the sum of the rows of each pair, appended by the triggers on task, and for claims and owners taken away by the store (V026); folded by the leader (V011).';

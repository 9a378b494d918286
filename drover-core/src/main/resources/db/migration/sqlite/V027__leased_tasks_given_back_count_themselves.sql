-- The statements that take a leased task's owner away count its change of status themselves,
-- once per statement, as claims have since V025; the row trigger counts every other change.
--
-- The batch completion ends a pass's runs in one statement, and the trigger did two upserts for
-- each task it gave back. Counted once per statement instead, its update of 1,000 tasks takes 4.61
-- ms against 5.07 (9 %); a burn-down moved less than its noise (docs/benchmarks.md, 2026-11-29).
-- Both databases now draw the same line: the store counts a claim and a leased task given back.
--
-- The trigger now leaves alone the changes that take the owner away from a task that is leased
-- (status 'next_run_scheduled'). Five statements make them, and the store counts each from what
-- it returns (taskCountMoved): the batch completion (taskUpdateAfterRunAsClaimed) and the two
-- releases (taskRelease, taskReleaseUnbegun) give back only leased tasks; a cancel (taskCancel)
-- and a single run's end (taskUpdateAfterRun) read which of their tasks are leased first
-- (taskLeasedAmong). A task an operator set back to waiting keeps its owner (V026), and whatever
-- takes it away, the trigger counts that change. PostgreSQL's V026 draws its line at every owner
-- taken away, since its statements read the old row in the same statement; SQLite's RETURNING
-- gives only the new one. A hand-written UPDATE that takes a leased task's owner away must add its
-- counts itself; SqlFilesTest keeps the store's own such statements to these five.
DROP TRIGGER task_count_update;

CREATE TRIGGER task_count_update AFTER UPDATE OF type, status ON task
WHEN (old.status IS NOT new.status OR old.type IS NOT new.type)
  AND old.attempt = new.attempt
  AND NOT (old.owner IS NOT NULL AND new.owner IS NULL AND old.status = 'next_run_scheduled')
BEGIN
  UPDATE task_count SET n = n - 1 WHERE type = old.type AND status = old.status;
  INSERT INTO task_count (type, status, n) VALUES (new.type, new.status, 1)
  ON CONFLICT (type, status) DO UPDATE SET n = n + 1;
END;

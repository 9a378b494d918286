-- A claim counts the tasks it leases itself, once per statement, instead of the row trigger doing
-- it twice per task. A claim moves every task it takes from 'next_run_not_scheduled' to
-- 'next_run_scheduled' and gives it an owner; the trigger now leaves alone exactly the changes
-- that give an ownerless task an owner, and the two statements that do that (taskClaim and
-- taskClaimPerKey) add their counts in the same transaction (taskCountClaimed). The trigger's two
-- upserts per task were about a sixth of a claim's time in SQLite; a runner's burn-down got 3-6 %
-- faster (docs/benchmarks.md, 2026-11-28). Every other change of status is counted as before. A
-- hand-written UPDATE that gives tasks an owner must add its counts too (see taskCountClaimed.sql);
-- SqlFilesTest keeps the store's own statements to the two claims.
DROP TRIGGER task_count_update;

CREATE TRIGGER task_count_update AFTER UPDATE OF type, status ON task
WHEN (old.status IS NOT new.status OR old.type IS NOT new.type)
  AND NOT (old.owner IS NULL AND new.owner IS NOT NULL)
BEGIN
  UPDATE task_count SET n = n - 1 WHERE type = old.type AND status = old.status;
  INSERT INTO task_count (type, status, n) VALUES (new.type, new.status, 1)
  ON CONFLICT (type, status) DO UPDATE SET n = n + 1;
END;

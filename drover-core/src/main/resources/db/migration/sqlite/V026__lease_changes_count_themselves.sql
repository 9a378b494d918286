-- The row trigger tells a claim's changes, which the claim counts itself (V025), by the attempt it
-- counts, not by the owner it gives. A task an operator set back to waiting while a runner held
-- it keeps that runner's name as its owner; its next claim gave an owner to a task that had one,
-- so V025's trigger counted the change as well as the claim did, twice
-- (StatusCountContract.statusCountsHoldForLeasedTasksAnOperatorChanged). Only the claims count an
-- attempt (SqlFilesTest). PostgreSQL's V026 draws the same line, and also leaves the changes that
-- take an owner away to the statements that make them; on SQLite the trigger counts those.
DROP TRIGGER task_count_update;

CREATE TRIGGER task_count_update AFTER UPDATE OF type, status ON task
WHEN (old.status IS NOT new.status OR old.type IS NOT new.type)
  AND old.attempt = new.attempt
BEGIN
  UPDATE task_count SET n = n - 1 WHERE type = old.type AND status = old.status;
  INSERT INTO task_count (type, status, n) VALUES (new.type, new.status, 1)
  ON CONFLICT (type, status) DO UPDATE SET n = n + 1;
END;

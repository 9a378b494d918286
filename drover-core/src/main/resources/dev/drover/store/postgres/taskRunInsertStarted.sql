-- PostgreSQL differs: the task row is read FOR SHARE (see below).
-- The run of a queued claim, written when its worker has begun it and it is still executing at
-- the runner's next pass (one JDBC batch per pass). Fenced like the owner's final writes: nothing
-- is written if the lease was lost or given back meanwhile, or if a run of the attempt exists (a
-- rescue wrote it lost).
--
-- FOR SHARE: the task row stays as read until this commits. Without it a disable (or rescue) that
-- commits between this read and its own commit would not see the new run, which would then stay
-- 'started' for ever; with it the disable waits, then finds the run and ends it, or it went first
-- and this read finds the task no longer leased and writes nothing.
INSERT INTO task_run (task, backend_id, scheduled, started, metadata, status, owner, attempt)
SELECT id, :backend_id, :scheduled, :started, :metadata, 'started', owner, attempt
FROM task
WHERE id = :task
  AND owner = :owner
  AND attempt = :attempt
  AND status = 'next_run_scheduled'
FOR SHARE
ON CONFLICT (backend_id) DO NOTHING

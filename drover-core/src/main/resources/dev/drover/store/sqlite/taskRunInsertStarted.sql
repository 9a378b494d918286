-- SQLite differs: no row lock is needed, since a write transaction holds the whole database.
-- The run of a queued claim, written when its worker has begun it and it is still executing at
-- the runner's next pass (one JDBC batch per pass). Fenced like the owner's final writes: nothing
-- is written if the lease was lost or given back meanwhile, or if a run of the attempt exists (a
-- rescue wrote it lost).
INSERT INTO task_run (task, backend_id, scheduled, started, metadata, status, owner, attempt)
SELECT id, :backend_id, :scheduled, :started, :metadata, 'started', owner, attempt
FROM task
WHERE id = :task
  AND owner = :owner
  AND attempt = :attempt
  AND status = 'next_run_scheduled'
ON CONFLICT (backend_id) DO NOTHING

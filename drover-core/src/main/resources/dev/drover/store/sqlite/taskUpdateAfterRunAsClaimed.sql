-- SQLite differs: one task per execution in a JDBC batch; PostgreSQL takes the batch
-- as arrays in one statement.
-- taskUpdateAfterRun for a task its owner still holds and that is still exactly as the claim
-- returned it (no heartbeat moved the lease, nothing else changed it), so the update was computed
-- from the stored values without reading them again. Fenced like every final write of an owner;
-- no row means the lease was lost or the row changed, and the caller reads it again. A task an
-- operator paused while it ran is paused now instead of waiting for its next run.
UPDATE task
SET status = CASE WHEN paused_while_running AND :status = 'next_run_not_scheduled'
                  THEN 'paused' ELSE :status END,
    next_run = :next_run,
    current_interval_ms = :current_interval_ms,
    retries_left = :retries_left,
    owner = NULL
WHERE id = :id
  AND owner = :owner
  AND attempt = :attempt
  AND status = 'next_run_scheduled'
  AND next_run = :claimed_next_run
  AND current_interval_ms IS :claimed_interval_ms
  AND retries_left = :claimed_retries_left

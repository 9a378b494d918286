-- Claims due tasks of one type and priority level for :owner: the lease is next_run, the attempt
-- is counted. SKIP LOCKED lets concurrent claimers take disjoint rows without waiting; the
-- selection is a MATERIALIZED CTE so it runs exactly once (see taskGrabReady.sql).
WITH due AS MATERIALIZED (
  SELECT id
  FROM task
  WHERE type = :type
    AND status = 'next_run_not_scheduled'
    AND next_run <= :now
    AND COALESCE(priority, 'none') = COALESCE(:priority, 'none')
  ORDER BY next_run, id
  LIMIT :limit
  FOR UPDATE SKIP LOCKED
)
UPDATE task
SET status = 'next_run_scheduled',
    next_run = :lease_until,
    owner = :owner,
    attempt = task.attempt + 1
FROM due
WHERE task.id = due.id
RETURNING task.*

-- Many grabbers may run at once on PostgreSQL: SKIP LOCKED lets each take rows the others have not
-- locked instead of waiting for them, and the status check in the outer UPDATE is re-evaluated on
-- the locked row. RETURNING has no order; the caller sorts by (next_run, id).
UPDATE task
SET status = 'next_run_scheduled'
FROM (SELECT id
      FROM task
      WHERE type = :type
        AND status = 'next_run_not_scheduled'
        AND next_run <= :now
        AND priority IS NOT DISTINCT FROM :priority
      ORDER BY next_run, id
      LIMIT :limit
      FOR UPDATE SKIP LOCKED) ready
WHERE task.id = ready.id
  AND task.status = 'next_run_not_scheduled'
RETURNING task.*

-- PostgreSQL differs: concurrent grabbers skip each other's rows (SKIP LOCKED).
-- Many grabbers may run at once on PostgreSQL: SKIP LOCKED lets each take rows the others have not
-- locked instead of waiting for them. The selection is a MATERIALIZED CTE so it runs exactly once:
-- as a subquery in the join, the planner may rescan it, and each rescan with SKIP LOCKED can
-- return other rows, so more than :limit tasks would be grabbed. RETURNING has no order; the
-- caller sorts by (next_run, id).
WITH ready AS MATERIALIZED (
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
SET status = 'next_run_scheduled'
FROM ready
WHERE task.id = ready.id
RETURNING task.*

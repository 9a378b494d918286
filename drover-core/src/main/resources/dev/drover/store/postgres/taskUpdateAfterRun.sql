-- PostgreSQL differs: it counts a leased task's change of status here, which its status counts'
-- row trigger leaves to the statements that take an owner away (V026); SQLite's trigger counts it.
-- A task an operator paused while it ran is paused now instead of waiting for its next run.
-- The row is locked first, so that what the count takes away is what it held when it changed. The
-- statement is the counting insert, so that it can run in a JDBC batch (it returns no rows).
WITH before AS MATERIALIZED (
  SELECT id, status, owner
  FROM task
  WHERE id = :id
  FOR UPDATE
), updated AS (
  UPDATE task
  SET status = CASE WHEN paused_while_running AND :status = 'next_run_not_scheduled'
                    THEN 'paused' ELSE :status END,
      next_run = :next_run,
      current_interval_ms = :current_interval_ms,
      retries_left = :retries_left,
      owner = NULL
  FROM before
  WHERE task.id = before.id
  RETURNING task.type, task.status, before.status AS was, before.owner IS NOT NULL AS leased
)
INSERT INTO task_count (type, status, n)
SELECT type, status, sum(n)
FROM (SELECT type, was AS status, -1 AS n FROM updated WHERE leased
      UNION ALL
      SELECT type, status, 1 FROM updated WHERE leased) AS moved
GROUP BY type, status
HAVING sum(n) <> 0

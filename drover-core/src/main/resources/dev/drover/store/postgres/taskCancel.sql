-- PostgreSQL differs: it counts the leased tasks' change of status here, which its status counts'
-- row trigger leaves to the statements that take an owner away (V026); SQLite's trigger counts it.
-- Cancels the tasks that are not final: disabled by an operator, their lease (if any) gone, so
-- the runner executing one finds it lost at its next heartbeat and stops the work. Returns them.
-- The rows are locked first, so that what the count takes away is what each row held when it
-- changed: the trigger counts the tasks that had no owner, this statement the others.
WITH cancelling AS MATERIALIZED (
  SELECT id, status, owner
  FROM task
  WHERE id IN (<ids>)
    AND status IN ('next_run_not_scheduled', 'next_run_scheduled', 'waiting_for_children', 'paused')
  FOR UPDATE
), cancelled AS (
  UPDATE task
  SET status = 'disabled',
      disabled_by = 'operator',
      owner = NULL
  FROM cancelling
  WHERE task.id = cancelling.id
  RETURNING task.id, task.type, cancelling.status AS was, cancelling.owner IS NOT NULL AS leased
), counted AS (
  INSERT INTO task_count (type, status, n)
  SELECT type, status, sum(n)
  FROM (SELECT type, was AS status, -1 AS n FROM cancelled WHERE leased
        UNION ALL
        SELECT type, 'disabled', 1 FROM cancelled WHERE leased) AS moved
  GROUP BY type, status
  HAVING sum(n) <> 0
)
SELECT id FROM cancelled

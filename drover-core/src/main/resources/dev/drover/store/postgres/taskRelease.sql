-- PostgreSQL differs: it counts the change of status here, which its status counts' row trigger
-- leaves to the statements that take an owner away (V026); SQLite's trigger counts it.
-- Gives a claimed task back without charging it: due at :now, no owner, retries untouched.
-- Returns its id if it was given back.
WITH released AS (
  UPDATE task
  SET status = 'next_run_not_scheduled',
      next_run = :now,
      owner = NULL
  WHERE id = :id
    AND owner = :owner
    AND attempt = :attempt
    AND status = 'next_run_scheduled'
  RETURNING id, type
), counted AS (
  INSERT INTO task_count (type, status, n)
  SELECT released.type, moved.status, moved.n * count(*)
  FROM released
  CROSS JOIN (VALUES ('next_run_scheduled', -1), ('next_run_not_scheduled', 1)) AS moved (status, n)
  GROUP BY released.type, moved.status, moved.n
)
SELECT id FROM released

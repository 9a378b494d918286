-- The earliest next run of the waiting tasks of one type, due already or not: one step into
-- task_ready_by_type (on PostgreSQL, past the entries of tasks claimed since the last vacuum).
SELECT min(next_run) AS waiting
FROM task
WHERE type = :type
  AND status = 'next_run_not_scheduled'

-- The open run of a claim's attempt. Served by task_run_open_by_task_attempt.
SELECT *
FROM task_run
WHERE task = :task
  AND attempt = :attempt
  AND status IN ('scheduled', 'started')

SELECT *
FROM task_run
WHERE task = :task
  AND attempt = :attempt
  AND status IN ('scheduled', 'started')

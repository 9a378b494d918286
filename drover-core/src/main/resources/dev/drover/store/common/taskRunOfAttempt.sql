-- The open runs of these tasks; the caller keeps those of the attempts it asks about (a run
-- scheduled from outside has no attempt). Served by task_run_by_task_attempt.
SELECT *
FROM task_run
WHERE task IN (<ids>)
  AND status IN ('scheduled', 'started')

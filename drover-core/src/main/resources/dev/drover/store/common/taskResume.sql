-- Resumes paused tasks as they were: due at their kept next_run.
UPDATE task
SET status = 'next_run_not_scheduled',
    paused_while_running = false
WHERE id IN (<ids>)
  AND status = 'paused'

-- Pauses the tasks that wait for their next run: never due until resumed, their next_run kept.
-- A running task is left to finish its run (its lease fences on status 'next_run_scheduled'), as
-- work of a paused task type is; final and waiting parents are left as they are.
UPDATE task
SET status = 'paused'
WHERE id IN (<ids>)
  AND status = 'next_run_not_scheduled'

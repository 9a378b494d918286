-- Retries tasks now: due at :now with their type's retries back, whether they failed for good,
-- were disabled or cancelled by an operator, completed, or wait for a later run. Running tasks
-- and parents waiting for their children are left alone. Returns the tasks retried, with what
-- they were, so that a final child can be counted again by its waiting parent.
UPDATE task
SET status = 'next_run_not_scheduled',
    next_run = :now,
    retries_left = (SELECT num_retries FROM task_type WHERE task_type.name = task.type),
    disabled_by = NULL
WHERE id IN (<ids>)
  AND status IN ('next_run_not_scheduled', 'completed', 'disabled', 'paused')
RETURNING id, parent

-- An enabled task is due at :next_run with its type's retries back.
UPDATE task
SET status = 'next_run_not_scheduled',
    next_run = :next_run,
    retries_left = (SELECT num_retries FROM task_type WHERE task_type.name = task.type),
    disabled_by = NULL
WHERE id IN (<ids>)
  AND status = 'disabled'

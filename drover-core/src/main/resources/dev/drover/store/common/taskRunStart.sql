UPDATE task_run
SET started = :started,
    status = 'started',
    metadata = :metadata
WHERE id = :id
RETURNING *

UPDATE task_run
SET ended = :ended,
    status = :status,
    metadata = :metadata
WHERE id = :id
RETURNING *

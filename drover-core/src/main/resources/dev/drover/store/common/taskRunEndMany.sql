-- taskRunEnd without RETURNING, so that the ends of many runs go as one JDBC batch.
UPDATE task_run
SET ended = :ended,
    status = :status,
    metadata = :metadata
WHERE id = :id

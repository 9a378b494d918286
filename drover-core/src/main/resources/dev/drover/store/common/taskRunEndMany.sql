-- taskRunEnd without RETURNING, so that the ends of many runs go as one JDBC batch. A queued
-- run that ends before its start was written gets its start here (:started, else kept).
UPDATE task_run
SET started = COALESCE(:started, started),
    ended = :ended,
    status = :status,
    metadata = :metadata
WHERE id = :id

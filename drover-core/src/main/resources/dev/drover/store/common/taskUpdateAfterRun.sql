UPDATE task
SET status = :status,
    next_run = :next_run,
    current_interval_ms = :current_interval_ms,
    retries_left = :retries_left,
    owner = NULL
WHERE id = :id

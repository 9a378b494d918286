-- SQLite differs: its status counts' row trigger counts this change (PostgreSQL's leaves a leased
-- task's to the statement, V026).
-- A task an operator paused while it ran is paused now instead of waiting for its next run.
UPDATE task
SET status = CASE WHEN paused_while_running AND :status = 'next_run_not_scheduled'
                  THEN 'paused' ELSE :status END,
    next_run = :next_run,
    current_interval_ms = :current_interval_ms,
    retries_left = :retries_left,
    owner = NULL
WHERE id = :id

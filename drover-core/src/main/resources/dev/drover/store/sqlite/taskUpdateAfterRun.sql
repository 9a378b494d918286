-- SQLite differs: it returns the status it wrote, and the store counts a leased task's change,
-- which the row trigger leaves to the statements that take a leased task's owner away (V027),
-- having read which tasks are leased first (taskLeasedAmong); the trigger counts the others'.
-- PostgreSQL's counts a leased task's change in the statement.
-- A task an operator paused while it ran is paused now instead of waiting for its next run.
UPDATE task
SET status = CASE WHEN paused_while_running AND :status = 'next_run_not_scheduled'
                  THEN 'paused' ELSE :status END,
    next_run = :next_run,
    current_interval_ms = :current_interval_ms,
    retries_left = :retries_left,
    owner = NULL
WHERE id = :id
RETURNING status

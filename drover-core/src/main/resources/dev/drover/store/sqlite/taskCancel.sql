-- SQLite differs: the store reads the leased tasks first (taskLeasedAmong) and counts their
-- change, which the row trigger leaves to the statements that take a leased task's owner away
-- (V027); the trigger counts the others'. PostgreSQL's counts the leased tasks' in the statement.
-- Cancels the tasks that are not final: disabled by an operator, their lease (if any) gone, so
-- the runner executing one finds it lost at its next heartbeat and stops the work. Returns them.
UPDATE task
SET status = 'disabled',
    disabled_by = 'operator',
    owner = NULL
WHERE id IN (<ids>)
  AND status IN ('next_run_not_scheduled', 'next_run_scheduled', 'waiting_for_children', 'paused')
RETURNING id

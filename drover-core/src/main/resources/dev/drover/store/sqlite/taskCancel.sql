-- SQLite differs: its status counts' row trigger counts this change (PostgreSQL's leaves the
-- leased tasks' to the statement, V026).
-- Cancels the tasks that are not final: disabled by an operator, their lease (if any) gone, so
-- the runner executing one finds it lost at its next heartbeat and stops the work. Returns them.
UPDATE task
SET status = 'disabled',
    disabled_by = 'operator',
    owner = NULL
WHERE id IN (<ids>)
  AND status IN ('next_run_not_scheduled', 'next_run_scheduled', 'waiting_for_children', 'paused')
RETURNING id

-- SQLite differs: its status counts' row trigger counts this change (PostgreSQL's leaves it to the
-- statement, V026).
-- Gives a claimed task back without charging it: due at :now, no owner, retries untouched.
-- Returns its id if it was given back.
UPDATE task
SET status = 'next_run_not_scheduled',
    next_run = :now,
    owner = NULL
WHERE id = :id
  AND owner = :owner
  AND attempt = :attempt
  AND status = 'next_run_scheduled'
RETURNING id

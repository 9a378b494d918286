-- SQLite differs: it returns the task's type, and the store counts the change, which the row
-- trigger leaves to the statements that take a leased task's owner away (V027); PostgreSQL's
-- counts it in the statement (V026).
-- Gives a claimed task back without charging it: due at :now, no owner, retries untouched.
-- Returns its id and type if it was given back.
UPDATE task
SET status = 'next_run_not_scheduled',
    next_run = :now,
    owner = NULL
WHERE id = :id
  AND owner = :owner
  AND attempt = :attempt
  AND status = 'next_run_scheduled'
RETURNING id, type

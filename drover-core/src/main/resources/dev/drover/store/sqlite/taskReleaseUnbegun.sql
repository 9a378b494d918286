-- SQLite differs: it returns the task's type, and the store counts the change, which the row
-- trigger leaves to the statements that take a leased task's owner away (V027); PostgreSQL's
-- counts it in the statement (V026).
-- A rescued claim whose run was never written: no worker began it (or began it so shortly before
-- its runner died that the start was not written yet). It is given back as a release is, without
-- charging an attempt: due at :now, no owner, retries untouched. Returns its id and type if it was
-- given back.
UPDATE task
SET status = 'next_run_not_scheduled',
    next_run = :now,
    owner = NULL
WHERE id = :id
  AND attempt = :attempt
  AND status = 'next_run_scheduled'
  AND owner IS NOT NULL
RETURNING id, type

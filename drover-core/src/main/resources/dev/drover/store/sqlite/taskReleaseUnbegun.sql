-- SQLite differs: its status counts' row trigger counts this change (PostgreSQL's leaves it to the
-- statement, V026).
-- A rescued claim whose run was never written: no worker began it (or began it so shortly before
-- its runner died that the start was not written yet). It is given back as a release is, without
-- charging an attempt: due at :now, no owner, retries untouched. Returns its id if it was given
-- back.
UPDATE task
SET status = 'next_run_not_scheduled',
    next_run = :now,
    owner = NULL
WHERE id = :id
  AND attempt = :attempt
  AND status = 'next_run_scheduled'
  AND owner IS NOT NULL
RETURNING id

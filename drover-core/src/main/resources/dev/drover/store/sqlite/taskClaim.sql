-- SQLite differs: the ids come as one JSON array text read with json_each; PostgreSQL binds an
-- array. One parameter keeps the text the same for any count, so it is parsed and prepared once.
-- Claims the tasks chosen from taskClaimCandidates for :owner: the lease is next_run, the attempt
-- is counted. In the same transaction as the candidates were read, and they are still due: SQLite
-- has one writer.
UPDATE task
SET status = 'next_run_scheduled',
    next_run = :lease_until,
    owner = :owner,
    attempt = attempt + 1
WHERE id IN (SELECT value FROM json_each(:ids))
  AND status = 'next_run_not_scheduled'
RETURNING *

-- Claims the tasks chosen from taskClaimCandidates for :owner: the lease is next_run, the attempt
-- is counted. In the same transaction as the candidates were read, and they are still due: on
-- PostgreSQL they are locked, and SQLite has one writer.
UPDATE task
SET status = 'next_run_scheduled',
    next_run = :lease_until,
    owner = :owner,
    attempt = attempt + 1
WHERE id IN (<ids>)
  AND status = 'next_run_not_scheduled'
RETURNING *

-- PostgreSQL differs: the ids come as one bigint[] parameter (= ANY); SQLite reads a JSON array.
-- One parameter keeps the text the same for any count, so it is parsed and planned once.
-- Claims the tasks chosen from taskClaimCandidates for :owner: the lease is next_run, the attempt
-- is counted. In the same transaction as the candidates were read (and locked), and still due.
UPDATE task
SET status = 'next_run_scheduled',
    next_run = :lease_until,
    owner = :owner,
    attempt = attempt + 1
WHERE id = ANY(:ids)
  AND status = 'next_run_not_scheduled'
RETURNING *

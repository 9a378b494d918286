-- PostgreSQL differs: the ids come as one bigint[] parameter (= ANY); SQLite reads a JSON array.
-- One parameter keeps the text the same for any count, so it is parsed and planned once.
-- Claims the tasks chosen from taskClaimCandidates for :owner: the lease is next_run, the attempt
-- is counted. In the same transaction as the candidates were read (and locked), and still due.
UPDATE task
SET status = 'next_run_scheduled',
    next_run = :lease_until,
    owner = :owner,
    attempt = attempt + 1
-- IS NOT DISTINCT FROM (the same here: status is never null) rather than =, so that the planner
-- cannot take task_claim_by_type_priority or task_ready_by_type, whose predicate = would imply:
-- on a store analyzed while no task waited, it believed them empty and read every waiting task of
-- the index to find the chosen ids (77 ms for 1,000 among 200,000 waiting, against 5 ms by the
-- primary key; PostgresPassWritePlanTest).
WHERE id = ANY(:ids)
  AND status IS NOT DISTINCT FROM 'next_run_not_scheduled'
RETURNING *

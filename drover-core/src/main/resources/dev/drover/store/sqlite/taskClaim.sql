-- Claims due tasks of one type and priority level for :owner: the lease is next_run, the attempt
-- is counted. SQLite has one writer and Drover begins write transactions IMMEDIATE, so no other
-- claimer can interleave.
UPDATE task
SET status = 'next_run_scheduled',
    next_run = :lease_until,
    owner = :owner,
    attempt = attempt + 1
WHERE id IN (SELECT id
             FROM task
             WHERE type = :type
               AND status = 'next_run_not_scheduled'
               AND next_run <= :now
               AND COALESCE(priority, 'none') = COALESCE(:priority, 'none')
             ORDER BY next_run, id
             LIMIT :limit)
RETURNING *

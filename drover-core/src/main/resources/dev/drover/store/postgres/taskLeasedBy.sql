-- PostgreSQL differs: rows locked (FOR UPDATE) so a rescue and a fenced write serialize.
-- The leases a runner holds, for rescuing them when it is found dead. Scans
-- task_leased_by_type, which holds only leased tasks. Locked, as taskLeaseExpired, so a racing
-- fenced write waits.
SELECT *
FROM task
WHERE owner = :owner
  AND status = 'next_run_scheduled'
ORDER BY id
FOR UPDATE

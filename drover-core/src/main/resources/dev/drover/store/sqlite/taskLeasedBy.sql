-- SQLite differs: no FOR UPDATE; its one writer already serializes a rescue and a
-- fenced write.
-- The leases a runner holds, for rescuing them when it is found dead. Scans
-- task_leased_by_type, which holds only leased tasks.
SELECT *
FROM task
WHERE owner = :owner
  AND status = 'next_run_scheduled'
ORDER BY id

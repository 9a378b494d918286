-- PostgreSQL differs: rows locked (FOR UPDATE) so a rescue and a fenced write serialize.
-- Tasks whose owner stopped heartbeating: still claimed, lease (next_run) over.
-- Served by task_leased_by_type (read whole: it holds only leased tasks). Locked so that a late
-- owner's fenced write waits and then finds the lease gone.
SELECT *
FROM task
WHERE owner IS NOT NULL
  AND status = 'next_run_scheduled'
  AND next_run <= :now
ORDER BY next_run, id
LIMIT :limit
FOR UPDATE SKIP LOCKED

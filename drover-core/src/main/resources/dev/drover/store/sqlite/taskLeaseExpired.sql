-- SQLite differs: no FOR UPDATE; its one writer already serializes a rescue and a
-- fenced write.
-- Tasks whose owner stopped heartbeating: still claimed, lease (next_run) over.
-- Served by task_leased_by_type (read whole: it holds only leased tasks).
SELECT *
FROM task
WHERE owner IS NOT NULL
  AND status = 'next_run_scheduled'
  AND next_run <= :now
ORDER BY next_run, id
LIMIT :limit

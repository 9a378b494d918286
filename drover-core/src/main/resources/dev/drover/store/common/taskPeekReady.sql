-- Ready tasks of one type and one priority level (NULL = tasks without priority), oldest due first.
-- Served by task_ready_by_type.
SELECT *
FROM task
WHERE type = :type
  AND status = 'next_run_not_scheduled'
  AND next_run <= :now
  AND priority IS NOT DISTINCT FROM :priority
ORDER BY next_run, id
LIMIT :limit

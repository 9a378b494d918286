-- Ready tasks of one type and one priority level (NULL = tasks without priority), oldest due first.
-- Served by task_claim_by_type_priority (NULL priority is the level 'none').
SELECT *
FROM task
WHERE type = :type
  AND status = 'next_run_not_scheduled'
  AND next_run <= :now
  AND COALESCE(priority, 'none') = COALESCE(:priority, 'none')
ORDER BY next_run, id
LIMIT :limit

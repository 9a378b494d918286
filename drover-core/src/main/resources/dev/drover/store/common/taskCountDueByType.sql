-- Tasks due now (between runs, next run passed), per type. Served by task_ready_by_type.
SELECT type, count(*) AS n
FROM task
WHERE status = 'next_run_not_scheduled'
  AND next_run <= :now
GROUP BY type

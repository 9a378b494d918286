-- When the next waiting task of these types comes due, or the next lease ends; served by
-- task_ready_by_type and task_leased_by_next_run.
SELECT min(next_run) AS next_due
FROM task
WHERE type IN (<types>)
  AND (status = 'next_run_not_scheduled' OR owner IS NOT NULL)

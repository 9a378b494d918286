-- Per type, the disabled tasks an operator disabled or cancelled (the other disabled tasks failed
-- for good); served by task_disabled_by_operator.
SELECT type, count(*) AS n
FROM task
WHERE status = 'disabled'
  AND disabled_by = 'operator'
GROUP BY type

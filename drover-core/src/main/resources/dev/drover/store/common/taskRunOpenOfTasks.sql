-- The runs of the given tasks that have not ended (scheduled or started), e.g. to end them when
-- their tasks are disabled.
SELECT *
FROM task_run
WHERE task IN (<ids>)
  AND status IN ('scheduled', 'started')
ORDER BY id

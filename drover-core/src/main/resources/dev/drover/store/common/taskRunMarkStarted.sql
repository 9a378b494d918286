-- A queued run's worker began it at :started; a run that already ended (it was rescued
-- meanwhile) keeps its end. One JDBC batch per runner pass.
UPDATE task_run
SET status = 'started',
    started = :started
WHERE id = :id
  AND status = 'scheduled'

-- The fence of an owner's final write: the task is still claimed by this owner and attempt.
-- The row lock holds off a rescuer until the write commits (SQLite has one writer anyway).
SELECT *
FROM task
WHERE id = :id
  AND owner = :owner
  AND attempt = :attempt
  AND status = 'next_run_scheduled'
FOR UPDATE

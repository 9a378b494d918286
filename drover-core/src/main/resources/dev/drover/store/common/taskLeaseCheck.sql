-- The fence of an owner's final write: the task is still claimed by this owner and attempt.
SELECT *
FROM task
WHERE id = :id
  AND owner = :owner
  AND attempt = :attempt
  AND status = 'next_run_scheduled'

-- Gives a claimed task back without charging it: due at :now, no owner, retries untouched.
UPDATE task
SET status = 'next_run_not_scheduled',
    next_run = :now,
    owner = NULL
WHERE id = :id
  AND owner = :owner
  AND attempt = :attempt
  AND status = 'next_run_scheduled'

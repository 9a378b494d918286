-- Extends a lease, only while :owner still holds this attempt.
UPDATE task
SET next_run = :lease_until
WHERE id = :id
  AND owner = :owner
  AND attempt = :attempt
  AND status = 'next_run_scheduled'

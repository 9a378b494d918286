-- Leaves alone a task that already completed, or whose run already ended and moved next_run on:
-- a fast run may finish before whoever scheduled it gets to mark it scheduled.
UPDATE task
SET status = :status,
    next_run = COALESCE(:next_run, next_run)
WHERE id IN (<ids>)
  AND status <> 'completed'
  AND next_run < :now

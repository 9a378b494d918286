UPDATE task
SET status = :status,
    next_run = COALESCE(:next_run, next_run)
WHERE id IN (<ids>)

-- The fence of an owner's final writes: which of these tasks are still claimed by this owner (the
-- caller compares each attempt too). One statement for a whole batch of completions.
SELECT *
FROM task
WHERE id IN (<ids>)
  AND owner = :owner
  AND status = 'next_run_scheduled'
ORDER BY id

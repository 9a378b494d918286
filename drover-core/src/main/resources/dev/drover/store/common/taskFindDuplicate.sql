-- A task is a duplicate of a stored one with the same type, arguments, policy, priority and status;
-- one-shot tasks must also share next_run (a one-shot task may be wanted again at another time).
-- The hash narrows the search through task_duplicate_lookup; the text comparison makes it exact.
SELECT *
FROM task
WHERE type = :type
  AND arguments_hash = :arguments_hash
  AND policy = :policy
  AND priority IS NOT DISTINCT FROM :priority
  AND status = :status
  AND (policy = 'recurring' OR next_run = :next_run)
ORDER BY id
LIMIT 1

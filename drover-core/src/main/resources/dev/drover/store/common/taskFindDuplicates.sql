-- The stored candidates for duplicates of a chunk of new tasks: not yet scheduled rows of the same
-- types and argument hashes, found through task_duplicate_lookup. The caller keeps the rows whose
-- policy, priority and (for one-shot tasks) next_run also match, and takes the lowest id of each.
-- The status is a literal so that PostgreSQL's planner can prove the predicate of its partial
-- task_duplicate_lookup in a generic plan too.
SELECT *
FROM task
WHERE type IN (<types>)
  AND arguments_hash IN (<hashes>)
  AND status = 'next_run_not_scheduled'

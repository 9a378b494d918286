-- PostgreSQL differs: the status as a literal compared in collation "C", which only
-- task_duplicate_lookup's predicate matches (V014).
-- The stored candidates for duplicates of a chunk of new tasks: not yet scheduled rows of the same
-- types and argument hashes, found through task_duplicate_lookup. The caller keeps the rows whose
-- policy, priority and (for one-shot tasks) next_run also match, and takes the lowest id of each.
SELECT *
FROM task
WHERE arguments_hash IN (<hashes>)
  AND type IN (<types>)
  AND status = 'next_run_not_scheduled' COLLATE "C"

-- The stored candidates for duplicates of a chunk of new tasks: not yet scheduled rows of the same
-- types and argument hashes, found through task_duplicate_lookup. The caller keeps the rows whose
-- policy, priority and (for one-shot tasks) next_run also match, and takes the lowest id of each.
-- The status is a parameter on purpose: as a literal it would let PostgreSQL's planner, on a table
-- without statistics yet, walk task_ready_by_type (same predicate) for every chunk instead.
SELECT *
FROM task
WHERE type IN (<types>)
  AND arguments_hash IN (<hashes>)
  AND status = :status

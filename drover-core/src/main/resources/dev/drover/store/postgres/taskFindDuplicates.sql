-- PostgreSQL differs: the status as a literal compared in collation "C", which only
-- task_duplicate_lookup's predicate matches (V014). And the types and hashes as arrays, so that
-- the text is the same for any chunk: as IN lists (a parameter per hash) each chunk size was a new
-- statement, parsed again by the client and planned again by the server.
-- The stored candidates for duplicates of a chunk of new tasks: not yet scheduled rows of the same
-- types and argument hashes, found through task_duplicate_lookup. The caller keeps the rows whose
-- policy, priority and (for one-shot tasks) next_run also match, and takes the lowest id of each.
SELECT *
FROM task
WHERE arguments_hash = ANY (:hashes::text[])
  AND type = ANY (:types::text[])
  AND status = 'next_run_not_scheduled' COLLATE "C"

-- SQLite differs: the status as a parameter, and the types and hashes as JSON arrays read with
-- json_each, so that the text is the same for any chunk (as IN lists, a parameter per hash, each
-- chunk size was a new statement to parse and prepare); SQLite's duplicate lookup indexes every
-- task (see V014__duplicate_lookup_waiting_only.sql).
-- The stored candidates for duplicates of a chunk of new tasks: not yet scheduled rows of the same
-- types and argument hashes, found through task_duplicate_lookup. The caller keeps the rows whose
-- policy, priority and (for one-shot tasks) next_run also match, and takes the lowest id of each.
-- The status is a parameter on purpose: a partial index cannot serve it, so the planner, which
-- without ANALYZE guesses a few rows for any index's first key, cannot walk task_ready_by_type
-- (type, then next_run) for every chunk instead.
SELECT *
FROM task
WHERE type IN (SELECT value FROM json_each(:types))
  AND arguments_hash IN (SELECT value FROM json_each(:hashes))
  AND status = :status

-- PostgreSQL differs: casts for untyped parameters, and the NOTIFY in the same
-- statement.
-- taskInsertClaimed.sql applies the same duplicate rule: change the two together.
-- Creates one task unless a stored task duplicates it, in one statement: returns the new id, or no
-- row when a duplicate exists (the caller then reads it with taskFindDuplicates) or when the type
-- is no longer stored at :typeVersion, the version the task was prepared with (V020). A duplicate
-- is a not yet scheduled task of the same type, argument hash, policy and priority, and for a
-- one-shot task the same next_run: the same rule as TaskInserts' keys. The lookup names the status as a
-- literal in collation "C", which only task_duplicate_lookup's predicate matches (V014).
--
-- PostgreSQL differs: the parameters of a SELECT list have no column to take their type from, so
-- each is cast. And the row comes from the NOTIFY that tells other processes of new work (sent at
-- commit), which spares the writing transaction a round trip: a row is only returned, and so only
-- inserted, once pg_notify has run. Without a row the caller notifies on its own.
INSERT INTO task (type, arguments, arguments_hash, next_run, current_interval_ms, status, policy,
                  retries_left, priority, concurrency_key)
SELECT CAST(:type AS text), CAST(:arguments AS jsonb), CAST(:hash AS text), :nextRun,
       CAST(:intervalMs AS bigint), CAST(:status AS text), CAST(:policy AS text),
       CAST(:retriesLeft AS integer), CAST(:priority AS text), CAST(:concurrencyKey AS text)
FROM (SELECT pg_notify(:channel, '')) AS signal
WHERE NOT EXISTS (
  SELECT 1
  FROM task
  WHERE type = CAST(:type AS text)
    AND arguments_hash = CAST(:hash AS text)
    AND status = 'next_run_not_scheduled' COLLATE "C"
    AND policy = CAST(:policy AS text)
    AND priority IS NOT DISTINCT FROM CAST(:priority AS text)
    AND (CAST(:policy AS text) <> 'oneshot' OR next_run = :nextRun)
)
  AND EXISTS (SELECT 1 FROM task_type WHERE name = CAST(:type AS text) AND version = :typeVersion)
RETURNING id

-- PostgreSQL differs: casts for untyped parameters, and the statuses compared as the indexes'
-- predicates name them.
-- Creates one task already claimed by :owner, a runner of this process with a worker slot free for
-- it (CreateClaimer), as taskClaim would claim it: its lease ends at :leaseUntil and its first
-- attempt is counted. Creates nothing, and the caller creates the task waiting instead, when:
-- - a stored task duplicates it (taskInsertUnlessDuplicate's rule), which the waiting create finds;
-- - a due task of its type is waiting: that one is older, and the runner's own claim takes it first;
-- - its type is paused;
-- - its type is no longer stored at :typeVersion, the version the task was prepared with (V020).
-- No NOTIFY: no other runner needs to wake for a task already claimed.
INSERT INTO task (type, arguments, arguments_hash, next_run, current_interval_ms, status, policy,
                  retries_left, priority, concurrency_key, owner, attempt)
SELECT CAST(:type AS text), CAST(:arguments AS jsonb), CAST(:hash AS text), :leaseUntil,
       CAST(:intervalMs AS bigint), 'next_run_scheduled', CAST(:policy AS text),
       CAST(:retriesLeft AS integer), CAST(:priority AS text), CAST(:concurrencyKey AS text),
       CAST(:owner AS text), 1
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
  AND NOT EXISTS (
  SELECT 1
  FROM task
  WHERE type = CAST(:type AS text)
    AND status = 'next_run_not_scheduled'
    AND next_run <= :now
)
  AND EXISTS (
  SELECT 1 FROM task_type WHERE name = CAST(:type AS text) AND version = :typeVersion AND NOT paused
)
RETURNING id

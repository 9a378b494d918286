-- SQLite differs: untyped parameters need no casts.
-- Creates one task already claimed by :owner, a runner of this process with a worker slot free for
-- it (CreateClaimer), as taskClaim would claim it: its lease ends at :leaseUntil and its first
-- attempt is counted. Creates nothing, and the caller creates the task waiting instead, when:
-- - a stored task duplicates it (taskInsertUnlessDuplicate's rule), which the waiting create finds;
-- - a due task of its type is waiting: that one is older, and the runner's own claim takes it first;
-- - its type is paused;
-- - its type is no longer stored at :typeVersion, the version the task was prepared with (V020).
INSERT INTO task (type, arguments, arguments_hash, next_run, current_interval_ms, status, policy,
                  retries_left, priority, concurrency_key, owner, attempt)
SELECT :type, :arguments, :hash, :leaseUntil, :intervalMs, 'next_run_scheduled', :policy,
       :retriesLeft, :priority, :concurrencyKey, :owner, 1
WHERE NOT EXISTS (
  SELECT 1
  FROM task
  WHERE type = :type
    AND arguments_hash = :hash
    AND status = 'next_run_not_scheduled'
    AND policy = :policy
    AND priority IS :priority
    AND (:policy <> 'oneshot' OR next_run = :nextRun)
)
  AND NOT EXISTS (
  SELECT 1
  FROM task
  WHERE type = :type
    AND status = 'next_run_not_scheduled'
    AND next_run <= :now
)
  AND EXISTS (
  SELECT 1 FROM task_type WHERE name = :type AND version = :typeVersion AND NOT paused
)
RETURNING id

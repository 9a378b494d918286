-- SQLite differs: untyped parameters need no casts, and the caller sends the work
-- signal (no NOTIFY).
-- taskInsertClaimed.sql applies the same duplicate rule: change the two together.
-- Creates one task unless a stored task duplicates it, in one statement: returns the new id, or no
-- row when a duplicate exists (the caller then reads it with taskFindDuplicates) or when the type
-- is no longer stored at :typeVersion, the version the task was prepared with (V020). A duplicate
-- is a not yet scheduled task of the same type, argument hash, policy and priority, and for a
-- one-shot task the same next_run: the same rule as TaskInserts' keys. SQLite's IS is null-safe equality.
INSERT INTO task (type, arguments, arguments_hash, next_run, current_interval_ms, status, policy,
                  retries_left, priority, concurrency_key)
SELECT :type, :arguments, :hash, :nextRun, :intervalMs, :status, :policy, :retriesLeft, :priority,
       :concurrencyKey
WHERE NOT EXISTS (
  SELECT 1
  FROM task
  WHERE type = :type
    AND arguments_hash = :hash
    AND status = :status
    AND policy = :policy
    AND priority IS :priority
    AND (:policy <> 'oneshot' OR next_run = :nextRun)
)
  AND EXISTS (SELECT 1 FROM task_type WHERE name = :type AND version = :typeVersion)
RETURNING id

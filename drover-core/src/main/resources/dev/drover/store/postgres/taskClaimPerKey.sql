-- PostgreSQL differs: concurrent claimers, so a turn lock (taskClaimPerKeyLock) and
-- SKIP LOCKED.
-- Claims due tasks of a type with a per-key limit (max_per_key) for :owner, taking keys
-- round-robin. Each key's due tasks are ranked oldest first; a task's slot is its rank plus the
-- key's tasks already leased, i.e. it would be the key's slot-th task running at once. A task is
-- admitted while its slot is within :max_per_key, and the admitted are taken slot by slot, so a
-- key with fewer tasks running goes first: a small key's first task never waits behind a big
-- key's backlog, not even in claims of one task at a time. Priorities are not looked at. Tasks
-- without a key value (created before the type had a concurrency_key) share one key.
--
-- Two claimers must not both admit the last free slot of a key, and SKIP LOCKED cannot do that
-- here (it hides rows, not counts, and cannot sit beside a window function), so claimers of one
-- type take turns on taskClaimPerKeyLock first. The admitted rows are then locked with SKIP
-- LOCKED, as in taskClaim.sql: a row some other writer holds (a task being disabled) is left for
-- the next claim instead of waited for, and a row changed meanwhile is re-checked.
WITH due AS (
  SELECT id, concurrency_key, next_run,
         row_number() OVER (PARTITION BY concurrency_key ORDER BY next_run, id) AS key_rank
  FROM task
  WHERE type = :type
    AND status = 'next_run_not_scheduled'
    AND next_run <= :now
),
leased AS (
  -- served by task_leased_by_type (a type's leases; the key read from the row)
  SELECT concurrency_key, count(*) AS n
  FROM task
  WHERE type = :type
    AND owner IS NOT NULL
    AND status = 'next_run_scheduled'
  GROUP BY concurrency_key
),
slotted AS (
  SELECT due.id, due.next_run, due.key_rank + COALESCE(leased.n, 0) AS slot
  FROM due
  LEFT JOIN leased ON leased.concurrency_key IS NOT DISTINCT FROM due.concurrency_key
),
admitted AS MATERIALIZED (
  SELECT id
  FROM task
  WHERE id IN (SELECT id
               FROM slotted
               WHERE slot <= :max_per_key
               ORDER BY slot, next_run, id
               LIMIT :limit)
    AND status = 'next_run_not_scheduled'
    AND next_run <= :now
  FOR UPDATE SKIP LOCKED
)
UPDATE task
SET status = 'next_run_scheduled',
    next_run = :lease_until,
    owner = :owner,
    attempt = task.attempt + 1
FROM admitted
WHERE task.id = admitted.id
RETURNING task.*

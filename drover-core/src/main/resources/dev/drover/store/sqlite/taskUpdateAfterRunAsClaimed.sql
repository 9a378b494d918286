-- SQLite differs: the batch comes as one JSON array of rows read with json_each; PostgreSQL binds
-- parallel arrays. Each row is [id, status, next_run, current_interval_ms, retries_left, attempt,
-- claimed_next_run, claimed_interval_ms, claimed_retries_left], times in epoch milliseconds as
-- stored. One statement for the batch, not one per task: 6 µs a task against 12 µs one by one
-- (measured on the schema in SQLite 3.40, when the row triggers still counted these changes).
-- taskUpdateAfterRun for the tasks their owner still holds and that are still exactly as the
-- claim returned them (no heartbeat moved the lease, nothing else changed them), so each update
-- was computed from the stored values without reading them again. Fenced like every final write
-- of an owner. Returns the ids it updated, each with its type and new status, from which the
-- store counts the changes: the row trigger leaves a leased task's owner taken away to the
-- statement (V027). The others lost their lease or changed since the claim, and the caller reads
-- them again. A task an operator paused while it ran is paused now instead of waiting for its
-- next run. Every column is qualified: json_each has an id column too.
UPDATE task
SET status = CASE WHEN task.paused_while_running AND r.value ->> 1 = 'next_run_not_scheduled'
                  THEN 'paused' ELSE r.value ->> 1 END,
    next_run = r.value ->> 2,
    current_interval_ms = r.value ->> 3,
    retries_left = r.value ->> 4,
    owner = NULL
FROM json_each(:rows) AS r
WHERE task.id = r.value ->> 0
  AND task.owner = :owner
  AND task.attempt = r.value ->> 5
  AND task.status = 'next_run_scheduled'
  AND task.next_run = r.value ->> 6
  AND task.current_interval_ms IS r.value ->> 7
  AND task.retries_left = r.value ->> 8
RETURNING task.id, task.type, task.status

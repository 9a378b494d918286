-- SQLite differs: no FOR UPDATE; its one writer already serializes a rescue and a
-- fenced write.
-- The fence of an owner's final writes, for a whole batch in one statement: of these tasks, those
-- still claimed by :owner, each with the open run of its current attempt if it has one (a queued
-- claim's run is not written until its worker begins it; the caller compares the attempt with its
-- lease's). Run columns carry a run_ prefix. Served by the task primary key
-- and task_run_open_by_task_attempt.
SELECT t.*,
       r.id         AS run_id,
       r.backend_id AS run_backend_id,
       r.scheduled  AS run_scheduled,
       r.started    AS run_started,
       r.ended      AS run_ended,
       r.metadata   AS run_metadata,
       r.status     AS run_status
FROM task t
LEFT JOIN task_run r ON r.task = t.id AND r.attempt = t.attempt AND r.status IN ('scheduled', 'started')
WHERE t.id IN (<ids>)
  AND t.owner = :owner
  AND t.status = 'next_run_scheduled'
ORDER BY t.id

-- PostgreSQL differs: the pass's starts as arrays in one statement (one round trip; a batch
-- executes a statement per row, which cost PostgreSQL more than the writes), and the task rows
-- read FOR SHARE (see below).
-- The runs of queued claims, written when their worker has begun them and they are still
-- executing at the runner's next pass (times in epoch milliseconds, as stored). Fenced like the
-- owner's final writes: a run is not written if its lease was lost or given back meanwhile, or if
-- a run of the attempt exists (a rescue wrote it lost).
--
-- FOR SHARE: the task rows stay as read until this commits. Without it a disable (or rescue) that
-- commits between this read and its own commit would not see the new run, which would then stay
-- 'started' for ever; with it the disable waits, then finds the run and ends it, or it went first
-- and this read finds the task no longer leased and writes nothing. Rows are locked in id order.
INSERT INTO task_run (task, backend_id, scheduled, started, metadata, status, owner, attempt)
SELECT t.id, u.backend_id,
       timestamptz 'epoch' + u.scheduled_ms * interval '1 millisecond',
       timestamptz 'epoch' + u.started_ms * interval '1 millisecond',
       u.metadata::jsonb, 'started', t.owner, t.attempt
-- The runner's name and the leased status come with the batch (u), and owner is compared with IS
-- NOT DISTINCT FROM, for the reasons taskUpdateAfterRunAsClaimed.sql gives: every task of the batch
-- is found by its primary key, whatever the statistics say.
FROM (SELECT u.*, CAST(:owner AS text) AS owner, 'next_run_scheduled' AS leased
      FROM unnest(:tasks::bigint[], :backend_ids::text[], :scheduled_ms::bigint[], :started_ms::bigint[],
                  :metadata::text[], :attempts::int[])
           AS u (task, backend_id, scheduled_ms, started_ms, metadata, attempt)
      OFFSET 0) AS u
JOIN task t ON t.id = u.task
WHERE t.owner IS NOT DISTINCT FROM u.owner
  AND t.attempt = u.attempt
  AND t.status = u.leased
ORDER BY t.id
FOR SHARE OF t
ON CONFLICT (backend_id) DO NOTHING

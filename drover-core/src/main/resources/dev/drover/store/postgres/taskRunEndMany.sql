-- PostgreSQL differs: the pass's runs as arrays in one statement (one round trip);
-- SQLite ends a run per execution.
-- The ends of a pass's runs in one statement, the rows as parallel arrays (times in epoch
-- milliseconds, as stored): a run never written (a queued claim that finished before the next
-- pass) is written whole, else its open row is ended, keeping its start unless one is given.
INSERT INTO task_run AS r (task, backend_id, scheduled, started, ended, metadata, status, owner, attempt)
SELECT u.task, u.backend_id,
       timestamptz 'epoch' + u.scheduled_ms * interval '1 millisecond',
       timestamptz 'epoch' + u.started_ms * interval '1 millisecond',
       :ended, u.metadata::jsonb, u.status, :owner, u.attempt
FROM unnest(:tasks::bigint[], :backend_ids::text[], :scheduled_ms::bigint[], :started_ms::bigint[],
            :metadata::text[], :statuses::text[], :attempts::int[])
     AS u (task, backend_id, scheduled_ms, started_ms, metadata, status, attempt)
ON CONFLICT (backend_id) DO UPDATE
SET started = COALESCE(excluded.started, r.started),
    ended = excluded.ended,
    status = excluded.status,
    metadata = excluded.metadata
WHERE r.status IN ('scheduled', 'started')

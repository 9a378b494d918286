-- PostgreSQL only: SQLite's upsert (taskRunEndMany) costs it no more than an insert.
-- The ends of runs never written (queued claims that finished before the runner's next pass),
-- inserted whole, the rows as parallel arrays (times in epoch milliseconds, as stored). A plain
-- insert: ON CONFLICT makes PostgreSQL insert each row speculatively, search the unique index
-- before and confirm the row after, which cost a quarter of the statement's time and a WAL record
-- per run. The caller runs it under a savepoint: a run whose start was written by a commit the
-- runner never heard back from is then refused by the unique backend_id, and the caller rolls
-- back to the savepoint and writes these ends with taskRunEndMany instead.
INSERT INTO task_run (task, backend_id, scheduled, started, ended, metadata, status, owner, attempt)
SELECT u.task, u.backend_id,
       timestamptz 'epoch' + u.scheduled_ms * interval '1 millisecond',
       timestamptz 'epoch' + u.started_ms * interval '1 millisecond',
       :ended, u.metadata::jsonb, u.status, :owner, u.attempt
FROM unnest(:tasks::bigint[], :backend_ids::text[], :scheduled_ms::bigint[], :started_ms::bigint[],
            :metadata::text[], :statuses::text[], :attempts::int[])
     AS u (task, backend_id, scheduled_ms, started_ms, metadata, status, attempt)

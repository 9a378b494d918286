-- SQLite differs: one run per execution in a JDBC batch; PostgreSQL takes the pass's
-- runs as arrays in one statement.
-- The end of a run, one JDBC batch per runner pass: written whole if the run was never written (a
-- queued claim that finished before the next pass), else its open row is ended, keeping its start
-- unless :started gives one.
INSERT INTO task_run (task, backend_id, scheduled, started, ended, metadata, status, owner, attempt)
VALUES (:task, :backend_id, :scheduled, :started, :ended, :metadata, :status, :owner, :attempt)
ON CONFLICT (backend_id) DO UPDATE
SET started = COALESCE(excluded.started, task_run.started),
    ended = excluded.ended,
    status = excluded.status,
    metadata = excluded.metadata
WHERE task_run.status IN ('scheduled', 'started')

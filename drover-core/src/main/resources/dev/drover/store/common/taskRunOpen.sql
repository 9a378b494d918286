-- The run of a claim; its backend id is the task id and attempt, unique by construction.
INSERT INTO task_run (task, backend_id, scheduled, started, metadata, status, owner, attempt)
VALUES (:task, :backend_id, :now, :now, :metadata, 'started', :owner, :attempt)
RETURNING *

INSERT INTO task_run (task, backend_id, scheduled, metadata, status)
VALUES (:task, :backend_id, :scheduled, :metadata, 'scheduled')
RETURNING *

-- SQLite differs: the task is not locked; its writers take turns, and its foreign key stays.
-- A run scheduled for a task; no row, and so no run, if the task does not exist.
INSERT INTO task_run (task, backend_id, scheduled, metadata, status)
SELECT id, :backend_id, :scheduled, :metadata, 'scheduled'
FROM task
WHERE id = :task
RETURNING *

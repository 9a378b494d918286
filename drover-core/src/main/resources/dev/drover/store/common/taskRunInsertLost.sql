-- A rescued claim whose run was never written (it was queued, not begun): its attempt was charged,
-- so its run is recorded, lost, with no start, under the owner that held it.
INSERT INTO task_run (task, backend_id, scheduled, ended, metadata, status, owner, attempt)
SELECT id, id || '.' || :attempt, :now, :now, :metadata, 'lost', owner, :attempt
FROM task
WHERE id = :task
ON CONFLICT (backend_id) DO NOTHING
RETURNING *

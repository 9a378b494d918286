-- PostgreSQL differs: the task is read FOR KEY SHARE.
-- A run scheduled for a task; no row, and so no run, if the task does not exist. The lock holds
-- the task until this commits, as a foreign key's check did (V019): a deletion of the task waits,
-- then finds the run and deletes it too.
INSERT INTO task_run (task, backend_id, scheduled, metadata, status)
SELECT t.id, :backend_id, :scheduled, :metadata, 'scheduled'
FROM task t
WHERE t.id = :task
FOR KEY SHARE OF t
RETURNING *

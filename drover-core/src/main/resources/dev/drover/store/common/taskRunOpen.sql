-- The runs of one claim, one per claimed task and all in one statement: started now, each with
-- the task's attempt, its backend id the task id and attempt (unique by construction). A runner's
-- queued claims write no run here: see taskRunInsertStarted and taskRunEndMany.
INSERT INTO task_run (task, backend_id, scheduled, started, metadata, status, owner, attempt)
SELECT id, id || '.' || attempt, :now, :now, :metadata, 'started', owner, attempt
FROM task
WHERE id IN (<ids>)
RETURNING *

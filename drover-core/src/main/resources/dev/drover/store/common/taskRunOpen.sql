-- The runs of one claim, one per claimed task and all in one statement, each with the task's
-- attempt and its backend id the task id and attempt (unique by construction). Opened 'started'
-- at :now when the claimer starts the work at once, or 'scheduled' with no start yet when a runner
-- queues it (it writes the start later: taskRunMarkStarted, or with the run's end).
INSERT INTO task_run (task, backend_id, scheduled, started, metadata, status, owner, attempt)
SELECT id, id || '.' || attempt, :now, :started, :metadata, :status, owner, attempt
FROM task
WHERE id IN (<ids>)
RETURNING *

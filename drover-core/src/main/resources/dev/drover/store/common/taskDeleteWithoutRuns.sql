-- Only tasks that no longer have any run are deleted; the others keep their history.
DELETE FROM task
WHERE id IN (<ids>)
  AND NOT EXISTS (SELECT 1 FROM task_run WHERE task_run.task = task.id)

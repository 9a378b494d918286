-- Every run of some tasks, with its task's type: what a delete removes, run directories included.
SELECT r.id, r.backend_id, t.type
FROM task_run r
JOIN task t ON t.id = r.task
WHERE r.task IN (<ids>)
ORDER BY r.id

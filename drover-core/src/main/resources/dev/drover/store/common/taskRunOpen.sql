-- The runs not ended yet, with their task's type and owner: what each runner works on now.
SELECT r.*, t.type AS task_type
FROM task_run r
JOIN task t ON t.id = r.task
WHERE r.status IN ('scheduled', 'started')
ORDER BY r.owner, r.id
LIMIT :limit

-- Of some tasks, the children that are final (done or disabled), before a retry reopens them.
SELECT id, parent, status
FROM task
WHERE id IN (<ids>)
  AND parent IS NOT NULL
  AND status IN ('completed', 'disabled')

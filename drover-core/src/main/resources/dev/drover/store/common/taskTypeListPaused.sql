-- The paused task types, by name.
SELECT name FROM task_type WHERE paused ORDER BY name

SELECT * FROM task_type ORDER BY name

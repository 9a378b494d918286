SELECT * FROM worker_group ORDER BY name

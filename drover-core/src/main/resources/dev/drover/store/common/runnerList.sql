SELECT * FROM runner ORDER BY started, name

SELECT * FROM task WHERE id IN (<ids>) ORDER BY id

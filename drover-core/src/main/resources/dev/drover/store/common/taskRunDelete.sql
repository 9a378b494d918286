DELETE FROM task_run WHERE id IN (<ids>)

-- Deletes every run of some tasks; served by task_run_by_task.
DELETE FROM task_run WHERE task IN (<ids>)

SELECT * FROM task_run WHERE backend_id = :backend_id

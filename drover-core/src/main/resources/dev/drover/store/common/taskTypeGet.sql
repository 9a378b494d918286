SELECT * FROM task_type WHERE name = :name

-- A page of a parent's children in id order, served by task_children_by_parent.
SELECT * FROM task WHERE parent = :parent AND id > :after ORDER BY id LIMIT :limit

-- The id of a parent's newest child (0 if none): one probe of task_children_by_parent.
SELECT COALESCE(max(id), 0) AS id FROM task WHERE parent = :parent

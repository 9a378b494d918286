-- The children of some tasks, to walk a tree down one level at a time; served by
-- task_children_by_parent.
SELECT id FROM task WHERE parent IN (<ids>) ORDER BY id

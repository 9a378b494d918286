-- Where tasks stand in their trees: primary-key probes.
SELECT id, parent, COALESCE(root, id) AS root, children_pending, children_total, children_failed,
       disabled_by
FROM task
WHERE id IN (<ids>)
ORDER BY id

-- The tasks of one tree per status: its root, then everything below it, one probe of
-- task_count_by_root_status (root, status) per status present.
SELECT status, count(*) AS n
FROM task
WHERE id = :root OR root = :root
GROUP BY status

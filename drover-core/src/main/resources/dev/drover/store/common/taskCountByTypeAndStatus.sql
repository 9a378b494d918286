-- Tasks per type and status, from task_count (kept by triggers on task; see migration V011): the
-- sum of a few rows per count, never a count of the tasks themselves.
SELECT type, status, sum(n) AS n
FROM task_count
GROUP BY type, status
HAVING sum(n) <> 0
ORDER BY type, status

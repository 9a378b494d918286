-- PostgreSQL differs: task_count gains a row per statement that moved a count (see migration V011);
-- fold them into one row per (type, status). Rows appended meanwhile by transactions this one does
-- not see are left for the next fold, and readers see the rows before or after, never a mix.
WITH folded AS (
  DELETE FROM task_count
  RETURNING type, status, n
)
INSERT INTO task_count (type, status, n)
SELECT type, status, sum(n)
FROM folded
GROUP BY type, status
HAVING sum(n) <> 0

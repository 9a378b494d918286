SELECT type, status, count(*) AS n
FROM task
GROUP BY type, status
ORDER BY type, status

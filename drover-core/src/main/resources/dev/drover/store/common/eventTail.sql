-- The newest :limit events, oldest first.
SELECT *
FROM (SELECT * FROM event ORDER BY id DESC LIMIT :limit) newest
ORDER BY id

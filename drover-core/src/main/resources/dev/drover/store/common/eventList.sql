-- Events after :after_id, oldest first: a follower passes the last id it saw.
SELECT *
FROM event
WHERE id > :after_id
ORDER BY id
LIMIT :limit

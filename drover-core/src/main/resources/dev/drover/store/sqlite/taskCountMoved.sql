-- SQLite differs: one upsert per pair, the pairs as one JSON array; PostgreSQL appends them, as it
-- does every count, for the leader to fold.
-- Adds the status counts of a claim or of a statement that takes a leased task's owner away,
-- which the row trigger leaves to the store (V025, V027); the store adds them up per type and
-- status from what the statement returned, and writes them in its transaction. :moves is
-- [[type, status, n], ...]. A pair's row exists unless its status is new for the type. (WHERE
-- true tells SQLite's parser that ON CONFLICT belongs to the insert, not to the join.)
INSERT INTO task_count (type, status, n)
SELECT m.value ->> 0, m.value ->> 1, m.value ->> 2
FROM json_each(:moves) AS m
WHERE true
ON CONFLICT (type, status) DO UPDATE SET n = n + excluded.n

-- PostgreSQL differs: it appends the pairs, as it does every count, for the leader to fold
-- (taskCountCompact); SQLite upserts them.
-- Adds the status counts of a claim or a batch completion, which the row trigger leaves to the
-- statements that count an attempt or take an owner away (V026); the store adds them up per type
-- and status from the rows the statement returned, and writes them in its transaction.
INSERT INTO task_count (type, status, n)
SELECT type, status, n
FROM unnest(:types::text[], :statuses::text[], :ns::bigint[]) AS moved (type, status, n)

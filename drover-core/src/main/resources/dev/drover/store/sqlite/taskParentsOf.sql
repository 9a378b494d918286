-- SQLite differs: the ids come as one JSON array text read with json_each; PostgreSQL binds an
-- array. One parameter keeps the text the same for any count, so it is parsed and prepared once
-- (a list expanded in place made a new text, parsed and prepared anew, for each count of ends).
-- Of the tasks just written, the children, with their status as written: a run-end hook counts
-- the final ones against their parents. A primary-key probe per id.
SELECT id, parent, status
FROM task
WHERE id IN (SELECT value FROM json_each(:ids))
  AND parent IS NOT NULL

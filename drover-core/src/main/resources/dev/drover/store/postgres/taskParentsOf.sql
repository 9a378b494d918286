-- PostgreSQL differs: the ids come as one bigint[] parameter (= ANY); SQLite reads a JSON array.
-- One parameter keeps the text the same for any count, so it is parsed and planned once.
-- Of the tasks just written, the children, with their status as written: a run-end hook counts
-- the final ones against their parents. A primary-key probe per id.
SELECT id, parent, status FROM task WHERE id = ANY(:ids) AND parent IS NOT NULL

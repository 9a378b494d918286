-- Of the tasks just written, the children, with their status as written: a run-end hook counts
-- the final ones against their parents. A primary-key probe per id.
SELECT id, parent, status FROM task WHERE id IN (<ids>) AND parent IS NOT NULL

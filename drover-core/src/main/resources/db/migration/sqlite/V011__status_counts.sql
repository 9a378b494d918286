-- Counts of tasks per type and status, kept by the database as tasks change, so that a status
-- page answers from a few rows instead of counting millions. SQLite has one writer at a time, so
-- each count is one row updated in place by row triggers (a status change costs two small
-- upserts). The same query reads both databases' counts: the sum of the rows per (type, status).
CREATE TABLE task_count (
  type   TEXT    NOT NULL,
  status TEXT    NOT NULL,
  n      INTEGER NOT NULL,
  PRIMARY KEY (type, status)
) WITHOUT ROWID;

INSERT INTO task_count (type, status, n)
SELECT type, status, count(*) FROM task GROUP BY type, status;

CREATE TRIGGER task_count_insert AFTER INSERT ON task
BEGIN
  INSERT INTO task_count (type, status, n) VALUES (new.type, new.status, 1)
  ON CONFLICT (type, status) DO UPDATE SET n = n + 1;
END;

CREATE TRIGGER task_count_update AFTER UPDATE OF type, status ON task
WHEN old.status IS NOT new.status OR old.type IS NOT new.type
BEGIN
  UPDATE task_count SET n = n - 1 WHERE type = old.type AND status = old.status;
  INSERT INTO task_count (type, status, n) VALUES (new.type, new.status, 1)
  ON CONFLICT (type, status) DO UPDATE SET n = n + 1;
END;

CREATE TRIGGER task_count_delete AFTER DELETE ON task
BEGIN
  UPDATE task_count SET n = n - 1 WHERE type = old.type AND status = old.status;
END;

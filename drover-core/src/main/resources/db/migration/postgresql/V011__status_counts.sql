-- Counts of tasks per type and status, kept by the database as tasks change, so that a status
-- page answers from a few rows instead of counting millions (PostgreSQL counts by visiting every
-- row, index or not). Each statement that inserts, updates or deletes tasks appends one row per
-- (type, status) whose count it moved, with the change as n; nothing is ever updated in place, so
-- concurrent runners never wait on each other's counter rows. A count is the sum of its rows; the
-- leader folds the rows into one per (type, status) every few seconds (taskCountCompact).
CREATE TABLE task_count (
  type   text   NOT NULL,
  status text   NOT NULL,
  n      bigint NOT NULL
);

INSERT INTO task_count (type, status, n)
SELECT type, status, count(*) FROM task GROUP BY type, status;

-- Statement-level triggers see every row a statement changed at once (transition tables), so a
-- claim of 100 tasks appends two rows, not two hundred. An update that moves no status (a
-- heartbeat, a lease renewal) appends nothing.
CREATE FUNCTION task_count_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO task_count (type, status, n)
  SELECT type, status, count(*) FROM inserted GROUP BY type, status;
  RETURN NULL;
END
$$;

CREATE FUNCTION task_count_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO task_count (type, status, n)
  SELECT type, status, sum(change)
  FROM (SELECT type, status, -1 AS change FROM before_update
        UNION ALL
        SELECT type, status, 1 FROM after_update) AS moved
  GROUP BY type, status
  HAVING sum(change) <> 0;
  RETURN NULL;
END
$$;

CREATE FUNCTION task_count_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO task_count (type, status, n)
  SELECT type, status, -count(*) FROM deleted GROUP BY type, status;
  RETURN NULL;
END
$$;

CREATE FUNCTION task_count_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM task_count;
  RETURN NULL;
END
$$;

CREATE TRIGGER task_count_insert AFTER INSERT ON task
  REFERENCING NEW TABLE AS inserted
  FOR EACH STATEMENT EXECUTE FUNCTION task_count_inserted();
CREATE TRIGGER task_count_update AFTER UPDATE ON task
  REFERENCING OLD TABLE AS before_update NEW TABLE AS after_update
  FOR EACH STATEMENT EXECUTE FUNCTION task_count_updated();
CREATE TRIGGER task_count_delete AFTER DELETE ON task
  REFERENCING OLD TABLE AS deleted
  FOR EACH STATEMENT EXECUTE FUNCTION task_count_deleted();
CREATE TRIGGER task_count_truncate AFTER TRUNCATE ON task
  FOR EACH STATEMENT EXECUTE FUNCTION task_count_truncated();

-- A task type's version, moved by the database on every change to its row, so that a process may
-- keep the types it has read and create a task in one statement that checks the version instead of
-- reading the type again (taskInsertUnlessDuplicate, taskInsertClaimed): a create whose type
-- changed since it was read writes nothing, and the creator reads the type again and retries. On
-- PostgreSQL that spares a single create a round trip, a third of its time.
ALTER TABLE task_type ADD COLUMN version bigint NOT NULL DEFAULT 1;

CREATE FUNCTION task_type_next_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.version := OLD.version + 1;
  RETURN NEW;
END
$$;

-- Every update, whatever it sets: an update that changes nothing is not made (taskTypeUpsert).
CREATE TRIGGER task_type_version BEFORE UPDATE ON task_type
FOR EACH ROW EXECUTE FUNCTION task_type_next_version();

-- A task type's version, moved by the database on every change to its row, so that a process may
-- keep the types it has read and create a task in one statement that checks the version instead of
-- reading the type again (taskInsertUnlessDuplicate, taskInsertClaimed): a create whose type
-- changed since it was read writes nothing, and the creator reads the type again and retries.
ALTER TABLE task_type ADD COLUMN version INTEGER NOT NULL DEFAULT 1;

-- Every update that does not set the version itself (the trigger's own update does, and triggers
-- do not fire recursively by default): an update that changes nothing is not made (taskTypeUpsert).
CREATE TRIGGER task_type_version AFTER UPDATE ON task_type
WHEN new.version = old.version
BEGIN
  UPDATE task_type SET version = old.version + 1 WHERE name = old.name;
END;

-- Claims and leases. A claimed task is next_run_scheduled with an owner, and its next_run is the
-- end of the lease; attempt counts claims and fences every write of the owner.
ALTER TABLE task ADD COLUMN owner TEXT;
ALTER TABLE task ADD COLUMN attempt INTEGER NOT NULL DEFAULT 0;
ALTER TABLE task_run ADD COLUMN owner TEXT;
ALTER TABLE task_run ADD COLUMN attempt INTEGER;

-- Serves the rescuer: leased tasks, by the end of their lease.
CREATE INDEX task_leased_by_next_run ON task (next_run) WHERE owner IS NOT NULL;
-- Serves fenced completion: the open run of a task's attempt.
CREATE INDEX task_run_by_task_attempt ON task_run (task, attempt);

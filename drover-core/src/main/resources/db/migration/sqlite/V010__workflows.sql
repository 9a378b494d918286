-- Workflows and operator control. A task may have a parent (the task whose run spawned it) and a
-- root (the top of its tree; NULL for a task that is its own root). A parent whose run spawned
-- children waits ('waiting_for_children') with a counter of children not yet final, decremented
-- in the transaction that makes a child final, so sealing never scans siblings. An operator may
-- pause tasks ('paused') and task types; 'disabled_by' tells an operator's disable from a task
-- that failed for good; a run stopped by an operator ends 'cancelled'.
--
-- SQLite cannot change a CHECK in place, so task and task_run are rebuilt (foreign keys are not
-- enforced on Drover's connections, so the drop leaves task_run's reference to be renamed onto
-- the new table). The AUTOINCREMENT sequence is carried over so that ids are never reused.
CREATE TABLE task_new (
  id                  INTEGER PRIMARY KEY AUTOINCREMENT,
  type                TEXT NOT NULL REFERENCES task_type (name),
  arguments           TEXT NOT NULL,
  arguments_hash      TEXT NOT NULL,
  next_run            INTEGER NOT NULL,
  current_interval_ms INTEGER,
  status              TEXT NOT NULL DEFAULT 'next_run_not_scheduled'
    CHECK (status IN ('next_run_not_scheduled', 'next_run_scheduled', 'completed', 'disabled',
                      'waiting_for_children', 'paused')),
  policy              TEXT NOT NULL DEFAULT 'recurring' CHECK (policy IN ('recurring', 'oneshot')),
  retries_left        INTEGER NOT NULL DEFAULT 0,
  priority            TEXT CHECK (priority IN ('high', 'normal', 'low')),
  owner               TEXT,
  attempt             INTEGER NOT NULL DEFAULT 0,
  concurrency_key     TEXT,
  parent              INTEGER,
  root                INTEGER,
  children_pending    INTEGER NOT NULL DEFAULT 0 CHECK (children_pending >= 0),
  children_total      INTEGER NOT NULL DEFAULT 0,
  children_failed     INTEGER NOT NULL DEFAULT 0,
  disabled_by         TEXT CHECK (disabled_by IN ('operator')),
  -- An operator paused the task while it ran: the children its run spawns are created paused.
  paused_while_running INTEGER NOT NULL DEFAULT 0 CHECK (paused_while_running IN (0, 1)),
  CHECK (policy <> 'recurring' OR current_interval_ms IS NOT NULL)
);
INSERT INTO task_new (id, type, arguments, arguments_hash, next_run, current_interval_ms, status,
                      policy, retries_left, priority, owner, attempt, concurrency_key)
SELECT id, type, arguments, arguments_hash, next_run, current_interval_ms, status, policy,
       retries_left, priority, owner, attempt, concurrency_key
FROM task;
UPDATE sqlite_sequence SET seq = (SELECT seq FROM sqlite_sequence WHERE name = 'task')
WHERE name = 'task_new' AND EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'task');
DROP TABLE task;
ALTER TABLE task_new RENAME TO task;

CREATE INDEX task_ready_by_type ON task (type, next_run) WHERE status = 'next_run_not_scheduled';
CREATE INDEX task_duplicate_lookup ON task (type, arguments_hash);
CREATE INDEX task_leased_by_next_run ON task (next_run) WHERE owner IS NOT NULL;
CREATE INDEX task_leased_by_type_and_key ON task (type, concurrency_key) WHERE owner IS NOT NULL;
CREATE INDEX task_claim_by_type_priority ON task (type, COALESCE(priority, 'none'), next_run)
  WHERE status = 'next_run_not_scheduled';
-- Serve the tree counts (one probe per root and status), the walk from a parent to its children,
-- and the count of tasks an operator disabled. All three are partial, so a task outside any tree
-- and never disabled by an operator (the hot path's tasks) adds no entry to them; an index on
-- (type, status) was tried for the per-type counts and dropped: every claim and completion moves
-- status, so it cost an index write per update while PostgreSQL still counted by a scan.
CREATE INDEX task_disabled_by_operator ON task (type) WHERE disabled_by IS NOT NULL;
CREATE INDEX task_count_by_root_status ON task (root, status) WHERE root IS NOT NULL;
CREATE INDEX task_children_by_parent ON task (parent, id) WHERE parent IS NOT NULL;

CREATE TABLE task_run_new (
  id         INTEGER PRIMARY KEY AUTOINCREMENT,
  task       INTEGER NOT NULL REFERENCES task (id),
  backend_id TEXT NOT NULL,
  scheduled  INTEGER,
  started    INTEGER,
  ended      INTEGER,
  metadata   TEXT NOT NULL DEFAULT '{}',
  status     TEXT NOT NULL DEFAULT 'scheduled'
    CHECK (status IN ('scheduled', 'started', 'eventful', 'uneventful', 'failed', 'permfailed',
                      'lost', 'cancelled')),
  owner      TEXT,
  attempt    INTEGER
);
INSERT INTO task_run_new (id, task, backend_id, scheduled, started, ended, metadata, status, owner,
                          attempt)
SELECT id, task, backend_id, scheduled, started, ended, metadata, status, owner, attempt
FROM task_run;
UPDATE sqlite_sequence SET seq = (SELECT seq FROM sqlite_sequence WHERE name = 'task_run')
WHERE name = 'task_run_new' AND EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'task_run');
DROP TABLE task_run;
ALTER TABLE task_run_new RENAME TO task_run;
CREATE UNIQUE INDEX task_run_by_backend_id ON task_run (backend_id);
CREATE INDEX task_run_by_task ON task_run (task, id);
CREATE INDEX task_run_by_task_attempt ON task_run (task, attempt);

-- How a parent's outcome follows from its children's, and whether the type is paused (its tasks
-- are not claimed; running work finishes).
ALTER TABLE task_type ADD COLUMN children_rule TEXT NOT NULL DEFAULT 'all_succeeded'
  CHECK (children_rule IN ('all_succeeded', 'any_succeeded', 'ignore'));
ALTER TABLE task_type ADD COLUMN paused INTEGER NOT NULL DEFAULT 0 CHECK (paused IN (0, 1));

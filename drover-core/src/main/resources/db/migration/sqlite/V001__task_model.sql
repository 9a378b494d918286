-- The task model on SQLite. Times are INTEGER milliseconds since the epoch (UTC); durations are
-- INTEGER milliseconds; JSON is canonical TEXT written by Drover (keys sorted).

CREATE TABLE task_type (
  name                TEXT PRIMARY KEY,
  description         TEXT NOT NULL DEFAULT '',
  default_interval_ms INTEGER,
  min_interval_ms     INTEGER,
  max_interval_ms     INTEGER,
  backoff_factor      REAL NOT NULL DEFAULT 1 CHECK (backoff_factor >= 1),
  max_queue_length    INTEGER NOT NULL DEFAULT 1000 CHECK (max_queue_length > 0),
  num_retries         INTEGER NOT NULL DEFAULT 0 CHECK (num_retries >= 0),
  retry_delay_ms      INTEGER,
  lease_ms            INTEGER NOT NULL DEFAULT 60000,
  timeout_ms          INTEGER,
  max_workers         INTEGER NOT NULL DEFAULT 4 CHECK (max_workers > 0),
  worker_group        TEXT,
  command             TEXT,
  working_dir         TEXT,
  env                 TEXT NOT NULL DEFAULT '{}'
);

CREATE TABLE worker_group (
  name        TEXT PRIMARY KEY,
  max_workers INTEGER NOT NULL CHECK (max_workers > 0)
);

CREATE TABLE setting (
  name  TEXT PRIMARY KEY,
  value TEXT NOT NULL
);

-- AUTOINCREMENT so that ids of archived and deleted tasks are never handed out again.
CREATE TABLE task (
  id                  INTEGER PRIMARY KEY AUTOINCREMENT,
  type                TEXT NOT NULL REFERENCES task_type (name),
  arguments           TEXT NOT NULL,
  arguments_hash      TEXT NOT NULL,
  next_run            INTEGER NOT NULL,
  current_interval_ms INTEGER,
  status              TEXT NOT NULL DEFAULT 'next_run_not_scheduled'
    CHECK (status IN ('next_run_not_scheduled', 'next_run_scheduled', 'completed', 'disabled')),
  policy              TEXT NOT NULL DEFAULT 'recurring' CHECK (policy IN ('recurring', 'oneshot')),
  retries_left        INTEGER NOT NULL DEFAULT 0,
  priority            TEXT CHECK (priority IN ('high', 'normal', 'low')),
  CHECK (policy <> 'recurring' OR current_interval_ms IS NOT NULL)
);

-- Serves the ready-task grab: only due-able rows are in it, ordered as the grab reads them.
CREATE INDEX task_ready_by_type ON task (type, next_run) WHERE status = 'next_run_not_scheduled';
-- Serves de-duplication on create.
CREATE INDEX task_duplicate_lookup ON task (type, arguments_hash);
-- Serves search by next_run (before/after).
CREATE INDEX task_by_next_run ON task (next_run);

CREATE TABLE task_run (
  id         INTEGER PRIMARY KEY AUTOINCREMENT,
  task       INTEGER NOT NULL REFERENCES task (id),
  backend_id TEXT NOT NULL,
  scheduled  INTEGER,
  started    INTEGER,
  ended      INTEGER,
  metadata   TEXT NOT NULL DEFAULT '{}',
  status     TEXT NOT NULL DEFAULT 'scheduled'
    CHECK (status IN ('scheduled', 'started', 'eventful', 'uneventful', 'failed', 'permfailed', 'lost'))
);

-- Serves start/end by backend id.
CREATE UNIQUE INDEX task_run_by_backend_id ON task_run (backend_id);
-- Serves run listing per task and the archival keyset (task, id).
CREATE INDEX task_run_by_task ON task_run (task, id);

-- The task model on PostgreSQL. Times are timestamptz; durations are bigint milliseconds (the same
-- arithmetic as on SQLite, done in Java); JSON is jsonb. Enumerations are text with CHECKs, as on
-- SQLite, so both dialects bind them the same way.

CREATE TABLE task_type (
  name                text PRIMARY KEY,
  description         text NOT NULL DEFAULT '',
  default_interval_ms bigint,
  min_interval_ms     bigint,
  max_interval_ms     bigint,
  backoff_factor      double precision NOT NULL DEFAULT 1 CHECK (backoff_factor >= 1),
  max_queue_length    bigint NOT NULL DEFAULT 1000 CHECK (max_queue_length > 0),
  num_retries         integer NOT NULL DEFAULT 0 CHECK (num_retries >= 0),
  retry_delay_ms      bigint,
  lease_ms            bigint NOT NULL DEFAULT 60000,
  timeout_ms          bigint,
  max_workers         integer NOT NULL DEFAULT 4 CHECK (max_workers > 0),
  worker_group        text,
  command             jsonb,
  working_dir         text,
  env                 jsonb NOT NULL DEFAULT '{}'
);

CREATE TABLE worker_group (
  name        text PRIMARY KEY,
  max_workers integer NOT NULL CHECK (max_workers > 0)
);

CREATE TABLE setting (
  name  text PRIMARY KEY,
  value text NOT NULL
);

CREATE TABLE task (
  id                  bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  type                text NOT NULL REFERENCES task_type (name),
  arguments           jsonb NOT NULL,
  arguments_hash      text NOT NULL,
  next_run            timestamptz NOT NULL,
  current_interval_ms bigint,
  status              text NOT NULL DEFAULT 'next_run_not_scheduled'
    CHECK (status IN ('next_run_not_scheduled', 'next_run_scheduled', 'completed', 'disabled')),
  policy              text NOT NULL DEFAULT 'recurring' CHECK (policy IN ('recurring', 'oneshot')),
  retries_left        integer NOT NULL DEFAULT 0,
  priority            text CHECK (priority IN ('high', 'normal', 'low')),
  CHECK (policy <> 'recurring' OR current_interval_ms IS NOT NULL)
);

-- Serves the ready-task grab: only due-able rows are in it, ordered as the grab reads them.
CREATE INDEX task_ready_by_type ON task (type, next_run) WHERE status = 'next_run_not_scheduled';
-- Serves de-duplication on create.
CREATE INDEX task_duplicate_lookup ON task (type, arguments_hash);
-- Serves search by next_run (before/after).
CREATE INDEX task_by_next_run ON task (next_run);

CREATE TABLE task_run (
  id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  task       bigint NOT NULL REFERENCES task (id),
  backend_id text NOT NULL,
  scheduled  timestamptz,
  started    timestamptz,
  ended      timestamptz,
  metadata   jsonb NOT NULL DEFAULT '{}',
  status     text NOT NULL DEFAULT 'scheduled'
    CHECK (status IN ('scheduled', 'started', 'eventful', 'uneventful', 'failed', 'permfailed', 'lost'))
);

-- Serves start/end by backend id.
CREATE UNIQUE INDEX task_run_by_backend_id ON task_run (backend_id);
-- Serves run listing per task and the archival keyset (task, id).
CREATE INDEX task_run_by_task ON task_run (task, id);

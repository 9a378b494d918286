-- The crawl frontier: listers, the origins they list, per-origin visit stats, the global visit
-- queue position per visit type, and cached metrics. Times are INTEGER epoch milliseconds, JSON is
-- canonical TEXT, booleans are INTEGER 0/1, uuids are lower-case TEXT (which sorts as PostgreSQL
-- sorts uuid), enumerations are TEXT with CHECKs.
--
-- listed_origin mirrors the columns of origin_visit_stats that visit selection filters and orders
-- on; see the PostgreSQL migration for why.

CREATE TABLE lister (
  id                        TEXT PRIMARY KEY,
  name                      TEXT NOT NULL,
  instance_name             TEXT NOT NULL DEFAULT '',
  created                   INTEGER NOT NULL,
  current_state             TEXT NOT NULL DEFAULT '{}',
  -- The optimistic-lock version: every update must name the value it read, and moves it forward.
  updated                   INTEGER NOT NULL,
  last_listing_finished_at  INTEGER,
  first_visits_queue_prefix TEXT,
  first_visits_scheduled_at INTEGER,
  CONSTRAINT lister_by_name UNIQUE (name, instance_name)
);

CREATE TABLE listed_origin (
  lister_id                 TEXT NOT NULL REFERENCES lister (id),
  url                       TEXT NOT NULL,
  visit_type                TEXT NOT NULL,
  extra_loader_arguments    TEXT NOT NULL DEFAULT '{}',
  enabled                   INTEGER NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)),
  first_seen                INTEGER NOT NULL,
  last_seen                 INTEGER NOT NULL,
  last_update               INTEGER,
  is_fork                   INTEGER CHECK (is_fork IN (0, 1)),
  forked_from_url           TEXT,
  -- mirror of origin_visit_stats
  last_scheduled            INTEGER,
  last_visit                INTEGER,
  last_visit_status         TEXT CHECK (last_visit_status IN ('successful', 'failed', 'not_found')),
  last_successful           INTEGER,
  last_snapshot             TEXT,
  next_visit_queue_position INTEGER,
  PRIMARY KEY (lister_id, url, visit_type)
);

CREATE INDEX listed_origin_by_url ON listed_origin (url, visit_type);

-- One index per grab policy. SQLite indexes cannot say NULLS FIRST/LAST: ascending order puts
-- NULLs first, which is what oldest_scheduled_first and origins_without_last_update want; for
-- stop_after_success (NULLS LAST) SQLite sorts the rows the index finds.
CREATE INDEX listed_origin_grab_oldest_scheduled
  ON listed_origin (visit_type, enabled, last_scheduled);
CREATE INDEX listed_origin_grab_stop_after_success
  ON listed_origin (visit_type, enabled, last_update, first_seen)
  WHERE last_visit_status IS DISTINCT FROM 'successful';
CREATE INDEX listed_origin_grab_never_visited
  ON listed_origin (visit_type, enabled, last_update)
  WHERE last_snapshot IS NULL AND last_update IS NOT NULL;
CREATE INDEX listed_origin_grab_by_lag
  ON listed_origin (visit_type, enabled, (last_update - last_successful) DESC)
  WHERE last_snapshot IS NOT NULL AND last_update > last_successful;
CREATE INDEX listed_origin_grab_without_last_update
  ON listed_origin (visit_type, enabled, next_visit_queue_position, first_seen)
  WHERE last_update IS NULL;
CREATE INDEX listed_origin_grab_first_visits
  ON listed_origin (lister_id, visit_type, enabled, last_scheduled);

CREATE TABLE origin_visit_stats (
  url                       TEXT NOT NULL,
  visit_type                TEXT NOT NULL,
  last_successful           INTEGER,
  last_visit                INTEGER,
  last_visit_status         TEXT CHECK (last_visit_status IN ('successful', 'failed', 'not_found')),
  last_scheduled            INTEGER,
  last_snapshot             TEXT,
  next_visit_queue_position INTEGER,
  next_position_offset      INTEGER NOT NULL DEFAULT 4 CHECK (next_position_offset >= 0),
  successive_visits         INTEGER NOT NULL DEFAULT 1 CHECK (successive_visits >= 0),
  PRIMARY KEY (url, visit_type)
);

CREATE TABLE visit_queue_position (
  visit_type TEXT PRIMARY KEY,
  position   INTEGER NOT NULL
);

CREATE TABLE scheduler_metrics (
  lister_id                    TEXT NOT NULL REFERENCES lister (id),
  visit_type                   TEXT NOT NULL,
  last_update                  INTEGER NOT NULL,
  origins_known                INTEGER NOT NULL DEFAULT 0,
  origins_enabled              INTEGER NOT NULL DEFAULT 0,
  origins_never_visited        INTEGER NOT NULL DEFAULT 0,
  origins_with_pending_changes INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (lister_id, visit_type)
);

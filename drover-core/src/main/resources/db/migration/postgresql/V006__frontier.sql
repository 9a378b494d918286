-- The crawl frontier: listers, the origins they list, per-origin visit stats, the global visit
-- queue position per visit type, and cached metrics. Times are timestamptz, JSON is jsonb,
-- enumerations are text with CHECKs (as in V001).
--
-- listed_origin mirrors the columns of origin_visit_stats that visit selection filters and orders
-- on (last_scheduled ... next_visit_queue_position). origin_visit_stats stays the source of truth
-- (it is keyed by url and visit type, across listers, and may hold origins no lister listed); the
-- store rewrites the mirror in the same transaction as every stats write. With the mirror, every
-- grab policy is one index walk on one table that stops after :count rows, where a join would
-- have to read and sort every candidate (the lag order, last_update - last_successful, spans both
-- tables and could not be indexed at all).

CREATE TABLE lister (
  id                        uuid PRIMARY KEY,
  name                      text NOT NULL,
  instance_name             text NOT NULL DEFAULT '',
  created                   timestamptz NOT NULL,
  current_state             jsonb NOT NULL DEFAULT '{}',
  -- The optimistic-lock version: every update must name the value it read, and moves it forward.
  updated                   timestamptz NOT NULL,
  last_listing_finished_at  timestamptz,
  first_visits_queue_prefix text,
  first_visits_scheduled_at timestamptz,
  CONSTRAINT lister_by_name UNIQUE (name, instance_name)
);

CREATE TABLE listed_origin (
  lister_id                 uuid NOT NULL REFERENCES lister (id),
  url                       text NOT NULL,
  visit_type                text NOT NULL,
  extra_loader_arguments    jsonb NOT NULL DEFAULT '{}',
  enabled                   boolean NOT NULL DEFAULT true,
  first_seen                timestamptz NOT NULL,
  last_seen                 timestamptz NOT NULL,
  last_update               timestamptz,
  is_fork                   boolean,
  forked_from_url           text,
  -- mirror of origin_visit_stats (see above)
  last_scheduled            timestamptz,
  last_visit                timestamptz,
  last_visit_status         text CHECK (last_visit_status IN ('successful', 'failed', 'not_found')),
  last_successful           timestamptz,
  last_snapshot             text,
  next_visit_queue_position bigint,
  -- Serves the origin listing's keyset pages and the per-lister metrics.
  PRIMARY KEY (lister_id, url, visit_type)
)
-- Room on each page for a new version of its rows: a listing that changes no indexed column (it
-- moves last_seen, usually nothing else) then rewrites a row in place, without index entries (HOT).
WITH (fillfactor = 90);

-- Serves lookups by url (origin listing filter, mirror refresh, disabling after failures).
CREATE INDEX listed_origin_by_url ON listed_origin (url, visit_type);

-- One index per grab policy, each ordered as its policy orders (see VisitPolicySql).
CREATE INDEX listed_origin_grab_oldest_scheduled
  ON listed_origin (visit_type, enabled, last_scheduled ASC NULLS FIRST);
CREATE INDEX listed_origin_grab_stop_after_success
  ON listed_origin (visit_type, enabled, last_update ASC NULLS LAST, first_seen)
  WHERE last_visit_status IS DISTINCT FROM 'successful';
CREATE INDEX listed_origin_grab_never_visited
  ON listed_origin (visit_type, enabled, last_update)
  WHERE last_snapshot IS NULL AND last_update IS NOT NULL;
CREATE INDEX listed_origin_grab_by_lag
  ON listed_origin (visit_type, enabled, (last_update - last_successful) DESC)
  WHERE last_snapshot IS NOT NULL AND last_update > last_successful;
CREATE INDEX listed_origin_grab_without_last_update
  ON listed_origin (visit_type, enabled, next_visit_queue_position ASC NULLS FIRST, first_seen)
  WHERE last_update IS NULL;
CREATE INDEX listed_origin_grab_first_visits
  ON listed_origin (lister_id, visit_type, enabled, last_scheduled ASC NULLS FIRST);

-- No foreign key to listed_origin: results may arrive for origins no lister (still) lists.
CREATE TABLE origin_visit_stats (
  url                       text NOT NULL,
  visit_type                text NOT NULL,
  last_successful           timestamptz,
  last_visit                timestamptz,
  last_visit_status         text CHECK (last_visit_status IN ('successful', 'failed', 'not_found')),
  last_scheduled            timestamptz,
  last_snapshot             text,
  next_visit_queue_position bigint,
  next_position_offset      integer NOT NULL DEFAULT 4 CHECK (next_position_offset >= 0),
  successive_visits         integer NOT NULL DEFAULT 1 CHECK (successive_visits >= 0),
  PRIMARY KEY (url, visit_type)
)
-- Every grab and visit result rewrites rows here, none of them changing the key: with room on the
-- page the new version stays there and the primary key is not touched (HOT).
WITH (fillfactor = 80);

-- The virtual clock of the visit queue, in seconds, per visit type; it never goes back.
CREATE TABLE visit_queue_position (
  visit_type text PRIMARY KEY,
  position   bigint NOT NULL
);

CREATE TABLE scheduler_metrics (
  lister_id                    uuid NOT NULL REFERENCES lister (id),
  visit_type                   text NOT NULL,
  last_update                  timestamptz NOT NULL,
  origins_known                bigint NOT NULL DEFAULT 0,
  origins_enabled              bigint NOT NULL DEFAULT 0,
  origins_never_visited        bigint NOT NULL DEFAULT 0,
  origins_with_pending_changes bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (lister_id, visit_type)
);

-- first_visits_after_listing's index leads with the same columns as every other grab index, the
-- lister after them, as on PostgreSQL (see its V012: there the lister-first shape lost to
-- oldest_scheduled_first's index on a large frontier). SQLite chose this index either way; the
-- two schemas keep one shape. It still serves the lister filter of every other policy.
DROP INDEX listed_origin_grab_first_visits;
CREATE INDEX listed_origin_grab_first_visits
  ON listed_origin (visit_type, enabled, lister_id, last_scheduled);

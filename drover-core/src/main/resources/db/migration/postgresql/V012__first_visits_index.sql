-- first_visits_after_listing's index leads with the same columns as every other grab index, the
-- lister after them. With the lister first, PostgreSQL on a 1,000,000-origin frontier of one
-- visit type preferred oldest_scheduled_first's index (visit_type, enabled, last_scheduled) and
-- filtered the lister's rows out of all of them: the planner judges an index walk's cost by its
-- leading column's order on disk, one visit type is in perfect order, and a lister's rows are
-- spread over the table. It read 108,517 rows to return 1,000 (69 ms); with the lister among
-- the index's equality columns this index is cheaper on every count. It still serves the lister
-- filter of every other policy (visit type, enabled and lister are all equalities there).
DROP INDEX listed_origin_grab_first_visits;
CREATE INDEX listed_origin_grab_first_visits
  ON listed_origin (visit_type, enabled, lister_id, last_scheduled ASC NULLS FIRST);

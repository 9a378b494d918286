-- PostgreSQL differs: the planner's row estimate (pg_class.reltuples, kept by ANALYZE and
-- autovacuum) costs nothing; -1 means never analyzed, and the caller then counts (capped).
-- About how many listed origins there are, to decide whether a visit policy's sample can help.
SELECT reltuples::bigint FROM pg_class WHERE oid = to_regclass('listed_origin')

-- PostgreSQL only: SQLite keeps a listed url's stats in origin_visit_stats, and has one writer.
-- Locks every listed row of a stats batch's urls (where a listed url's stats are, V028) in key
-- order, and returns each locked row's id with the position in the batch (from 1) of its url's
-- stats. Stats writers run together (VisitTypeLocks), and two that write the same keys then wait for
-- each other in one order instead of deadlocking: an UPDATE's own order is its plan's. The write
-- (visitStatsUpsert.sql, visitStatsReplace.sql) is the next statement, so its snapshot sees every
-- locked row at the id returned here, also a row another writer changed while this one waited; in
-- the same statement it would not, and an update by row id would skip that row.
SELECT lo.ctid::text AS row_id, g.position
FROM unnest(:urls::text[], :visit_types::text[]) WITH ORDINALITY AS g (url, visit_type, position)
JOIN listed_origin AS lo ON lo.url = g.url AND lo.visit_type = g.visit_type
ORDER BY g.url, g.visit_type, lo.lister_id
FOR NO KEY UPDATE OF lo

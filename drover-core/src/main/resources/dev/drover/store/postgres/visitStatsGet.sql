-- PostgreSQL differs: DISTINCT ON where SQLite has GROUP BY.
-- The stats of :visit_type's <urls>: from a listed row that has them for a listed url (every
-- lister's row of a url holds the same), from origin_visit_stats for the others; a key's stats are
-- in one place only. Served by listed_origin_by_url and origin_visit_stats' primary key.
SELECT DISTINCT ON (url) url, visit_type, last_successful, last_visit, last_visit_status, last_scheduled,
       last_snapshot, next_visit_queue_position, next_position_offset, successive_visits
FROM listed_origin
WHERE visit_type = :visit_type
  AND url IN (<urls>)
  AND next_position_offset IS NOT NULL
UNION ALL
SELECT url, visit_type, last_successful, last_visit, last_visit_status, last_scheduled, last_snapshot,
       next_visit_queue_position, next_position_offset, successive_visits
FROM origin_visit_stats
WHERE visit_type = :visit_type
  AND url IN (<urls>)

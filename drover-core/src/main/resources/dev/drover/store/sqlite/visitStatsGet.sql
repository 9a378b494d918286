-- SQLite differs: each url's stats are its row of origin_visit_stats, mirrored into its listed rows.
-- Served by the primary key (url, visit_type).
SELECT *
FROM origin_visit_stats
WHERE visit_type = :visit_type
  AND url IN (<urls>)

-- Served by the primary key (url, visit_type).
SELECT *
FROM origin_visit_stats
WHERE visit_type = :visit_type
  AND url IN (<urls>)

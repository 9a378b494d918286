-- Served by the primary key (lister_id, url, visit_type).
SELECT *
FROM listed_origin
WHERE lister_id = :lister_id
  AND visit_type = :visit_type
  AND url IN (<urls>)

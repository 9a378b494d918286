-- Disables an origin (url, visit type) under every lister after repeated failed visits; a later
-- listing enables it again. Served by listed_origin_by_url.
UPDATE listed_origin
SET enabled = false
WHERE url = :url
  AND visit_type = :visit_type
  AND enabled

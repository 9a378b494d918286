-- The mirror's side of visitStatsMarkScheduled: the same "latest scheduling wins" rule, on every
-- listed_origin row of the origin. Served by listed_origin_by_url.
UPDATE listed_origin
SET last_scheduled = :now
WHERE url = :url
  AND visit_type = :visit_type
  AND (last_scheduled IS NULL OR last_scheduled < :now)

-- SQLite only: PostgreSQL marks the mirror in the same statement as the stats
-- (its visitMarkScheduled.sql).
-- The mirror's side of visitMarkScheduled: the same "latest scheduling wins" rule, on every
-- listed_origin row of the urls, whichever lister listed them. Served by listed_origin_by_url.
UPDATE listed_origin
SET last_scheduled = :now
WHERE visit_type = :visit_type
  AND url IN (<urls>)
  AND (last_scheduled IS NULL OR last_scheduled < :now)

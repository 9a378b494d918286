-- SQLite only: PostgreSQL marks the mirror in the same statement as the stats
-- (its visitMarkScheduled.sql).
-- The mirror's side of visitMarkScheduled: the same "latest scheduling wins" rule, on every
-- listed_origin row of the urls, whichever lister listed them. Served by listed_origin_by_url.
UPDATE listed_origin
SET last_scheduled = :now,
    -- Handed out: out of every grab index until its visit reports back (see V016).
    awaiting_visit_since = CASE WHEN last_visit IS NULL OR last_visit <= :now THEN :now END
WHERE visit_type = :visit_type
  AND url IN (<urls>)
  AND (last_scheduled IS NULL OR last_scheduled < :now)

-- SQLite differs: the stats only, per chunk of urls; originMirrorScheduled.sql marks the
-- mirror (PostgreSQL does both in one statement).
-- A grab hands origins out at :now: last_scheduled becomes the later of the stored value and :now,
-- and an origin without stats gets them (with the default offset and successive visits). One
-- statement per chunk of urls of one visit type; DISTINCT because several listers may list a url.
-- Served by listed_origin_by_url and origin_visit_stats' primary key.
INSERT INTO origin_visit_stats (url, visit_type, last_scheduled)
SELECT DISTINCT url, visit_type, :now
FROM listed_origin
WHERE visit_type = :visit_type
  AND url IN (<urls>)
ON CONFLICT (url, visit_type) DO UPDATE
SET last_scheduled = excluded.last_scheduled
WHERE origin_visit_stats.last_scheduled IS NULL
   OR origin_visit_stats.last_scheduled < excluded.last_scheduled

-- A grab hands the origin out at :now: last_scheduled becomes the later of the stored value and
-- :now, and an origin without stats gets them (with the default offset and successive visits).
INSERT INTO origin_visit_stats (url, visit_type, last_scheduled)
VALUES (:url, :visit_type, :now)
ON CONFLICT (url, visit_type) DO UPDATE
SET last_scheduled = excluded.last_scheduled
WHERE origin_visit_stats.last_scheduled IS NULL
   OR origin_visit_stats.last_scheduled < excluded.last_scheduled

-- PostgreSQL differs: stats and mirror in one statement, the urls as one array.
-- A grab hands origins out at :now, in one statement for all of them (the urls as one array; a
-- round trip each for chunks of them cost more than the writes): last_scheduled becomes the later
-- of the stored value and :now, in the stats (an origin without stats gets them, with the default
-- offset and successive visits) and in the mirror of every listed_origin row of the urls,
-- whichever lister listed them, which also leave the grab indexes until their visit reports back
-- (V016). The urls are distinct and come from listed_origin. Served by
-- origin_visit_stats' primary key and listed_origin_by_url. SQLite runs its visitMarkScheduled.sql
-- and originMirrorScheduled.sql per chunk of urls instead.
WITH stats AS (
  INSERT INTO origin_visit_stats AS s (url, visit_type, last_scheduled)
  SELECT u.url, :visit_type, :now
  FROM unnest(:urls::text[]) AS u (url)
  ON CONFLICT (url, visit_type) DO UPDATE
  SET last_scheduled = excluded.last_scheduled
  WHERE s.last_scheduled IS NULL
     OR s.last_scheduled < excluded.last_scheduled
)
UPDATE listed_origin
SET last_scheduled = :now,
    -- Handed out: out of every grab index until its visit reports back (see V016).
    awaiting_visit_since = CASE WHEN last_visit IS NULL OR last_visit <= :now THEN :now END
WHERE visit_type = :visit_type
  AND url = ANY (:urls::text[])
  AND (last_scheduled IS NULL OR last_scheduled < :now)

-- PostgreSQL differs: one statement, the urls as one array.
-- A grab hands origins out at :now, in one statement for all of them (the urls as one array; a
-- round trip each for chunks of them cost more than the writes): last_scheduled becomes the later
-- of the stored value and :now in every listed_origin row of the urls, whichever lister listed
-- them, where a listed origin's stats are (V028; one without stats gets them, with the default
-- offset and successive visits), and they leave the grab indexes until their visit reports back
-- (V016). The urls are distinct and come from listed_origin, so none has a row in
-- origin_visit_stats. Served by listed_origin_by_url. SQLite runs its visitMarkScheduled.sql per
-- chunk of urls instead.
UPDATE listed_origin
SET last_scheduled = :now,
    -- Handed out: out of every grab index until its visit reports back (see V016).
    awaiting_visit_since = CASE WHEN last_visit IS NULL OR last_visit <= :now THEN :now END,
    next_position_offset = COALESCE(next_position_offset, 4),
    successive_visits = COALESCE(successive_visits, 1)
WHERE visit_type = :visit_type
  AND url = ANY (:urls::text[])
  AND (last_scheduled IS NULL OR last_scheduled < :now)

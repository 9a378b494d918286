-- A listed origin's visit stats live in its listed_origin rows alone (PostgreSQL only).
--
-- Until now every url's stats were a row of origin_visit_stats, mirrored into each listed_origin
-- row of the url (V006), so a stats write and a grab's mark each changed two rows per origin, in
-- two heaps, with an entry in each of their indexes. On the bench's 1M frontier (docs/benchmarks.md,
-- 2026-11-30) the stats row was a quarter of a stats write's time and a third of a mark's, and at
-- 10M a quarter of the whole pages a grab logs after each checkpoint.
--
-- The rules from this version on:
-- - The stats of a (url, visit type) that some lister lists are the columns of its listed_origin
--   rows, equal in every lister's row; origin_visit_stats holds the stats of urls no lister lists.
--   A key's stats are so in exactly one place.
-- - next_position_offset and successive_visits move into listed_origin with them. A listed row
--   has stats when its next_position_offset is not NULL (a stats row always has one).
-- - A recording that lists a url for the first time moves its stats row into the new rows, and
--   deletes it; a new row of a url another lister lists copies that lister's row.
-- - A stats write updates the listed rows of its urls and writes a stats row only for the urls no
--   lister lists; a grab's mark updates the listed rows only.
-- Recordings and stats writers never run together (VisitTypeLocks), so no write finds a key in
-- the middle of its move. SQLite keeps the stats row and its mirror (its V028 changes nothing).
ALTER TABLE listed_origin
  ADD COLUMN next_position_offset integer CHECK (next_position_offset >= 0),
  ADD COLUMN successive_visits integer CHECK (successive_visits >= 0);

-- The stats row is the truth until now: every stats column is copied, not only the two new ones.
UPDATE listed_origin AS lo
SET last_scheduled = s.last_scheduled,
    last_visit = s.last_visit,
    last_visit_status = s.last_visit_status,
    last_successful = s.last_successful,
    last_snapshot = s.last_snapshot,
    next_visit_queue_position = s.next_visit_queue_position,
    next_position_offset = s.next_position_offset,
    successive_visits = s.successive_visits
FROM origin_visit_stats AS s
WHERE s.url = lo.url
  AND s.visit_type = lo.visit_type;

DELETE FROM origin_visit_stats AS s
USING listed_origin AS lo
WHERE lo.url = s.url
  AND lo.visit_type = s.visit_type;

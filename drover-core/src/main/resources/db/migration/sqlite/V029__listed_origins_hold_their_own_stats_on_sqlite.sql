-- A listed origin's visit stats live in its listed_origin rows alone, on SQLite too: the rules of
-- PostgreSQL's V028, which says why and what each write does from then on.
--
-- Until now SQLite kept every url's stats in origin_visit_stats and a mirror of them in each
-- listed_origin row of the url (V006), so a grab's mark and a stats write each changed the stats
-- row and then the mirror. On the bench's 1M frontier (docs/benchmarks.md, 2026-11-30) the stats
-- row was about a quarter of the slowest grab's time.
ALTER TABLE listed_origin ADD COLUMN next_position_offset INTEGER CHECK (next_position_offset >= 0);
ALTER TABLE listed_origin ADD COLUMN successive_visits INTEGER CHECK (successive_visits >= 0);

-- The stats row is the truth until now: every stats column is copied, not only the two new ones.
UPDATE listed_origin
SET last_scheduled = s.last_scheduled,
    last_visit = s.last_visit,
    last_visit_status = s.last_visit_status,
    last_successful = s.last_successful,
    last_snapshot = s.last_snapshot,
    next_visit_queue_position = s.next_visit_queue_position,
    next_position_offset = s.next_position_offset,
    successive_visits = s.successive_visits
FROM origin_visit_stats AS s
WHERE s.url = listed_origin.url
  AND s.visit_type = listed_origin.visit_type;

DELETE FROM origin_visit_stats
WHERE EXISTS (SELECT 1
              FROM listed_origin AS lo
              WHERE lo.url = origin_visit_stats.url
                AND lo.visit_type = origin_visit_stats.visit_type);

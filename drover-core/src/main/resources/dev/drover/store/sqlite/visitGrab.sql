-- SQLite differs: no TABLESAMPLE (a row sample instead) and no advisory lock (one writer).
-- Chooses origins for grab next visits; see the PostgreSQL file. SQLite has one writer and the
-- grab runs in an IMMEDIATE transaction, so grabs take turns. SQLite has no TABLESAMPLE: the
-- sample (<sample>) keeps each row with the requested probability instead of whole pages.
SELECT *
FROM listed_origin
WHERE visit_type = :visit_type
  AND enabled = :enabled
  <filters>
  <sample>
ORDER BY <order>
LIMIT :count

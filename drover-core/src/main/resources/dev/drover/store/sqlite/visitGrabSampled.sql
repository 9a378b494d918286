-- SQLite differs: no TABLESAMPLE (a row sample instead) and no advisory lock (one writer).
-- Chooses origins for grab next visits from a sample of the rows; see the PostgreSQL file. SQLite
-- has no TABLESAMPLE: the sample (<sample>) keeps each row with the requested probability
-- instead of whole pages. The grab runs in an IMMEDIATE transaction, so grabs take turns.
SELECT *
FROM listed_origin
WHERE visit_type = :visit_type
  AND enabled = :enabled
  <filters>
  <sample>
ORDER BY <order>
LIMIT :count

-- SQLite differs: no advisory lock (one writer).
-- Chooses origins for grab next visits; see the PostgreSQL file. SQLite has one writer and the
-- grab runs in an IMMEDIATE transaction, so grabs take turns. SQLite takes a partial index only
-- when the query repeats each term of its predicate, as awaiting_visit_since IS NULL and cooling_since IS NULL are here.
SELECT *
FROM listed_origin
WHERE visit_type = :visit_type
  AND enabled = :enabled
  AND awaiting_visit_since IS NULL
  AND cooling_since IS NULL
  <filters>
ORDER BY <order>
LIMIT :count

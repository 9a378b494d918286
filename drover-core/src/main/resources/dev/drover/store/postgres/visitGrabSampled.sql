-- PostgreSQL differs: TABLESAMPLE SYSTEM for the sample; an advisory lock orders grabs.
-- Chooses origins for grab next visits from a sample of listed_origin's pages: VisitGrabSql fills
-- in the policy's filter and order and the cooldown and lister filters (<filters>). A sample reads
-- pages, not an index, so the origins awaiting a visit are among its rows, and the cooldown
-- filters decide for them as for any other.
SELECT *
FROM listed_origin TABLESAMPLE SYSTEM (:sample_percent)
WHERE visit_type = :visit_type
  AND enabled = :enabled
  <filters>
ORDER BY <order>
LIMIT :count

-- PostgreSQL differs: TABLESAMPLE SYSTEM for the sample; an advisory lock orders grabs.
-- Chooses origins for grab next visits. VisitGrabSql fills in the policy's filter and order, the
-- cooldown and lister filters (<filters>) and the page sample (<sample>: TABLESAMPLE SYSTEM).
-- No row locks: grabs of one visit type take turns on an advisory lock (VisitTypeLocks). Each
-- policy's order is served by its own index on listed_origin (see V006__frontier.sql).
SELECT *
FROM listed_origin <sample>
WHERE visit_type = :visit_type
  AND enabled = :enabled
  <filters>
ORDER BY <order>
LIMIT :count

-- Chooses origins for grab next visits. VisitGrabSql fills in the policy's filter and order, the
-- cooldown and lister filters (<filters>), the page sample (<sample>: TABLESAMPLE SYSTEM) and,
-- unless a dry run, the lock (<lock>): SKIP LOCKED lets concurrent grabbers take disjoint rows,
-- and a row another grabber has just scheduled is re-checked against the cooldowns once locked.
-- Each policy's order is served by its own index on listed_origin (see V006__frontier.sql).
SELECT *
FROM listed_origin <sample>
WHERE visit_type = :visit_type
  AND enabled = :enabled
  <filters>
ORDER BY <order>
LIMIT :count
<lock>

-- PostgreSQL differs: an advisory lock orders grabs.
-- Chooses origins for grab next visits. VisitGrabSql fills in the policy's filter and order and
-- the cooldown and lister filters (<filters>). No row locks: grabs of one visit type take turns on
-- an advisory lock (VisitTypeLocks). Each policy's order is served by its own index on
-- listed_origin, which holds only the origins not awaiting a visit (V016) and not cooling after a
-- failed or not-found visit (V018): the grab has already put back the ones whose cooldowns have
-- ended (visitReturnAwaiting.sql, visitReturnCooled.sql), and the others are in cooldown for this
-- request.
SELECT *
FROM listed_origin
WHERE visit_type = :visit_type
  AND enabled = :enabled
  AND awaiting_visit_since IS NULL
  AND cooling_since IS NULL
  <filters>
ORDER BY <order>
LIMIT :count

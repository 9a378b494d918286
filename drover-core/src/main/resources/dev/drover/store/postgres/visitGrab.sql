-- PostgreSQL differs: an advisory lock orders grabs, no row locks.
-- Chooses origins for grab next visits. VisitGrabSql fills in the policy's filter and order and
-- the cooldown and lister filters (<filters>). No row locks: grabs of one visit type take turns on
-- an advisory lock (VisitTypeLocks).
--
-- Two sides, each at most :count rows in the policy's order, merged (see
-- V016__grab_indexes_skip_origins_awaiting_a_visit.sql):
-- 1. the origins not awaiting a visit, through the policy's own index, which holds only those:
--    one index walk in order that stops after :count rows;
-- 2. the origins awaiting a visit (handed out, no result since) whose cooldowns have ended
--    (<awaiting_bounds>: last_scheduled before the absolute and scheduled cooldowns' thresholds),
--    through listed_origin_awaiting_visit and sorted; usually none (visits that never reported
--    back), every one of them when the request has neither cooldown.
-- The same <filters> apply to both, so the two sides hold what one query over all rows would
-- choose. At the same place in the order, an origin not awaiting a visit comes first.
SELECT *
FROM (
  (SELECT *, false AS awaiting_visit
   FROM listed_origin
   WHERE visit_type = :visit_type
     AND enabled = :enabled
     AND (last_scheduled IS NULL OR last_scheduled < last_visit)
     <filters>
   ORDER BY <order>
   LIMIT :count)
  UNION ALL
  (SELECT *, true AS awaiting_visit
   FROM listed_origin
   WHERE visit_type = :visit_type
     AND enabled = :enabled
     AND last_scheduled IS NOT NULL AND (last_visit IS NULL OR last_scheduled >= last_visit)
     <awaiting_bounds>
     <filters>
   ORDER BY <order>
   LIMIT :count)
) AS chosen
ORDER BY <order>, awaiting_visit
LIMIT :count

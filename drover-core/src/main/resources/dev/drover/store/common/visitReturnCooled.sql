-- Before a grab chooses, it puts back the origins cooling after a visit of status :status whose
-- cooldown for that status has ended for its request (<bound>: the visit ended before the
-- cooldown's threshold; every such origin of the visit type when the request has that cooldown
-- off), so that the policy's index holds them again and the grab takes them in the policy's order
-- (see V018). Putting one back is always safe: the grab's filters still apply to it. Served by
-- listed_origin_cooling.
UPDATE listed_origin
SET cooling_since = NULL
WHERE visit_type = :visit_type
  AND last_visit_status = :status
  AND cooling_since IS NOT NULL
  <bound>

-- Before a grab chooses, it puts back the origins awaiting a visit whose time cooldowns have ended
-- for its request (<bounds>: handed out before the absolute and the scheduled cooldown's
-- thresholds; every awaiting origin of the visit type when the request has neither), so that the
-- policy's index holds them again and the grab takes them in the policy's order (see V016).
-- Usually none: these are visits that never reported back. Putting one back is always safe: the
-- grab's filters still apply to it. Served by listed_origin_awaiting_visit.
UPDATE listed_origin
SET awaiting_visit_since = NULL
WHERE visit_type = :visit_type
  AND awaiting_visit_since IS NOT NULL
  <bounds>

-- SQLite differs: no advisory lock (one writer); each side is a subquery of its own, since an
-- ORDER BY or LIMIT on a side of a UNION ALL would apply to the whole compound.
-- Chooses origins for grab next visits, from the two sides of V016: the origins not awaiting a
-- visit through the policy's own index, and the ones awaiting a visit whose cooldowns have ended
-- through listed_origin_awaiting_visit; see the PostgreSQL file. The grab runs in an IMMEDIATE
-- transaction, so grabs take turns.
SELECT *
FROM (
  SELECT *
  FROM (SELECT *, 0 AS awaiting_visit
        FROM listed_origin
        WHERE visit_type = :visit_type
          AND enabled = :enabled
          AND (last_scheduled IS NULL OR last_scheduled < last_visit)
          <filters>
        ORDER BY <order>
        LIMIT :count)
  UNION ALL
  SELECT *
  FROM (SELECT *, 1 AS awaiting_visit
        FROM listed_origin
        WHERE visit_type = :visit_type
          AND enabled = :enabled
          AND last_scheduled IS NOT NULL AND (last_visit IS NULL OR last_scheduled >= last_visit)
          <awaiting_bounds>
          <filters>
        ORDER BY <order>
        LIMIT :count)
)
ORDER BY <order>, awaiting_visit
LIMIT :count

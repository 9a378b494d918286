-- Counts one lister's origins per visit type and stores the counts. Never visited = no snapshot;
-- pending changes = the forge reports an update after the last successful visit (read from the
-- listed rows, which hold a listed origin's stats, so no join). Served by the primary key
-- (lister_id, ...).
INSERT INTO scheduler_metrics (lister_id, visit_type, last_update, origins_known, origins_enabled,
                               origins_never_visited, origins_with_pending_changes)
SELECT lister_id,
       visit_type,
       :now,
       count(*),
       count(*) FILTER (WHERE enabled),
       count(*) FILTER (WHERE enabled AND last_snapshot IS NULL),
       count(*) FILTER (WHERE enabled AND last_update > last_successful)
FROM listed_origin
WHERE lister_id = :lister_id
GROUP BY lister_id, visit_type
-- A fixed order, so two concurrent updates of one lister's metrics lock its rows alike.
ORDER BY visit_type
ON CONFLICT (lister_id, visit_type) DO UPDATE
SET last_update = excluded.last_update,
    origins_known = excluded.origins_known,
    origins_enabled = excluded.origins_enabled,
    origins_never_visited = excluded.origins_never_visited,
    origins_with_pending_changes = excluded.origins_with_pending_changes

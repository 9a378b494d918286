-- Optimistic update: only if the row still has the version (updated) the caller read.
UPDATE lister
SET current_state = :current_state,
    last_listing_finished_at = :last_listing_finished_at,
    first_visits_queue_prefix = :first_visits_queue_prefix,
    first_visits_scheduled_at = :first_visits_scheduled_at,
    updated = :updated
WHERE id = :id
  AND updated = :expected_updated
RETURNING *

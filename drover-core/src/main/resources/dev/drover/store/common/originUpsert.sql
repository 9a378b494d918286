-- Records one listed origin: first_seen is written once, everything the lister says is
-- overwritten (enabled too, so a listing enables an origin that was disabled), last_seen moves.
INSERT INTO listed_origin (lister_id, url, visit_type, extra_loader_arguments, enabled, first_seen, last_seen,
                           last_update, is_fork, forked_from_url)
VALUES (:lister_id, :url, :visit_type, :extra_loader_arguments, :enabled, :now, :now,
        :last_update, :is_fork, :forked_from_url)
ON CONFLICT (lister_id, url, visit_type) DO UPDATE
SET extra_loader_arguments = excluded.extra_loader_arguments,
    enabled = excluded.enabled,
    last_seen = excluded.last_seen,
    last_update = excluded.last_update,
    is_fork = excluded.is_fork,
    forked_from_url = excluded.forked_from_url

-- The queue position only moves forward.
INSERT INTO visit_queue_position (visit_type, position)
VALUES (:visit_type, :position)
ON CONFLICT (visit_type) DO UPDATE
SET position = excluded.position
WHERE visit_queue_position.position < excluded.position

SELECT position
FROM visit_queue_position
WHERE visit_type = :visit_type

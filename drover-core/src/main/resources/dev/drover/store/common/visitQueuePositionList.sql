SELECT visit_type, position
FROM visit_queue_position

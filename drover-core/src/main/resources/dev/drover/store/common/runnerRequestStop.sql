UPDATE runner SET stop_requested_by = :by, stop_deadline = :deadline WHERE name = :name

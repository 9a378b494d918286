UPDATE runner SET heartbeat = :now WHERE name = :name

DELETE FROM runner WHERE name = :name

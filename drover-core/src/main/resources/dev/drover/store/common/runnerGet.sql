SELECT * FROM runner WHERE name = :name

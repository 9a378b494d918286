-- Served by the lister_by_name unique constraint.
SELECT *
FROM lister
WHERE name = :name
  AND instance_name = :instance_name

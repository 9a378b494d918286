-- The version of a task type's row (V020): a single create whose insert wrote nothing compares it
-- with the version of the type it was prepared with.
SELECT version FROM task_type WHERE name = :name

-- Test fixture: a common query that sqlite/taskGet.sql shadows.
SELECT 1

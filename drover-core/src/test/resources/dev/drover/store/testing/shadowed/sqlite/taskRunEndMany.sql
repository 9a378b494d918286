-- Test fixture: the dialect file common/taskRunEndMany.sql shadows.
SELECT 2

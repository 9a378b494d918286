-- Test fixture: shadows common/taskGet.sql, which SqlFiles must refuse.
SELECT 2
